package io.landingledger.localcloud.deploy;

/** IAM's and Lambda's {@code *} (any run of characters) and {@code ?} (one character) in ARNs. */
final class Wildcards {
    private Wildcards() {
    }

    static boolean matches(String pattern, String value) {
        if (value == null) {
            return false;
        }
        return matches(pattern, 0, value, 0);
    }

    private static boolean matches(String pattern, int p, String value, int v) {
        while (p < pattern.length()) {
            char c = pattern.charAt(p);
            if (c == '*') {
                for (int i = v; i <= value.length(); i++) {
                    if (matches(pattern, p + 1, value, i)) {
                        return true;
                    }
                }
                return false;
            }
            if (v >= value.length() || (c != '?' && c != value.charAt(v))) {
                return false;
            }
            p++;
            v++;
        }
        return v == value.length();
    }
}
