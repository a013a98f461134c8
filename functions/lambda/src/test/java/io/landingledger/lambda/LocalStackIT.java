package io.landingledger.lambda;

import io.landingledger.lambda.testing.Invocations;
import com.amazonaws.services.lambda.runtime.events.S3Event;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.lambda.handlers.CompletenessSweepHandler;
import io.landingledger.lambda.handlers.RepairHandler;
import io.landingledger.lambda.handlers.ValidateObjectHandler;

import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The functions against LocalStack, the emulator a user with Docker runs (localstack/docker-compose.yml), through the
 * Testcontainers LocalStack module: the publish path (validator, a replayed event), the completeness sweep and an
 * operator's repair (dry run, then the repair) end to end, and the resources localstack/init/ready.d creates.
 *
 * <p>It runs the image localstack/docker-compose.yml pins, read from that file, so the tests and {@code docker compose
 * up} can never run different LocalStack versions. Where no Docker engine answers, JUnit reports both tests as
 * skipped ("disabledWithoutDocker is true and Docker is not available"): {@code @Testcontainers(disabledWithoutDocker =
 * true)} asks for Docker before the class is initialized, so no container, file or client below is touched. Every
 * step here has a fuller test on the embedded emulators, which run everywhere: ValidateObjectHandlerIT,
 * CompletenessSweepIT, RepairHandlerIT.
 */
@Testcontainers(disabledWithoutDocker = true)
class LocalStackIT {
    private static final Path REPOSITORY = Path.of("../..").toAbsolutePath().normalize();
    private static final Path COMPOSE_FILE = REPOSITORY.resolve("localstack/docker-compose.yml");
    private static final Path INIT_SCRIPT = REPOSITORY.resolve("localstack/init/ready.d/10-resources.sh");
    private static final String DATASET = "progress_events";

    /** What localstack/init/ready.d/10-resources.sh creates: cli/.../local/LocalPipeline.java's names. */
    private static final String LOCAL_INBOX = "landing-inbox-local";
    private static final String LOCAL_LAKE = "landing-lake-local";
    private static final String LOCAL_LEDGER = "LandingLedger-Ledger";
    private static final String LOCAL_HISTORY = "LandingLedger-LedgerHistory";

    @Container
    private static final LocalStackContainer LOCALSTACK = new LocalStackContainer(pinnedImage())
            .withServices("s3", "dynamodb")
            // as docker-compose.yml mounts it: LocalStack runs it once it is ready
            .withCopyFileToContainer(MountableFile.forHostPath(INIT_SCRIPT, 0755),
                    "/etc/localstack/init/ready.d/" + INIT_SCRIPT.getFileName());

    private final Supplier<String> runIds = () -> UUID.randomUUID().toString();

    @Test
    void initScript_createsTheLocalRunsBucketsAndTables_withLedgerTablesKeys() throws Exception {
        awaitInitScript();
        AwsConnection connection = connection();
        try (S3Client s3 = DependencyFactory.s3Client(connection);
             DynamoDbClient dynamoDb = DependencyFactory.dynamoDbClient(connection)) {
            assertEquals(BucketVersioningStatus.ENABLED, s3.getBucketVersioning(r -> r.bucket(LOCAL_INBOX)).status(),
                    LOCAL_INBOX + " must be versioned: the ledger records input version ids");
            s3.headBucket(r -> r.bucket(LOCAL_LAKE));
            assertSameTable(LedgerTables.ledger(LOCAL_LEDGER).build(), dynamoDb);
            assertSameTable(LedgerTables.ledgerHistory(LOCAL_HISTORY).build(), dynamoDb);
        }
    }

    /**
     * A producer's week in the life of progress_events: three clean days, a day refused for an email field, a day
     * whose file never came. The sweep reports exactly those two; the producer then sends the missing day and a
     * fixed file (both notifications lost), and the operator's repair from events/ publishes both, after a dry run
     * that changes nothing.
     */
    @Test
    void publishReplaySweepAndRepair_endToEnd() throws Exception {
        FunctionConfig config = freshResources();
        try (DependencyFactory aws = DependencyFactory.create(config)) {
            // wired as each function's no-arg constructor wires itself from the environment (DependencyFactory)
            ValidateObjectHandler validator = new ValidateObjectHandler(aws.router(), aws.ingestService(), aws.reporter(), runIds);
            CompletenessSweepHandler sweep = new CompletenessSweepHandler(aws.contracts(), aws.sweep(),
                    DatasetMetrics.to(new PrintStream(OutputStream.nullOutputStream())), aws.reporter());
            RepairHandler repair = new RepairHandler(aws.repairService(), runIds);
            Producer producer = new Producer(aws.s3(), config.inboxBucket());

            // publish: every file as S3 notifies it, to the class Lambda runs
            S3Event day3 = null;
            for (String unit : List.of("2026-03-01", "2026-03-02", "2026-03-03", "2026-03-05")) {
                S3Event event = producer.put(unit, example("inbox", unit));
                String expected = unit.equals("2026-03-05") ? "refused" : "published"; // 03-05 carries an email field
                assertEquals(expected, record(Invocations.invoke(validator, event, null)).get("action"), unit);
                if (unit.equals("2026-03-03")) {
                    day3 = event;
                }
            }
            byte[] published = aws.s3().getObjectAsBytes(r -> r.bucket(config.lakeBucket())
                    .key(LakeLayout.publishedKey(DATASET, "2026-03-03"))).asByteArray();
            assertTrue(published.length > 0, "2026-03-03 is readable under published/");
            assertEquals(LedgerStatus.REFUSED, ledger(aws, "2026-03-05").status());

            // replay: S3 delivers at least once; a second delivery of the same version writes nothing
            Map<String, Object> replay = record(Invocations.invoke(validator, day3, null));
            assertEquals("skipped", replay.get("action"), replay::toString);

            // sweep: the missing day and the refused day, nothing else
            Map<String, Object> before = sweep(sweep);
            assertEquals(false, before.get("complete"), before::toString);
            assertEquals(List.of("2026-03-04 MISSING", "2026-03-05 REFUSED"), notOk(before), before::toString);

            // the producer sends 03-04 and a fixed 03-05; both notifications are lost
            producer.put("2026-03-04", example("inbox", "2026-03-03").replace("2026-03-03", "2026-03-04")
                    .replace("20260303", "20260304"));
            producer.put("2026-03-05", example("redelivery", "2026-03-05"));

            // the operator's dry run (events/repair-dry-run.json): the plan, and no write
            Map<String, Object> plan = Invocations.invoke(repair, event("repair-dry-run.json"), null);
            assertEquals(List.of("publish", "publish"), units(plan).stream().map(u -> u.get("expect")).toList(), plan::toString);
            assertTrue(aws.ledger().get(DATASET, "2026-03-04").isEmpty(), "a dry run writes no ledger item");
            assertEquals(LedgerStatus.REFUSED, ledger(aws, "2026-03-05").status(), "a dry run changes no ledger item");
            assertThrows(NoSuchKeyException.class, () -> aws.s3().headObject(r -> r.bucket(config.lakeBucket())
                    .key(LakeLayout.publishedKey(DATASET, "2026-03-04"))), "a dry run publishes nothing");

            // the repair (events/repair-targeted.json), through the same ingest path, recorded as REPAIR
            Map<String, Object> repaired = Invocations.invoke(repair, event("repair-targeted.json"), null);
            assertEquals(List.of("published", "published"), units(repaired).stream().map(u -> u.get("action")).toList(),
                    repaired::toString);
            assertEquals(true, repaired.get("succeeded"), repaired::toString);
            for (String unit : List.of("2026-03-04", "2026-03-05")) {
                LedgerItem item = ledger(aws, unit);
                assertEquals(LedgerStatus.PUBLISHED, item.status(), unit);
                assertEquals(RunKind.REPAIR, item.runKind(), unit + ": the ledger says a repair built it");
            }

            Map<String, Object> after = sweep(sweep);
            assertEquals(true, after.get("complete"), after::toString);
            assertEquals(List.of(), notOk(after), after::toString);
        }
    }

    // ---- LocalStack ----

    /** The image localstack/docker-compose.yml starts (its {@code image:} line), the one place the tag is pinned. */
    private static DockerImageName pinnedImage() {
        try {
            Matcher image = Pattern.compile("(?m)^\\s*image:\\s*[\"']?(localstack/localstack:[^\\s\"']+)")
                    .matcher(Files.readString(COMPOSE_FILE));
            if (!image.find()) {
                throw new IllegalStateException(COMPOSE_FILE + " has no `image: localstack/localstack:<tag>` line");
            }
            return DockerImageName.parse(image.group(1));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the pinned LocalStack image from " + COMPOSE_FILE, e);
        }
    }

    private static AwsConnection connection() {
        return AwsConnection.endpoint(Region.of(LOCALSTACK.getRegion()), LOCALSTACK.getEndpoint());
    }

    /**
     * Waits until the READY-stage init scripts have run (the container's wait strategy ends at LocalStack's "Ready."
     * line, which need not wait for them), and fails with LocalStack's own account of them unless ours succeeded.
     */
    private static void awaitInitScript() throws Exception {
        URI status = URI.create(LOCALSTACK.getEndpoint() + "/_localstack/init/ready");
        String script = INIT_SCRIPT.getFileName().toString();
        HttpClient http = HttpClient.newHttpClient();
        Instant deadline = Instant.now().plus(Duration.ofMinutes(10));
        Map<String, Object> ready = Map.of();
        while (Instant.now().isBefore(deadline)) {
            ready = JSON.std.mapFrom(http.send(HttpRequest.newBuilder(status).build(), HttpResponse.BodyHandlers.ofString()).body());
            if (Boolean.TRUE.equals(ready.get("completed"))) {
                Map<String, Object> seen = ready;
                boolean succeeded = ((List<?>) ready.getOrDefault("scripts", List.of())).stream()
                        .map(entry -> (Map<?, ?>) entry)
                        .anyMatch(entry -> script.equals(entry.get("name")) && "SUCCESSFUL".equals(entry.get("state")));
                assertTrue(succeeded, () -> INIT_SCRIPT + " did not succeed in LocalStack; " + status + " says " + seen
                        + "\n" + LOCALSTACK.getLogs());
                return;
            }
            Thread.sleep(250);
        }
        fail("LocalStack's READY init scripts did not finish within 60 s; " + status + " says " + ready + "\n" + LOCALSTACK.getLogs());
    }

    /** The table LocalStack holds under {@code expected}'s name has exactly its keys, attribute types and billing mode. */
    private static void assertSameTable(CreateTableRequest expected, DynamoDbClient dynamoDb) {
        TableDescription actual = dynamoDb.describeTable(r -> r.tableName(expected.tableName())).table();
        assertEquals(expected.keySchema(), actual.keySchema(), expected.tableName() + " key schema (LedgerTables)");
        assertEquals(new HashSet<>(expected.attributeDefinitions()), new HashSet<>(actual.attributeDefinitions()),
                expected.tableName() + " attribute definitions (LedgerTables)");
        assertEquals(BillingMode.PAY_PER_REQUEST, actual.billingModeSummary().billingMode(), expected.tableName() + " billing mode");
    }

    /** Uniquely named buckets and tables for one scenario, made as AwsEmulators makes them: from LedgerTables. */
    private static FunctionConfig freshResources() {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        FunctionConfig config = FunctionConfig.builder()
                .inboxBucket("inbox-" + suffix)
                .lakeBucket("lake-" + suffix)
                .ledgerTable("Ledger-" + suffix)
                .ledgerHistoryTable("LedgerHistory-" + suffix)
                .aws(connection())
                .build();
        try (S3Client s3 = DependencyFactory.s3Client(config.aws());
             DynamoDbClient dynamoDb = DependencyFactory.dynamoDbClient(config.aws())) {
            s3.createBucket(r -> r.bucket(config.inboxBucket()));
            s3.putBucketVersioning(r -> r.bucket(config.inboxBucket())
                    .versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
            s3.createBucket(r -> r.bucket(config.lakeBucket()));
            LedgerTables.create(dynamoDb, config.ledgerTable(), config.ledgerHistoryTable());
        }
        return config;
    }

    // ---- the pipeline's inputs and outputs ----

    /** A producer writing one file per day to the inbox; each put returns the notification S3 would send. */
    private record Producer(S3Client s3, String inbox) {
        S3Event put(String unit, String body) throws IOException {
            String key = DATASET + "/progress-" + unit + ".jsonl";
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            PutObjectResponse put = s3.putObject(r -> r.bucket(inbox).key(key), RequestBody.fromBytes(bytes));
            // eventTime as S3 sets it (about the version's LastModified), so inputs order as they would on AWS
            Instant modified = s3.headObject(r -> r.bucket(inbox).key(key).versionId(put.versionId())).lastModified();
            String template = Files.readString(REPOSITORY.resolve("events/s3-put.json"));
            String event = template
                    .replace("landing-ledger-inbox-123456789012", inbox)
                    .replace("progress_events/progress-2026-03-02.jsonl",
                            URLEncoder.encode(key, StandardCharsets.UTF_8).replace("%2F", "/"))
                    .replace("3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY", put.versionId())
                    .replace("0123456789abcdef0123456789abcdef", put.eTag().replace("\"", ""))
                    .replace("\"size\": 2272", "\"size\": " + bytes.length)
                    .replace("2026-03-02T06:05:01.123Z", modified.toString());
            Path file = Files.createTempFile("s3-put-localstack", ".json");
            try {
                Files.writeString(file, event);
                return EventLoader.loadS3Event(file.toString()); // deserialized as the Lambda runtime does
            } finally {
                Files.deleteIfExists(file);
            }
        }
    }

    private static String example(String folder, String unit) throws IOException {
        return Files.readString(REPOSITORY.resolve("examples").resolve(folder).resolve(DATASET)
                .resolve("progress-" + unit + ".jsonl"));
    }

    private static Map<String, Object> event(String file) throws IOException {
        return JSON.std.mapFrom(Files.readString(REPOSITORY.resolve("events").resolve(file)));
    }

    private static LedgerItem ledger(DependencyFactory aws, String unit) {
        return aws.ledger().get(DATASET, unit).orElseThrow(() -> new AssertionError("no ledger item for " + DATASET + "/" + unit));
    }

    private static Map<String, Object> sweep(CompletenessSweepHandler sweep) {
        return Invocations.invoke(sweep, Map.of("datasets", List.of(DATASET), "from", "2026-03-01", "to", "2026-03-05"), null);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> record(Map<String, Object> response) {
        List<Map<String, Object>> records = (List<Map<String, Object>>) response.get("records");
        assertEquals(1, records.size(), response::toString);
        return records.get(0);
    }

    /** The sweep's not-OK units of the one dataset swept, as "unit STATUS". */
    @SuppressWarnings("unchecked")
    private static List<String> notOk(Map<String, Object> sweepResult) {
        Map<String, Object> dataset = ((List<Map<String, Object>>) sweepResult.get("datasets")).get(0);
        return ((List<Map<String, Object>>) dataset.get("not_ok")).stream()
                .map(unit -> unit.get("unit") + " " + unit.get("status")).toList();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> units(Map<String, Object> repairResult) {
        return (List<Map<String, Object>>) repairResult.get("units");
    }
}
