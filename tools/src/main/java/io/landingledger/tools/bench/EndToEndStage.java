package io.landingledger.tools.bench;

import io.landingledger.tools.local.InboxUpload;
import io.landingledger.tools.local.S3Notifications;
import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.IngestAction;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.validate.ValidationLimits;
import io.landingledger.localcloud.aws.EmbeddedAws;
import io.landingledger.lambda.AwsConnection;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.FunctionConfig;
import io.landingledger.lambda.LedgerTables;
import io.landingledger.lambda.OutcomeReporter;
import io.landingledger.lambda.adapters.DynamoDbLedger;
import io.landingledger.lambda.adapters.MultipartStreamingUpload;
import io.landingledger.lambda.adapters.RangedRead;
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
    /** How the function reads the inbox object in this stage's passes: K ranges of a size. */
    private final RangedRead.Settings reads;
    private final String name;
    /** The emulators, the put file and the throttle: one set for this stage and its {@link #withReads} variants. */
    private final Environment env;
    private S3ObjectStore store;

    /** What the stage and its variants share; the stage that made it closes it. */
    private static final class Environment {
        final double connectionBytesPerSecond;
        Path s3Directory;
        EmbeddedAws emulators;
        ThrottlingProxy proxy;
        DependencyFactory dependencies;
        PartUploadExecutor partUploads;
        S3Notifications.Created input;
        /** Text bytes and lines of the file, from one untimed scan: the handler reports neither. */
        Pass scanned;
        int passes;
        String previousLake;

        Environment(double connectionBytesPerSecond) {
            this.connectionBytesPerSecond = connectionBytesPerSecond;
        }
    }

    /** Where the embedded S3 keeps the objects. */
    enum S3Storage {
        /** S3Proxy's transient store: on the heap of this JVM, like the tests. */
        MEMORY,
        /** The same store in files under a temporary directory (deleted at the end): the bytes stay off the heap. */
        DISK
    }

    /**
     * @param reads                    how the function reads the inbox object (K ranges of a size)
     * @param connectionBytesPerSecond each S3 connection's limit on the bytes S3 sends ({@link ThrottlingProxy}), or 0
     *                                 for the emulator's own speed
     */
    EndToEndStage(DatasetContract contract, MultipartStreamingUpload.Settings uploadSettings, S3Storage storage,
                  RangedRead.Settings reads, double connectionBytesPerSecond, PrintStream progress) {
        this(contract, uploadSettings, storage, reads, "end-to-end", new Environment(connectionBytesPerSecond), progress);
    }

    private EndToEndStage(DatasetContract contract, MultipartStreamingUpload.Settings uploadSettings, S3Storage storage,
                          RangedRead.Settings reads, String name, Environment env, PrintStream progress) {
        this.contract = contract;
        this.uploadSettings = uploadSettings;
        this.storage = storage;
        this.reads = reads;
        this.name = name;
        this.env = env;
        this.progress = progress;
    }

    /** The same path on the same emulators and file, reading the inbox object with {@code other} (closed by this one). */
    EndToEndStage withReads(RangedRead.Settings other) {
        return new EndToEndStage(contract, uploadSettings, storage, other, "end-to-end k" + other.rangesInFlight(), env, progress);
    }

    RangedRead.Settings reads() {
        return reads;
    }

    /** Each connection's limit on what S3 sends, bytes a second; 0 for none. */
    double connectionBytesPerSecond() {
        return env.connectionBytesPerSecond;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        String read = reads.rangesInFlight() == 1 ? "1 GetObject" : "K=" + reads.rangesInFlight() + " x " + (reads.rangeBytes() >> 20) + " MiB";
        String limit = env.connectionBytesPerSecond > 0
                ? String.format(Locale.ROOT, ", %.0f MB/s/conn", env.connectionBytesPerSecond / 1e6) : ", no limit";
        return "event..ledger, " + read + limit;
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
     * @param s3Connections     the most S3 connections sending at once during the pass (throttling proxy), or -1 without it
     * @param cpuByThreads      the pass's process CPU by what the threads do ({@link ThreadCpuGauge}); empty without /proc
     */
    record Publish(IngestAction action, String refusalCode, long accepted, long duplicates, long rejected, long publishedBytes,
                   long firstByteNanos, long parsedNanos, long stagedNanos, long promotedNanos, long ledgerNanos, long totalNanos,
                   int parts, int partsBeforeParsed, int maxPartsInFlight, long handlerCpuNanos, int s3Connections,
                   Map<String, Long> cpuByThreads) {
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
        env.scanned = new ScanStage().run(file);
        progress.println("landing bench: end-to-end: starting embedded S3 (S3Proxy, objects " + (storage == S3Storage.DISK
                ? "on disk" : "in memory") + ") and DynamoDB (moto) ...");
        try {
            if (storage == S3Storage.DISK) {
                env.s3Directory = Files.createTempDirectory("landing-bench-s3");
                env.emulators = EmbeddedAws.startOnDisk(env.s3Directory);
            } else {
                env.emulators = EmbeddedAws.start();
            }
        } catch (Exception e) {
            throw new IOException("the emulators did not start: " + e.getMessage(), e);
        }
        progress.println("landing bench: end-to-end: emulators ready (" + env.emulators.startupTimes() + ")");
        java.net.URI s3Endpoint = env.emulators.s3Endpoint();
        if (env.connectionBytesPerSecond > 0) {
            env.proxy = new ThrottlingProxy(new java.net.InetSocketAddress(s3Endpoint.getHost(), s3Endpoint.getPort()),
                    env.connectionBytesPerSecond);
            s3Endpoint = env.proxy.endpoint();
            progress.printf(Locale.ROOT, "landing bench: end-to-end: S3 through a throttling proxy at %s, %.1f MB/s a connection"
                    + " from S3 to the function%n", s3Endpoint, env.connectionBytesPerSecond / 1e6);
        }
        env.dependencies = DependencyFactory.create(FunctionConfig.builder().inboxBucket(INBOX_BUCKET).lakeBucket("unused")
                .ledgerTable("unused").ledgerHistoryTable("unused")
                .aws(AwsConnection.endpoints(Region.US_EAST_1, s3Endpoint, env.emulators.dynamoDbEndpoint())).build());
        env.partUploads = new PartUploadExecutor(uploadSettings.maxPartsInFlight());
        S3Client s3 = env.dependencies.s3();
        s3.createBucket(r -> r.bucket(INBOX_BUCKET));
        s3.putBucketVersioning(r -> r.bucket(INBOX_BUCKET).versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
        String key = contract.dataset() + "/" + file.path().getFileName();
        Instant at = Instant.now();
        InboxUpload.Uploaded put = InboxUpload.put(s3, INBOX_BUCKET, key, file.path());
        env.input = new S3Notifications.Created(INBOX_BUCKET, key, put.versionId(), put.eTag(), file.storedBytes(), at,
                Region.US_EAST_1.id());
        progress.printf(Locale.ROOT, "landing bench: end-to-end: put s3://%s/%s (%,d bytes, version %s)%n", INBOX_BUCKET, key,
                file.storedBytes(), put.versionId());
    }

    private UnitRouter router() {
        return new UnitRouter(new ContractRegistry(Map.of(contract.dataset(), contract)));
    }

    @Override
    public Pass run(BenchFile file) throws IOException {
        if (env.emulators == null) {
            prepare(file);
        }
        DependencyFactory dependencies = env.dependencies;
        PartUploadExecutor partUploads = env.partUploads;
        if (store == null) {
            store = new S3ObjectStore(dependencies.s3(), partUploads, uploadSettings, reads);
        }
        int passes = ++env.passes;
        String lake = "landing-lake-bench-" + passes;
        String ledgerTable = "Ledger-" + passes;
        String historyTable = "LedgerHistory-" + passes;
        dependencies.s3().createBucket(r -> r.bucket(lake));
        LedgerTables.create(dependencies.dynamoDb(), ledgerTable, historyTable);
        if (env.previousLake != null) {
            empty(env.previousLake);
        }
        env.previousLake = lake;

        Timeline timeline = new Timeline();
        // the promote copies its ranges on the same threads: count the staging parts before it starts
        AtomicReference<StagingParts> staging = new AtomicReference<>(new StagingParts(0, 0, 0));
        ObjectStore timed = new TimedObjectStore(store, timeline,
                () -> staging.set(new StagingParts(partUploads.completed(), partUploads.completedBefore(timeline.parsed),
                        partUploads.maxActive())));
        IngestService ingest = new IngestService(timed, new DynamoDbLedger(dependencies.dynamoDb(), ledgerTable, historyTable), lake,
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
        var event = S3Notifications.event(List.of(env.input));
        partUploads.reset();
        if (env.proxy != null) {
            env.proxy.resetMaxSending();
        }

        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<String, Long> cpuByThreads;
        long nanos;
        long handlerCpu;
        try (ThreadCpuGauge gauge = new ThreadCpuGauge("handler thread")) {
            long cpuBefore = threads.getCurrentThreadCpuTime();
            timeline.start = System.nanoTime();
            try {
                handler.handle(event, null);
            } catch (RuntimeException e) {
                failure.compareAndSet(null, e);
            }
            nanos = System.nanoTime() - timeline.start;
            handlerCpu = threads.getCurrentThreadCpuTime() - cpuBefore;
            cpuByThreads = gauge.stop();
        }
        int connections = env.proxy == null ? -1 : env.proxy.maxSending();

        if (failure.get() != null) {
            throw new IOException("the end-to-end pass failed: " + failure.get(), failure.get());
        }
        IngestOutcome o = outcome.get();
        long publishedBytes = o.publishedKey() == null ? -1
                : env.dependencies.s3().headObject(r -> r.bucket(lake).key(o.publishedKey())).contentLength();
        Publish publish = new Publish(o.action(), o.refusalCode(), o.accepted(), o.duplicates(), o.rejected(), publishedBytes,
                timeline.since(timeline.firstByte), timeline.since(timeline.parsed), timeline.since(timeline.staged),
                timeline.since(timeline.promoted), timeline.since(timeline.ledgerWritten), nanos, staging.get().uploaded(),
                staging.get().doneBeforeLastRow(), staging.get().maxInFlight(), handlerCpu, connections, cpuByThreads);
        return new Pass(nanos, env.scanned.bytes(), env.scanned.lines(), o.sha256(), null).withPublish(publish);
    }

    /** Deletes every object of a pass's lake bucket, so the in-memory store holds one pass's output at a time. */
    private void empty(String bucket) {
        S3Client s3 = env.dependencies.s3();
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

    /** Closes the shared emulators; a {@link #withReads} variant leaves them to the stage that made it. */
    @Override
    public void close() {
        try {
            if (env.dependencies != null) {
                env.dependencies.close();
            }
            if (env.partUploads != null) {
                env.partUploads.shutdownNow();
            }
            if (env.proxy != null) {
                env.proxy.close();
            }
        } finally {
            if (env.emulators != null) {
                env.emulators.close();
            }
            env.emulators = null;
            env.dependencies = null;
            env.partUploads = null;
            env.proxy = null;
            deleteS3Directory();
        }
    }

    private void deleteS3Directory() {
        Path s3Directory = env.s3Directory;
        if (s3Directory == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(s3Directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
            env.s3Directory = null;
        } catch (IOException e) {
            progress.println("landing bench: could not delete " + s3Directory + ": " + e);
        }
    }

}
