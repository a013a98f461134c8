package io.landingledger.cli.perf;

import io.landingledger.cli.local.InboxUpload;
import io.landingledger.cli.local.S3Notifications;
import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.IngestAction;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.validate.ValidationLimits;
import io.landingledger.emulators.EmbeddedAws;
import io.landingledger.lambda.AwsConnection;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.FunctionConfig;
import io.landingledger.lambda.LedgerTables;
import io.landingledger.lambda.OutcomeReporter;
import io.landingledger.lambda.adapters.DynamoDbLedger;
import io.landingledger.lambda.adapters.MultipartStreamingUpload;
import io.landingledger.lambda.adapters.S3ObjectStore;
import io.landingledger.lambda.handlers.ValidateObjectHandler;

import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * The product's whole path on the embedded emulators: the {@link ValidateObjectHandler} handles the S3 notification
 * S3 would send for the file's inbox version, and so does GetObject by version, validate, the multipart staging
 * upload (parts in flight while the parser runs), the promote under its condition, and the ledger write.
 *
 * <p>The emulators start once and the file is put into the versioned inbox once, neither timed. Every pass then gets
 * a fresh lake bucket and fresh ledger tables (created before the clock starts), so each one really publishes: on the
 * same state the replay short-circuit would skip the read, and the same-bytes check would skip the publish. The
 * previous pass's lake is emptied before the next starts, so the in-memory store does not grow with the repeats.
 */
final class EndToEndStage implements BenchStage, AutoCloseable {
    private static final String INBOX_BUCKET = "landing-inbox-bench";

    private final DatasetContract contract;
    private final MultipartStreamingUpload.Settings uploadSettings;
    private final PrintStream progress;
    private final S3Storage storage;

    private Path s3Directory;
    private EmbeddedAws emulators;
    private DependencyFactory dependencies;
    private PartUploadExecutor partUploads;
    private S3Notifications.Created input;
    /** Text bytes and lines of the file, from one untimed scan: the handler reports neither. */
    private Pass scanned;
    private int passes;
    private String previousLake;

    /** Where the embedded S3 keeps the objects. */
    enum S3Storage {
        /** S3Proxy's transient store: on the heap of this JVM, like the tests. */
        MEMORY,
        /** The same store in files under a temporary directory (deleted at the end): the bytes stay off the heap. */
        DISK
    }

    EndToEndStage(DatasetContract contract, MultipartStreamingUpload.Settings uploadSettings, S3Storage storage, PrintStream progress) {
        this.contract = contract;
        this.uploadSettings = uploadSettings;
        this.storage = storage;
        this.progress = progress;
    }

    @Override
    public String name() {
        return "end-to-end";
    }

    @Override
    public String description() {
        return "S3 event -> GetObject..ledger, emulators";
    }

    /**
     * One pass as it went: what the handler did, and when (nanoseconds from the handler's call) each step ended.
     *
     * @param parsedNanos       the validator returned: the last row was parsed and written to the staging stream
     * @param stagedNanos       the staging upload completed (its last parts and CompleteMultipartUpload)
     * @param promotedNanos     the promote's CompleteMultipartUpload under its condition returned
     * @param ledgerNanos       the ledger write returned
     * @param firstByteNanos    GetObject returned its headers (the body streams from here)
     * @param partsBeforeParsed part uploads that had finished before the last row was parsed: the overlap
     * @param handlerCpuNanos   CPU time of the handler's thread (GetObject reads, validation, ledger calls); the rest
     *                          of the pass's process CPU is the part uploads, the in-process S3 emulator and the GC
     */
    record Publish(IngestAction action, String refusalCode, long accepted, long duplicates, long rejected, long publishedBytes,
                   long firstByteNanos, long parsedNanos, long stagedNanos, long promotedNanos, long ledgerNanos, long totalNanos,
                   int parts, int partsBeforeParsed, int maxPartsInFlight, long handlerCpuNanos) {
    }

    /** The staging upload's parts, counted when it completed (the promote's copies run on the same threads). */
    private record StagingParts(int uploaded, int doneBeforeLastRow, int maxInFlight) {
    }

    /** Starts the emulators and puts the file into the inbox; neither is timed. */
    private void prepare(BenchFile file) throws IOException {
        UnitRouter.Route route = router().route(contract.dataset() + "/" + file.path().getFileName());
        if (!(route instanceof UnitRouter.Routed)) {
            throw new IllegalArgumentException("the end-to-end stage routes the file by its name as S3 would, and "
                    + file.path().getFileName() + " names no " + contract.dataset() + " unit (" + route
                    + "): rename it to match the contract's unit pattern, or pass --no-end-to-end");
        }
        scanned = new ScanStage().run(file);
        progress.println("landing bench: end-to-end: starting embedded S3 (S3Proxy, objects " + (storage == S3Storage.DISK
                ? "on disk" : "in memory") + ") and DynamoDB (moto) ...");
        try {
            if (storage == S3Storage.DISK) {
                s3Directory = Files.createTempDirectory("landing-bench-s3");
                emulators = EmbeddedAws.startOnDisk(s3Directory);
            } else {
                emulators = EmbeddedAws.start();
            }
        } catch (Exception e) {
            throw new IOException("the emulators did not start: " + e.getMessage(), e);
        }
        progress.println("landing bench: end-to-end: emulators ready (" + emulators.startupTimes() + ")");
        dependencies = DependencyFactory.create(FunctionConfig.builder().inboxBucket(INBOX_BUCKET).lakeBucket("unused")
                .ledgerTable("unused").ledgerHistoryTable("unused")
                .aws(AwsConnection.endpoints(Region.US_EAST_1, emulators.s3Endpoint(), emulators.dynamoDbEndpoint())).build());
        partUploads = new PartUploadExecutor(uploadSettings.maxPartsInFlight());
        S3Client s3 = dependencies.s3();
        s3.createBucket(r -> r.bucket(INBOX_BUCKET));
        s3.putBucketVersioning(r -> r.bucket(INBOX_BUCKET).versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
        String key = contract.dataset() + "/" + file.path().getFileName();
        Instant at = Instant.now();
        InboxUpload.Uploaded put = InboxUpload.put(s3, INBOX_BUCKET, key, file.path());
        input = new S3Notifications.Created(INBOX_BUCKET, key, put.versionId(), put.eTag(), file.storedBytes(), at,
                Region.US_EAST_1.id());
        progress.printf(Locale.ROOT, "landing bench: end-to-end: put s3://%s/%s (%,d bytes, version %s)%n", INBOX_BUCKET, key,
                file.storedBytes(), put.versionId());
    }

    private UnitRouter router() {
        return new UnitRouter(new ContractRegistry(Map.of(contract.dataset(), contract)));
    }

    @Override
    public Pass run(BenchFile file) throws IOException {
        if (emulators == null) {
            prepare(file);
        }
        passes++;
        String lake = "landing-lake-bench-" + passes;
        String ledgerTable = "Ledger-" + passes;
        String historyTable = "LedgerHistory-" + passes;
        dependencies.s3().createBucket(r -> r.bucket(lake));
        LedgerTables.create(dependencies.dynamoDb(), ledgerTable, historyTable);
        if (previousLake != null) {
            empty(previousLake);
        }
        previousLake = lake;

        Timeline timeline = new Timeline();
        // the promote copies its ranges on the same threads: count the staging parts before it starts
        AtomicReference<StagingParts> staging = new AtomicReference<>(new StagingParts(0, 0, 0));
        ObjectStore store = new TimedObjectStore(new S3ObjectStore(dependencies.s3(), partUploads, uploadSettings), timeline,
                () -> staging.set(new StagingParts(partUploads.completed(), partUploads.completedBefore(timeline.parsed),
                        partUploads.maxActive())));
        IngestService ingest = new IngestService(store, new DynamoDbLedger(dependencies.dynamoDb(), ledgerTable, historyTable), lake,
                Clock.systemUTC(), ValidationLimits.defaults(), (step, unit) -> {
                    if (step == IngestService.Step.LEDGER_WRITTEN) {
                        timeline.ledgerWritten = System.nanoTime();
                    }
                });
        AtomicReference<IngestOutcome> outcome = new AtomicReference<>();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        ValidateObjectHandler handler = new ValidateObjectHandler(router(), ingest, new OutcomeReporter() {
            @Override
            public void outcome(IngestOutcome o) {
                outcome.set(o);
            }

            @Override
            public void unroutable(String bucket, String key, String versionId, String reason, String detail) {
                failure.set(new IllegalStateException("unroutable " + key + ": " + reason));
            }

            @Override
            public void failed(String bucket, String key, String versionId, String runId, RuntimeException fault) {
                failure.set(fault);
            }
        }, () -> UUID.randomUUID().toString());
        var event = S3Notifications.event(List.of(input));
        partUploads.reset();

        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuBefore = threads.getCurrentThreadCpuTime();
        timeline.start = System.nanoTime();
        try {
            handler.handleRequest(event, null);
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        }
        long nanos = System.nanoTime() - timeline.start;
        long handlerCpu = threads.getCurrentThreadCpuTime() - cpuBefore;

        if (failure.get() != null) {
            throw new IOException("the end-to-end pass failed: " + failure.get(), failure.get());
        }
        IngestOutcome o = outcome.get();
        long publishedBytes = o.publishedKey() == null ? -1
                : dependencies.s3().headObject(r -> r.bucket(lake).key(o.publishedKey())).contentLength();
        Publish publish = new Publish(o.action(), o.refusalCode(), o.accepted(), o.duplicates(), o.rejected(), publishedBytes,
                timeline.since(timeline.firstByte), timeline.since(timeline.parsed), timeline.since(timeline.staged),
                timeline.since(timeline.promoted), timeline.since(timeline.ledgerWritten), nanos, staging.get().uploaded(),
                staging.get().doneBeforeLastRow(), staging.get().maxInFlight(), handlerCpu);
        return new Pass(nanos, scanned.bytes(), scanned.lines(), o.sha256(), null).withPublish(publish);
    }

    /** Deletes every object of a pass's lake bucket, so the in-memory store holds one pass's output at a time. */
    private void empty(String bucket) {
        S3Client s3 = dependencies.s3();
        for (var object : s3.listObjectsV2Paginator(r -> r.bucket(bucket)).contents()) {
            s3.deleteObject(r -> r.bucket(bucket).key(object.key()));
        }
    }

    /** The moments a pass passed through, from the store's calls; 0 for a step the pass never reached. */
    static final class Timeline {
        volatile long start;
        volatile long firstByte;
        volatile long parsed;
        volatile long staged;
        volatile long promoted;
        volatile long ledgerWritten;

        long since(long at) {
            return at == 0 ? -1 : at - start;
        }
    }

    @Override
    public void close() {
        try {
            if (dependencies != null) {
                dependencies.close();
            }
            if (partUploads != null) {
                partUploads.shutdownNow();
            }
        } finally {
            if (emulators != null) {
                emulators.close();
            }
            emulators = null;
            deleteS3Directory();
        }
    }

    private void deleteS3Directory() {
        if (s3Directory == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(s3Directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
            s3Directory = null;
        } catch (IOException e) {
            progress.println("landing bench: could not delete " + s3Directory + ": " + e);
        }
    }

}
