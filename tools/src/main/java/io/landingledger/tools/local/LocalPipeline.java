package io.landingledger.tools.local;

import io.landingledger.cli.stack.LocalStackRecord;
import com.amazonaws.services.lambda.runtime.events.S3Event;

import io.landingledger.cli.Progress;
import io.landingledger.cli.ops.TargetOptions;
import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.store.ForwardingObjectStore;
import io.landingledger.core.store.ObjectNotFoundException;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.lambda.AwsConnection;
import io.landingledger.lambda.ConsumersTable;
import io.landingledger.lambda.DatasetMetrics;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.FunctionConfig;
import io.landingledger.lambda.LedgerTables;
import io.landingledger.lambda.OutcomeReporter;
import io.landingledger.lambda.handlers.CompletenessSweepHandler;
import io.landingledger.lambda.handlers.ValidateObjectHandler;

import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The whole pipeline on one machine: resources created from the same definitions as the template, files uploaded
 * as a producer would, each S3 notification delivered to the handler class Lambda runs, then the sweep. The
 * emulators (or the endpoint given) are the caller's; this class only talks to them through the SDK.
 */
final class LocalPipeline implements Pipeline {
    static final String INBOX_BUCKET = "landing-inbox-local";
    static final String LAKE_BUCKET = "landing-lake-local";
    static final String LEDGER_TABLE = "LandingLedger-Ledger";
    static final String HISTORY_TABLE = "LandingLedger-LedgerHistory";
    /** Consumer receipts (`landing ack`), as the template's ConsumersTable (ConsumersTable is shared). */
    static final String CONSUMERS_TABLE = TargetOptions.DEFAULT_CONSUMERS;

    private final FunctionConfig config;
    private final DependencyFactory dependencies;
    private final ValidateObjectHandler validator;
    private final CompletenessSweepHandler sweep;
    private final PrintStream progress;
    private final List<IngestOutcome> outcomes = new ArrayList<>();
    private final List<Map<String, Object>> unroutable = new ArrayList<>();
    /** key@version of every object whose notification was delivered. */
    private final Set<String> delivered = ConcurrentHashMap.newKeySet();
    /** Units seen per dataset (first to last gives the sweep's range, so a gap shows as MISSING). */
    private final Map<String, TreeSet<String>> unitsSeen = new TreeMap<>();

    /** Records the handler reported failed (or whose delivery threw): key, version, a one-line reason. */
    private final List<Map<String, Object>> failures = new ArrayList<>();
    private boolean debug;
    /** Per-file progress (landing local --quiet silences it; tests force pipe mode with a short interval). */
    private boolean quietProgress;
    private Duration progressInterval;
    /** The meter of the delivery being handled: the inbox object's read is counted into it (see {@link MeteredStore}). */
    private volatile Progress meter;

    LocalPipeline(AwsConnection connection, PrintStream progress) {
        this(connection, progress, IngestService.StepListener.NONE);
    }

    /** As above, with {@code steps} called after each step of the validator's ingest path (tests inject faults there). */
    LocalPipeline(AwsConnection connection, PrintStream progress, IngestService.StepListener steps) {
        this.progress = progress;
        this.config = FunctionConfig.builder().inboxBucket(INBOX_BUCKET).lakeBucket(LAKE_BUCKET).ledgerTable(LEDGER_TABLE)
                .ledgerHistoryTable(HISTORY_TABLE).aws(connection).consumersTable(CONSUMERS_TABLE).build();
        this.dependencies = DependencyFactory.create(config);
        createResources();
        // the shipped examples, through the same checks as `landing dataset add`; already registered: nothing written
        dependencies.registerBundledContracts("landing local: the shipped example contracts");
        Recorder recorder = new Recorder();
        // the factory's ingest path, over a store whose reads of the inbox object feed the file's progress meter
        IngestService ingest = new IngestService(new MeteredStore(dependencies.objectStore()), dependencies.ledger(), LAKE_BUCKET,
                Clock.systemUTC(), config.validationLimits(), steps);
        this.validator = new ValidateObjectHandler(dependencies.router(), ingest, recorder,
                () -> UUID.randomUUID().toString());
        // the sweep's EMF documents are for CloudWatch; locally they would only bury the summary
        this.sweep = new CompletenessSweepHandler(dependencies.contracts(), dependencies.sweep(),
                DatasetMetrics.to(new PrintStream(OutputStream.nullOutputStream())), recorder);
    }

    FunctionConfig config() {
        return config;
    }

    ContractRegistry contracts() {
        return dependencies.contracts();
    }

    S3Client s3() {
        return dependencies.s3();
    }

    /** The inbox and lake buckets and both tables, as the template declares them (LedgerTables is shared). */
    private void createResources() {
        S3Client s3 = dependencies.s3();
        for (String bucket : List.of(INBOX_BUCKET, LAKE_BUCKET)) {
            try {
                s3.createBucket(r -> r.bucket(bucket));
            } catch (S3Exception e) {
                if (e.statusCode() != 409) { // BucketAlreadyOwnedByYou: a LocalStack that ran before
                    throw e;
                }
            }
        }
        s3.putBucketVersioning(r -> r.bucket(INBOX_BUCKET).versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
        var existing = dependencies.dynamoDb().listTables().tableNames();
        if (!existing.contains(LEDGER_TABLE)) {
            LedgerTables.create(dependencies.dynamoDb(), LEDGER_TABLE, HISTORY_TABLE);
        }
        if (!existing.contains(CONSUMERS_TABLE)) {
            ConsumersTable.create(dependencies.dynamoDb(), CONSUMERS_TABLE);
        }
    }

    private boolean lostBucketEvents;

    /** Objects other clients put into the inbox arrive with their S3 event lost (landing local --no-bucket-events). */
    void loseOtherClientsEvents() {
        lostBucketEvents = true;
    }

    @Override
    public boolean deliverNewVersions(int replay) {
        return !lostBucketEvents && new BucketWatcher(this).deliverNewVersions(replay);
    }

    @Override
    public LocalStackRecord record() {
        return record(config.aws().region().id(), config.aws().s3Endpoint().orElseThrow(),
                config.aws().dynamoDbEndpoint().orElseThrow(), AwsConnection.EMULATOR_CREDENTIALS.accessKeyId(),
                AwsConnection.EMULATOR_CREDENTIALS.secretAccessKey());
    }

    @Override
    public List<String> banner() {
        String s3 = config.aws().s3Endpoint().map(java.net.URI::toString).orElse("AWS");
        return List.of("  S3 endpoint       " + s3,
                "  DynamoDB endpoint " + config.aws().dynamoDbEndpoint().map(java.net.URI::toString).orElse("AWS"),
                "  inbox bucket      " + INBOX_BUCKET + "   lake bucket " + LAKE_BUCKET,
                "  credentials       AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_REGION=us-east-1",
                "  e.g. aws --endpoint-url " + s3 + " s3 cp FILE s3://" + INBOX_BUCKET + "/progress_events/progress-2026-03-07.jsonl");
    }

    @Override
    public java.net.URI s3Endpoint() {
        return config.aws().s3Endpoint().orElseThrow();
    }

    @Override
    public String inboxBucket() {
        return INBOX_BUCKET;
    }

    /** Uploads one file as a producer would and delivers its notification {@code replay} times. */
    @Override
    public void drop(String dataset, Path file, int replay) throws IOException {
        String key = dataset + "/" + file.getFileName();
        Instant at = Instant.now();
        InboxUpload.Uploaded put = InboxUpload.put(dependencies.s3(), INBOX_BUCKET, key, file);
        progress.printf("  put s3://%s/%s (%d bytes, version %s)%n", INBOX_BUCKET, key, put.size(), put.versionId());
        deliver(new S3Notifications.Created(INBOX_BUCKET, key, put.versionId(), put.eTag(), put.size(), at,
                config.aws().region().id()), replay);
    }

    /** Delivers the notification of an object that is already in the inbox (e.g. put by a producer's own client). */
    void deliver(S3Notifications.Created created, int replay) {
        delivered.add(created.key() + "@" + created.versionId());
        S3Event event = S3Notifications.event(List.of(created));
        for (int i = 0; i < replay; i++) {
            int reported = failures.size();
            int before = outcomes.size();
            try (Progress progressMeter = Progress.start(progress, "landing local " + created.key(),
                    created.size(), quietProgress, progressInterval)) {
                meter = progressMeter;
                try {
                    validator.handle(event, null);
                } catch (RuntimeException e) {
                    // the handler fails the invocation so that Lambda retries it; here the record is reported failed
                    // (Recorder.failed, below) and the run goes on with the next file
                    if (failures.size() == reported) {
                        recordFailure(created.key(), created.versionId(), e);
                    }
                } finally {
                    meter = null;
                }
                long rows = -1;
                for (IngestOutcome outcome : outcomes.subList(before, outcomes.size())) {
                    rows = Math.max(rows, 0) + outcome.accepted() + outcome.rejected() + outcome.duplicates();
                }
                progressMeter.finish(rows);
            }
        }
    }

    /** Per-file progress on stderr: off with {@code quiet}; {@code pipeInterval} non-null forces pipe mode at that interval. */
    @Override
    public void progress(boolean quiet, Duration pipeInterval) {
        this.quietProgress = quiet;
        this.progressInterval = pipeInterval;
    }

    /**
     * The pipeline's object store, its reads of inbox objects counted into the current file's meter; everything else
     * passes through unchanged.
     */
    private final class MeteredStore extends ForwardingObjectStore {
        MeteredStore(ObjectStore store) {
            super(store);
        }

        @Override
        public OpenedObject open(String bucket, String key, String versionId) throws ObjectNotFoundException {
            OpenedObject opened = store.open(bucket, key, versionId);
            Progress current = meter;
            return current == null || !INBOX_BUCKET.equals(bucket) ? opened : new OpenedObject(opened.object(), current.wrap(opened.body()));
        }
    }

    /** Shows a stack trace with each failure (landing local --debug). */
    @Override
    public void debug(boolean on) {
        this.debug = on;
    }

    @Override
    public List<Map<String, Object>> failures() {
        return failures;
    }

    private void recordFailure(String key, String versionId, RuntimeException fault) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("key", key);
        entry.put("version", versionId);
        entry.put("reason", reason(fault));
        failures.add(entry);
        progress.printf("  %-9s %s  %s%n", "failed", key, entry.get("reason"));
        if (debug) {
            fault.printStackTrace(progress);
        }
    }

    /** The exception's class and the first line of its message, at most 300 characters (faults name no row content). */
    static String reason(Throwable fault) {
        String message = firstLine(fault.getMessage() == null ? "" : fault.getMessage());
        return fault.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
    }

    /** The record for this process's stack, with the pipeline's resource names. */
    static LocalStackRecord record(String region, URI s3Endpoint, URI dynamoDbEndpoint, String accessKeyId, String secretAccessKey) {
        return new LocalStackRecord(region, s3Endpoint, dynamoDbEndpoint, INBOX_BUCKET, LAKE_BUCKET, LEDGER_TABLE, HISTORY_TABLE,
                accessKeyId, secretAccessKey, ProcessHandle.current().pid(), CONSUMERS_TABLE, null);
    }

    /** The first line of a fault's message, at most 300 characters (the deployed pipeline's function errors too). */
    static String firstLine(String message) {
        String text = message.strip();
        int newline = text.indexOf('\n');
        text = newline < 0 ? text : text.substring(0, newline).strip();
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }

    /** Runs the sweep over the range of units seen per dataset, and returns its result. */
    @Override
    public Map<String, Object> sweep() {
        Map<String, Object> results = new LinkedHashMap<>();
        for (Map.Entry<String, TreeSet<String>> seen : unitsSeen.entrySet()) {
            results.put(seen.getKey(), sweep.handle(Pipeline.sweepPayload(seen.getKey(), seen.getValue()), null));
        }
        return results;
    }

    boolean wasDelivered(String key, String versionId) {
        return delivered.contains(key + "@" + versionId);
    }

    @Override
    public List<IngestOutcome> outcomes() {
        return outcomes;
    }

    @Override
    public List<Map<String, Object>> unroutable() {
        return unroutable;
    }

    LedgerItem ledgerItem(String dataset, String unit) {
        return dependencies.ledger().get(dataset, unit).orElse(null);
    }

    /** Copies published/, _quarantine/, _reports/ and _status/ out, with a JSON dump of both tables. */
    @Override
    public void export(Path directory) throws IOException {
        LakeExport.write(dependencies, LAKE_BUCKET, unitsSeen.keySet(), directory);
    }

    private final class Recorder implements OutcomeReporter {
        @Override
        public void outcome(IngestOutcome outcome) {
            outcomes.add(outcome);
            unitsSeen.computeIfAbsent(outcome.dataset(), d -> new TreeSet<>()).add(outcome.unit());
            progress.println(Pipeline.progressLine(outcome));
        }

        @Override
        public void unroutable(String bucket, String key, String versionId, String reason, String detail) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("key", key);
            entry.put("reason", reason);
            entry.put("detail", detail);
            unroutable.add(entry);
            progress.printf("  unroutable %s  %s: %s%n", key, reason, detail);
        }

        @Override
        public void failed(String bucket, String key, String versionId, String runId, RuntimeException fault) {
            recordFailure(key, versionId, fault);
        }
    }

    @Override
    public void close() {
        dependencies.close();
    }
}
