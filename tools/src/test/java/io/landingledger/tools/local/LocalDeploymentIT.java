package io.landingledger.tools.local;

import io.landingledger.localcloud.deploy.FunctionSpec;
import io.landingledger.localcloud.deploy.LocalDeployment;
import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.lambda.DependencyFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stack infra/template.yaml deploys, deployed on the embedded emulators, and what AWS would enforce on it: each
 * function's role, the buckets' policies, S3's notifications by the bucket's configuration, Lambda's retries and
 * on-failure queue, the schedule's role and input, the consumer receipts' EventBridge rule. Real clients where users
 * have them: boto3 puts and sends events as a producer and a consumer would.
 */
class LocalDeploymentIT {
    static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
    static LocalDeployment stack;
    static S3Client operator;
    static final List<String> validatorRuns = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void deploy() throws Exception {
        Path work = Files.createTempDirectory("local-deploy");
        stack = LocalDeployment.start(LocalDeployment.Options.of(REPOSITORY, work), new LandingRuntime());
        System.out.println("[local-deploy] stack up in " + stack.startupTime().toMillis() + " ms");
        stack.summary().forEach(line -> System.out.println("[local-deploy] " + line));
        operator = DependencyFactory.s3Client(LandingRuntime.aws(stack.operatorConnection()));
        stack.lambda().addListener((function, payload, result, attempt, async) -> {
            if (function.logicalId().equals("ValidatorFunction")) {
                validatorRuns.add(result.payloadText());
            }
        });
    }

    @AfterAll
    static void close() {
        if (operator != null) {
            operator.close();
        }
        if (stack != null) {
            stack.close();
        }
    }

    private static S3Client s3As(String function) {
        return DependencyFactory.s3Client(LandingRuntime.aws(stack.functionConnection(function)));
    }

    private static String inbox() {
        return stack.physicalId("InboxBucket");
    }

    private static String lake() {
        return stack.physicalId("LakeBucket");
    }

    @Test
    void everyResourceOfTheTemplateIsCreatedOrListedAsRecordedOnly() {
        assertEquals("landing-local-inbox-123456789012-us-east-1", stack.physicalId("InboxBucket"));
        assertEquals("landing-local-Ledger", stack.physicalId("LedgerTable"));
        List<String> summary = stack.summary();
        assertTrue(summary.get(0).matches("created here: .*\\b\\d+ Lambda::Function\\b.*") && summary.get(0).contains("S3::BucketPolicy"),
                summary.toString());
        assertTrue(summary.stream().anyMatch(l -> l.startsWith("recorded, not run here") && l.contains("CloudWatch::Alarm")), summary.toString());
        assertTrue(summary.stream().anyMatch(l -> l.contains("AlarmTopic") && l.contains("condition HasAlarmEmail is false")), summary.toString());
    }

    @Test
    void aFunctionRunsWithTheTemplatesEnvironmentAndItsTimeout() {
        FunctionSpec sweep = stack.lambda().spec(stack.physicalId("CompletenessSweepFunction"));
        assertEquals(600, sweep.timeoutSeconds());
        assertEquals(1024, sweep.memoryMb());
        assertEquals(stack.physicalId("ConsumersTable"), sweep.environment().get("CONSUMERS_TABLE"));
        assertTrue(sweep.environment().get("VALIDATOR_FUNCTION").endsWith(":function:landing-local-validator:live"), sweep.environment().toString());
        assertEquals(inbox(), sweep.environment().get("INBOX_BUCKET"));
    }

    @Test
    void aCallTheRoleDoesNotAllow_isAccessDenied_naming_theActionAndTheRole() {
        operator.putObject(r -> r.bucket(lake()).key("_staging/x/denied.txt"), RequestBody.fromString("x"));
        try (S3Client validator = s3As("ValidatorFunction"); S3Client sweep = s3As("CompletenessSweepFunction")) {
            S3Exception denied = assertThrows(S3Exception.class, () -> sweep.deleteObject(r -> r.bucket(lake()).key("_staging/x/denied.txt")));
            assertEquals(403, denied.statusCode());
            assertTrue(denied.awsErrorDetails().errorMessage().contains("is not authorized to perform: s3:DeleteObject"), denied.getMessage());
            assertTrue(denied.awsErrorDetails().errorMessage().contains("assumed-role/landing-local-CompletenessSweepRole")
                    || denied.awsErrorDetails().errorMessage().contains("CompletenessSweepRole"), denied.getMessage());
            // the validator may delete its own staging objects, and nothing else
            validator.deleteObject(r -> r.bucket(lake()).key("_staging/x/denied.txt"));
            assertEquals(403, assertThrows(S3Exception.class,
                    () -> validator.getObject(r -> r.bucket(lake()).key("_reports/none.json")).close()).statusCode());
        }
        try (DynamoDbClient validator = DependencyFactory.dynamoDbClient(LandingRuntime.aws(stack.functionConnection("ValidatorFunction")))) {
            DynamoDbException denied = assertThrows(DynamoDbException.class, () -> validator.query(r -> r.tableName(stack.physicalId("LedgerTable"))
                    .keyConditionExpression("dataset = :d").expressionAttributeValues(Map.of(":d", AttributeValue.fromS("progress_events")))));
            assertTrue(denied.getMessage().contains("dynamodb:Query"), denied.getMessage());
        }
    }

    @Test
    void aMissingKeyIs403_toARoleWithoutListBucket_and404_toOneWithIt() {
        try (S3Client sweep = s3As("CompletenessSweepFunction"); S3Client consumers = s3As("ConsumerReceiptFunction")) {
            // the sweep may HEAD published/ and list the lake: a missing publish is a 404 it can act on
            assertEquals(404, assertThrows(S3Exception.class,
                    () -> sweep.headObject(r -> r.bucket(lake()).key("published/progress_events/unit=1999-01-01/part-00000.jsonl"))).statusCode());
            assertEquals(403, assertThrows(S3Exception.class,
                    () -> consumers.headObject(r -> r.bucket(lake()).key("published/progress_events/unit=1999-01-01/part-00000.jsonl"))).statusCode());
        }
    }

    @Test
    void anUnconditionalWriteToPublished_isRefusedByTheBucketPolicy_evenToTheOperator_aConditionalOneIsNot() {
        S3Exception denied = assertThrows(S3Exception.class,
                () -> operator.putObject(r -> r.bucket(lake()).key("published/x/unit=1/part-00000.jsonl"), RequestBody.fromString("{}\n")));
        assertEquals(403, denied.statusCode());
        assertTrue(denied.awsErrorDetails().errorMessage().contains("explicit deny in a resource-based policy"), denied.getMessage());
        operator.putObject(r -> r.bucket(lake()).key("published/x/unit=1/part-00000.jsonl").ifNoneMatch("*"), RequestBody.fromString("{}\n"));
    }

    @Test
    void aProducersKmsOrCustomerKeyUpload_isRefusedAtTheInbox_asBoto3SeesIt() throws Exception {
        String script = String.join("\n",
                "import boto3, botocore, sys, os",
                "s3 = boto3.client('s3', endpoint_url=sys.argv[1], region_name='us-east-1', aws_access_key_id='test', aws_secret_access_key='test')",
                "out = []",
                "for name, extra in [('kms', dict(ServerSideEncryption='aws:kms')),",
                "                    ('ssec', dict(SSECustomerAlgorithm='AES256', SSECustomerKey=os.urandom(32))),",
                "                    ('plain', dict())]:",
                "    try:",
                "        s3.put_object(Bucket=sys.argv[2], Key='progress_events/boto3-' + name + '.txt', Body=b'x', **extra)",
                "        out.append(name + ' ok')",
                "    except botocore.exceptions.ClientError as e:",
                "        out.append(name + ' ' + e.response['Error']['Code'])",
                "print(';'.join(out))");
        String output = python(script, stack.endpoint().toString(), inbox());
        assertEquals("kms AccessDenied;ssec AccessDenied;plain ok", output.strip());
    }

    @Test
    void whatS3Refuses_aBogusIfNoneMatch_anOverlongKey_aFolderKeyWithABody_isRefusedOnTheLocalStack_asBoto3SeesIt()
            throws Exception {
        // issue 30, finding 4: a publish with If-None-Match other than * overwrote published objects here
        String script = String.join("\n",
                "import boto3, botocore, sys",
                "s3 = boto3.client('s3', endpoint_url=sys.argv[1], region_name='us-east-1', aws_access_key_id='test', aws_secret_access_key='test')",
                "lake, inbox, out = sys.argv[2], sys.argv[3], []",
                "published = 'published/x/unit=strict/part-00000.jsonl'",
                "s3.put_object(Bucket=lake, Key=published, Body=b'{}\\n', IfNoneMatch='*')",
                "def attempt(name, **request):",
                "    try:",
                "        s3.put_object(**request)",
                "        out.append(name + ' ok')",
                "    except botocore.exceptions.ClientError as e:",
                "        out.append(name + ' ' + str(e.response['ResponseMetadata']['HTTPStatusCode']) + ' ' + e.response['Error']['Code'])",
                "attempt('bogus', Bucket=lake, Key=published, Body=b'overwritten', IfNoneMatch='\"bogus\"')",
                "out.append('kept ' + s3.get_object(Bucket=lake, Key=published)['Body'].read().decode().strip())",
                "attempt('inbox-bogus', Bucket=inbox, Key='progress_events/progress-2026-03-09.jsonl', Body=b'{}', IfNoneMatch='\"bogus\"')",
                "attempt('long', Bucket=inbox, Key='progress_events/' + 'a' * 1009 + '.jsonl', Body=b'{}')",
                "attempt('folder', Bucket=inbox, Key='progress_events/folder/', Body=b'{}')",
                "print(';'.join(out))");
        int before = validatorRuns.size();
        String output = python(script, stack.endpoint().toString(), lake(), inbox());
        // under published/ the lake's policy refuses it first (issue 30 finding 3's DenyPublishNonCreateCondition);
        // where no policy does, S3's own answer
        assertEquals("bogus 403 AccessDenied;kept {};inbox-bogus 501 NotImplemented;long 400 KeyTooLongError;folder 501 NotImplemented",
                output.strip());
        stack.awaitIdle(Duration.ofMinutes(1));
        assertEquals(before, validatorRuns.size(), "a refused upload announces nothing");
    }

    @Test
    void anObjectAProducerPutsWithTheAwsCli_reachesTheValidatorThroughTheBucketsNotification() throws Exception {
        Path file = Files.createTempFile("progress-2026-03-01", ".jsonl");
        Files.copy(REPOSITORY.resolve("examples/inbox/progress_events/progress-2026-03-01.jsonl"), file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        int before = validatorRuns.size();
        ProcessBuilder aws = new ProcessBuilder("aws", "--endpoint-url", stack.endpoint().toString(), "s3", "cp", file.toString(),
                "s3://" + inbox() + "/progress_events/progress-2026-03-01.jsonl")
                .redirectErrorStream(true);
        aws.environment().putAll(Map.of("AWS_ACCESS_KEY_ID", "test", "AWS_SECRET_ACCESS_KEY", "test", "AWS_DEFAULT_REGION", "us-east-1"));
        Process started = aws.start();
        started.getOutputStream().close();
        String printed = new String(started.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, started.waitFor(), printed);
        stack.awaitIdle(Duration.ofMinutes(2));
        List<String> runs = new ArrayList<>(validatorRuns.subList(before, validatorRuns.size()));
        assertEquals(1, runs.size(), runs.toString());
        assertTrue(runs.get(0).contains("\"action\":\"published\"") || runs.get(0).contains("\"action\":\"unchanged\"")
                || runs.get(0).contains("\"action\":\"skipped\""), runs.get(0));
        // an object under no registered dataset reaches the validator (one notification for the whole inbox: datasets
        // are registered at run time) and is reported unroutable, never retried
        operator.putObject(r -> r.bucket(inbox()).key("elsewhere/file.jsonl"), RequestBody.fromString("{}"));
        stack.awaitIdle(Duration.ofMinutes(1));
        assertEquals(before + 2, validatorRuns.size());
        String unroutable = validatorRuns.get(validatorRuns.size() - 1);
        assertTrue(unroutable.contains("\"action\":\"unroutable\"") && unroutable.contains("UNKNOWN_DATASET"), unroutable);
    }

    @Test
    void aLostEvent_isRedrivenByTheSweep_throughTheValidatorsAlias_asAnAsynchronousInvoke() throws Exception {
        stack.announceOnly(key -> false); // S3 loses this object's event
        try {
            operator.putObject(r -> r.bucket(inbox()).key("transactions/transactions-2026-10-02.csv"),
                    RequestBody.fromFile(REPOSITORY.resolve("examples/inbox/transactions/transactions-2026-10-02.csv")));
        } finally {
            stack.announceOnly(key -> true);
        }
        stack.awaitIdle(Duration.ofMinutes(1));
        int before = validatorRuns.size();
        try (software.amazon.awssdk.services.lambda.LambdaClient lambda = software.amazon.awssdk.services.lambda.LambdaClient.builder()
                .region(Region.US_EAST_1).endpointOverride(stack.endpoint())
                .credentialsProvider(StaticCredentialsProvider.create(stack.operatorCredentials()))
                .httpClientBuilder(UrlConnectionHttpClient.builder()).build()) {
            var answer = lambda.invoke(r -> r.functionName(stack.physicalId("CompletenessSweepFunction")).qualifier("live")
                    .payload(software.amazon.awssdk.core.SdkBytes.fromUtf8String(
                            "{\"datasets\": [\"transactions\"], \"from\": \"2026-10-02\", \"to\": \"2026-10-02\"}")));
            assertEquals(null, answer.functionError(), answer.payload().asUtf8String());
            assertTrue(answer.payload().asUtf8String().contains("submitted"), "the re-drive is queued, not run by the sweep: "
                    + answer.payload().asUtf8String());
        }
        stack.awaitIdle(Duration.ofMinutes(2));
        List<String> runs = new ArrayList<>(validatorRuns.subList(before, validatorRuns.size()));
        assertEquals(1, runs.size(), runs.toString());
        assertTrue(runs.get(0).contains("\"action\":\"published\"") && runs.get(0).contains("2026-10-02"), runs.get(0));
    }

    @Test
    void anAsynchronousRunThatKeepsFailing_isRetriedTwice_thenLandsOnTheDeclaredQueue() throws Exception {
        int before = validatorRuns.size();
        // an S3 event for an object of a bucket the validator's role may not read: each attempt fails AccessDenied
        String event = Files.readString(REPOSITORY.resolve("events/s3-put.json"))
                .replaceAll("\"name\"\\s*:\\s*\"[^\"]+\"", "\"name\": \"" + lake() + "\"");
        stack.lambda().invokeAsync(stack.physicalId("ValidatorFunction"), "live", event);
        stack.awaitIdle(Duration.ofMinutes(2));
        assertEquals(before + 3, validatorRuns.size(), "one attempt and MaximumRetryAttempts 2");
        String queueUrl = stack.physicalId("ValidatorFailureQueue");
        try (SqsClient sqs = SqsClient.builder().region(Region.US_EAST_1).endpointOverride(stack.endpoint())
                .credentialsProvider(StaticCredentialsProvider.create(stack.operatorCredentials()))
                .httpClientBuilder(UrlConnectionHttpClient.builder()).build()) {
            List<Message> messages = sqs.receiveMessage(r -> r.queueUrl(queueUrl).maxNumberOfMessages(10).waitTimeSeconds(1)).messages();
            assertEquals(1, messages.size());
            Map<String, Object> record = JSON.std.mapFrom(messages.get(0).body());
            @SuppressWarnings("unchecked")
            Map<String, Object> context = (Map<String, Object>) record.get("requestContext");
            assertEquals("RetriesExhausted", context.get("condition"));
            assertEquals(3, ((Number) context.get("approximateInvokeCount")).intValue());
            assertNotNull(record.get("requestPayload"));
        }
    }

    @Test
    void theIncrementalSchedule_invokesThePlannerWithItsRole_andTheShardsRunThroughTheQueue() throws Exception {
        String incremental = stack.scheduleWithInput("{\"mode\":\"incremental\"}");
        assertNotNull(incremental, "an enabled schedule with the incremental input: " + stack.schedules());
        List<String> runs = new CopyOnWriteArrayList<>();
        stack.lambda().addListener((function, payload, result, attempt, async) -> {
            if (function.logicalId().startsWith("Sweep")) {
                runs.add(function.logicalId() + (result.failed() ? " FAILED " + result.payloadText() : ""));
            }
        });
        assertEquals(null, stack.fireSchedule(incremental));
        stack.awaitIdle(Duration.ofMinutes(5));
        assertEquals("SweepPlannerFunction", runs.get(0), runs.toString());
        assertTrue(runs.stream().noneMatch(r -> r.contains("FAILED")), runs.toString());
        // the full sweep's schedule: every shard through SweepShardQueue's event source mapping, then the assembly
        runs.clear();
        assertEquals(null, stack.fireSchedule(stack.scheduleWithInput("{\"mode\":\"full\"}")));
        stack.awaitIdle(Duration.ofMinutes(5));
        assertTrue(runs.contains("SweepShardFunction"), "the shards ran on the queue's worker: " + runs);
        assertTrue(runs.stream().noneMatch(r -> r.contains("FAILED")), runs.toString());
        var summaries = operator.listObjectsV2(r -> r.bucket(lake()).prefix("_reports/sweeps/")).contents().stream()
                .map(o -> o.key()).filter(k -> k.endsWith("summary.json")).toList();
        assertTrue(!summaries.isEmpty(), "the last shard assembled the sweep: " + summaries);
    }

    @Test
    void aConsumersUnitConsumedEvent_followsTheRule_toTheConsumersTable() throws Exception {
        String detail = "{\\\"dataset\\\": \\\"progress_events\\\", \\\"unit\\\": \\\"2026-03-02\\\", \\\"consumer\\\": \\\"mart\\\", "
                + "\\\"publish\\\": \\\"5f0c2a9e-7d41-4b8e-8c3a-1e6b9d2f4a70\\\", \\\"consumed_at\\\": \\\"2026-03-03T07:02:40.118Z\\\"}";
        String script = String.join("\n",
                "import boto3, sys",
                "events = boto3.client('events', endpoint_url=sys.argv[1], region_name='us-east-1', aws_access_key_id='test', aws_secret_access_key='test')",
                "r = events.put_events(Entries=[{'Source': 'mart.progress', 'DetailType': 'UnitConsumed', 'EventBusName': sys.argv[2],",
                "    'Detail': \"" + detail + "\"}])",
                "print(r['FailedEntryCount'])");
        assertEquals("0", python(script, stack.endpoint().toString(), stack.physicalId("LedgerEventBus")).strip());
        stack.awaitIdle(Duration.ofMinutes(1));
        try (DynamoDbClient dynamoDb = DependencyFactory.dynamoDbClient(LandingRuntime.aws(stack.operatorConnection()))) {
            var items = dynamoDb.scan(r -> r.tableName(stack.physicalId("ConsumersTable"))).items();
            assertEquals(1, items.size(), items.toString());
            assertEquals("mart", items.get(0).get("consumer").s());
        }
    }

    static String python(String script, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("python3", "-c", script));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), output);
        return output;
    }
}
