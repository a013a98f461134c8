package io.landingledger.localcloud.iam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.landingledger.localcloud.iam.Decision.Outcome;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyEvaluatorTest {
    private static final String ROLE = "arn:aws:iam::123456789012:role/ValidatorRole";
    private static final Caller FUNCTION = Caller.roleSession(ROLE, "fn");
    private static final String OBJECT = "arn:aws:s3:::lake/published/x";
    private final PolicyEvaluator evaluator = new PolicyEvaluator();

    private static PolicyDocument policy(String name, String statements) {
        return PolicyDocument.parse(name, "{\"Version\": \"2012-10-17\", \"Statement\": [" + statements + "]}");
    }

    private Decision decide(AuthorizationRequest request, List<PolicyDocument> identity, PolicyDocument resource) {
        return evaluator.evaluate(FUNCTION, request, identity, resource);
    }

    @Test
    void anAllowInAnIdentityPolicyAllows() {
        PolicyDocument role = policy("validator",
                "{\"Sid\": \"Promote\", \"Effect\": \"Allow\", \"Action\": \"s3:PutObject\", \"Resource\": "
                + "\"arn:aws:s3:::lake/published/*\"}");
        Decision decision = decide(AuthorizationRequest.of("s3:PutObject", OBJECT), List.of(role), null);
        assertEquals(Outcome.ALLOWED, decision.outcome());
        assertEquals("validator", decision.policy());
        assertEquals("Promote", decision.sid());
    }

    @Test
    void nothingAllowsIsAnImplicitDenyInAwssWords() {
        PolicyDocument role = policy("validator",
                "{\"Effect\": \"Allow\", \"Action\": \"s3:PutObject\", \"Resource\": "
                + "\"arn:aws:s3:::lake/published/*\"}");
        Decision decision = decide(AuthorizationRequest.of("s3:DeleteObject", OBJECT), List.of(role), null);
        assertEquals(Outcome.IMPLICIT_DENY, decision.outcome());
        assertEquals("User: arn:aws:sts::123456789012:assumed-role/ValidatorRole/fn is not authorized to perform: "
                + "s3:DeleteObject on resource: "
                + "\"arn:aws:s3:::lake/published/x\" because no identity-based policy allows the s3:DeleteObject "
                + "action", decision.message());
    }

    @Test
    void anExplicitDenyWinsOverAnyAllowWhereverEitherIs() {
        PolicyDocument allowAll = policy("admin", "{\"Effect\": \"Allow\", \"Action\": \"*\", \"Resource\": \"*\"}");
        PolicyDocument denyInIdentity = policy("guard",
                "{\"Sid\": \"NoDeletes\", \"Effect\": \"Deny\", \"Action\": \"s3:Delete*\", \"Resource\": \"*\"}");
        PolicyDocument bucket = policy("LakeBucketPolicy",
                "{\"Sid\": \"Open\", \"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"s3:*\", \"Resource\": "
                + "\"*\"},"
                + "{\"Sid\": \"NoDeleteHere\", \"Effect\": \"Deny\", \"Principal\": {\"AWS\": \"*\"}, \"Action\": "
                + "\"s3:DeleteObject\", \"Resource\": \"arn:aws:s3:::lake/published/*\"}");
        AuthorizationRequest delete = AuthorizationRequest.of("s3:DeleteObject", OBJECT);

        Decision identityDeny = decide(delete, List.of(allowAll, denyInIdentity), bucket);
        assertEquals(Outcome.EXPLICIT_DENY, identityDeny.outcome());
        assertEquals("guard", identityDeny.policy());
        assertEquals("NoDeletes", identityDeny.sid());
        assertTrue(identityDeny.message().endsWith("on resource: \"arn:aws:s3:::lake/published/x\" with an explicit "
                + "deny in an identity-based policy"),
                identityDeny.message());

        Decision resourceDeny = decide(delete, List.of(allowAll), bucket);
        assertEquals(Outcome.EXPLICIT_DENY, resourceDeny.outcome());
        assertEquals("LakeBucketPolicy", resourceDeny.policy());
        assertEquals("NoDeleteHere", resourceDeny.sid());
        assertTrue(resourceDeny.message().endsWith("with an explicit deny in a resource-based policy"),
                resourceDeny.message());
    }

    @Test
    void aResourcePolicyAllowsTheCallerItNames() {
        AuthorizationRequest get = AuthorizationRequest.of("s3:GetObject", OBJECT);
        for (String principal : List.of("\"*\"", "{\"AWS\": \"*\"}", "{\"AWS\": \"" + ROLE + "\"}",
                "{\"AWS\": [\"arn:aws:iam::1:role/Other\", "
                + "\"arn:aws:sts::123456789012:assumed-role/ValidatorRole/fn\"]}")) {
            PolicyDocument bucket = policy("bucket", "{\"Sid\": \"Read\", \"Effect\": \"Allow\", \"Principal\": "
                    + principal
                    + ", \"Action\": \"s3:GetObject\", \"Resource\": \"arn:aws:s3:::lake/*\"}");
            Decision decision = decide(get, List.of(), bucket);
            assertEquals(Outcome.ALLOWED, decision.outcome(), principal);
            assertEquals("Read", decision.sid());
        }
        for (String principal : List.of("{\"AWS\": \"arn:aws:iam::123456789012:role/Other\"}",
                "{\"Service\": \"lambda.amazonaws.com\"}",
                // an account principal delegates to the account's identity policies: it grants nothing alone
                "{\"AWS\": \"123456789012\"}", "{\"AWS\": \"arn:aws:iam::123456789012:root\"}")) {
            PolicyDocument bucket = policy("bucket", "{\"Effect\": \"Allow\", \"Principal\": " + principal
                    + ", \"Action\": \"s3:GetObject\", \"Resource\": \"arn:aws:s3:::lake/*\"}");
            assertEquals(Outcome.IMPLICIT_DENY, decide(get, List.of(), bucket).outcome(), principal);
        }
    }

    @Test
    void anAccountPrincipalStillDenies() {
        PolicyDocument allow = policy("role", "{\"Effect\": \"Allow\", \"Action\": \"s3:*\", \"Resource\": \"*\"}");
        PolicyDocument bucket = policy("bucket",
                "{\"Effect\": \"Deny\", \"Principal\": {\"AWS\": \"123456789012\"}, \"Action\": \"s3:GetObject\", "
                + "\"Resource\": \"*\"}");
        assertEquals(Outcome.EXPLICIT_DENY,
                decide(AuthorizationRequest.of("s3:GetObject", OBJECT), List.of(allow), bucket).outcome());
    }

    @Test
    void notPrincipalNotActionAndNotResourceInvertTheirMatch() {
        PolicyDocument allowAll = policy("role", "{\"Effect\": \"Allow\", \"Action\": \"*\", \"Resource\": \"*\"}");
        PolicyDocument onlyValidatorMayWrite = policy("bucket",
                "{\"Sid\": \"OthersReadOnly\", \"Effect\": \"Deny\", \"NotPrincipal\": {\"AWS\": \"" + ROLE
                + "\"}, \"NotAction\": [\"s3:Get*\", \"s3:List*\"], \"NotResource\": "
                + "\"arn:aws:s3:::lake/_scratch/*\"}");
        Caller other = Caller.roleSession("arn:aws:iam::123456789012:role/path/Other", "s");
        assertEquals(Outcome.ALLOWED,
                decide(AuthorizationRequest.of("s3:PutObject", OBJECT), List.of(allowAll),
                onlyValidatorMayWrite).outcome());
        assertEquals(Outcome.EXPLICIT_DENY,
                evaluator.evaluate(other, AuthorizationRequest.of("s3:PutObject", OBJECT), List.of(allowAll),
                onlyValidatorMayWrite).outcome());
        assertEquals(Outcome.ALLOWED,
                evaluator.evaluate(other, AuthorizationRequest.of("s3:GetObject", OBJECT), List.of(allowAll),
                onlyValidatorMayWrite).outcome());
        assertEquals(Outcome.ALLOWED,
                evaluator.evaluate(other, AuthorizationRequest.of("s3:PutObject", "arn:aws:s3:::lake/_scratch/x"),
                List.of(allowAll), onlyValidatorMayWrite).outcome());
    }

    @Test
    void actionsIgnoreCaseResourcesDoNot() {
        PolicyDocument role = policy("role",
                "{\"Effect\": \"Allow\", \"Action\": \"S3:putobject\", \"Resource\": "
                + "\"arn:aws:s3:::lake/Published/*\"}");
        assertEquals(Outcome.ALLOWED,
                decide(AuthorizationRequest.of("s3:PutObject", "arn:aws:s3:::lake/Published/x"), List.of(role),
                null).outcome());
        assertEquals(Outcome.IMPLICIT_DENY,
                decide(AuthorizationRequest.of("s3:PutObject", OBJECT), List.of(role), null).outcome());
    }

    @Test
    void everyConditionClauseMustHold() {
        PolicyDocument role = policy("role",
                "{\"Sid\": \"ListPublished\", \"Effect\": \"Allow\", \"Action\": \"s3:ListBucket\", \"Resource\": "
                + "\"arn:aws:s3:::lake\","
                + "\"Condition\": {\"StringLike\": {\"s3:prefix\": [\"published/*\", \"_status/*\"]}, "
                + "\"NumericLessThanEquals\": {\"s3:max-keys\": 1000},"
                + "\"Bool\": {\"aws:SecureTransport\": \"true\"}}}");
        AuthorizationRequest list = AuthorizationRequest.of("s3:ListBucket", "arn:aws:s3:::lake").with("s3:prefix",
                "published/a/")
                .with("s3:max-keys", "100").with("aws:SecureTransport", "true");
        assertEquals(Outcome.ALLOWED, decide(list, List.of(role), null).outcome());
        assertEquals(Outcome.IMPLICIT_DENY, decide(list.with("s3:prefix", "_staging/"), List.of(role), null).outcome());
        assertEquals(Outcome.IMPLICIT_DENY, decide(list.with("s3:max-keys", "5000"), List.of(role), null).outcome());
        assertEquals(Outcome.IMPLICIT_DENY,
                decide(list.with("aws:SecureTransport", "false"), List.of(role), null).outcome());
    }

    @Test
    void theCallersOwnKeysAreInTheContext() {
        PolicyDocument bucket = policy("bucket",
                "{\"Sid\": \"OnlyTheValidator\", \"Effect\": \"Deny\", \"Principal\": \"*\", \"Action\": "
                + "\"s3:PutObject\", \"Resource\": \"*\","
                + "\"Condition\": {\"ArnNotEquals\": {\"aws:PrincipalArn\": \"" + ROLE + "\"}}}");
        PolicyDocument allow = policy("role", "{\"Effect\": \"Allow\", \"Action\": \"s3:*\", \"Resource\": \"*\"}");
        AuthorizationRequest put = AuthorizationRequest.of("s3:PutObject", OBJECT);
        // aws:PrincipalArn of a role session is the role's ARN
        assertEquals(Outcome.ALLOWED, decide(put, List.of(allow), bucket).outcome());
        Caller other = Caller.user("arn:aws:iam::123456789012:user/ops");
        assertEquals(Outcome.EXPLICIT_DENY, evaluator.evaluate(other, put, List.of(allow), bucket).outcome());
    }

    @Test
    void anUnknownOperatorNeverAllowsAndAlwaysDenies() {
        PolicyDocument allowWithDate = policy("role",
                "{\"Sid\": \"Dated\", \"Effect\": \"Allow\", \"Action\": \"s3:GetObject\", \"Resource\": \"*\","
                + "\"Condition\": {\"DateLessThan\": {\"aws:CurrentTime\": \"2030-01-01T00:00:00Z\"}}}");
        Decision notAllowed = decide(AuthorizationRequest.of("s3:GetObject", OBJECT), List.of(allowWithDate), null);
        assertEquals(Outcome.IMPLICIT_DENY, notAllowed.outcome());
        assertEquals(List.of("role Dated: condition operator DateLessThan is not evaluated here; the Allow does not "
                + "apply"), notAllowed.notes());

        PolicyDocument allowAll = policy("admin", "{\"Effect\": \"Allow\", \"Action\": \"*\", \"Resource\": \"*\"}");
        PolicyDocument denyWithIp = policy("bucket",
                "{\"Sid\": \"OfficeOnly\", \"Effect\": \"Deny\", \"Principal\": \"*\", \"Action\": \"s3:*\", "
                + "\"Resource\": \"*\","
                + "\"Condition\": {\"NotIpAddress\": {\"aws:SourceIp\": \"10.0.0.0/8\"}}}");
        Decision denied = decide(AuthorizationRequest.of("s3:GetObject", OBJECT), List.of(allowAll), denyWithIp);
        assertEquals(Outcome.EXPLICIT_DENY, denied.outcome());
        assertEquals("OfficeOnly", denied.sid());
        assertEquals(List.of("bucket OfficeOnly: condition operator NotIpAddress is not evaluated here; the Deny "
                + "applies (fails closed)"), denied.notes());
    }

    @Test
    void authorizeNeedsEveryActionOfTheRequest() {
        PolicyDocument role = policy("validator",
                "{\"Sid\": \"Write\", \"Effect\": \"Allow\", \"Action\": \"s3:PutObject\", \"Resource\": "
                + "\"arn:aws:s3:::lake/*\"}");
        RequestMapping copy = RequestMapping.of("CopyObject", List.of(AuthorizationRequest.of("s3:PutObject", OBJECT),
                AuthorizationRequest.of("s3:GetObject", "arn:aws:s3:::lake/_staging/s")));
        Decision decision = evaluator.authorize(FUNCTION, copy, List.of(role), arn -> null);
        assertEquals(Outcome.IMPLICIT_DENY, decision.outcome());
        assertTrue(decision.message().contains("s3:GetObject on resource: \"arn:aws:s3:::lake/_staging/s\""),
                decision.message());

        Decision unmapped = evaluator.authorize(FUNCTION,
                RequestMapping.unmapped("PUT /lake?replication", "unknown sub-resource replication"),
                List.of(policy("admin", "{\"Effect\": \"Allow\", \"Action\": \"*\", \"Resource\": \"*\"}")),
                arn -> null);
        assertEquals(Outcome.IMPLICIT_DENY, unmapped.outcome());
        assertEquals("User: arn:aws:sts::123456789012:assumed-role/ValidatorRole/fn is not authorized to perform: PUT "
                + "/lake?replication "
                + "because this gateway maps no IAM action to it: unknown sub-resource replication",
                unmapped.message());
    }

    @Test
    void aServiceMayAssumeARoleWhoseTrustNamesItUnderItsConditions() {
        String role = "arn:aws:iam::123456789012:role/SweepScheduleRole";
        String group = "arn:aws:scheduler:us-east-1:123456789012:schedule-group/landing-ledger-dev";
        PolicyDocument trust = policy("SweepScheduleRole trust",
                "{\"Sid\": \"SchedulerAssumeRole\", \"Effect\": \"Allow\","
                + "\"Principal\": {\"Service\": \"scheduler.amazonaws.com\"}, \"Action\": \"sts:AssumeRole\","
                + "\"Condition\": {\"StringEquals\": {\"aws:SourceAccount\": \"123456789012\", \"aws:SourceArn\": \""
                + group + "\"}}}");
        Caller scheduler = Caller.service("scheduler.amazonaws.com");
        Map<String, List<String>> ours = Map.of("aws:SourceAccount", List.of("123456789012"), "aws:SourceArn",
                List.of(group));
        Decision allowed = evaluator.mayAssumeRole(scheduler, role, trust, ours);
        assertEquals(Outcome.ALLOWED, allowed.outcome());
        assertEquals("SchedulerAssumeRole", allowed.sid());

        Decision otherGroup = evaluator.mayAssumeRole(scheduler, role, trust,
                Map.of("aws:SourceAccount", List.of("123456789012"), "aws:SourceArn", List.of(group + "-other")));
        assertEquals(Outcome.IMPLICIT_DENY, otherGroup.outcome());
        assertEquals("User: scheduler.amazonaws.com is not authorized to perform: sts:AssumeRole on resource: \"" + role
                + "\" because no resource-based policy allows the sts:AssumeRole action", otherGroup.message());
        assertEquals(Outcome.IMPLICIT_DENY, evaluator.mayAssumeRole(scheduler, role, trust, Map.of()).outcome());
        assertEquals(Outcome.IMPLICIT_DENY,
                evaluator.mayAssumeRole(Caller.service("lambda.amazonaws.com"), role, trust, ours).outcome());
        assertEquals(Outcome.IMPLICIT_DENY,
                evaluator.mayAssumeRole(Caller.user("arn:aws:iam::123456789012:user/ops"), role, trust,
                ours).outcome());
    }

    @Test
    void rolesTrustingLambdaAreAssumedByLambdaOnly() {
        PolicyDocument trust = policy("ValidatorRole trust", "{\"Sid\": \"LambdaAssumeRole\", \"Effect\": \"Allow\","
                + "\"Principal\": {\"Service\": \"lambda.amazonaws.com\"}, \"Action\": \"sts:AssumeRole\"}");
        assertEquals(Outcome.ALLOWED,
                evaluator.mayAssumeRole(Caller.service("lambda.amazonaws.com"), ROLE, trust, Map.of()).outcome());
        assertEquals(Outcome.IMPLICIT_DENY,
                evaluator.mayAssumeRole(Caller.service("scheduler.amazonaws.com"), ROLE, trust, Map.of()).outcome());
        // the trust allows sts:AssumeRole only, not e.g. sts:TagSession
        assertEquals(Outcome.IMPLICIT_DENY, evaluator.evaluate(Caller.service("lambda.amazonaws.com"),
                AuthorizationRequest.of("sts:TagSession", ROLE), List.of(), trust).outcome());
    }
}
