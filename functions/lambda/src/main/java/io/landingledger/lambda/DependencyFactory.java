package io.landingledger.lambda;

import io.landingledger.core.consumers.ConsumerReceipts;
import io.landingledger.core.contract.ContractCache;
import io.landingledger.core.contract.ContractRegistrar;
import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.ContractStore;
import io.landingledger.core.ingest.DecisionNotices;
import io.landingledger.core.ingest.IngestPath;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.repair.RepairService;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.TableTracking;
import io.landingledger.core.table.TableQueue;
import io.landingledger.core.validate.StreamingValidator;
import io.landingledger.lambda.adapters.DynamoDbConsumerReceipts;
import io.landingledger.lambda.adapters.DynamoDbLedger;
import io.landingledger.lambda.adapters.EventBridgeDecisionEvents;
import io.landingledger.lambda.adapters.LambdaIngestPath;
import io.landingledger.lambda.adapters.MultipartStreamingUpload;
import io.landingledger.lambda.adapters.S3ContractStore;
import io.landingledger.lambda.adapters.S3DecisionTags;
import io.landingledger.lambda.adapters.S3ObjectStore;
import io.landingledger.lambda.adapters.SqsTableQueue;

import org.apache.logging.log4j.LogManager;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.LambdaClientBuilder;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.utils.Lazy;

/**
 * Builds the SDK clients once per execution environment. A handler creates one factory in its constructor (at
 * init, so SnapStart snapshots built clients) and reuses it for every invocation; the local run and the tests build
 * theirs from a {@link FunctionConfig} pointed at the emulators, so every caller gets identically configured
 * clients.
 *
 * <p>All clients use {@link UrlConnectionHttpClient}: the JDK's HttpURLConnection loads fastest at init and needs no
 * extra jars (netty, apache and apache5 are excluded from the Lambda jar, see functions/lambda/pom.xml).
 */
public final class DependencyFactory implements AutoCloseable {
    private final FunctionConfig config;
    private final S3Client s3;
    private final DynamoDbClient dynamoDb;
    private final ExecutorService partUploads;
    private final S3ContractStore contractStore;
    private final ContractRegistry contracts;
    private final S3ObjectStore objectStore;
    private final DynamoDbLedger ledger;
    private final IngestService ingestService;
    private final OutcomeReporter reporter;
    private final ConsumerReceipts consumers;
    /** The sweep's and the repair's table queue, made at the first use (its SQS client closed with the factory). */
    private TableQueue tableQueue;
    private Lazy<SqsClient> tableSqs;
    /** The validator's EventBridge client, made with its notices (closed with the factory). */
    private EventBridgeClient eventBridge;
    /** Where the function's metrics documents go: its standard output, which Lambda sends to its log group. */
    private final PrintStream stdout;

    private DependencyFactory(FunctionConfig config, PrintStream stdout) {
        this.config = config;
        this.s3 = s3Client(config.aws());
        this.dynamoDb = dynamoDbClient(config.aws());
        // parts of the staging upload go out on these threads while the validator keeps parsing
        this.partUploads = Executors.newFixedThreadPool(MultipartStreamingUpload.Settings.DEFAULT.maxPartsInFlight(), runnable -> {
            Thread thread = new Thread(runnable, "landing-part-upload");
            thread.setDaemon(true);
            return thread;
        });
        // the contracts registered at run time (landing dataset), read through a bounded cache: no deploy to add one
        this.contractStore = new S3ContractStore(s3, config.lakeBucket());
        this.contracts = ContractRegistry.fromStore(new ContractCache(contractStore, config.contractCache(), Clock.systemUTC()));
        this.objectStore = new S3ObjectStore(s3, partUploads, MultipartStreamingUpload.Settings.DEFAULT, config.reads());
        this.ledger = new DynamoDbLedger(dynamoDb, config.ledgerTable(), config.ledgerHistoryTable());
        this.ingestService = new IngestService(objectStore, ledger, config.lakeBucket(), Clock.systemUTC(),
                config.validationLimits(), IngestService.StepListener.NONE);
        this.reporter = LogAndMetricsReporter.to(DatasetMetrics.to(stdout, config.perDatasetMetrics()));
        this.stdout = stdout;
        // the receipts the sweep reads; without a table no consumer is known
        this.consumers = config.consumersTable()
                .<ConsumerReceipts>map(table -> new DynamoDbConsumerReceipts(dynamoDb, table))
                .orElse(ConsumerReceipts.NONE);
    }

    /** Builds both clients now, so init pays for them and invocations do not. */
    public static DependencyFactory create(FunctionConfig config) {
        return new DependencyFactory(Objects.requireNonNull(config, "config"), System.out);
    }

    /**
     * The functions' init: configuration from the environment, then the spill directories of a validation that
     * Lambda killed (a timeout never reaches the index's cleanup, and /tmp outlives the process into the next init)
     * are deleted, since no validation can be running in this environment yet; then {@link #create}.
     */
    public static DependencyFactory forFunction() {
        return forFunction(System.getenv(), System.out);
    }

    /**
     * As {@link #forFunction()} with the environment and standard output given: what the locally deployed stack's
     * runtime gives each function (the variables the template declares plus the runtime's own, and its log stream),
     * where one JVM runs every function and neither can be the process's.
     */
    public static DependencyFactory forFunction(Map<String, String> environment, PrintStream stdout) {
        FunctionConfig config = FunctionConfig.fromEnvironment(environment);
        try {
            int removed = StreamingValidator.deleteLeftoverSpills(config.validationLimits().spillDirectory());
            if (removed > 0) {
                LogManager.getLogger(DependencyFactory.class).warn(new JsonLine("deleted leftover key-index spill directories",
                        Map.of("directories", removed, "under", config.validationLimits().spillDirectory().toString())));
            }
        } catch (IOException e) {
            // not fatal: the index checks the free space before it spills, and refuses a file that does not fit
            LogManager.getLogger(DependencyFactory.class).warn(new JsonLine("could not delete leftover key-index spill directories",
                    Map.of("error", e.getClass().getSimpleName())));
        }
        return new DependencyFactory(config, Objects.requireNonNull(stdout, "stdout"));
    }

    /** The function's metrics: on its standard output, per dataset unless the configuration says the fleet's only. */
    public DatasetMetrics metrics() {
        return DatasetMetrics.to(stdout, config.perDatasetMetrics());
    }

    /** The function's standard output (its metrics documents go there). */
    public PrintStream stdout() {
        return stdout;
    }

    public FunctionConfig config() {
        return config;
    }

    public S3Client s3() {
        return s3;
    }

    public DynamoDbClient dynamoDb() {
        return dynamoDb;
    }

    /** The dataset contracts registered in the store (the lake's {@code _contracts/}), through the bounded cache. */
    public ContractRegistry contracts() {
        return contracts;
    }

    /** The contract store itself (registration, {@code landing dataset}): no cache. */
    public ContractStore contractStore() {
        return contractStore;
    }

    /**
     * Registers every example contract shipped under {@code datasets/} (bundled beside these classes) through the same
     * checks as {@code landing dataset add}, doing nothing for one already in force: what the local run calls at its
     * start. Returns each dataset's version in force.
     *
     * @throws io.landingledger.core.contract.InvalidContractException a shipped contract does not load
     * @throws io.landingledger.core.contract.ContractRefusedException the store holds another version that the file
     *                                                                 cannot follow (not the next version, or breaking)
     */
    public Map<String, Integer> registerBundledContracts(String reason) {
        ContractRegistrar registrar = new ContractRegistrar(contractStore, Clock.systemUTC());
        Map<String, Integer> versions = new java.util.TreeMap<>();
        ContractRegistry.bundledFiles(DependencyFactory.class).forEach((source, bytes) -> {
            ContractRegistrar.Registration registration = registrar.register(source, bytes, reason);
            versions.put(registration.entry().dataset(), registration.entry().version());
        });
        return versions;
    }

    public UnitRouter router() {
        return new UnitRouter(contracts);
    }

    public S3ObjectStore objectStore() {
        return objectStore;
    }

    public DynamoDbLedger ledger() {
        return ledger;
    }

    /** The publish protocol, wired to S3 and DynamoDB. */
    public IngestService ingestService() {
        return ingestService;
    }

    public OutcomeReporter reporter() {
        return reporter;
    }

    /**
     * Where the validator tells producers its decisions (docs/producers.md): InputDecision events on the ledger bus
     * ({@value FunctionConfig#LEDGER_EVENT_BUS}) and tags on the input's version; nobody when no bus is configured.
     */
    public synchronized DecisionNotices decisionNotices() {
        return config.ledgerEventBus()
                .<DecisionNotices>map(bus -> new ProducerNotices(new EventBridgeDecisionEvents(eventBridgeClient(), bus),
                        new S3DecisionTags(s3), DatasetMetrics.to(stdout, config.perDatasetMetrics()), Clock.systemUTC()))
                .orElse(DecisionNotices.NONE);
    }

    /** An EventBridge client: the function's region and credentials, SDK retries; the local stack's one endpoint. */
    private EventBridgeClient eventBridgeClient() {
        if (eventBridge != null) {
            return eventBridge;
        }
        var builder = EventBridgeClient.builder().httpClientBuilder(UrlConnectionHttpClient.builder())
                .region(config.aws().region()).credentialsProvider(DefaultCredentialsProvider.builder().build());
        config.aws().lambdaEndpoint().ifPresent(endpoint -> builder.endpointOverride(endpoint)
                .credentialsProvider(StaticCredentialsProvider.create(config.aws().endpointCredentials().orElseThrow())));
        eventBridge = builder.build();
        return eventBridge;
    }

    /**
     * Operator repair, on the same ingest path as the validator; on a stack with tables ({@value
     * FunctionConfig#TABLE_QUEUE_URL}) a repaired unit whose table does not hold its publish goes to the table queue.
     */
    public RepairService repairService() {
        RepairService repair = new RepairService(contracts, ledger, objectStore, ingestService, config.inboxBucket(),
                config.lakeBucket(), Clock.systemUTC(), RepairService.DEFAULT_SAFETY_MARGIN, decisionNotices());
        return tableQueue().map(repair::withTableQueue).orElse(repair);
    }

    /**
     * The table commit queue ({@value FunctionConfig#TABLE_QUEUE_URL}) on this factory's SQS client, built at the
     * first use; empty on a stack without tables.
     */
    private synchronized Optional<TableQueue> tableQueue() {
        if (config.tableQueueUrl().isEmpty()) {
            return Optional.empty();
        }
        if (tableQueue == null) {
            // built at the first submit, not at init: most sweeps find no table behind
            Lazy<SqsClient> client = new Lazy<>(this::sqsClient);
            String url = config.tableQueueUrl().get();
            tableQueue = message -> new SqsTableQueue(client.getValue(), url).submit(message);
            tableSqs = client;
        }
        return Optional.of(tableQueue);
    }

    /**
     * An S3 client for {@code connection}. With an endpoint override it addresses buckets path-style
     * ({@code http://host:port/bucket/key}): emulators serve no virtual-host names, and LocalStack accepts both.
     */
    public static S3Client s3Client(AwsConnection connection) {
        S3ClientBuilder builder = S3Client.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .region(connection.region())
                .credentialsProvider(credentials(connection, connection.s3Endpoint()));
        connection.s3Endpoint().ifPresent(endpoint -> forEmulator(builder.endpointOverride(endpoint)));
        return builder.build();
    }

    /**
     * What an S3 client needs against an emulator endpoint (S3Proxy, LocalStack): path-style addressing, and whole
     * request bodies instead of aws-chunked ones. Over plain HTTP the SDK signs each chunk of a PutObject or
     * UploadPart body (and adds a checksum trailer), and now and then the embedded S3Proxy broke such a put off
     * mid-body ("Error writing request body to server") on every retry within the same second, the window its
     * chunk signatures share; about one clean CI run in three failed so. Against S3 (HTTPS) the defaults stay.
     */
    public static S3ClientBuilder forEmulator(S3ClientBuilder builder) {
        return builder.forcePathStyle(true)
                .serviceConfiguration(S3Configuration.builder().chunkedEncodingEnabled(false).build())
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED);
    }

    /** A DynamoDB client for {@code connection}. */
    public static DynamoDbClient dynamoDbClient(AwsConnection connection) {
        DynamoDbClientBuilder builder = DynamoDbClient.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .region(connection.region())
                .credentialsProvider(credentials(connection, connection.dynamoDbEndpoint()));
        connection.dynamoDbEndpoint().ifPresent(builder::endpointOverride);
        return builder.build();
    }

    private static AwsCredentialsProvider credentials(AwsConnection connection, Optional<URI> endpoint) {
        // The emulator's static keys go only to the services that are overridden; anything else is AWS itself and
        // signs with the default chain (in Lambda: the execution role from the environment).
        if (endpoint.isPresent() && connection.endpointCredentials().isPresent()) {
            return StaticCredentialsProvider.create(connection.endpointCredentials().get());
        }
        return DefaultCredentialsProvider.builder().build();
    }

    @Override
    public void close() {
        partUploads.shutdownNow();
        s3.close();
        dynamoDb.close();
        synchronized (this) {
            if (eventBridge != null) {
                eventBridge.close();
            }
            if (tableSqs != null && tableSqs.hasValue()) {
                tableSqs.getValue().close();
            }
        }
    }

    /**
     * The completeness sweep (CompletenessSweepHandler): bulk reads of the ledger, the inbox and {@code published/};
     * its re-drives run this factory's {@link #ingestService()}, the validator's own ingest path.
     */
    public CompletenessSweep sweep() {
        return sweep(ingestService);
    }

    /**
     * The deployed sweep: re-drives go through the validator function named by {@value FunctionConfig#VALIDATOR_FUNCTION}
     * when the configuration has one (so the sweep's role never writes published/ or the ledger), submitted
     * asynchronously (Event invocations, one request each, reported {@code submitted}; the next sweep reads their
     * results from the ledger); in process otherwise (the local run, tests), where each re-drive's outcome is
     * reported by the sweep.
     */
    public CompletenessSweep deployedSweep() {
        return sweepThrough(config.validatorFunction().orElse(null));
    }

    /** As {@link #deployedSweep()}, through {@code validator} (null or blank: in process). */
    public CompletenessSweep sweepThrough(String validator) {
        if (validator == null || validator.isBlank()) {
            return sweep();
        }
        // built at the first re-drive, not at init: most sweeps find nothing to re-drive (~80 ms of init CPU saved)
        Lazy<LambdaClient> lambda = new Lazy<>(() -> {
            LambdaClientBuilder builder = redriveLambdaClient(config.aws().region(), InvokeTimeouts.DEFAULT);
            // the locally deployed stack: its gateway, signed with this function's role's keys
            config.aws().lambdaEndpoint().ifPresent(endpoint -> builder.endpointOverride(endpoint)
                    .credentialsProvider(StaticCredentialsProvider.create(config.aws().endpointCredentials().orElseThrow())));
            return builder.build();
        });
        return sweep(new LambdaIngestPath(lambda::getValue, validator.strip(), config.aws().region().id()));
    }

    /**
     * The timeouts of the sweep's Lambda client ({@link #redriveLambdaClient}). Lambda answers an Event invoke as
     * soon as it has queued the event (milliseconds), however long the validation then takes, so these only bound a
     * Lambda that does not answer: the re-drive is then reported not submitted and left to the next sweep.
     *
     * @param connect the TCP connection's
     * @param read    the socket read's
     * @param apiCall the whole Invoke call's, signing and the one attempt included
     */
    public record InvokeTimeouts(Duration connect, Duration read, Duration apiCall) {
        public static final InvokeTimeouts DEFAULT =
                new InvokeTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(10), Duration.ofSeconds(15));
    }

    /**
     * The sweep's Lambda client, for its re-drives through the validator (Event invocations, {@link
     * LambdaIngestPath}): {@code timeouts} explicit, and no SDK retries, so a
     * re-drive is exactly one Invoke request (a retried Event invoke whose first attempt did reach Lambda would
     * queue a second validation of the file). Returned as a builder so a test can point it at a stub endpoint.
     */
    public static LambdaClientBuilder redriveLambdaClient(Region region, InvokeTimeouts timeouts) {
        return LambdaClient.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder().connectionTimeout(timeouts.connect()).socketTimeout(timeouts.read()))
                .region(region)
                .credentialsProvider(DefaultCredentialsProvider.builder().build())
                .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())
                        .apiCallAttemptTimeout(timeouts.apiCall()).apiCallTimeout(timeouts.apiCall()));
    }

    /**
     * The sharded sweep (SweepPlannerHandler, SweepShardHandler): the deployed sweep per dataset (re-drives through
     * the validator function when it is configured), its files and change markers in the lake bucket, the default
     * shard budget, the bundled contracts.
     */
    public io.landingledger.core.sweep.ShardedSweep shardedSweep() {
        return new io.landingledger.core.sweep.ShardedSweep(deployedSweep(), objectStore, config.lakeBucket(),
                new io.landingledger.core.sweep.LakeSweepChanges(objectStore, config.lakeBucket()),
                io.landingledger.core.sweep.ShardBudget.defaults(), contracts::get);
    }

    /** An SQS client (the sweep planner's, to hand out shards): the function's region and credentials, SDK retries. */
    public software.amazon.awssdk.services.sqs.SqsClient sqsClient() {
        var builder = software.amazon.awssdk.services.sqs.SqsClient.builder().httpClientBuilder(UrlConnectionHttpClient.builder())
                .region(config.aws().region()).credentialsProvider(DefaultCredentialsProvider.builder().build());
        // the locally deployed stack: its one endpoint, signed with this function's role's keys
        config.aws().lambdaEndpoint().ifPresent(endpoint -> builder.endpointOverride(endpoint)
                .credentialsProvider(StaticCredentialsProvider.create(config.aws().endpointCredentials().orElseThrow())));
        return builder.build();
    }

    /**
     * The sweep over {@code redrive}; on a stack with tables ({@value FunctionConfig#TABLE_QUEUE_URL}) it judges each
     * published unit against its table after {@value FunctionConfig#TABLE_GRACE_SECONDS} and re-drives a
     * TABLE_BEHIND unit to the table queue. Without the variable nothing about tables changes.
     */
    private CompletenessSweep sweep(IngestPath redrive) {
        CompletenessSweep base = new CompletenessSweep(objectStore, ledger, redrive, router(), config.inboxBucket(),
                config.lakeBucket(), Clock.systemUTC(), () -> UUID.randomUUID().toString(), consumers);
        // the producer of a SUSPECT_VOLUME unit's input hears it, once (ProducerNotices), when the stack has the bus
        CompletenessSweep sweep = base.withNotices(decisionNotices());
        return tableQueue().map(queue -> sweep.withTables(new TableTracking(config.tableGrace(), queue))).orElse(sweep);
    }
}
