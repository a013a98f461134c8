package io.landingledger.localcloud.iam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.landingledger.localcloud.iam.Decision.Outcome;
import io.landingledger.localcloud.template.StackScope;
import io.landingledger.localcloud.template.TransformedTemplate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real roles, trust policies and bucket policies of infra/template.yaml, as scripts/sam-transform.py gives them
 * to CloudFormation, evaluated on the requests the functions and producers send.
 */
class TemplatePoliciesTest {
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final String REGION = "us-east-1";
    private static final String ACCOUNT = "123456789012";
    private static final PolicyEvaluator EVALUATOR = new PolicyEvaluator();
    private static TemplatePolicies template;
    private static String lake;
    private static String inbox;

    @BeforeAll
    static void transform() throws IOException {
        template = TemplatePolicies.of(StackScope.declared(TransformedTemplate.load(REPOSITORY, Path.of("target/template-cache")),
                REGION, ACCOUNT, "landing-ledger", Map.of()));
        lake = template.bucketName("LakeBucket");
        inbox = template.bucketName("InboxBucket");
    }

    private static Caller function(String role) {
        return Caller.roleSession(template.roleArn(role), "fn");
    }

    private static Decision s3(String role, S3Request request) {
        RequestMapping mapping = S3RequestActions.map(request);
        assertTrue(mapping.mapped(), () -> "unmapped: " + mapping.unmappedReason());
        return EVALUATOR.authorize(function(role), mapping, template.identityPolicies(role),
                template::resourcePolicyOf);
    }

    private static S3Request s3(String method, String path, String query, String headers) {
        return S3RequestActionsTest.request(method, path, query, headers, true);
    }

    private static void assertDecision(Outcome outcome, String policy, String sid, Decision decision) {
        assertEquals(outcome, decision.outcome(), decision.message());
        assertEquals(policy, decision.policy(), decision.message());
        assertEquals(sid, decision.sid(), decision.message());
        assertEquals(List.of(), decision.notes());
    }

    @Test
    void theValidatorMayPublishButNotDeleteAPublish() {
        String published = "/" + lake + "/published/progress_events/unit=2026-03-01/part-00000.jsonl";
        assertDecision(Outcome.ALLOWED, "ValidatorRole/validator", "PromoteToPublished",
                s3("ValidatorRole", s3("PUT", published, null, "If-None-Match: *")));
        Decision delete = s3("ValidatorRole", s3("DELETE", published, null, null));
        assertDecision(Outcome.IMPLICIT_DENY, null, null, delete);
        assertEquals("User: arn:aws:sts::123456789012:assumed-role/ValidatorRole/fn is not authorized to perform: "
                + "s3:DeleteObject on resource: "
                + "\"arn:aws:s3:::" + lake
                + "/published/progress_events/unit=2026-03-01/part-00000.jsonl\" because no identity-based policy "
                + "allows the s3:DeleteObject action", delete.message());
        assertDecision(Outcome.ALLOWED, "ValidatorRole/validator", "DeleteOwnStaging",
                s3("ValidatorRole",
                        s3("DELETE", "/" + lake + "/_staging/progress_events/unit=2026-03-01/r.jsonl", null, null)));
    }

    @Test
    void thePromoteIsAllowedStepByStepAndOnlyWithItsCondition() {
        String published = "/" + lake + "/published/progress_events/unit=2026-03-01/part-00000.jsonl";
        String staging = lake + "/_staging/progress_events/unit=2026-03-01/run-1.jsonl";
        assertDecision(Outcome.ALLOWED, "ValidatorRole/validator", "PromoteToPublished",
                s3("ValidatorRole", s3("POST", published, "uploads", null)));
        assertDecision(Outcome.ALLOWED, "ValidatorRole/validator", "PromoteToPublished",
                s3("ValidatorRole", s3("PUT", published, "partNumber=1&uploadId=u", "x-amz-copy-source: " + staging)));
        assertDecision(Outcome.ALLOWED, "ValidatorRole/validator", "PromoteToPublished",
                s3("ValidatorRole", s3("POST", published, "uploadId=u", "If-None-Match: *")));
        assertDecision(Outcome.ALLOWED, "ValidatorRole/validator", "PromoteToPublished",
                s3("ValidatorRole", s3("POST", published, "uploadId=u", "If-Match: \"abc-2\"")));

        Decision unconditional = s3("ValidatorRole", s3("POST", published, "uploadId=u", null));
        assertDecision(Outcome.EXPLICIT_DENY, "LakeBucketPolicy", "DenyUnconditionalPublish", unconditional);
        assertTrue(unconditional.message().endsWith("with an explicit deny in a resource-based policy"),
                unconditional.message());
        assertDecision(Outcome.EXPLICIT_DENY, "LakeBucketPolicy", "DenyUnconditionalPublish",
                s3("ValidatorRole", s3("PUT", published, null, null)));
        // If-None-Match takes only "*": another value is refused, whatever the store would do with it
        assertDecision(Outcome.EXPLICIT_DENY, "LakeBucketPolicy", "DenyPublishNonCreateCondition",
                s3("ValidatorRole", s3("PUT", published, null, "If-None-Match: \"bogus\"")));
        // CopyObject into published/ takes no conditional header there: refused, as the user guide's page says
        assertDecision(Outcome.EXPLICIT_DENY, "LakeBucketPolicy", "DenyUnconditionalPublish",
                s3("ValidatorRole", s3("PUT", published, null, "x-amz-copy-source: " + staging)));
        // outside published/ no condition is needed
        assertDecision(Outcome.ALLOWED, "ValidatorRole/validator", "WriteStaging",
                s3("ValidatorRole", s3("PUT", "/" + staging, null, null)));
    }

    @Test
    void theInboxRefusesUploadsTheValidatorCouldNotRead() {
        // a producer with s3:PutObject on the whole inbox: only the bucket policy stands between it and a bad upload
        PolicyDocument producer = PolicyDocument.parse("producer",
                "{\"Version\": \"2012-10-17\", \"Statement\": {\"Effect\": \"Allow\","
                + "\"Action\": [\"s3:PutObject\", \"s3:GetObject\"], \"Resource\": \"arn:aws:s3:::" + inbox + "/*\"}}");
        Caller caller = Caller.user("arn:aws:iam::123456789012:user/producer");
        String key = "/" + inbox + "/progress_events/progress-2026-03-01.jsonl";
        Map<String, String[]> cases = Map.of(
                "", new String[] {"ALLOWED", "producer", "#0"},
                "x-amz-server-side-encryption: AES256", new String[] {"ALLOWED", "producer", "#0"},
                "x-amz-server-side-encryption: aws:kms",
                new String[] {"EXPLICIT_DENY", "InboxBucketPolicy", "DenyKmsEncryptedUploads"},
                "x-amz-server-side-encryption: aws:kms:dsse",
                new String[] {"EXPLICIT_DENY", "InboxBucketPolicy", "DenyKmsEncryptedUploads"},
                "x-amz-server-side-encryption-customer-algorithm: AES256;x-amz-server-side-encryption-customer-key: k",
                new String[] {"EXPLICIT_DENY", "InboxBucketPolicy", "DenyCustomerKeyUploads"});
        cases.forEach((headers, expected) -> {
            for (S3Request request : List.of(s3("PUT", key, null, headers), s3("POST", key, "uploads", headers))) {
                Decision decision = EVALUATOR.authorize(caller, S3RequestActions.map(request), List.of(producer),
                        template::resourcePolicyOf);
                assertDecision(Outcome.valueOf(expected[0]), expected[1], expected[2], decision);
            }
        });
    }

    @Test
    void insecureTransportIsDeniedOnBothBuckets() {
        S3Request plain = S3RequestActionsTest.request("HEAD", "/" + lake
                + "/published/progress_events/unit=2026-03-01/part-00000.jsonl",
                null, null, false);
        assertDecision(Outcome.EXPLICIT_DENY, "LakeBucketPolicy", "DenyInsecureTransport",
                s3("CompletenessSweepRole", plain));
        S3Request tls = S3RequestActionsTest.request("HEAD", plain.rawPath(), null, null, true);
        assertDecision(Outcome.ALLOWED, "CompletenessSweepRole/sweep", "HeadPublished",
                s3("CompletenessSweepRole", tls));
        assertDecision(Outcome.EXPLICIT_DENY, "InboxBucketPolicy", "DenyInsecureTransport", s3("ValidatorRole",
                S3RequestActionsTest.request("GET", "/" + inbox + "/progress_events/f.jsonl", "versionId=v", null,
                        false)));
    }

    @Test
    void eachRoleReadsWhatItsCodeReadsAndNoMore() {
        assertDecision(Outcome.ALLOWED, "ValidatorRole/validator", "ReadInboxObjectVersions",
                s3("ValidatorRole",
                        s3("GET", "/" + inbox + "/progress_events/progress-2026-03-01.jsonl", "versionId=v1", null)));
        // the inbox is read by version only
        assertDecision(Outcome.IMPLICIT_DENY, null, null,
                s3("ValidatorRole", s3("GET", "/" + inbox + "/progress_events/f.jsonl", null, null)));
        // datasets are registered at run time: a version of any inbox key, and the contract store, but no contract write
        assertDecision(Outcome.ALLOWED, "ValidatorRole/validator", "ReadInboxObjectVersions",
                s3("ValidatorRole", s3("GET", "/" + inbox + "/registered_later/f", "versionId=v1", null)));
        assertDecision(Outcome.ALLOWED, "ValidatorRole/validator", "ReadContracts",
                s3("ValidatorRole", s3("GET", "/" + lake + "/_contracts/orders/v0000000001.json", null, null)));
        String version = "/" + lake + "/_contracts/orders/v0000000002.json";
        assertDecision(Outcome.IMPLICIT_DENY, null, null, s3("ValidatorRole", s3("PUT", version, null, "If-None-Match: *")));
        // a version is immutable for everyone (issue 30, finding 3): anything but a create, and every delete, is refused
        assertDecision(Outcome.EXPLICIT_DENY, "LakeBucketPolicy", "DenyContractOverwrite",
                s3("ValidatorRole", s3("PUT", version, null, null)));
        assertDecision(Outcome.EXPLICIT_DENY, "LakeBucketPolicy", "DenyContractOverwrite",
                s3("ValidatorRole", s3("PUT", version, null, "If-Match: \"abc\"")));
        assertDecision(Outcome.EXPLICIT_DENY, "LakeBucketPolicy", "DenyContractNonCreateCondition",
                s3("ValidatorRole", s3("PUT", version, null, "If-None-Match: \"bogus\"")));
        assertDecision(Outcome.EXPLICIT_DENY, "LakeBucketPolicy", "DenyContractDelete",
                s3("ValidatorRole", s3("DELETE", version, null, null)));
        assertDecision(Outcome.ALLOWED, "CompletenessSweepRole/sweep", "ListInboxVersions",
                s3("CompletenessSweepRole", s3("GET", "/" + inbox, "versions&prefix=progress_events/", null)));
        assertDecision(Outcome.IMPLICIT_DENY, null, null,
                s3("CompletenessSweepRole", s3("GET", "/" + inbox + "/progress_events/f.jsonl", "versionId=v1", null)));
        assertDecision(Outcome.ALLOWED, "CompletenessSweepRole/sweep", "WriteReports",
                s3("CompletenessSweepRole",
                        s3("PUT", "/" + lake + "/_reports/progress_events/latest.json", null, null)));
        assertDecision(Outcome.IMPLICIT_DENY, null, null,
                s3("CompletenessSweepRole",
                        s3("PUT", "/" + lake + "/published/progress_events/unit=2026-03-01/part-00000.jsonl", null,
                        "If-None-Match: *")));
    }

    @Test
    void ledgerWritesAreScopedToTheirTables() {
        DynamoDbRequestActions dynamodb = new DynamoDbRequestActions(REGION, ACCOUNT);
        String ledger = template.ref("LedgerTable");
        String history = template.ref("LedgerHistoryTable");
        String ledgerLast = "{\"TransactItems\": [{\"Update\": {\"TableName\": \"" + ledger
                + "\"}}, {\"Put\": {\"TableName\": \"" + history + "\"}}]}";
        Decision transact = EVALUATOR.authorize(function("ValidatorRole"),
                dynamodb.map("DynamoDB_20120810.TransactWriteItems",
                ledgerLast.getBytes(StandardCharsets.UTF_8)), template.identityPolicies("ValidatorRole"), arn -> null);
        assertDecision(Outcome.ALLOWED, "ValidatorRole/validator", "ReadWriteLedger", transact);
        byte[] query = ("{\"TableName\": \"" + ledger + "\"}").getBytes(StandardCharsets.UTF_8);
        assertDecision(Outcome.IMPLICIT_DENY, null, null, EVALUATOR.authorize(function("ValidatorRole"),
                dynamodb.map("DynamoDB_20120810.Query", query), template.identityPolicies("ValidatorRole"),
                arn -> null));
        assertDecision(Outcome.ALLOWED, "RepairRole/repair", "ReadWriteLedger",
                EVALUATOR.authorize(function("RepairRole"),
                dynamodb.map("DynamoDB_20120810.Query", query), template.identityPolicies("RepairRole"), arn -> null));
        // a history item is appended, never changed
        byte[] update = ("{\"TableName\": \"" + history + "\"}").getBytes(StandardCharsets.UTF_8);
        assertDecision(Outcome.IMPLICIT_DENY, null, null, EVALUATOR.authorize(function("RepairRole"),
                dynamodb.map("DynamoDB_20120810.UpdateItem", update), template.identityPolicies("RepairRole"),
                arn -> null));
    }

    @Test
    void theSweepInvokesTheValidatorsAliasOnly() {
        LambdaRequestActions lambda = new LambdaRequestActions(REGION, ACCOUNT);
        String validator = template.ref("ValidatorFunction");
        String path = "/2015-03-31/functions/" + validator + "/invocations";
        assertDecision(Outcome.ALLOWED, "CompletenessSweepRole/sweep", "RedriveThroughValidator",
                EVALUATOR.authorize(function("CompletenessSweepRole"),
                lambda.map("POST", path, Map.of("Qualifier", List.of("live"))),
                template.identityPolicies("CompletenessSweepRole"), arn -> null));
        assertDecision(Outcome.IMPLICIT_DENY, null, null, EVALUATOR.authorize(function("CompletenessSweepRole"),
                lambda.map("POST", path, Map.of()), template.identityPolicies("CompletenessSweepRole"), arn -> null));
        assertDecision(Outcome.IMPLICIT_DENY, null, null, EVALUATOR.authorize(function("RepairRole"),
                lambda.map("POST", path, Map.of("Qualifier", List.of("live"))), template.identityPolicies("RepairRole"),
                arn -> null));
    }

    @Test
    void failedEventsGoToTheirOwnQueue() {
        SqsRequestActions sqs = new SqsRequestActions(REGION, ACCOUNT);
        Map<String, String> own = Map.of("Action", "SendMessage", "QueueUrl", template.ref("ValidatorFailureQueue"));
        assertDecision(Outcome.ALLOWED, "ValidatorRole/validator", "SendFailedEvents",
                EVALUATOR.authorize(function("ValidatorRole"), sqs.mapQuery(own),
                        template.identityPolicies("ValidatorRole"), arn -> null));
        Map<String, String> other = Map.of("Action", "SendMessage", "QueueUrl", template.ref("SweepFailureQueue"));
        assertDecision(Outcome.IMPLICIT_DENY, null, null,
                EVALUATOR.authorize(function("ValidatorRole"), sqs.mapQuery(other),
                        template.identityPolicies("ValidatorRole"), arn -> null));
    }

    @Test
    void rolesAreAssumedByTheServicesTheyTrustUnderTheirConditions() {
        for (String role : List.of("ValidatorRole", "CompletenessSweepRole", "RepairRole", "ConsumerReceiptRole")) {
            assertEquals(Outcome.ALLOWED,
                    EVALUATOR.mayAssumeRole(Caller.service("lambda.amazonaws.com"), template.roleArn(role),
                    template.trustPolicy(role), Map.of()).outcome(), role);
            assertEquals(Outcome.IMPLICIT_DENY,
                    EVALUATOR.mayAssumeRole(Caller.service("scheduler.amazonaws.com"), template.roleArn(role),
                    template.trustPolicy(role), Map.of()).outcome(), role);
        }
        String schedule = template.roleArn("SweepScheduleRole");
        String group = "arn:aws:scheduler:" + REGION + ":" + ACCOUNT + ":schedule-group/"
                + template.ref("SweepScheduleGroup");
        Caller scheduler = Caller.service("scheduler.amazonaws.com");
        Map<String, List<String>> ours = Map.of("aws:SourceAccount", List.of(ACCOUNT), "aws:SourceArn", List.of(group));
        assertDecision(Outcome.ALLOWED, "SweepScheduleRole trust", "SchedulerAssumeRole",
                EVALUATOR.mayAssumeRole(scheduler, schedule, template.trustPolicy("SweepScheduleRole"), ours));
        assertEquals(Outcome.IMPLICIT_DENY,
                EVALUATOR.mayAssumeRole(scheduler, schedule, template.trustPolicy("SweepScheduleRole"),
                Map.of("aws:SourceAccount", List.of(ACCOUNT), "aws:SourceArn", List.of(group + "x"))).outcome());
        assertEquals(Outcome.IMPLICIT_DENY,
                EVALUATOR.mayAssumeRole(scheduler, schedule, template.trustPolicy("SweepScheduleRole"),
                Map.of("aws:SourceArn", List.of(group))).outcome());
        assertEquals(Outcome.ALLOWED,
                EVALUATOR.mayAssumeRole(Caller.service("pipes.amazonaws.com"), template.roleArn("LedgerPipesRole"),
                template.trustPolicy("LedgerPipesRole"), Map.of("aws:SourceAccount", List.of(ACCOUNT))).outcome());
        assertEquals(Outcome.IMPLICIT_DENY,
                EVALUATOR.mayAssumeRole(Caller.service("pipes.amazonaws.com"), template.roleArn("LedgerPipesRole"),
                template.trustPolicy("LedgerPipesRole"),
                Map.of("aws:SourceAccount", List.of("999999999999"))).outcome());
    }

    @Test
    void aReaderListsAndReadsOnlyWhatReaderPolicyOpens() {
        Caller reader = Caller.roleSession("arn:aws:iam::123456789012:role/analytics", "athena");
        List<PolicyDocument> policies = List.of(template.managedPolicy("ReaderPolicy"));
        Function<S3Request, Decision> decide = request -> EVALUATOR.authorize(reader,
                S3RequestActions.map(request), policies, template::resourcePolicyOf);
        assertDecision(Outcome.ALLOWED, "ReaderPolicy", "ListReaderPrefixes",
                decide.apply(s3("GET", "/" + lake, "list-type=2&prefix=published/progress_events/", null)));
        assertDecision(Outcome.IMPLICIT_DENY, null, null,
                decide.apply(s3("GET", "/" + lake, "list-type=2&prefix=_quarantine/", null)));
        assertDecision(Outcome.IMPLICIT_DENY, null, null, decide.apply(s3("GET", "/" + lake, "list-type=2", null)));
        assertDecision(Outcome.ALLOWED, "ReaderPolicy", "ReadPublishedAndStatus",
                decide.apply(s3("GET", "/" + lake + "/_status/progress_events/status.jsonl", null, null)));
        assertDecision(Outcome.IMPLICIT_DENY, null, null,
                decide.apply(s3("GET", "/" + lake + "/_quarantine/progress_events/unit=2026-03-01/x.rejects.jsonl",
                        null, null)));
        assertDecision(Outcome.IMPLICIT_DENY, null, null,
                decide.apply(s3("GET", "/" + inbox + "/progress_events/progress-2026-03-01.jsonl", "versionId=v",
                        null)));
    }

    @Test
    void everyConditionInTheTemplateIsOneTheEvaluatorEvaluates() {
        List<PolicyDocument> all = new ArrayList<>();
        for (String role : template.roles()) {
            all.addAll(template.identityPolicies(role));
            all.add(template.trustPolicy(role));
        }
        all.addAll(template.bucketPolicies().values());
        all.add(template.managedPolicy("ReaderPolicy"));
        assertEquals(List.of(lake, inbox).stream().sorted().toList(),
                template.bucketPolicies().keySet().stream().sorted().toList());
        for (PolicyDocument policy : all) {
            for (Statement statement : policy.statements()) {
                for (ConditionClause clause : statement.conditions()) {
                    assertNull(ConditionOperators.evaluate(clause, Map.of()).unsupported(), policy.name() + " "
                            + statement.label());
                }
                for (String resource : statement.resources()) {
                    assertTrue(!resource.contains("{") && !resource.contains("${"), policy.name() + " "
                            + statement.label() + ": " + resource);
                }
            }
        }
    }
}
