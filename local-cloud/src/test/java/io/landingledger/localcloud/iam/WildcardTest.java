package io.landingledger.localcloud.iam;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WildcardTest {
    @ParameterizedTest(name = "{0} ~ {1}: {2} (ignoring case: {3})")
    @CsvSource({
            "*, anything, true, true",
            "*, '', true, true",
            "s3:*, s3:GetObject, true, true",
            "s3:Get*, s3:GetObjectVersion, true, true",
            "s3:get*, s3:GetObject, false, true",
            "s3:GetObjec?, s3:GetObject, true, true",
            "s3:GetObjec?, s3:GetObjectVersion, false, false",
            "arn:aws:s3:::lake/published/*, arn:aws:s3:::lake/published/a/b/c, true, true",
            "arn:aws:s3:::lake/published/*, arn:aws:s3:::lake/published, false, false",
            "arn:aws:s3:::lake/*/x, arn:aws:s3:::lake/a/b/x, true, true",
            "arn:aws:s3:::lake.v1/*, arn:aws:s3:::lakeXv1/k, false, false",
            "a*b*c, aXXbYYc, true, true",
            "a*b*c, aXXbYY, false, false",
            "**, x, true, true",
            "a?, a, false, false",
            "[ab], a, false, false",
            "[ab], [ab], true, true",
    })
    void globs(String pattern, String value, boolean caseSensitive, boolean ignoringCase) {
        assertEquals(caseSensitive, Wildcard.matches(pattern, value));
        assertEquals(ignoringCase, Wildcard.matchesIgnoreCase(pattern, value));
    }
}
