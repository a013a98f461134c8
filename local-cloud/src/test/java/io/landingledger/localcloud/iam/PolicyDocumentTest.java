package io.landingledger.localcloud.iam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PolicyDocumentTest {
    @Test
    void parsesEveryElement() {
        PolicyDocument policy = PolicyDocument.parse("p", """
                {"Version": "2012-10-17", "Id": "x", "Statement": [
                  {"Sid": "A", "Effect": "Allow", "Action": "s3:GetObject",
                   "Resource": ["arn:aws:s3:::b/*", "arn:aws:s3:::c/*"]},
                  {"Effect": "Deny", "Principal": "*", "NotAction": ["s3:Get*"], "NotResource": "arn:aws:s3:::b/x",
                   "Condition": {"Bool": {"aws:SecureTransport": false}, "NumericLessThan": {"s3:max-keys": 10},
                                 "StringEquals": {"aws:SourceAccount": ["1", "2"], "aws:SourceArn": "arn:x"}}},
                  {"Sid": "T", "Effect": "Allow",
                   "Principal": {"Service": "lambda.amazonaws.com", "AWS": ["arn:aws:iam::1:root", "2"]},
                   "Action": "sts:AssumeRole"},
                  {"Effect": "Deny", "NotPrincipal": {"AWS": "*"}, "Action": "*", "Resource": "*"}
                ]}""");
        assertEquals("2012-10-17", policy.version());
        assertEquals(4, policy.statements().size());
        Statement a = policy.statements().get(0);
        assertEquals("A", a.label());
        assertEquals(Effect.ALLOW, a.effect());
        assertEquals(List.of("arn:aws:s3:::b/*", "arn:aws:s3:::c/*"), a.resources());
        assertNull(a.principal());
        Statement b = policy.statements().get(1);
        assertEquals("#1", b.label());
        assertTrue(b.notAction() && b.notResource());
        assertTrue(b.principal().everyone());
        assertEquals(List.of(new ConditionClause("Bool", "aws:SecureTransport", List.of("false")),
                new ConditionClause("NumericLessThan", "s3:max-keys", List.of("10")),
                new ConditionClause("StringEquals", "aws:SourceAccount", List.of("1", "2")),
                new ConditionClause("StringEquals", "aws:SourceArn", List.of("arn:x"))), b.conditions());
        Statement t = policy.statements().get(2);
        assertEquals(Map.of("Service", List.of("lambda.amazonaws.com"), "AWS", List.of("arn:aws:iam::1:root", "2")),
                t.principal().byType());
        assertTrue(t.resources().isEmpty() && !t.notResource());
        assertTrue(policy.statements().get(3).notPrincipal());
        assertFalse(policy.statements().get(3).principal().everyone());
    }

    @Test
    void aSingleStatementObjectIsAStatementList() {
        PolicyDocument policy = PolicyDocument.parse("p",
                "{\"Statement\": {\"Effect\": \"Allow\", \"Action\": \"*\", \"Resource\": \"*\"}}");
        assertEquals(1, policy.statements().size());
        assertNull(policy.version());
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
            "{| is not JSON",
            "[]| the document is not a JSON object",
            "{\"Version\": \"2012-10-17\"}| no Statement",
            "{\"Version\": \"2020-01-01\", \"Statement\": []}| Version must be 2012-10-17",
            "{\"Statement\": []}| Statement is an empty list",
            "{\"Statment\": []}| unknown top-level element Statment",
            "{\"Statement\": [{\"Effect\": \"allow\", \"Action\": \"*\"}]}| statement #0: Effect must be Allow or Deny",
            "{\"Statement\": [{\"Sid\": \"S\", \"Effect\": \"Allow\"}]}| statement S: neither Action nor NotAction",
            "{\"Statement\": [{\"Effect\": \"Allow\", \"Action\": \"*\", \"NotAction\": \"*\"}]}| both Action and "
            + "NotAction",
            "{\"Statement\": [{\"Effect\": \"Allow\", \"Action\": \"GetObject\"}]}| Action GetObject is not "
            + "service:action or *",
            "{\"Statement\": [{\"Effect\": \"Allow\", \"Action\": [], \"Resource\": \"*\"}]}| Action must be a string "
            + "or a non-empty list",
            "{\"Statement\": [{\"Effect\": \"Allow\", \"Action\": [1], \"Resource\": \"*\"}]}| Action holds a "
            + "non-string 1",
            "{\"Statement\": [{\"Effect\": \"Allow\", \"Action\": \"*\", \"Resources\": \"*\"}]}| unknown element "
            + "Resources",
            "{\"Statement\": [{\"Effect\": \"Allow\", \"Action\": \"*\", \"Principal\": \"arn:aws:iam::1:root\"}]}| a "
            + "string principal must be \"*\"",
            "{\"Statement\": [{\"Effect\": \"Allow\", \"Action\": \"*\", \"Principal\": {\"Users\": \"x\"}}]}| unknown "
            + "principal type Users",
            "{\"Statement\": [{\"Effect\": \"Allow\", \"Action\": \"*\", \"Condition\": {\"Bool\": {}}}]}| Condition "
            + "Bool must be a non-empty object",
            "{\"Statement\": [{\"Effect\": \"Allow\", \"Action\": \"*\", \"Condition\": {\"Bool\": {\"k\": {\"x\": "
            + "1}}}}]}| values must be strings, numbers or booleans",
            "{\"Statement\": [{\"Effect\": \"Allow\", \"Action\": \"*\", \"Condition\": {\"Bool\": {\"k\": []}}}]}| "
            + "Condition Bool k has no value",
            "{\"Statement\": [{\"Effect\": \"Allow\", \"Effect\": \"Deny\", \"Action\": \"*\"}]}| is not JSON: "
            + "Duplicate field 'Effect'",
    })
    void malformedDocumentsAreRefusedWithWhereAndWhat(String json, String message) {
        MalformedPolicyException e = assertThrows(MalformedPolicyException.class,
                () -> PolicyDocument.parse("ValidatorRole/validator", json));
        assertTrue(e.getMessage().startsWith("policy ValidatorRole/validator"), e.getMessage());
        assertTrue(e.getMessage().contains(message.strip()), () -> e.getMessage() + " does not say: " + message);
    }
}
