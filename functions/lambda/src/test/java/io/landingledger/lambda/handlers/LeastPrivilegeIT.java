package io.landingledger.lambda.handlers;

import io.landingledger.lambda.testing.Invocations;
import com.amazonaws.services.lambda.runtime.events.S3Event;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.fasterxml.jackson.jr.ob.JSON;
import com.sun.net.httpserver.HttpServer;

import io.landingledger.core.contract.ContractCache;
import io.landingledger.core.contract.ContractRegistrar;
import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.IngestPath;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.repair.RepairService;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.LakeSweepChanges;
import io.landingledger.core.sweep.ShardBudget;
import io.landingledger.core.sweep.ShardedSweep;
import io.landingledger.core.sweep.SweepLayout;
import io.landingledger.core.sweep.TableTracking;
import io.landingledger.core.validate.Events;
import io.landingledger.lambda.AwsConnection;
import io.landingledger.lambda.DatasetMetrics;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.FunctionConfig;
import io.landingledger.lambda.OutcomeReporter;
import io.landingledger.lambda.adapters.DynamoDbLedger;
import io.landingledger.lambda.adapters.LambdaIngestPath;
import io.landingledger.lambda.adapters.MultipartStreamingUpload;
import io.landingledger.lambda.adapters.S3ContractStore;
import io.landingledger.lambda.adapters.S3ObjectStore;
import io.landingledger.lambda.adapters.SqsShardQueue;
import io.landingledger.lambda.adapters.SqsTableQueue;
import io.landingledger.lambda.testing.ProgressEventLines;
import io.landingledger.lambda.testing.AwsEmulators;
import io.landingledger.lambda.testing.PipelineFixture;
import io.landingledger.lambda.testing.TestResources;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;

import static io.landingledger.lambda.testing.ProgressEventLines.largeCanonicalDay;
import static io.landingledger.lambda.testing.ProgressEventLines.checkpoint;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Least privilege from recorded calls (issue 13): each function is driven through every code path that calls AWS, on
 * the embedded emulators, with its own SDK clients and a {@link RecordedCalls} on them; each recorded request is
 * mapped to the IAM actions and resources it needs ({@link LeastPrivilege#needs}) and checked against that function's
 * role in the template as {@code sam deploy} transforms it. A call the role does not allow fails the test naming its
 * call site; a grant no recorded call used fails it naming the grant, unless the Lambda service uses it
 * ({@link LeastPrivilege#SERVICE_GRANTS}). Each test prints its function's calls and the grants they used.
 *
 * <p>The functions are wired as {@link DependencyFactory} wires them (the same adapters and services), but each with
 * clients of its own, so a request is attributed to the function whose code made it, on whatever thread (the
 * upload executor's too). The sweep re-drives through a stub Lambda endpoint that runs the validator's handler on
 * the validator's own clients, so the sweep records the Invoke and the validator records the re-drive's calls.
 */
@ExtendWith(AwsEmulators.class)
class LeastPrivilegeIT {
    private static final PojoSerializer<S3Event> EVENTS =
            LambdaEventSerializers.serializerFor(S3Event.class, LeastPrivilegeIT.class.getClassLoader());
    private static final String DATASET = "progress_events";

    private static IamModel template;
    private final PipelineFixture producer; // the producer's uploads and the test's own reads: never attributed to a function
    private final List<Wiring> wirings = new ArrayList<>();
    /** The shard queue of a sweep test (moto), and its name, which stands for the template's SweepShardQueue. */
    private String shardQueueUrl;
    private String shardQueueName;
    /** The table commit queue of the enqueue test (a FIFO queue in moto), standing for the template's TableCommitQueue. */
    private String tableQueueUrl;
    private String tableQueueName;

    /**
     * S3Proxy in front of which the local cloud's gateway answers object tagging (S3Proxy answers it 501): the
     * validator's tagging of decided inputs goes here, every other S3 call to S3Proxy itself.
     */
    private static io.landingledger.localcloud.deploy.AwsGateway taggingGateway;

    @BeforeAll
    static void transformTemplate() throws Exception {
        template = IamModel.transformed(PipelineFixture.REPOSITORY);
    }

    @org.junit.jupiter.api.AfterAll
    static void stopGateway() {
        if (taggingGateway != null) {
            taggingGateway.close();
        }
    }

    LeastPrivilegeIT(PipelineFixture producer) throws IOException {
        this.producer = producer;
        // the ledger bus the validator tells producers on (moto's EventBridge), named as the template names it
        String bus = template.function("ValidatorFunction").environment().get(FunctionConfig.LEDGER_EVENT_BUS);
        try (software.amazon.awssdk.services.eventbridge.EventBridgeClient events = eventBridge(producer.resources, null)) {
            if (events.listEventBuses(r -> r.namePrefix(bus)).eventBuses().isEmpty()) {
                events.createEventBus(r -> r.name(bus));
            }
        }
        synchronized (LeastPrivilegeIT.class) {
            if (taggingGateway == null) {
                taggingGateway = io.landingledger.localcloud.deploy.AwsGateway.start(
                        producer.resources.config().aws().s3Endpoint().orElseThrow(),
                        producer.resources.config().aws().dynamoDbEndpoint().orElseThrow());
                taggingGateway.principal(new io.landingledger.localcloud.deploy.Principal(AwsConnection.EMULATOR_CREDENTIALS.accessKeyId(),
                        "arn:aws:iam::" + IamModel.ACCOUNT + ":root", null));
            }
        }
        // the shipped examples, registered as an operator registers a dataset (the producer's client: not a function's)
        ContractRegistrar registrar = new ContractRegistrar(new S3ContractStore(producer.s3, producer.lake()), Clock.systemUTC());
        try (var files = java.nio.file.Files.newDirectoryStream(PipelineFixture.REPOSITORY.resolve("datasets"), "*.json")) {
            for (java.nio.file.Path file : files) {
                registrar.register(file.toString(), java.nio.file.Files.readAllBytes(file), "LeastPrivilegeIT");
            }
        }
    }

    @AfterEach
    void tearDown() {
        wirings.forEach(Wiring::close);
    }

    // ---------------------------------------------------------------------------------------------------------------

    @Test
    void validatorFunction_everyCallIsAllowedAndEveryGrantIsUsed() throws Exception {
        Wiring validator = wiring("validator");
        ValidateObjectHandler handler = validator.validatorHandler();

        // publish (first: If-None-Match), with quarantined rows
        deliver(handler, producer.putExample(DATASET, "progress-2026-03-03.jsonl"), "published");
        // a byte-identical re-upload (a new version, the same bytes): recorded, not republished
        deliver(handler, producer.putExample(DATASET, "progress-2026-03-03.jsonl"), "unchanged");
        // the other dataset (its own inbox prefix)
        deliver(handler, producer.putExample("transactions", "transactions-2026-10-01.csv"), "published");
        // refuse (a prohibited field): the previous publish stands
        String key = DATASET + "/progress-2026-03-05.jsonl";
        deliver(handler, producer.put(key, bytes(checkpoint("e1", "2026-03-05T01:00:00Z"))), "published");
        deliver(handler, producer.put(key, producer.putExampleBytes(DATASET, "progress-2026-03-05.jsonl")), "refused");
        // a replacement publish (If-Match)
        deliver(handler, producer.put(key, bytes(checkpoint("e1", "2026-03-05T01:00:00Z") + checkpoint("e2", "2026-03-05T02:00:00Z"))), "published");
        // a stale input: an older version delivered after the newer one
        String staleKey = DATASET + "/progress-2026-03-09.jsonl";
        PipelineFixture.Uploaded older = producer.put(staleKey, bytes(checkpoint("e1", "2026-03-09T01:00:00Z")));
        PipelineFixture.Uploaded newer = producer.put(staleKey, bytes(checkpoint("e1", "2026-03-09T02:00:00Z") + checkpoint("e2", "2026-03-09T03:00:00Z")));
        deliver(handler, newer, "published");
        deliver(handler, older, "stale");
        // an input deleted before the validator read it (its version is gone: a 404)
        PipelineFixture.Uploaded gone = producer.put(DATASET + "/progress-2026-03-10.jsonl", bytes(checkpoint("e1", "2026-03-10T01:00:00Z")));
        producer.s3.deleteObject(r -> r.bucket(producer.inbox()).key(gone.key()).versionId(gone.versionId()));
        Invocations.invoke(handler, producer.eventFor(gone), null);
        // and one deleted between the validator's listing and its read (the GetObject answers 404)
        PipelineFixture.Uploaded vanishing = producer.put(DATASET + "/progress-2026-03-13.jsonl", bytes(checkpoint("e1", "2026-03-13T01:00:00Z")));
        deleteBeforeRead(validator, vanishing);
        Invocations.invoke(handler, producer.eventFor(vanishing), null);
        validator.beforeCall = r -> { };
        assertTrue(validator.calls.calls().stream().anyMatch(c -> c.operation().equals("GetObject") && Integer.valueOf(404).equals(c.status())),
                "the read of the vanished version answered 404: " + validator.calls.calls().stream()
                        .filter(c -> c.operation().equals("GetObject")).map(RecordedCalls.Call::status).toList());
        // the ledger points at a published object that is missing: republished
        producer.s3.deleteObject(r -> r.bucket(producer.lake()).key(LakeLayout.publishedKey(DATASET, "2026-03-03")));
        Invocations.invoke(handler, producer.eventFor(producer.putExample(DATASET, "progress-2026-03-03.jsonl")), null);
        // a gzipped input and a multipart one: the staging upload's parts and the promote's ranges go out on the
        // upload executor's threads
        deliver(handler, producer.putExample(DATASET, "progress-2026-03-06.jsonl.gz"), "published");
        deliver(handler, producer.put(DATASET + "/progress-2026-03-04.jsonl", largeCanonicalDay()), "published");
        // a multipart input refused after its first parts were staged: the staging upload is aborted
        deliver(handler, producer.put(DATASET + "/progress-2026-03-12.jsonl", leakingLargeDay()), "refused");
        // a concurrent writer publishes the unit between staging and promote: the promote's If-None-Match fails and the
        // multipart promote is aborted
        S3Event racing = producer.eventFor(producer.put(DATASET + "/progress-2026-03-11.jsonl", bytes(checkpoint("e1", "2026-03-11T01:00:00Z"))));
        raceThePromote(validator, "2026-03-11", () -> Invocations.invoke(handler, racing, null));
        // an unroutable key: no ledger or lake call; its producer hears it (the event, the tags)
        Invocations.invoke(handler, producer.eventFor(producer.put(DATASET + "/notes.txt", bytes("x"))), null);

        assertLeastPrivilege("ValidatorFunction", validator);
        assertTrue(HistoryPuts.check(validator.calls.calls(), producer.resources.ledgerHistoryTable()).puts() > 1,
                "the validator's history puts were checked (issue 30, finding 5)");
    }

    @Test
    void completenessSweepFunction_everyCallIsAllowedAndEveryGrantIsUsed() throws Exception {
        Wiring sweep = wiring("sweep");
        Wiring validator = wiring("validator");
        IamModel.Function function = template.function("CompletenessSweepFunction");
        ValidateObjectHandler validatorHandler = validator.validatorHandler();
        deliver(validatorHandler, producer.putExample(DATASET, "progress-2026-03-01.jsonl"), "published");
        deliver(validatorHandler, producer.putExample(DATASET, "progress-2026-03-03.jsonl"), "published");
        // a consumer read 2026-03-01's publish: the sweep's Query of the Consumers table finds it
        validator.consumers().record(new io.landingledger.core.consumers.ConsumerReceipt(DATASET, "2026-03-01", "mart", "run-old",
                java.time.Instant.parse("2026-03-02T00:00:00Z")));
        validator.calls = new RecordedCalls(); // the setup's calls are the validator test's business

        // a floor above the examples' rows: every published unit of the dataset is SUSPECT_VOLUME, and its producer told
        registerVolumeFloor(1000);
        try (StubLambda lambda = new StubLambda(validatorHandler); SqsClient tables = tableQueue()) {
            sweep.tableQueueUrl = tableQueueUrl;
            sweep.tellsProducers = function.environment().containsKey(FunctionConfig.LEDGER_EVENT_BUS);
            CompletenessSweepHandler handler = sweep.sweepHandler(function.environment().get(FunctionConfig.VALIDATOR_FUNCTION), lambda);
            // without a re-drive: OK and MISSING units, the reports written
            Invocations.invoke(handler, Map.of("datasets", List.of(DATASET), "from", "2026-03-01", "to", "2026-03-04"), null);
            // with a re-drive: a file whose S3 event was lost
            producer.putExample(DATASET, "progress-2026-03-02.jsonl");
            Invocations.invoke(handler, Map.of("datasets", List.of(DATASET), "from", "2026-03-01", "to", "2026-03-04"), null);
            assertEquals(1, lambda.invocations.size(), "one re-drive, through the validator's endpoint: " + lambda.invocations);
            // the schedule's payload: every dataset over its default range
            Invocations.invoke(handler, Map.of(), null);
            // the published units' tables were never written (no table writer runs here): each sweep re-drove them
            assertTableSubmitted(tables, "the sweep's re-drive of a TABLE_BEHIND unit");
        }
        // three units suspect (03-01, 03-03, and 03-02 once re-driven), each told once over three sweeps: a later
        // sweep finds the input's version tagged with the decision and tells nobody again
        assertEquals(3, sweep.calls.calls().stream().filter(c -> c.operation().equals("PutEvents")).count(),
                "one InputDecision per suspect unit, however many sweeps saw it");

        // the re-drive's own calls ran with the validator's role: each must be allowed there too
        LeastPrivilege.Report redrive = LeastPrivilege.check(template, template.function("ValidatorFunction"), validator.calls.calls(),
                deployedNames("ValidatorFunction"));
        List<String> redriveMissing = redrive.findings().stream().filter(f -> !f.contains("unused grant") && !f.contains("managed policy"))
                .map(f -> "(re-drive) " + f).toList();
        assertLeastPrivilege("CompletenessSweepFunction", sweep, redriveMissing);
    }

    @Test
    void consumerReceiptFunction_everyCallIsAllowedAndEveryGrantIsUsed() throws Exception {
        Wiring receipts = wiring("consumer-receipt");
        ConsumerReceiptHandler handler = receipts.consumerReceiptHandler();
        // a receipt, then an older one arriving late (the conditional PutItem fails: still only PutItem), then an invalid one
        assertEquals(true, Invocations.invoke(handler, unitConsumed("2026-03-01", "run-2", "2026-03-02T10:00:00Z"), null).get("recorded"));
        assertEquals(false, Invocations.invoke(handler, unitConsumed("2026-03-01", "run-1", "2026-03-02T09:00:00Z"), null).get("recorded"));
        assertEquals("INVALID_EVENT", Invocations.invoke(handler, unitConsumed("March", "run-1", "2026-03-02T09:00:00Z"), null).get("reason"));
        assertLeastPrivilege("ConsumerReceiptFunction", receipts);
    }

    /** A UnitConsumed event as EventBridge delivers it (events/unit-consumed.json). */
    static Map<String, Object> unitConsumed(String unit, String publish, String at) throws IOException {
        @SuppressWarnings("unchecked")
        Map<String, Object> event = (Map<String, Object>) (Map<?, ?>) JSON.std.mapFrom(
                java.nio.file.Files.readString(PipelineFixture.REPOSITORY.resolve("events/unit-consumed.json")));
        Map<String, Object> detail = new HashMap<>(map(event.get("detail")));
        detail.put("unit", unit);
        detail.put("publish", publish);
        detail.put("consumed_at", at);
        Map<String, Object> copy = new HashMap<>(event);
        copy.put("detail", detail);
        return copy;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @Test
    void repairFunction_everyCallIsAllowedAndEveryGrantIsUsed() throws Exception {
        Wiring repair = wiring("repair");
        Wiring validator = wiring("validator");
        ValidateObjectHandler validatorHandler = validator.validatorHandler();
        deliver(validatorHandler, producer.putExample(DATASET, "progress-2026-03-01.jsonl"), "published");
        deliver(validatorHandler, producer.putExample(DATASET, "progress-2026-03-02.jsonl"), "published");
        producer.putExample(DATASET, "progress-2026-03-03.jsonl"); // its event was lost
        producer.putExample("transactions", "transactions-2026-10-01.csv"); // and this one's
        SqsClient tables = tableQueue();
        repair.tableQueueUrl = tableQueueUrl;
        RepairHandler handler = repair.repairHandler();

        // dry-run, targeted: reads only
        Invocations.invoke(handler, Map.of("dataset", DATASET, "units", List.of("2026-03-01", "2026-03-03"), "mode", "targeted",
                "dryRun", true, "reason", "LeastPrivilegeIT dry run", "inputVersion", "latest"), null);
        // targeted, latest input: the lost event's unit is published
        Invocations.invoke(handler, Map.of("dataset", DATASET, "units", List.of("2026-03-03"), "mode", "targeted",
                "dryRun", false, "reason", "LeastPrivilegeIT lost event", "inputVersion", "latest"), null);
        Invocations.invoke(handler, Map.of("dataset", "transactions", "units", List.of("2026-10-01"), "mode", "targeted",
                "dryRun", false, "reason", "LeastPrivilegeIT lost event", "inputVersion", "latest"), null);
        // targeted, not forced, a unit already published from its latest input: skipped, and the audit trail says so
        // (REPAIR_SKIPPED: the one PutItem on the history table outside a transaction)
        Invocations.invoke(handler, Map.of("dataset", DATASET, "units", List.of("2026-03-01"), "mode", "targeted",
                "dryRun", false, "reason", "LeastPrivilegeIT skipped", "inputVersion", "latest"), null);
        assertTrue(repair.calls.calls().stream().anyMatch(c -> c.operation().equals("PutItem")),
                "the skip appended its history item");
        // its table was never written (no table writer runs here): the repair submitted it (TABLE_SUBMITTED)
        assertTableSubmitted(tables, "the repair of a TABLE_BEHIND unit");
        tables.close();
        // targeted, the recorded input, forced (republished from the version the ledger recorded)
        Invocations.invoke(handler, Map.of("dataset", DATASET, "units", List.of("2026-03-01"), "mode", "targeted",
                "dryRun", false, "force", true, "reason", "LeastPrivilegeIT forced", "inputVersion", "recorded"), null);
        // forward from a unit, forced
        Invocations.invoke(handler, Map.of("dataset", DATASET, "from", "2026-03-02", "mode", "forward",
                "dryRun", false, "force", true, "reason", "LeastPrivilegeIT forward", "inputVersion", "recorded"), null);
        // omit a unit that has no input
        Invocations.invoke(handler, Map.of("dataset", DATASET, "units", List.of("2026-03-04"), "action", "omit",
                "reason", "LeastPrivilegeIT omit"), null);
        // a unit whose published object vanished: republished (HEAD 404)
        producer.s3.deleteObject(r -> r.bucket(producer.lake()).key(LakeLayout.publishedKey(DATASET, "2026-03-02")));
        Invocations.invoke(handler, Map.of("dataset", DATASET, "units", List.of("2026-03-02"), "mode", "targeted",
                "dryRun", false, "reason", "LeastPrivilegeIT missing publish", "inputVersion", "recorded"), null);

        // a large file refused after its first parts were staged (the staging upload is aborted)
        producer.put(DATASET + "/progress-2026-03-12.jsonl", leakingLargeDay());
        Invocations.invoke(handler, Map.of("dataset", DATASET, "units", List.of("2026-03-12"), "mode", "targeted",
                "dryRun", false, "reason", "LeastPrivilegeIT refused", "inputVersion", "latest"), null);
        // a concurrent publish between staging and promote (the promote is aborted)
        producer.put(DATASET + "/progress-2026-03-11.jsonl", bytes(checkpoint("e1", "2026-03-11T01:00:00Z")));
        raceThePromote(repair, "2026-03-11", () -> Invocations.invoke(handler, Map.of("dataset", DATASET, "units", List.of("2026-03-11"),
                "mode", "targeted", "dryRun", false, "reason", "LeastPrivilegeIT race", "inputVersion", "latest"), null));
        // an input deleted between the repair's listing and its read (404)
        PipelineFixture.Uploaded vanishing = producer.put(DATASET + "/progress-2026-03-13.jsonl", bytes(checkpoint("e1", "2026-03-13T01:00:00Z")));
        deleteBeforeRead(repair, vanishing);
        Invocations.invoke(handler, Map.of("dataset", DATASET, "units", List.of("2026-03-13"), "mode", "targeted",
                "dryRun", false, "reason", "LeastPrivilegeIT vanished", "inputVersion", "latest"), null);
        repair.beforeCall = r -> { };

        assertLeastPrivilege("RepairFunction", repair);
        assertTrue(HistoryPuts.check(repair.calls.calls(), producer.resources.ledgerHistoryTable()).puts() > 1,
                "the repair's history puts were checked (issue 30, finding 5)");
    }

    // ---- the sharded sweep (issue 26): planner, shard worker, change recorder -----------------------------------

    @Test
    void sweepPlannerFunction_everyCallIsAllowedAndEveryGrantIsUsed() throws Exception {
        Wiring planner = wiring("sweep-planner");
        // runs the first sweep's shards: its calls are the worker test's business
        Wiring worker = wiring("sweep-worker");
        try (SqsClient queues = shardQueue()) {
            SweepPlannerHandler handler = plannerHandler(planner);
            SweepShardHandler workers = new SweepShardHandler(worker.shardedSweep(null, null), QUIET, sweepMetrics());

            // a full sweep: every dataset, its shards handed out on the queue (SendMessageBatch)
            Map<String, Object> full = Invocations.invoke(handler, Map.of("mode", "full"), null);
            assertTrue((Integer) full.get("shards") > 0, full.toString());
            List<String> tasks = takeShards(queues);
            assertEquals(full.get("shards"), tasks.size(), "one message per shard: " + full);
            tasks.forEach(task -> Invocations.invoke(workers, shardEvent(task, 1), null));
            // an incremental sweep with nothing changed: no shard, the planner assembles the sweep itself
            Map<String, Object> quiet = Invocations.invoke(handler, Map.of("mode", "incremental"), null);
            assertEquals(0, quiet.get("shards"), quiet.toString());
            assertTrue(producer.s3.headObject(
                    r -> r.bucket(producer.lake()).key(SweepLayout.summaryKey((String) quiet.get("sweep_id"))))
                    != null);
            // a sweep whose shards no worker ran, then the next: the planner assembles the overdue one first
            Map<String, Object> unrun = Invocations.invoke(handler, Map.of("mode", "full", "datasets",
                    List.of(DATASET)), null);
            takeShards(queues);
            Invocations.invoke(handler, Map.of("mode", "incremental"), null);
            assertTrue(producer.s3.headObject(
                    r -> r.bucket(producer.lake()).key(SweepLayout.summaryKey((String) unrun.get("sweep_id"))))
                    != null, "the planner assembled the sweep no worker finished");
            takeShards(queues);
        }
        assertLeastPrivilege("SweepPlannerFunction", planner);
    }

    @Test
    void sweepShardFunction_everyCallIsAllowedAndEveryGrantIsUsed() throws Exception {
        Wiring planner = wiring("sweep-planner"); // plans: its calls are the planner test's business
        Wiring worker = wiring("sweep-worker");
        Wiring validator = wiring("validator");
        IamModel.Function function = template.function("SweepShardFunction");
        ValidateObjectHandler validatorHandler = validator.validatorHandler();
        deliver(validatorHandler, producer.putExample(DATASET, "progress-2026-03-01.jsonl"), "published");
        deliver(validatorHandler, producer.putExample(DATASET, "progress-2026-03-03.jsonl"), "published");
        validator.consumers().record(new io.landingledger.core.consumers.ConsumerReceipt(DATASET, "2026-03-01", "mart",
                "run-old",
                java.time.Instant.parse("2026-03-02T00:00:00Z")));
        validator.calls = new RecordedCalls(); // the setup's calls are the validator test's business
        Map<String, Object> range = Map.of("mode", "full", "datasets", List.of(DATASET), "from", "2026-03-01", "to",
                "2026-03-04");

        try (SqsClient queues = shardQueue(); StubLambda lambda = new StubLambda(validatorHandler);
                SqsClient tables = tableQueue()) {
            worker.tableQueueUrl = tableQueueUrl; // the worker's TABLE_QUEUE_URL (the planner has none)
            worker.tellsProducers = function.environment().containsKey(FunctionConfig.LEDGER_EVENT_BUS);
            registerVolumeFloor(1000); // every published unit suspect: the worker tells its producer
            SweepPlannerHandler plans = plannerHandler(planner);
            SweepShardHandler handler = new SweepShardHandler(
                    worker.shardedSweep(function.environment().get(FunctionConfig.VALIDATOR_FUNCTION), lambda), QUIET,
                            sweepMetrics());
            // a shard without a re-drive; the last shard's worker assembles the sweep
            Invocations.invoke(plans, range, null);
            for (String task : takeShards(queues)) {
                Invocations.invoke(handler, shardEvent(task, 1), null);
            }
            assertEquals(List.of(), lambda.invocations, "nothing to re-drive yet");
            // a shard with a re-drive: a file whose S3 event was lost
            producer.putExample(DATASET, "progress-2026-03-02.jsonl");
            Invocations.invoke(plans, range, null);
            for (String task : takeShards(queues)) {
                Invocations.invoke(handler, shardEvent(task, 1), null);
            }
            assertEquals(1, lambda.invocations.size(), "one re-drive, through the validator's endpoint: "
                    + lambda.invocations);
            // every dataset over its default range (the schedule's payload), the shard received for the last time
            Invocations.invoke(plans, Map.of("mode", "full"), null);
            for (String task : takeShards(queues)) {
                Invocations.invoke(handler, shardEvent(task, SweepShardHandler.MAX_RECEIVES), null);
            }
            assertTableSubmitted(tables, "the shard's re-drive of a TABLE_BEHIND unit");
        }

        LeastPrivilege.Report redrive = LeastPrivilege.check(template, template.function("ValidatorFunction"),
                validator.calls.calls(),
                deployedNames("ValidatorFunction"));
        List<String> redriveMissing = redrive.findings().stream().filter(f -> !f.contains("unused grant")
                && !f.contains("managed policy"))
                .map(f -> "(re-drive) " + f).toList();
        assertLeastPrivilege("SweepShardFunction", worker, redriveMissing);
    }

    @Test
    void sweepChangeFunction_everyCallIsAllowedAndEveryGrantIsUsed() throws Exception {
        Wiring changes = wiring("sweep-changes");
        SweepChangeHandler handler = new SweepChangeHandler(new LakeSweepChanges(changes.store, producer.lake()),
                Clock.systemUTC());
        // the Ledger stream's batch (every ledger write), then the S3 notifications through EventBridge
        Map<String, Object> stream = Map.of("Records", List.of(
                Map.of("eventName", "MODIFY", "dynamodb", Map.of("Keys", Map.of("dataset", Map.of("S", DATASET),
                        "unit", Map.of("S", "2026-03-01")))),
                Map.of("eventName", "INSERT", "dynamodb", Map.of("Keys", Map.of("dataset", Map.of("S", "transactions"),
                        "unit",
                        Map.of("S", "2026-10-01"))))));
        assertEquals(List.of(DATASET, "transactions"), Invocations.invoke(handler, stream, null).get("recorded"));
        Map<String, Object> inbox = Map.of("source", "aws.s3", "detail-type", "Object Created",
                "detail", Map.of("bucket", Map.of("name", producer.inbox()), "object", Map.of("key", DATASET
                        + "/progress-2026-03-05.jsonl")));
        assertEquals(List.of(DATASET), Invocations.invoke(handler, inbox, null).get("recorded"));
        Map<String, Object> deleted = Map.of("source", "aws.s3", "detail-type", "Object Deleted",
                "detail", Map.of("bucket", Map.of("name", producer.lake()), "object", Map.of("key",
                        LakeLayout.publishedKey(DATASET, "2026-03-01"))));
        assertEquals(List.of(DATASET), Invocations.invoke(handler, deleted, null).get("recorded"));
        assertTrue(producer.s3.listObjectsV2(
                r -> r.bucket(producer.lake()).prefix(LakeSweepChanges.PREFIX)).keyCount() >= 2,
                "the markers are written");
        assertLeastPrivilege("SweepChangeFunction", changes);
    }

    @Test
    void tableEnqueueFunction_everyCallIsAllowedAndEveryGrantIsUsed() throws Exception {
        Wiring enqueue = wiring("table-enqueue");
        try (SqsClient queues = tableQueue()) {
            TableEnqueueHandler handler = new TableEnqueueHandler(new SqsTableQueue(enqueue.sqsClient(), tableQueueUrl));
            // the Ledger stream's batch as the mapping's filter passes it: units that stand PUBLISHED
            Map<String, Object> stream = Map.of("Records", List.of(Map.of("eventName", "MODIFY", "dynamodb", Map.of(
                    "SequenceNumber", "100", "NewImage", Map.of("dataset", Map.of("S", DATASET), "unit",
                            Map.of("S", "2026-03-01"), "status", Map.of("S", "PUBLISHED"), "run_id", Map.of("S", "run-1"),
                            "content_sha256", Map.of("S", "c0ffee"))))));
            assertEquals(List.of(DATASET + "/2026-03-01"), Invocations.invoke(handler, stream, null).get("queued"));
            List<Message> sent = queues.receiveMessage(r -> r.queueUrl(tableQueueUrl)
                    .messageSystemAttributeNamesWithStrings("MessageGroupId")).messages();
            assertEquals(1, sent.size());
            assertEquals(DATASET, sent.get(0).attributesAsStrings().get("MessageGroupId"), "one message group per dataset");
        }
        assertLeastPrivilege("TableEnqueueFunction", enqueue);
    }

    /**
     * Registers the next version of {@value #DATASET}'s shipped contract with a volume floor of {@code minRows}, as an
     * operator would (the producer's client: not a function's).
     */
    private void registerVolumeFloor(long minRows) throws IOException {
        java.nio.file.Path file = PipelineFixture.REPOSITORY.resolve("datasets/" + DATASET + ".json");
        Map<String, Object> contract = new java.util.LinkedHashMap<>(JSON.std.mapFrom(java.nio.file.Files.readString(file)));
        contract.put("version", ((Number) contract.get("version")).intValue() + 1);
        contract.put("volume", Map.of("minRows", minRows));
        new ContractRegistrar(new S3ContractStore(producer.s3, producer.lake()), Clock.systemUTC())
                .register(DATASET + ".json", JSON.std.asBytes(contract), "LeastPrivilegeIT volume floor");
    }

    /** The table commit queue holds a message of {@code what}: one grouped by the dataset. */
    private void assertTableSubmitted(SqsClient queues, String what) {
        List<Message> sent = queues.receiveMessage(r -> r.queueUrl(tableQueueUrl).maxNumberOfMessages(10)
                .messageSystemAttributeNamesWithStrings("MessageGroupId")).messages();
        assertTrue(!sent.isEmpty(), what + ": a message on the table commit queue");
        assertTrue(sent.stream().allMatch(m -> m.attributesAsStrings().get("MessageGroupId") != null), sent.toString());
    }

    /** A fresh FIFO queue in moto standing for the template's TableCommitQueue (content-based deduplication off). */
    private SqsClient tableQueue() {
        TestResources resources = producer.resources;
        SqsClient queues = SqsClient.builder()
                .region(resources.config().aws().region())
                .credentialsProvider(StaticCredentialsProvider.create(AwsConnection.EMULATOR_CREDENTIALS))
                .endpointOverride(resources.config().aws().dynamoDbEndpoint().orElseThrow())
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .build();
        tableQueueName = "least-privilege-table-commits-" + UUID.randomUUID().toString().substring(0, 8) + ".fifo";
        tableQueueUrl = queues.createQueue(r -> r.queueName(tableQueueName).attributesWithStrings(Map.of(
                "FifoQueue", "true", "ContentBasedDeduplication", "false"))).queueUrl();
        return queues;
    }

    /** Each function of the template and the test here that runs its code paths and checks its role. */
    private static final Map<String, String> FUNCTION_TESTS = Map.of(
            "ValidatorFunction", "validatorFunction_everyCallIsAllowedAndEveryGrantIsUsed",
            "CompletenessSweepFunction", "completenessSweepFunction_everyCallIsAllowedAndEveryGrantIsUsed",
            "RepairFunction", "repairFunction_everyCallIsAllowedAndEveryGrantIsUsed",
            "ConsumerReceiptFunction", "consumerReceiptFunction_everyCallIsAllowedAndEveryGrantIsUsed",
            "SweepPlannerFunction", "sweepPlannerFunction_everyCallIsAllowedAndEveryGrantIsUsed",
            "SweepShardFunction", "sweepShardFunction_everyCallIsAllowedAndEveryGrantIsUsed",
            "SweepChangeFunction", "sweepChangeFunction_everyCallIsAllowedAndEveryGrantIsUsed",
            "TableEnqueueFunction", "tableEnqueueFunction_everyCallIsAllowedAndEveryGrantIsUsed");

    /**
     * A function whose role is proven by a test in another module, which this one cannot run: the table writer's code
     * is in functions/tables, which depends on this module, and most of its requests are not calls of clients a test
     * can wrap (Iceberg's REST catalog routes, signing name s3tables; Iceberg's own S3 client for the table's files;
     * Lambda's poller). {@code TableWriterLeastPrivilegeIT} (tools) runs the writer on the locally deployed stack,
     * where the gateway authorizes each request as its IAM actions and records the statement that allowed it. The
     * entry names the test's file and method, and {@link #everyRoleOfTheTemplate_isProvenHere} checks that both exist.
     */
    private static final Map<String, String> PROVEN_ON_THE_LOCAL_STACK = Map.of(
            "TableWriterFunction", "tools/src/test/java/io/landingledger/tools/local/TableWriterLeastPrivilegeIT.java"
                    + "#tableWriterFunction_everyRequestIsAllowedAndEveryGrantIsUsed");

    /**
     * No role of the template is left unproven: a function's role by its function's test above (a new function
     * fails here until it has one), and a role the template hands to an AWS service (EventBridge Scheduler's, Pipes')
     * against what the resources that name it make that service do ({@link IamModel#serviceNeeds}): every need
     * allowed, every grant needed. A role that is neither fails.
     */
    @Test
    void everyRoleOfTheTemplate_isProvenHere() {
        List<String> findings = new ArrayList<>();
        StringBuilder report = new StringBuilder("roles of the template (transformed) and what proves each:\n");
        Map<String, String> functionOfRole = new java.util.TreeMap<>();
        for (String functionId : template.functions()) {
            String test = FUNCTION_TESTS.get(functionId);
            String elsewhere = PROVEN_ON_THE_LOCAL_STACK.get(functionId);
            if (test == null && elsewhere != null) {
                String file = elsewhere.substring(0, elsewhere.indexOf('#'));
                String method = elsewhere.substring(elsewhere.indexOf('#') + 1);
                java.nio.file.Path source = PipelineFixture.REPOSITORY.resolve(file);
                try {
                    if (!java.nio.file.Files.readString(source).contains("void " + method + "()")) {
                        findings.add(functionId + ": " + file + " has no test " + method);
                    }
                } catch (IOException e) {
                    findings.add(functionId + ": the test that proves its role, " + file + ", is not there");
                }
                report.append("  ").append(template.function(functionId).role()).append(": ").append(functionId)
                        .append("'s role, on the local stack: ").append(elsewhere).append('\n');
                functionOfRole.put(template.function(functionId).role(), functionId);
                continue;
            }
            if (test == null) {
                findings.add(functionId
                        + " has no test here that runs its code paths against its role (add one to FUNCTION_TESTS)");
            } else if (java.util.Arrays.stream(LeastPrivilegeIT.class.getDeclaredMethods()).noneMatch(
                    m -> m.getName().equals(test))) {
                findings.add("FUNCTION_TESTS names " + test + " for " + functionId
                        + ", which is not a test of this class");
            }
            functionOfRole.put(template.function(functionId).role(), functionId);
        }
        FUNCTION_TESTS.keySet().stream().filter(f -> !template.functions().contains(f)).sorted()
                .forEach(f -> findings.add("FUNCTION_TESTS names " + f + ", which is not a function of the template"));
        for (String roleId : template.roles().stream().sorted().toList()) {
            String functionId = functionOfRole.get(roleId);
            if (functionId != null && PROVEN_ON_THE_LOCAL_STACK.containsKey(functionId)) {
                continue;
            }
            if (functionId != null) {
                report.append("  ").append(roleId).append(": ").append(functionId).append("'s role, LeastPrivilegeIT.")
                        .append(FUNCTION_TESTS.get(functionId)).append('\n');
                continue;
            }
            List<IamModel.ServiceNeed> needs = template.serviceNeeds(roleId);
            if (needs.isEmpty()) {
                findings.add(roleId
                        + " is no function's role and no schedule or pipe of the template uses it: "
                        + "nothing here proves it");
                continue;
            }
            report.append("  ").append(roleId)
                    .append(": a service's role, against what the template makes the service do:\n");
            List<IamModel.Grant> grants = template.grants(roleId);
            Map<IamModel.Grant, Integer> used = new java.util.LinkedHashMap<>();
            grants.forEach(g -> used.put(g, 0));
            for (IamModel.ServiceNeed need : needs) {
                LeastPrivilege.Need asked = new LeastPrivilege.Need(need.action(), need.resource(), Map.of(), null,
                        need.because());
                List<IamModel.Grant> allowing = grants.stream()
                        .filter(g -> g.allow() && LeastPrivilege.matches(g, asked)).toList();
                boolean denied = grants.stream().anyMatch(g -> !g.allow() && LeastPrivilege.matches(g, asked));
                allowing.forEach(g -> used.merge(g, 1, Integer::sum));
                String verdict = denied ? "DENIED" : allowing.isEmpty() ? "MISSING"
                        : String.join(", ", allowing.stream()
                                .map(g -> g.sid() == null ? g.policy() : g.sid()).distinct().toList());
                report.append("    ").append(need.action()).append(' ').append(template.display(need.resource()))
                        .append(" (")
                        .append(need.because()).append("): ").append(verdict).append('\n');
                if (denied || allowing.isEmpty()) {
                    findings.add(roleId + ": " + verdict + " " + need.action() + " on "
                            + template.display(need.resource())
                            + " (" + need.because() + ")");
                }
            }
            used.forEach((grant, count) -> {
                if (grant.allow() && count == 0) {
                    findings.add(roleId + ": unused grant " + grant.label()
                            + ": no schedule or pipe of the template needs it");
                }
            });
        }
        System.out.println("[least-privilege] " + report.toString().replace("\n",
                "\n[least-privilege] ").stripTrailing());
        findings.forEach(f -> System.out.println("[least-privilege]     " + f));
        assertEquals(List.of(), findings, "every role of the template proven (the report above lists them)");
    }

    /** The planner as DependencyFactory wires it: shards to the queue through SqsShardQueue on its own SQS client. */
    private SweepPlannerHandler plannerHandler(Wiring planner) {
        return new SweepPlannerHandler(planner.contracts, planner.shardedSweep(null, null),
                new SqsShardQueue(planner.sqsClient(), shardQueueUrl)::submit, sweepMetrics());
    }

    /** A fresh shard queue in moto (the test's own client: creating it is the deploy's business), its URL kept. */
    private SqsClient shardQueue() {
        TestResources resources = producer.resources;
        SqsClient queues = SqsClient.builder()
                .region(resources.config().aws().region())
                .credentialsProvider(StaticCredentialsProvider.create(AwsConnection.EMULATOR_CREDENTIALS))
                .endpointOverride(resources.config().aws().dynamoDbEndpoint().orElseThrow())
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .build();
        shardQueueName = "least-privilege-shards-" + UUID.randomUUID().toString().substring(0, 8);
        shardQueueUrl = queues.createQueue(r -> r.queueName(shardQueueName)).queueUrl();
        return queues;
    }

    /** What the event source mapping receives from the shard queue (and deletes): every message's body. */
    private List<String> takeShards(SqsClient queues) {
        List<String> bodies = new ArrayList<>();
        List<Message> page;
        do {
            page = queues.receiveMessage(r -> r.queueUrl(shardQueueUrl).maxNumberOfMessages(10)).messages();
            for (Message message : page) {
                bodies.add(message.body());
                queues.deleteMessage(r -> r.queueUrl(shardQueueUrl).receiptHandle(message.receiptHandle()));
            }
        } while (!page.isEmpty());
        return bodies;
    }

    /** One SQS message as the event source mapping hands it to the worker (batch size 1). */
    private static Map<String, Object> shardEvent(String body, int receiveCount) {
        return Map.of("Records", List.of(Map.of("messageId", UUID.randomUUID().toString(), "body", body, "eventSource",
                "aws:sqs",
                "attributes", Map.of("ApproximateReceiveCount", String.valueOf(receiveCount)))));
    }

    // ---------------------------------------------------------------------------------------------------------------

    private void assertLeastPrivilege(String functionId, Wiring wiring) {
        assertLeastPrivilege(functionId, wiring, List.of());
    }

    private void assertLeastPrivilege(String functionId, Wiring wiring, List<String> moreFindings) {
        IamModel.Function function = template.function(functionId);
        LeastPrivilege.Report report = LeastPrivilege.check(template, function, wiring.calls.calls(), deployedNames(functionId));
        System.out.println("[least-privilege] " + report.text().replace("\n", "\n[least-privilege] ").stripTrailing());
        moreFindings.forEach(f -> System.out.println("[least-privilege]     " + f));
        assertTrue(!wiring.calls.calls().isEmpty(), functionId + " made no calls: the scenarios did not run");
        List<String> findings = new ArrayList<>(report.findings());
        findings.addAll(moreFindings);
        HistoryPuts.Checked history = HistoryPuts.check(wiring.calls.calls(), producer.resources.ledgerHistoryTable());
        System.out.println("[least-privilege]   history puts: " + history.puts() + (history.findings().isEmpty()
                ? ", each under " + HistoryPuts.CREATE_ONLY : ", " + history.findings().size() + " not under "
                        + HistoryPuts.CREATE_ONLY));
        history.findings().forEach(f -> System.out.println("[least-privilege]     " + f));
        findings.addAll(history.findings());
        assertEquals(List.of(), findings, functionId + "'s role against its recorded calls (the report above lists them)");
    }

    /** The emulators' bucket and table names -> the deployed ones, from the function's environment in the template. */
    private UnaryOperator<String> deployedNames(String functionId) {
        Map<String, String> environment = template.function(functionId).environment();
        TestResources resources = producer.resources;
        Map<String, String> names = new HashMap<>();
        names.put(resources.inboxBucket(), environment.get(FunctionConfig.INBOX_BUCKET));
        names.put(resources.lakeBucket(), environment.get(FunctionConfig.LAKE_BUCKET));
        names.put(resources.ledgerTable(), environment.get(FunctionConfig.LEDGER_TABLE));
        names.put(resources.ledgerHistoryTable(), environment.get(FunctionConfig.LEDGER_HISTORY_TABLE));
        names.put(resources.consumersTable(), environment.get(io.landingledger.lambda.FunctionConfig.CONSUMERS_TABLE));
        if (shardQueueName != null) {
            String queueUrl = template.function("SweepPlannerFunction").environment()
                    .get(SweepPlannerHandler.SHARD_QUEUE);
            names.put(shardQueueName, queueUrl.substring(queueUrl.lastIndexOf('/') + 1));
        }
        if (tableQueueName != null) {
            String queueUrl = template.function("TableEnqueueFunction").environment().get(SqsTableQueue.QUEUE_URL);
            names.put(tableQueueName, queueUrl.substring(queueUrl.lastIndexOf('/') + 1));
        }
        return name -> names.get(name) == null ? "{not in " + functionId + "'s environment: " + name + "}" : names.get(name);
    }

    private void deliver(ValidateObjectHandler handler, PipelineFixture.Uploaded upload, String expected) throws IOException {
        Map<String, Object> response = Invocations.invoke(handler, producer.eventFor(upload), null);
        @SuppressWarnings("unchecked")
        Map<String, Object> record = ((List<Map<String, Object>>) response.get("records")).get(0);
        assertEquals(expected, record.get("action"), record.toString());
    }

    private Wiring wiring(String name) {
        Wiring wiring = new Wiring(name, producer.resources);
        wirings.add(wiring);
        return wiring;
    }

    /** {@link ProgressEventLines#largeCanonicalDay()} and then a row with a prohibited field: refused after the staging upload's first parts. */
    private static byte[] leakingLargeDay() {
        return concat(largeCanonicalDay(), bytes(Events.event("evt_x").text("event_time", "2026-03-12T10:00:00.001Z").text("learner_id", "lrn_1")
                .text("lesson_id", "les_1").raw("checkpoint", "1").text("email", "learner@example.com").line() + "\n"));
    }

    /** A concurrent writer (the producer's client) creates the unit's published object right after {@code wiring} staged it. */
    private void raceThePromote(Wiring wiring, String unit, Runnable run) {
        String raced = LakeLayout.publishedKey(DATASET, unit);
        wiring.steps = (step, staged) -> {
            if (step == IngestService.Step.STAGED && staged.equals(unit)) {
                producer.s3.putObject(r -> r.bucket(producer.lake()).key(raced), software.amazon.awssdk.core.sync.RequestBody.fromString("{}\n"));
            }
        };
        try {
            run.run();
        } catch (RuntimeException lostTheRace) {
            // whatever the run decides after losing the race, its calls are what is recorded
        } finally {
            wiring.steps = IngestService.StepListener.NONE;
        }
        assertTrue(wiring.calls.calls().stream().anyMatch(c -> c.request() instanceof software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest a
                && a.key().equals(raced)), "the lost race aborted the promote");
    }

    /** The producer deletes {@code upload}'s version just before {@code wiring}'s GetObject of it is sent. */
    private void deleteBeforeRead(Wiring wiring, PipelineFixture.Uploaded upload) {
        wiring.beforeCall = request -> {
            if (request instanceof software.amazon.awssdk.services.s3.model.GetObjectRequest get && get.key().equals(upload.key())) {
                producer.s3.deleteObject(r -> r.bucket(producer.inbox()).key(upload.key()).versionId(upload.versionId()));
            }
        };
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The sweep's EMF documents, which go to the function's log (stdout), not to an AWS API. */
    private static SweepMetrics sweepMetrics() {
        return new SweepMetrics(metrics());
    }

    private static DatasetMetrics metrics() {
        return DatasetMetrics.to(new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
    }

    private static final OutcomeReporter QUIET = new OutcomeReporter() {
        @Override
        public void outcome(IngestOutcome outcome) {
        }

        @Override
        public void unroutable(String bucket, String key, String versionId, String reason, String detail) {
        }

        @Override
        public void failed(String bucket, String key, String versionId, String runId, RuntimeException fault) {
        }
    };

    /** One function's clients, adapters and services, wired as DependencyFactory wires them, recorded. */
    private static final class Wiring implements AutoCloseable {
        volatile RecordedCalls calls = new RecordedCalls();
        final TestResources resources;
        final S3Client s3;
        final DynamoDbClient dynamo;
        final ExecutorService uploads;
        final S3ObjectStore store;
        final DynamoDbLedger ledger;
        final IngestService ingest;
        /** As DependencyFactory's: the contracts registered in the lake's _contracts/, read with this function's client. */
        final ContractRegistry contracts;
        /** The ingest path's step listener (a test hook of IngestService): a test makes a concurrent writer here. */
        volatile IngestService.StepListener steps = IngestService.StepListener.NONE;
        /** Runs before each request of this function is sent (a test simulates a concurrent producer here). */
        volatile java.util.function.Consumer<software.amazon.awssdk.core.SdkRequest> beforeCall = r -> { };
        LambdaClient lambda;
        SqsClient sqs;
        software.amazon.awssdk.services.eventbridge.EventBridgeClient events;
        S3Client tagging;
        /**
         * The table commit queue this function submits TABLE_BEHIND units to, as its TABLE_QUEUE_URL names it in the
         * template (the sweeps', the repair's); null: a function without it, which judges no table.
         */
        String tableQueueUrl;
        /** As DependencyFactory with LEDGER_EVENT_BUS (the sweeps'): a SUSPECT_VOLUME unit's producer is told. */
        boolean tellsProducers;

        Wiring(String name, TestResources resources) {
            this.resources = resources;
            AwsConnection connection = resources.config().aws();
            // the interceptor reads the current recorder, so a test can set the setup's calls aside
            software.amazon.awssdk.core.interceptor.ExecutionInterceptor recorder = new DelegatingRecorder(this);
            this.s3 = DependencyFactory.forEmulator(S3Client.builder())
                    .region(connection.region())
                    .credentialsProvider(StaticCredentialsProvider.create(AwsConnection.EMULATOR_CREDENTIALS))
                    .endpointOverride(connection.s3Endpoint().orElseThrow())
                    .httpClientBuilder(UrlConnectionHttpClient.builder())
                    .overrideConfiguration(c -> c.addExecutionInterceptor(recorder))
                    .build();
            this.dynamo = DynamoDbClient.builder()
                    .region(connection.region())
                    .credentialsProvider(StaticCredentialsProvider.create(AwsConnection.EMULATOR_CREDENTIALS))
                    .endpointOverride(connection.dynamoDbEndpoint().orElseThrow())
                    .httpClientBuilder(UrlConnectionHttpClient.builder())
                    .overrideConfiguration(c -> c.addExecutionInterceptor(recorder))
                    .build();
            this.uploads = Executors.newFixedThreadPool(MultipartStreamingUpload.Settings.DEFAULT.maxPartsInFlight(), r -> {
                Thread t = new Thread(r, name + "-part-upload");
                t.setDaemon(true);
                return t;
            });
            this.store = new S3ObjectStore(s3, uploads, MultipartStreamingUpload.Settings.DEFAULT);
            this.contracts = ContractRegistry.fromStore(new ContractCache(new S3ContractStore(s3, resources.lakeBucket()),
                    resources.config().contractCache(), Clock.systemUTC()));
            this.ledger = new DynamoDbLedger(dynamo, resources.ledgerTable(), resources.ledgerHistoryTable());
            this.ingest = new IngestService(store, ledger, resources.lakeBucket(), Clock.systemUTC(),
                    resources.config().validationLimits(), (step, unit) -> steps.after(step, unit));
        }

        ValidateObjectHandler validatorHandler() {
            return new ValidateObjectHandler(new UnitRouter(contracts), ingest, QUIET, () -> UUID.randomUUID().toString(), notices());
        }

        /**
         * As DependencyFactory.decisionNotices(): InputDecision events on the bus the template names, on moto's
         * EventBridge, and the decision's tags through the gateway that answers tagging; both clients recorded.
         */
        io.landingledger.lambda.ProducerNotices notices() {
            String bus = template.function("ValidatorFunction").environment().get(FunctionConfig.LEDGER_EVENT_BUS);
            if (events == null) {
                events = eventBridge(resources, new DelegatingRecorder(this));
                tagging = DependencyFactory.forEmulator(S3Client.builder())
                        .region(resources.config().aws().region())
                        .credentialsProvider(StaticCredentialsProvider.create(AwsConnection.EMULATOR_CREDENTIALS))
                        .endpointOverride(taggingGateway.endpoint())
                        .httpClientBuilder(UrlConnectionHttpClient.builder())
                        .overrideConfiguration(c -> c.addExecutionInterceptor(new DelegatingRecorder(this)))
                        .build();
            }
            return new io.landingledger.lambda.ProducerNotices(new io.landingledger.lambda.adapters.EventBridgeDecisionEvents(events, bus),
                    new io.landingledger.lambda.adapters.S3DecisionTags(tagging), metrics(), Clock.systemUTC());
        }

        /**
         * As DependencyFactory.deployedSweep(): re-drives through the validator function the template names in
         * VALIDATOR_FUNCTION (here: the stub endpoint), in process when the template sets none.
         */
        CompletenessSweepHandler sweepHandler(String validatorFunction, StubLambda endpoint) {
            return new CompletenessSweepHandler(contracts, completenessSweep(validatorFunction, endpoint), metrics(),
                    QUIET);
        }

        /** As DependencyFactory.deployedSweep(): the completeness sweep whose re-drives go to {@code endpoint}. */
        CompletenessSweep completenessSweep(String validatorFunction, StubLambda endpoint) {
            IngestPath redrive = ingest;
            if (validatorFunction != null && !validatorFunction.isBlank()) {
                lambda = LambdaClient.builder()
                        .region(resources.config().aws().region())
                        .credentialsProvider(StaticCredentialsProvider.create(AwsConnection.EMULATOR_CREDENTIALS))
                        .endpointOverride(endpoint.uri())
                        .httpClientBuilder(UrlConnectionHttpClient.builder())
                        .overrideConfiguration(c -> c.addExecutionInterceptor(new DelegatingRecorder(this)))
                        .build();
                redrive = new LambdaIngestPath(() -> lambda, validatorFunction.strip(), resources.config().aws().region().id());
            }
            // As DependencyFactory with TABLE_QUEUE_URL set (the template's grace, TableTracking.DEFAULT_GRACE). No
            // table writer runs here, so no table ever follows a publish; the sweep runs as the schedule runs it once
            // the grace has passed since the publishes (its clock that much ahead), so each published unit is
            // TABLE_BEHIND and re-driven, whatever second it was published in.
            Clock clock = tableQueueUrl == null ? Clock.systemUTC()
                    : Clock.offset(Clock.systemUTC(), TableTracking.DEFAULT_GRACE.plusSeconds(1));
            CompletenessSweep sweep = new CompletenessSweep(store, ledger, redrive, new UnitRouter(contracts),
                    resources.inboxBucket(), resources.lakeBucket(), clock,
                    () -> UUID.randomUUID().toString(), consumers());
            if (tellsProducers) {
                sweep = sweep.withNotices(notices());
            }
            return tableQueueUrl == null ? sweep
                    : sweep.withTables(new TableTracking(TableTracking.DEFAULT_GRACE,
                            new SqsTableQueue(sqsClient(), tableQueueUrl)));
        }

        /** As DependencyFactory.shardedSweep(): planner, shard runner and assembler over this wiring's clients. */
        ShardedSweep shardedSweep(String validatorFunction, StubLambda endpoint) {
            return new ShardedSweep(completenessSweep(validatorFunction, endpoint), store, resources.lakeBucket(),
                    new LakeSweepChanges(store, resources.lakeBucket()), ShardBudget.defaults(), contracts::get);
        }

        /** As DependencyFactory.sqsClient(), on moto's endpoint (moto serves SQS beside DynamoDB), recorded. */
        SqsClient sqsClient() {
            if (sqs == null) {
                sqs = SqsClient.builder()
                        .region(resources.config().aws().region())
                        .credentialsProvider(StaticCredentialsProvider.create(AwsConnection.EMULATOR_CREDENTIALS))
                        .endpointOverride(resources.config().aws().dynamoDbEndpoint().orElseThrow())
                        .httpClientBuilder(UrlConnectionHttpClient.builder())
                        .overrideConfiguration(c -> c.addExecutionInterceptor(new DelegatingRecorder(this)))
                        .build();
            }
            return sqs;
        }

        /** As DependencyFactory's receipts: the Consumers table on this wiring's client. */
        io.landingledger.lambda.adapters.DynamoDbConsumerReceipts consumers() {
            return new io.landingledger.lambda.adapters.DynamoDbConsumerReceipts(dynamo, resources.consumersTable());
        }

        ConsumerReceiptHandler consumerReceiptHandler() {
            return new ConsumerReceiptHandler(contracts, consumers());
        }

        RepairHandler repairHandler() {
            RepairService service = new RepairService(contracts, ledger, store, ingest, resources.inboxBucket(), resources.lakeBucket(),
                    Clock.systemUTC(), Duration.ZERO, notices());
            if (tableQueueUrl != null) {
                // as DependencyFactory with TABLE_QUEUE_URL: a repaired unit whose table does not hold it is submitted
                service = service.withTableQueue(new SqsTableQueue(sqsClient(), tableQueueUrl));
            }
            return new RepairHandler(service, () -> UUID.randomUUID().toString());
        }

        @Override
        public void close() {
            uploads.shutdownNow();
            s3.close();
            dynamo.close();
            if (lambda != null) {
                lambda.close();
            }
            if (sqs != null) {
                sqs.close();
            }
            if (events != null) {
                events.close();
            }
            if (tagging != null) {
                tagging.close();
            }
        }
    }

    /** An EventBridge client on moto's endpoint (moto serves EventBridge beside DynamoDB), recorded when asked. */
    private static software.amazon.awssdk.services.eventbridge.EventBridgeClient eventBridge(TestResources resources,
            software.amazon.awssdk.core.interceptor.ExecutionInterceptor recorder) {
        var builder = software.amazon.awssdk.services.eventbridge.EventBridgeClient.builder()
                .region(resources.config().aws().region())
                .credentialsProvider(StaticCredentialsProvider.create(AwsConnection.EMULATOR_CREDENTIALS))
                .endpointOverride(resources.config().aws().dynamoDbEndpoint().orElseThrow())
                .httpClientBuilder(UrlConnectionHttpClient.builder());
        if (recorder != null) {
            builder.overrideConfiguration(c -> c.addExecutionInterceptor(recorder));
        }
        return builder.build();
    }

    /** Forwards to the wiring's current recorder. */
    private record DelegatingRecorder(Wiring wiring) implements software.amazon.awssdk.core.interceptor.ExecutionInterceptor {
        @Override
        public void beforeExecution(software.amazon.awssdk.core.interceptor.Context.BeforeExecution context,
                                    software.amazon.awssdk.core.interceptor.ExecutionAttributes attributes) {
            wiring.calls.beforeExecution(context, attributes);
            wiring.beforeCall.accept(context.request());
        }

        @Override
        public void beforeTransmission(software.amazon.awssdk.core.interceptor.Context.BeforeTransmission context,
                                       software.amazon.awssdk.core.interceptor.ExecutionAttributes attributes) {
            wiring.calls.beforeTransmission(context, attributes);
        }

        @Override
        public void afterExecution(software.amazon.awssdk.core.interceptor.Context.AfterExecution context,
                                   software.amazon.awssdk.core.interceptor.ExecutionAttributes attributes) {
            wiring.calls.afterExecution(context, attributes);
        }

        @Override
        public void onExecutionFailure(software.amazon.awssdk.core.interceptor.Context.FailedExecution context,
                                       software.amazon.awssdk.core.interceptor.ExecutionAttributes attributes) {
            wiring.calls.onExecutionFailure(context, attributes);
        }
    }

    /**
     * Lambda's Invoke endpoint ({@code POST /2015-03-31/functions/<name>/invocations}) in front of the validator's
     * handler: a RequestResponse invocation answers the handler's response, an Event one 202 after the handler ran.
     */
    private static final class StubLambda implements AutoCloseable {
        final HttpServer server;
        final List<String> invocations = java.util.Collections.synchronizedList(new ArrayList<>());

        StubLambda(ValidateObjectHandler validator) throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/2015-03-31/functions/", exchange -> {
                String path = exchange.getRequestURI().getRawPath();
                String function = URLDecoder.decode(path.substring("/2015-03-31/functions/".length(), path.lastIndexOf("/invocations")),
                        StandardCharsets.UTF_8);
                String type = exchange.getRequestHeaders().getFirst("X-Amz-Invocation-Type");
                invocations.add(function + " " + type);
                String event = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                byte[] body;
                int status;
                try {
                    Map<String, Object> response = Invocations.invoke(validator, EVENTS.fromJson(event), null);
                    body = "Event".equals(type) ? new byte[0] : JSON.std.asString(response).getBytes(StandardCharsets.UTF_8);
                    status = "Event".equals(type) ? 202 : 200;
                } catch (RuntimeException e) {
                    body = ("{\"errorType\":\"" + e.getClass().getSimpleName() + "\"}").getBytes(StandardCharsets.UTF_8);
                    status = 200;
                    exchange.getResponseHeaders().add("X-Amz-Function-Error", "Unhandled");
                }
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
        }

        URI uri() {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
