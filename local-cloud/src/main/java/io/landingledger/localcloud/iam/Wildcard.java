package io.landingledger.localcloud.iam;

/**
 * IAM's wildcards in Action, Resource, StringLike and ArnLike: {@code *} any run of characters (slashes and colons
 * included), {@code ?} exactly one. Everything else is literal (no regular expression is built, so '.', '$' and
 * brackets in ARNs and keys mean themselves). The one wildcard matcher of the local cloud and its tests: Lambda
 * permissions' SourceArn and the template tests' statement checks use it too, so they match as the evaluator does.
 */
public final class Wildcard {
    private Wildcard() {
    }

    /** Case-sensitive match: resources, condition values. */
    public static boolean matches(String pattern, String value) {
        return matches(pattern, 0, value, 0, false);
    }

    /** Case-insensitive match: actions ({@code s3:getobject} is {@code s3:GetObject}). */
    public static boolean matchesIgnoreCase(String pattern, String value) {
        return matches(pattern, 0, value, 0, true);
    }

    // Iterative glob with one backtrack point: linear in practice, no recursion depth to exhaust on long keys.
    private static boolean matches(String pattern, int p, String value, int v, boolean ignoreCase) {
        int star = -1;
        int afterStar = 0;
        while (v < value.length()) {
            if (p < pattern.length() && pattern.charAt(p) == '*') {
                star = p++;
                afterStar = v;
            } else if (p < pattern.length()
                    && (pattern.charAt(p) == '?' || same(pattern.charAt(p), value.charAt(v), ignoreCase))) {
                p++;
                v++;
            } else if (star >= 0) {
                p = star + 1;
                v = ++afterStar;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }

    private static boolean same(char a, char b, boolean ignoreCase) {
        return a == b || ignoreCase && Character.toLowerCase(a) == Character.toLowerCase(b);
    }
}
