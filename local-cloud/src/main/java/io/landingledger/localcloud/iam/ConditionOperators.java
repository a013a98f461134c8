package io.landingledger.localcloud.iam;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * IAM's condition operators (IAM user guide, "IAM JSON policy elements: Condition operators" and "Set operators for
 * multivalued context keys"), evaluated on one {@link ConditionClause} against the request's context.
 *
 * <ul>
 *   <li>A clause's several values are ORed: it holds when the request's value matches any of them; a negated
 *       operator ({@code StringNotEquals}, {@code StringNotLike}, {@code ArnNotEquals}, {@code ArnNotLike},
 *       {@code NumericNotEquals}, {@code StringNotEqualsIgnoreCase}) holds when it matches none.</li>
 *   <li>A key missing from the request: a positive operator does not hold, a negated one holds ("if the key is not
 *       present in the request context, a negated operator returns true"); with {@code ...IfExists} every operator
 *       holds. {@code Null} tests presence itself ("true": the key is absent).</li>
 *   <li>{@code ForAnyValue:}: holds when at least one of the request's values matches (for a negated operator: at
 *       least one matches none of the policy's values); false on a missing or empty key. {@code ForAllValues:}: holds
 *       when every request value matches (negated: none does); true on a missing or empty key.</li>
 *   <li>Strings compare case-sensitively (but {@code ...IgnoreCase}); {@code StringLike} and the ARN operators take
 *       {@code *} and {@code ?}; ARN operators compare each of the six colon-separated parts on its own ({@code
 *       ArnEquals} and {@code ArnLike} behave alike, as AWS documents); {@code Bool} compares {@code true}/{@code
 *       false} in any case; numbers compare by value.</li>
 * </ul>
 * Not evaluated (the statement then fails closed, with this reason): the Date, IpAddress and Binary operators.
 */
final class ConditionOperators {
    /** The outcome of one clause: it holds or not, or the operator is one this class does not evaluate. */
    record Result(boolean holds, String unsupported) {
        static final Result TRUE = new Result(true, null);
        static final Result FALSE = new Result(false, null);

        static Result of(boolean holds) {
            return holds ? TRUE : FALSE;
        }
    }

    private record Base(BiPredicate<String, String> matches, boolean negated) {
    }

    private static final Map<String, Base> BASES = Map.ofEntries(
            Map.entry("stringequals", new Base(String::equals, false)),
            Map.entry("stringnotequals", new Base(String::equals, true)),
            Map.entry("stringequalsignorecase", new Base(String::equalsIgnoreCase, false)),
            Map.entry("stringnotequalsignorecase", new Base(String::equalsIgnoreCase, true)),
            Map.entry("stringlike", new Base(Wildcard::matches, false)),
            Map.entry("stringnotlike", new Base(Wildcard::matches, true)),
            Map.entry("numericequals", new Base((p, v) -> compare(p, v) == 0, false)),
            Map.entry("numericnotequals", new Base((p, v) -> compare(p, v) == 0, true)),
            Map.entry("numericlessthan", new Base((p, v) -> compare(p, v) == 1, false)),
            Map.entry("numericlessthanequals", new Base((p, v) -> compare(p, v) == 1 || compare(p, v) == 0, false)),
            Map.entry("numericgreaterthan", new Base((p, v) -> compare(p, v) == -1, false)),
            Map.entry("numericgreaterthanequals", new Base((p, v) -> compare(p, v) == -1 || compare(p, v) == 0, false)),
            Map.entry("bool", new Base(ConditionOperators::sameBoolean, false)),
            Map.entry("arnequals", new Base(ConditionOperators::arnMatches, false)),
            Map.entry("arnlike", new Base(ConditionOperators::arnMatches, false)),
            Map.entry("arnnotequals", new Base(ConditionOperators::arnMatches, true)),
            Map.entry("arnnotlike", new Base(ConditionOperators::arnMatches, true)));

    private ConditionOperators() {
    }

    /** Evaluates {@code clause}; {@code context} maps lower-cased condition keys to the request's values. */
    static Result evaluate(ConditionClause clause, Map<String, List<String>> context) {
        String operator = clause.operator();
        String set = null;
        int colon = operator.indexOf(':');
        if (colon >= 0) {
            set = operator.substring(0, colon);
            operator = operator.substring(colon + 1);
            if (!set.equals("ForAnyValue") && !set.equals("ForAllValues")) {
                return new Result(false, "unknown set operator " + set + ": in " + clause.operator());
            }
        }
        boolean ifExists = operator.endsWith("IfExists");
        String base = ifExists ? operator.substring(0, operator.length() - "IfExists".length()) : operator;
        List<String> actual = context.get(clause.key().toLowerCase(Locale.ROOT));
        boolean present = actual != null && !actual.isEmpty();

        if (base.equals("Null")) {
            if (ifExists || set != null) {
                return new Result(false, clause.operator()
                        + " is not an operator (Null takes no IfExists or set prefix)");
            }
            return Result.of(clause.values().stream().anyMatch(v -> v.equalsIgnoreCase("true") ? !present
                    : v.equalsIgnoreCase("false") && present));
        }
        Base comparison = BASES.get(base.toLowerCase(Locale.ROOT));
        if (comparison == null || !base.equals(canonical(base))) {
            return new Result(false, "condition operator " + clause.operator() + " is not evaluated here");
        }
        if (!present) {
            if (ifExists) {
                return Result.TRUE;
            }
            if (set == null) {
                return Result.of(comparison.negated());
            }
            return Result.of(set.equals("ForAllValues"));
        }
        if (set == null || set.equals("ForAnyValue")) {
            return Result.of(actual.stream().anyMatch(v -> matchesClause(comparison, clause.values(), v)));
        }
        return Result.of(actual.stream().allMatch(v -> matchesClause(comparison, clause.values(), v)));
    }

    /**
     * For one request value: a positive operator matches when any policy value matches; a negated one when none does.
     * A plain negated operator over several request values thus holds when some value matches none (AWS documents
     * plain operators on single-valued keys only).
     */
    private static boolean matchesClause(Base base, List<String> policyValues, String value) {
        boolean any = policyValues.stream().anyMatch(p -> base.matches().test(p, value));
        return base.negated() != any;
    }

    /** Operators are case-sensitive in IAM: {@code stringequals} is not an operator. */
    private static String canonical(String base) {
        for (String name : List.of("StringEquals", "StringNotEquals", "StringEqualsIgnoreCase",
                "StringNotEqualsIgnoreCase", "StringLike", "StringNotLike", "NumericEquals", "NumericNotEquals",
                "NumericLessThan", "NumericLessThanEquals", "NumericGreaterThan", "NumericGreaterThanEquals", "Bool",
                "ArnEquals", "ArnLike", "ArnNotEquals",
                "ArnNotLike")) {
            if (name.equalsIgnoreCase(base)) {
                return name;
            }
        }
        return null;
    }

    /** -1, 0 or 1 as the policy's number is below, equal to or above the request's; 2 when either is no number. */
    private static int compare(String policy, String value) {
        try {
            return new BigDecimal(policy.trim()).compareTo(new BigDecimal(value.trim()));
        } catch (NumberFormatException e) {
            return 2;
        }
    }

    private static boolean sameBoolean(String policy, String value) {
        return (policy.equalsIgnoreCase("true") || policy.equalsIgnoreCase("false")) && policy.equalsIgnoreCase(value);
    }

    private static boolean arnMatches(String pattern, String value) {
        String[] p = pattern.split(":", 6);
        String[] v = value.split(":", 6);
        if (p.length != 6 || v.length != 6) {
            return pattern.equals("*") || p.length == v.length && Wildcard.matches(pattern, value);
        }
        for (int i = 0; i < 6; i++) {
            if (!Wildcard.matches(p[i], v[i])) {
                return false;
            }
        }
        return true;
    }
}
