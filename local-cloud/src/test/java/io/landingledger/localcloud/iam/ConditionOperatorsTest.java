package io.landingledger.localcloud.iam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each operator, one row per case: the operator, the policy's values (|-separated), the request's values
 * (|-separated; "-" for a missing key, "" for an empty set), and whether the clause holds.
 */
class ConditionOperatorsTest {
    @ParameterizedTest(name = "{0} {1} on {2}: {3}")
    @CsvSource(delimiter = ';', value = {
            // strings
            "StringEquals; a|b; b; true",
            "StringEquals; a|b; B; false",
            "StringEquals; a; -; false",
            "StringNotEquals; a|b; c; true",
            "StringNotEquals; a|b; a; false",
            "StringNotEquals; a; -; true",
            "StringEqualsIgnoreCase; ABC; abc; true",
            "StringNotEqualsIgnoreCase; ABC; abc; false",
            "StringNotEqualsIgnoreCase; ABC; -; true",
            "StringLike; published/*|_status/*; published/x/y; true",
            "StringLike; published/*; _staging/x; false",
            "StringLike; unit-202?; unit-2026; true",
            "StringLike; a*; -; false",
            "StringNotLike; published/*; _staging/x; true",
            "StringNotLike; published/*; published/x; false",
            "StringNotLike; published/*; -; true",
            // IfExists: a missing key holds; a present one is compared
            "StringEqualsIfExists; a; -; true",
            "StringEqualsIfExists; a; b; false",
            "StringNotEqualsIfExists; a; a; false",
            "StringLikeIfExists; a*; abc; true",
            // booleans
            "Bool; false; false; true",
            "Bool; false; FALSE; true",
            "Bool; false; true; false",
            "Bool; true; -; false",
            "BoolIfExists; true; -; true",
            "Bool; yes; yes; false",
            // Null: presence
            "Null; true; -; true",
            "Null; true; x; false",
            "Null; false; x; true",
            "Null; false; -; false",
            // numbers
            "NumericEquals; 10; 10.0; true",
            "NumericEquals; 10; 11; false",
            "NumericEquals; 10; ten; false",
            "NumericNotEquals; 10; 11; true",
            "NumericNotEquals; 10; -; true",
            "NumericLessThan; 10; 9; true",
            "NumericLessThan; 10; 10; false",
            "NumericLessThanEquals; 10; 10; true",
            "NumericGreaterThan; 10; 11; true",
            "NumericGreaterThan; 10; 10; false",
            "NumericGreaterThanEquals; 10; 10; true",
            "NumericGreaterThanEquals; 10; 9; false",
            "NumericLessThan; 10; -; false",
            // ARNs: each of the six parts on its own, wildcards within a part
            "ArnEquals; arn:aws:scheduler:us-east-1:123456789012:schedule-group/g; "
                    + "arn:aws:scheduler:us-east-1:123456789012:schedule-group/g; true",
            "ArnEquals; arn:aws:scheduler:*:123456789012:schedule-group/*; "
            + "arn:aws:scheduler:eu-west-1:123456789012:schedule-group/x; true",
            "ArnLike; arn:aws:s3:::inbox-*; arn:aws:s3:::inbox-dev; true",
            "ArnLike; arn:aws:s3:::inbox-*; arn:aws:s3:::lake-dev; false",
            "ArnLike; arn:aws:lambda:*:123456789012:function:f; arn:aws:lambda:us-east-1:999999999999:function:f; "
            + "false",
            "ArnLike; arn:aws:s3:::x; not-an-arn; false",
            "ArnNotEquals; arn:aws:s3:::a; arn:aws:s3:::b; true",
            "ArnNotLike; arn:aws:s3:::a*; arn:aws:s3:::abc; false",
            "ArnNotLike; arn:aws:s3:::a*; -; true",
            // set operators
            "ForAnyValue:StringEquals; a|b; x|b; true",
            "ForAnyValue:StringEquals; a|b; x|y; false",
            "ForAnyValue:StringEquals; a; -; false",
            "ForAnyValue:StringEquals; a; ''; false",
            "ForAnyValue:StringNotEquals; a|b; a|x; true",
            "ForAnyValue:StringNotEquals; a|b; a|b; false",
            "ForAllValues:StringEquals; a|b; a|b; true",
            "ForAllValues:StringEquals; a|b; a|x; false",
            "ForAllValues:StringEquals; a; -; true",
            "ForAllValues:StringEquals; a; ''; true",
            "ForAllValues:StringNotEquals; a|b; x|y; true",
            "ForAllValues:StringNotEquals; a|b; x|a; false",
            "ForAllValues:StringLike; tag-*; tag-a|tag-b; true",
            "ForAnyValue:StringEqualsIfExists; a; -; true",
    })
    void operator(String operator, String policyValues, String requestValues, boolean holds) {
        ConditionOperators.Result result = ConditionOperators.evaluate(
                new ConditionClause(operator, "Test:Key", split(policyValues)), context("test:key", requestValues));
        assertNull(result.unsupported(), () -> "unsupported: " + result.unsupported());
        assertEquals(holds, result.holds());
    }

    @Test
    void conditionKeysAreCaseInsensitive() {
        // the policy spells the key one way, the request context another (AuthorizationRequest lower-cases it)
        AuthorizationRequest request = AuthorizationRequest.of("s3:PutObject",
                "arn:aws:s3:::b/k").with("S3:If-None-Match", "*");
        ConditionOperators.Result result = ConditionOperators.evaluate(
                new ConditionClause("Null", "s3:if-none-match", List.of("false")), request.context());
        assertEquals(ConditionOperators.Result.TRUE, result);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"DateGreaterThan", "IpAddress", "BinaryEquals", "stringequals", "StringEqual",
            "ForSomeValues:StringEquals",
            "NullIfExists", "ForAnyValue:Null"})
    void unknownOperatorsAreReportedAndNeverHold(String operator) {
        ConditionOperators.Result result = ConditionOperators.evaluate(
                new ConditionClause(operator, "k", List.of("v")), context("k", "v"));
        assertNotNull(result.unsupported());
        assertFalse(result.holds());
    }

    private static List<String> split(String values) {
        return values.isEmpty() ? List.of() : Arrays.asList(values.split("\\|"));
    }

    private static Map<String, List<String>> context(String key, String values) {
        Map<String, List<String>> context = new LinkedHashMap<>();
        if (!values.equals("-")) {
            context.put(key.toLowerCase(Locale.ROOT), split(values));
        }
        return context;
    }
}
