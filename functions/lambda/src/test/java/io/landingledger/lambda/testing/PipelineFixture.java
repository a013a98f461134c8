package io.landingledger.lambda.testing;

import com.amazonaws.services.lambda.runtime.events.S3Event;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.validate.ValidationLimits;
import io.landingledger.lambda.AwsConnection;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.adapters.DynamoDbLedger;
import io.landingledger.lambda.adapters.MultipartStreamingUpload;
import io.landingledger.lambda.adapters.S3ObjectStore;
import io.landingledger.lambda.handlers.ValidateObjectHandler;

import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One isolated pipeline on the embedded emulators (fresh buckets and tables), wired exactly as the function wires
 * itself, with clients whose requests are recorded so tests can pin request shapes and count writes.
 *
 * <p>A test gets one as a parameter from {@link AwsEmulators}, which closes it when the test ends; a test that
 * needs several, or one with injected faults, constructs them and closes them itself.
 */
public final class PipelineFixture implements AutoCloseable {
    public static final Path REPOSITORY = Path.of("../..").toAbsolutePath().normalize();
    private static final AtomicLong SEQUENCER = new AtomicLong(0x0066A1B2C3D4E500L);

    public final TestResources resources;
    public final S3Client s3;
    public final DynamoDbClient dynamo;
    public final RequestRecorder requests = new RequestRecorder();
    public final ExecutorService uploads = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "test-part-upload");
        t.setDaemon(true);
        return t;
    });
    public final S3ObjectStore store;
    public final DynamoDbLedger ledger;
    /** What the handlers made by {@link #handler} reported. */
    private final RecordingReporter reporter = new RecordingReporter();
    public final List<IngestOutcome> outcomes = reporter.outcomes;
    public final List<String> unroutable = reporter.unroutable;
    /** The validator's limits for the services and handlers made after it is set (KeyIndexSpillIT shrinks the index). */
    public ValidationLimits limits = ValidationLimits.defaults();
    /** Records reported failed: {@code <key> <fault's simple class name>}. */
    public final List<String> failed = reporter.failed;

    public PipelineFixture(AwsEmulators emulators) {
        this(emulators, List.of(), null);
    }

    /**
     * For fault drills (InjectedFaultsIT): the same wiring, with extra interceptors on both clients (after the
     * request recorder) and, when not null, the clients' retry strategy replaced (e.g. fewer attempts, short backoff).
     */
    public PipelineFixture(AwsEmulators emulators, List<ExecutionInterceptor> extraInterceptors,
                           software.amazon.awssdk.retries.api.RetryStrategy retryStrategy) {
        this(emulators, extraInterceptors, retryStrategy, io.landingledger.lambda.adapters.RangedRead.Settings.DEFAULT);
    }

    /** The same, with the store reading inbox objects in {@code reads} ranges (tiny ones read the examples in ranges). */
    public PipelineFixture(AwsEmulators emulators, List<ExecutionInterceptor> extraInterceptors,
                           software.amazon.awssdk.retries.api.RetryStrategy retryStrategy,
                           io.landingledger.lambda.adapters.RangedRead.Settings reads) {
        this.resources = emulators.freshResources();
        AwsConnection connection = resources.config().aws();
        Consumer<ClientOverrideConfiguration.Builder> override = c -> {
            c.addExecutionInterceptor(requests);
            extraInterceptors.forEach(c::addExecutionInterceptor);
            if (retryStrategy != null) {
                c.retryStrategy(retryStrategy);
            }
        };
        this.s3 = onEmulator(DependencyFactory.forEmulator(S3Client.builder()), connection,
                connection.s3Endpoint().orElseThrow(), override).build();
        this.dynamo = onEmulator(DynamoDbClient.builder(), connection, connection.dynamoDbEndpoint().orElseThrow(), override)
                .build();
        this.store = new S3ObjectStore(s3, uploads, MultipartStreamingUpload.Settings.DEFAULT, reads);
        this.ledger = new DynamoDbLedger(dynamo, resources.ledgerTable(), resources.ledgerHistoryTable());
    }

    /** The same region, credentials, endpoint and HTTP client for both clients, with the fixture's overrides. */
    private static <B extends AwsClientBuilder<B, ?> & AwsSyncClientBuilder<B, ?>> B onEmulator(B builder,
            AwsConnection connection, URI endpoint, Consumer<ClientOverrideConfiguration.Builder> override) {
        return builder.region(connection.region())
                .credentialsProvider(() -> connection.endpointCredentials().orElse(AwsConnection.EMULATOR_CREDENTIALS))
                .endpointOverride(endpoint)
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .overrideConfiguration(override);
    }

    public String inbox() {
        return resources.inboxBucket();
    }

    public String lake() {
        return resources.lakeBucket();
    }

    public IngestService service(IngestService.StepListener steps) {
        return new IngestService(store, ledger, lake(), Clock.systemUTC(), limits, steps);
    }

    public ValidateObjectHandler handler() {
        return handler(IngestService.StepListener.NONE);
    }

    public ValidateObjectHandler handler(IngestService.StepListener steps) {
        UnitRouter router = new UnitRouter(ContractRegistry.fromDirectory(REPOSITORY.resolve("datasets")));
        return new ValidateObjectHandler(router, service(steps), reporter, () -> UUID.randomUUID().toString());
    }

    /** A producer's upload to the inbox. */
    public Uploaded put(String key, byte[] body) {
        PutObjectResponse response = s3.putObject(r -> r.bucket(inbox()).key(key), RequestBody.fromBytes(body));
        return new Uploaded(key, response.versionId(), unquote(response.eTag()),
                body.length, String.format("%018X", SEQUENCER.incrementAndGet()));
    }

    public Uploaded putExample(String dataset, String file) throws IOException {
        return put(dataset + "/" + file, Files.readAllBytes(REPOSITORY.resolve("examples/inbox").resolve(dataset).resolve(file)));
    }

    public byte[] putExampleBytes(String dataset, String file) throws IOException {
        return Files.readAllBytes(REPOSITORY.resolve("examples/inbox").resolve(dataset).resolve(file));
    }

    public record Uploaded(String key, String versionId, String etag, long size, String sequencer) {
    }

    /** The S3 notification for an upload, shaped exactly as S3 sends it (events/s3-put.json) and deserialized as Lambda does. */
    public S3Event eventFor(Uploaded... uploads) throws IOException {
        String template = Files.readString(REPOSITORY.resolve("events/s3-put.json"));
        int start = template.indexOf('[');
        int end = template.lastIndexOf(']');
        String record = template.substring(start + 1, end).trim();
        List<String> records = new ArrayList<>();
        for (Uploaded upload : uploads) {
            records.add(record
                    .replace("landing-ledger-inbox-123456789012", inbox())
                    .replace("progress_events/progress-2026-03-02.jsonl", URLEncoder.encode(upload.key(), StandardCharsets.UTF_8).replace("%2F", "/"))
                    // an object S3Proxy stored without a version (e.g. a folder marker) has none in its event either
                    .replace(upload.versionId() == null ? "\"versionId\": \"3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY\"," : "3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY",
                            upload.versionId() == null ? "" : upload.versionId())
                    .replace("0123456789abcdef0123456789abcdef", upload.etag())
                    .replace("\"size\": 2272", "\"size\": " + upload.size())
                    .replace("0066A1B2C3D4E5F601", upload.sequencer()));
        }
        Path file = Files.createTempFile("s3-event", ".json");
        Files.writeString(file, template.substring(0, start + 1) + String.join(",", records) + template.substring(end));
        try {
            return EventLoader.loadS3Event(file.toString());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** The action ("published", "refused", ...) of the first record in a {@link #deliver} response. */
    @SuppressWarnings("unchecked")
    public static String action(Map<String, Object> response) {
        return (String) ((List<Map<String, Object>>) response.get("records")).get(0).get("action");
    }

    public Map<String, Object> deliver(S3Event event) {
        return Invocations.invoke(handler(), event, null);
    }

    /** Delivers as Lambda does, with an invocation context (its remaining time). */
    public Map<String, Object> deliver(S3Event event, com.amazonaws.services.lambda.runtime.Context context) {
        return Invocations.invoke(handler(), event, context);
    }

    public static String unquote(String etag) {
        return etag == null ? null : etag.replace("\"", "");
    }

    public byte[] published(String dataset, String unit) {
        return s3.getObjectAsBytes(r -> r.bucket(lake()).key(LakeLayout.publishedKey(dataset, unit))).asByteArray();
    }

    public LedgerItem ledgerItem(String dataset, String unit) {
        return ledger.get(dataset, unit).orElseThrow(() -> new AssertionError("no ledger item for " + dataset + "/" + unit));
    }

    public List<HistoryEntry> history(String dataset, String unit) {
        return ledger.history(dataset, unit);
    }

    public List<String> keys(String prefix) {
        List<String> keys = new ArrayList<>();
        ListObjectsV2Response page = s3.listObjectsV2(r -> r.bucket(lake()).prefix(prefix));
        for (S3Object object : page.contents()) {
            keys.add(object.key());
        }
        return keys;
    }

    public int openMultipartUploads() {
        return s3.listMultipartUploads(r -> r.bucket(lake())).uploads().size();
    }

    /**
     * Everything a reader or operator could observe: every lake object's bytes, ETag and metadata, and every ledger
     * and history item, as comparable text (seed 001's snapshot).
     */
    public String snapshot() {
        TreeMap<String, String> state = new TreeMap<>();
        for (String key : keys("")) {
            var object = s3.getObjectAsBytes(r -> r.bucket(lake()).key(key));
            state.put("s3 " + key, object.response().eTag() + " " + new TreeMap<>(object.response().metadata()) + " "
                    + object.asUtf8String());
        }
        for (Map<String, AttributeValue> item : dynamo.scan(r -> r.tableName(resources.ledgerTable())).items()) {
            state.put("ledger " + item.get("dataset").s() + "/" + item.get("unit").s(), new TreeMap<>(item).toString());
        }
        for (Map<String, AttributeValue> item : dynamo.scan(r -> r.tableName(resources.ledgerHistoryTable())).items()) {
            state.put("history " + item.get("dataset_unit").s() + " " + item.get("at_run").s(), new TreeMap<>(item).toString());
        }
        return String.join("\n", state.entrySet().stream().map(e -> e.getKey() + " = " + e.getValue()).toList());
    }

    // ---- for CompletenessSweepIT ----

    /**
     * The S3 notification for uploads, each record's eventTime set as S3 sets it (about the version's LastModified)
     * rather than the template's fixed time, so that the ledger's input times order inputs as they would on AWS.
     */
    public S3Event eventAt(Uploaded... uploads) throws IOException {
        S3Event template = eventFor(uploads);
        List<com.amazonaws.services.lambda.runtime.events.models.s3.S3EventNotification.S3EventNotificationRecord> records = new ArrayList<>();
        for (int i = 0; i < uploads.length; i++) {
            Uploaded upload = uploads[i];
            var record = template.getRecords().get(i);
            java.time.Instant modified = s3.headObject(r -> r.bucket(inbox()).key(upload.key()).versionId(upload.versionId()))
                    .lastModified();
            records.add(new com.amazonaws.services.lambda.runtime.events.models.s3.S3EventNotification.S3EventNotificationRecord(
                    record.getAwsRegion(), record.getEventName(), record.getEventSource(), modified.toString(), record.getEventVersion(),
                    record.getRequestParameters(), record.getResponseElements(), record.getS3(), record.getUserIdentity()));
        }
        return new S3Event(records);
    }

    /** The bundled contracts, as the functions load them. */
    public ContractRegistry contracts() {
        return ContractRegistry.fromDirectory(REPOSITORY.resolve("datasets"));
    }

    /** The completeness sweep on this pipeline's buckets and ledger; its re-drives run {@link #service}'s ingest path. */
    public io.landingledger.core.sweep.CompletenessSweep sweep(Clock clock) {
        return new io.landingledger.core.sweep.CompletenessSweep(store, ledger, service(IngestService.StepListener.NONE),
                new UnitRouter(contracts()), inbox(), lake(), clock, () -> UUID.randomUUID().toString());
    }

    @Override
    public void close() {
        uploads.shutdownNow();
        s3.close();
        dynamo.close();
    }

    /** Records every SDK request made through the fixture's clients. */
    public static final class RequestRecorder implements ExecutionInterceptor {
        public final List<SdkRequest> all = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            all.add(context.request());
        }

        public void clear() {
            all.clear();
        }

        public <T extends SdkRequest> List<T> of(Class<T> type) {
            synchronized (all) {
                return all.stream().filter(type::isInstance).map(type::cast).toList();
            }
        }

        /** Requests that change state (anything but reads). */
        public List<String> writes() {
            synchronized (all) {
                return all.stream().map(r -> r.getClass().getSimpleName())
                        .filter(name -> !name.startsWith("Get") && !name.startsWith("Head") && !name.startsWith("List")
                                && !name.startsWith("Query") && !name.startsWith("Scan"))
                        .toList();
            }
        }
    }
}
