package io.landingledger.lambda;

import io.landingledger.core.contract.ContractCache;
import io.landingledger.core.sweep.TableTracking;
import io.landingledger.core.validate.ValidationLimits;
import io.landingledger.lambda.adapters.RangedRead;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.regions.Region;

/**
 * Everything a function reads from its environment, read once at init by {@link #fromEnvironment(Map)}.
 *
 * <table>
 *   <caption>Environment variables</caption>
 *   <tr><th>variable</th><th>required</th><th>set by</th></tr>
 *   <tr><td>{@value #INBOX_BUCKET}</td><td>yes</td><td>infra/template.yaml</td></tr>
 *   <tr><td>{@value #LAKE_BUCKET}</td><td>yes</td><td>infra/template.yaml</td></tr>
 *   <tr><td>{@value #LEDGER_TABLE}</td><td>yes</td><td>infra/template.yaml</td></tr>
 *   <tr><td>{@value #LEDGER_HISTORY_TABLE}</td><td>yes</td><td>infra/template.yaml</td></tr>
 *   <tr><td>{@value #AWS_REGION}</td><td>yes</td><td>the Lambda runtime</td></tr>
 *   <tr><td>{@value #LANDING_AWS_ENDPOINT}</td><td>no</td><td>you, for LocalStack: one endpoint for S3 and
 *       DynamoDB, e.g. {@code http://localhost:4566}</td></tr>
 *   <tr><td>{@value #LANDING_S3_ENDPOINT}, {@value #LANDING_DYNAMODB_ENDPOINT}</td><td>no</td><td>you, for an
 *       endpoint per service (the embedded S3Proxy and moto_server); each wins over {@value #LANDING_AWS_ENDPOINT}
 *       for its service</td></tr>
 *   <tr><td>{@value #LANDING_LAMBDA_ENDPOINT}</td><td>no</td><td>the locally deployed stack (its gateway), for the
 *       sweep's re-drives; {@value #LANDING_AWS_ENDPOINT} also sets it</td></tr>
 *   <tr><td>{@value #LANDING_TABLE_CATALOG_URI}</td><td>no</td><td>the locally deployed stack: its Iceberg REST
 *       endpoint ({@code <gateway>/iceberg}), over the template's TABLE_CATALOG_URI (the table writer)</td></tr>
 *   <tr><td>{@value #LANDING_AWS_ACCESS_KEY_ID}, {@value #LANDING_AWS_SECRET_ACCESS_KEY}</td><td>no</td><td>you,
 *       only with an endpoint override; default {@code test}/{@code test}, which emulators accept</td></tr>
 *   <tr><td>{@value #KEY_INDEX_MEMORY_MB}</td><td>no</td><td>you, for a peak day: heap (MiB) the duplicate-key index
 *       holds before it spills to /tmp; default half the heap (docs/operations.md, Limits)</td></tr>
 *   <tr><td>{@value #VALIDATOR_FUNCTION}</td><td>no</td><td>infra/template.yaml, for the sweep only</td></tr>
 *   <tr><td>{@value #CONSUMERS_TABLE}</td><td>no</td><td>infra/template.yaml, for the sweep and the receipt
 *       function</td></tr>
 *   <tr><td>{@value #KEY_INDEX_DISK_MB}</td><td>no</td><td>you: disk (MiB) the spilled runs may take in /tmp;
 *       default the free space of /tmp (512 MB of ephemeral storage unless the template raises it)</td></tr>
 *   <tr><td>{@value #S3_READ_RANGES}</td><td>no</td><td>you: K, the byte ranges of the inbox object read at the same
 *       time (1-64; 1 is one GetObject); default {@value RangedRead.Settings#DEFAULT_RANGES_IN_FLIGHT}</td></tr>
 *   <tr><td>{@value #S3_READ_RANGE_MB}</td><td>no</td><td>you: the size of one range in MiB (1-1024); default 8.
 *       A read buffers at most K x this much heap; an object no larger than one range is one GetObject</td></tr>
 *   <tr><td>{@value #VALIDATOR_WORKERS}</td><td>no</td><td>you: the threads that parse lines (1-64); default the
 *       function's vCPUs (about one per 1,769 MB of memory). The output never depends on it</td></tr>
 *   <tr><td>{@value #CONTRACT_CACHE_TTL_SECONDS}</td><td>no</td><td>infra/template.yaml (parameter
 *       ContractCacheTtlSeconds): how long a function uses a contract it read from the store before reading it again
 *       (0-3600); default 60. A registered change is in force everywhere within this time</td></tr>
 *   <tr><td>{@value #CONTRACT_CACHE_ENTRIES}</td><td>no</td><td>infra/template.yaml: the datasets whose contracts one
 *       function keeps (1-100000, least recently used out first); default 1000</td></tr>
 *   <tr><td>{@value #TABLE_QUEUE_URL}</td><td>no</td><td>infra/template.yaml, for the sweeps and the repair function:
 *       the table commit queue a TABLE_BEHIND unit is re-driven to; unset, the stack has no tables and the sweep
 *       judges none</td></tr>
 *   <tr><td>{@value #TABLE_GRACE_SECONDS}</td><td>no</td><td>infra/template.yaml (parameter TableGraceSeconds): how
 *       long after a publish its table may lag before the unit is TABLE_BEHIND (0-31536000); default 900</td></tr>
 * </table>
 *
 * <p>The overrides have names of their own rather than the SDK's {@code AWS_ENDPOINT_URL}: the SDK reads that one
 * by itself, in every client of the process, so a variable left over in a shell or a function's configuration
 * would silently redirect it. Ours are read here and nowhere else, and a deployed function never sets them.
 *
 * @param inboxBucket        the bucket producers drop files into (versioning on)
 * @param lakeBucket         the bucket holding {@code published/}, {@code _staging/}, {@code _quarantine/} and
 *                           {@code _reports/}
 * @param ledgerTable        the {@code Ledger} table ({@link LedgerTables#ledger(String)})
 * @param ledgerHistoryTable the {@code LedgerHistory} table ({@link LedgerTables#ledgerHistory(String)})
 * @param aws                region, endpoint overrides and their credentials
 * @param validationLimits   the validator's limits: the duplicate-key index's memory and disk budgets
 * @param validatorFunction  the validator function the sweep re-drives through ({@value #VALIDATOR_FUNCTION});
 *                           empty: in process
 * @param reads              how the inbox object is read: K concurrent ranges of a size
 * @param consumersTable     the {@code Consumers} table of consumer receipts ({@value #CONSUMERS_TABLE}); empty: no
 *                           consumer is known
 * @param perDatasetMetrics  metrics carry the dataset's dimension ({@value #METRICS_PER_DATASET}, default true)
 * @param contractCache      how many contracts a function keeps and for how long ({@value #CONTRACT_CACHE_ENTRIES},
 *                           {@value #CONTRACT_CACHE_TTL_SECONDS})
 * @param ledgerEventBus     the bus each decision about an input goes to as an InputDecision event
 *                           ({@value #LEDGER_EVENT_BUS}, the validator's); empty: no event, no tag
 * @param tableQueueUrl      the table commit queue ({@value #TABLE_QUEUE_URL}): set, the stack publishes into tables
 *                           and the sweep and the repair submit a TABLE_BEHIND unit there; empty: no tables
 * @param tableGrace         how long a table may lag its publish ({@value #TABLE_GRACE_SECONDS})
 */
public record FunctionConfig(String inboxBucket, String lakeBucket, String ledgerTable, String ledgerHistoryTable,
                             AwsConnection aws, ValidationLimits validationLimits, Optional<String> validatorFunction,
                             RangedRead.Settings reads, Optional<String> consumersTable, ContractCache.Settings contractCache,
                             boolean perDatasetMetrics, Optional<String> ledgerEventBus, Optional<String> tableQueueUrl,
                             Duration tableGrace) {

    public static final String INBOX_BUCKET = "INBOX_BUCKET";
    public static final String LAKE_BUCKET = "LAKE_BUCKET";
    public static final String LEDGER_TABLE = "LEDGER_TABLE";
    public static final String LEDGER_HISTORY_TABLE = "LEDGER_HISTORY_TABLE";
    public static final String AWS_REGION = "AWS_REGION";
    /**
     * The validator function (its alias ARN) the sweep re-drives lost events through, asynchronously (Event
     * invocations); set by infra/template.yaml for the sweep only. Unset (tests, the local run), the re-drive runs the
     * ingest path in process.
     */
    public static final String VALIDATOR_FUNCTION = "VALIDATOR_FUNCTION";
    /** The Consumers table ({@link ConsumersTable}): the sweep reads its receipts, the receipt function writes them. */
    public static final String CONSUMERS_TABLE = "CONSUMERS_TABLE";
    /**
     * The ledger bus (its name): the validator puts an InputDecision event there for every decision about an input and
     * tags the input's version with it (docs/producers.md); set by infra/template.yaml for the validator, the repair
     * and the sweeps (a unit newly SUSPECT_VOLUME).
     */
    public static final String LEDGER_EVENT_BUS = "LEDGER_EVENT_BUS";
    /** The table commit queue's URL (the same variable SqsTableQueue names): the sweeps' and the repair's. */
    public static final String TABLE_QUEUE_URL = "TABLE_QUEUE_URL";
    /** Seconds a table may lag its unit's publish before the sweep reports TABLE_BEHIND (TableTracking's grace). */
    public static final String TABLE_GRACE_SECONDS = "TABLE_GRACE_SECONDS";
    public static final String LANDING_AWS_ENDPOINT = "LANDING_AWS_ENDPOINT";
    public static final String LANDING_S3_ENDPOINT = "LANDING_S3_ENDPOINT";
    public static final String LANDING_DYNAMODB_ENDPOINT = "LANDING_DYNAMODB_ENDPOINT";
    public static final String LANDING_LAMBDA_ENDPOINT = "LANDING_LAMBDA_ENDPOINT";
    /** The table catalog's endpoint on the locally deployed stack, over TABLE_CATALOG_URI (S3 Tables' on AWS). */
    public static final String LANDING_TABLE_CATALOG_URI = "LANDING_TABLE_CATALOG_URI";
    /** "false": metrics carry no dataset dimension (a large fleet; DatasetMetrics). Default "true". */
    public static final String METRICS_PER_DATASET = "METRICS_PER_DATASET";
    public static final String LANDING_AWS_ACCESS_KEY_ID = "LANDING_AWS_ACCESS_KEY_ID";
    public static final String LANDING_AWS_SECRET_ACCESS_KEY = "LANDING_AWS_SECRET_ACCESS_KEY";
    public static final String KEY_INDEX_MEMORY_MB = "KEY_INDEX_MEMORY_MB";
    public static final String KEY_INDEX_DISK_MB = "KEY_INDEX_DISK_MB";
    public static final String S3_READ_RANGES = "S3_READ_RANGES";
    public static final String S3_READ_RANGE_MB = "S3_READ_RANGE_MB";
    public static final String VALIDATOR_WORKERS = "VALIDATOR_WORKERS";
    /** Seconds a function uses a contract read from the store ({@link ContractCache.Settings#ttl()}). */
    public static final String CONTRACT_CACHE_TTL_SECONDS = "CONTRACT_CACHE_TTL_SECONDS";
    /** Datasets whose contracts a function keeps ({@link ContractCache.Settings#maxEntries()}). */
    public static final String CONTRACT_CACHE_ENTRIES = "CONTRACT_CACHE_ENTRIES";

    /** The variables infra/template.yaml must set for every function (a template test checks it). */
    public static final List<String> TEMPLATE_VARIABLES =
            List.of(INBOX_BUCKET, LAKE_BUCKET, LEDGER_TABLE, LEDGER_HISTORY_TABLE);

    private static final String FROM_TEMPLATE = "infra/template.yaml sets it";

    public FunctionConfig {
        requireName(inboxBucket, "inboxBucket");
        requireName(lakeBucket, "lakeBucket");
        requireName(ledgerTable, "ledgerTable");
        requireName(ledgerHistoryTable, "ledgerHistoryTable");
        Objects.requireNonNull(aws, "aws");
        Objects.requireNonNull(validationLimits, "validationLimits");
        Objects.requireNonNull(validatorFunction, "validatorFunction");
        Objects.requireNonNull(reads, "reads");
        Objects.requireNonNull(consumersTable, "consumersTable");
        Objects.requireNonNull(contractCache, "contractCache");
        Objects.requireNonNull(ledgerEventBus, "ledgerEventBus");
        Objects.requireNonNull(tableQueueUrl, "tableQueueUrl");
        if (tableGrace == null || tableGrace.isNegative()) {
            throw new IllegalArgumentException("tableGrace must be zero or more: " + tableGrace);
        }
    }

    /**
     * Reads the configuration from {@code environment} (the function passes {@code System.getenv()}). Every
     * variable is read once, here.
     *
     * @throws IllegalStateException naming the first variable that is missing or malformed, and what sets it
     */
    public static FunctionConfig fromEnvironment(Map<String, String> environment) {
        Objects.requireNonNull(environment, "environment");
        String inbox = required(environment, INBOX_BUCKET, FROM_TEMPLATE);
        String lake = required(environment, LAKE_BUCKET, FROM_TEMPLATE);
        String ledger = required(environment, LEDGER_TABLE, FROM_TEMPLATE);
        String history = required(environment, LEDGER_HISTORY_TABLE, FROM_TEMPLATE);
        Region region = Region.of(required(environment, AWS_REGION,
                "the Lambda runtime sets it; elsewhere export it, e.g. AWS_REGION=us-east-1"));

        Optional<URI> shared = endpoint(environment, LANDING_AWS_ENDPOINT);
        Optional<URI> s3 = endpoint(environment, LANDING_S3_ENDPOINT).or(() -> shared);
        Optional<URI> dynamoDb = endpoint(environment, LANDING_DYNAMODB_ENDPOINT).or(() -> shared);
        Optional<URI> lambda = endpoint(environment, LANDING_LAMBDA_ENDPOINT).or(() -> shared);
        Optional<String> keyId = optional(environment, LANDING_AWS_ACCESS_KEY_ID);
        Optional<String> secret = optional(environment, LANDING_AWS_SECRET_ACCESS_KEY);
        if (keyId.isPresent() != secret.isPresent()) {
            String missing = keyId.isPresent() ? LANDING_AWS_SECRET_ACCESS_KEY : LANDING_AWS_ACCESS_KEY_ID;
            String set = keyId.isPresent() ? LANDING_AWS_ACCESS_KEY_ID : LANDING_AWS_SECRET_ACCESS_KEY;
            throw new IllegalStateException(missing + " is not set but " + set + " is; set both or neither");
        }
        Optional<AwsBasicCredentials> credentials = Optional.empty();
        if (s3.isPresent() || dynamoDb.isPresent() || lambda.isPresent()) {
            credentials = Optional.of(keyId.isPresent()
                    ? AwsBasicCredentials.create(keyId.get(), secret.get())
                    : AwsConnection.EMULATOR_CREDENTIALS);
        } else if (keyId.isPresent()) {
            throw new IllegalStateException(LANDING_AWS_ACCESS_KEY_ID + " is set without an endpoint override ("
                    + LANDING_AWS_ENDPOINT + ", " + LANDING_S3_ENDPOINT + " or " + LANDING_DYNAMODB_ENDPOINT
                    + "); on AWS the function uses its execution role: unset it");
        }
        ValidationLimits.Builder limits = ValidationLimits.builder();
        mebibytes(environment, KEY_INDEX_MEMORY_MB).ifPresent(limits::keyIndexMemoryBytes);
        mebibytes(environment, KEY_INDEX_DISK_MB).ifPresent(limits::keyIndexDiskBytes);
        wholeNumber(environment, VALIDATOR_WORKERS, 1, ValidationLimits.MAX_WORKERS).ifPresent(limits::workers);
        int ranges = wholeNumber(environment, S3_READ_RANGES, 1, 64).orElse(RangedRead.Settings.DEFAULT_RANGES_IN_FLIGHT);
        long rangeBytes = wholeNumber(environment, S3_READ_RANGE_MB, 1, 1024).map(mib -> (long) mib << 20)
                .orElse(RangedRead.Settings.DEFAULT_RANGE_BYTES);
        return new FunctionConfig(inbox, lake, ledger, history,
                new AwsConnection(region, s3, dynamoDb, credentials, lambda), limits.build(), optional(environment, VALIDATOR_FUNCTION),
                new RangedRead.Settings(ranges, rangeBytes), optional(environment, CONSUMERS_TABLE),
                new ContractCache.Settings(wholeNumber(environment, CONTRACT_CACHE_ENTRIES, 1, 100_000).orElse(ContractCache.DEFAULT_MAX_ENTRIES),
                        wholeNumber(environment, CONTRACT_CACHE_TTL_SECONDS, 0, 3600).map(Duration::ofSeconds).orElse(ContractCache.DEFAULT_TTL)),
                perDatasetMetrics(environment), optional(environment, LEDGER_EVENT_BUS),
                optional(environment, TABLE_QUEUE_URL),
                wholeNumber(environment, TABLE_GRACE_SECONDS, 0, 31_536_000).map(Duration::ofSeconds)
                        .orElse(TableTracking.DEFAULT_GRACE));
    }

    private static boolean perDatasetMetrics(Map<String, String> environment) {
        Optional<String> value = optional(environment, METRICS_PER_DATASET);
        if (value.isEmpty() || value.get().equals("true")) {
            return true;
        }
        if (value.get().equals("false")) {
            return false;
        }
        throw new IllegalStateException(METRICS_PER_DATASET + " is '" + value.get() + "', not true or false");
    }

    private static Optional<Integer> wholeNumber(Map<String, String> environment, String name, int min, int max) {
        return optional(environment, name).map(value -> {
            try {
                int n = Integer.parseInt(value);
                if (n >= min && n <= max) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below with the variable's name
            }
            throw new IllegalStateException(name + " is '" + value + "', not a whole number from " + min + " to " + max);
        });
    }

    private static Optional<Long> mebibytes(Map<String, String> environment, String name) {
        return optional(environment, name).map(value -> {
            try {
                long mib = Long.parseLong(value);
                if (mib >= 1 && mib <= (Long.MAX_VALUE >> 20)) {
                    return mib << 20;
                }
            } catch (NumberFormatException e) {
                // reported below with the variable's name
            }
            throw new IllegalStateException(name + " is '" + value + "', not a whole number of MiB of at least 1, such as 4096");
        });
    }

    /**
     * The environment that {@link #fromEnvironment(Map)} reads back into this configuration: for the local run's
     * handlers, {@code sam local invoke --env-vars}, and tests.
     */
    public Map<String, String> toEnvironment() {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put(INBOX_BUCKET, inboxBucket);
        environment.put(LAKE_BUCKET, lakeBucket);
        environment.put(LEDGER_TABLE, ledgerTable);
        environment.put(LEDGER_HISTORY_TABLE, ledgerHistoryTable);
        environment.put(AWS_REGION, aws.region().id());
        aws.s3Endpoint().ifPresent(uri -> environment.put(LANDING_S3_ENDPOINT, uri.toString()));
        aws.dynamoDbEndpoint().ifPresent(uri -> environment.put(LANDING_DYNAMODB_ENDPOINT, uri.toString()));
        aws.lambdaEndpoint().ifPresent(uri -> environment.put(LANDING_LAMBDA_ENDPOINT, uri.toString()));
        aws.endpointCredentials().ifPresent(credentials -> {
            environment.put(LANDING_AWS_ACCESS_KEY_ID, credentials.accessKeyId());
            environment.put(LANDING_AWS_SECRET_ACCESS_KEY, credentials.secretAccessKey());
        });
        if (validationLimits.keyIndexMemoryBytes() != ValidationLimits.DEFAULT_KEY_INDEX_MEMORY_BYTES) {
            environment.put(KEY_INDEX_MEMORY_MB, Long.toString(validationLimits.keyIndexMemoryBytes() >> 20));
        }
        if (validationLimits.keyIndexDiskBytes() != ValidationLimits.DEFAULT_KEY_INDEX_DISK_BYTES) {
            environment.put(KEY_INDEX_DISK_MB, Long.toString(validationLimits.keyIndexDiskBytes() >> 20));
        }
        if (validationLimits.workers() != ValidationLimits.DEFAULT_WORKERS) {
            environment.put(VALIDATOR_WORKERS, Integer.toString(validationLimits.workers()));
        }
        validatorFunction.ifPresent(function -> environment.put(VALIDATOR_FUNCTION, function));
        if (reads.rangesInFlight() != RangedRead.Settings.DEFAULT_RANGES_IN_FLIGHT) {
            environment.put(S3_READ_RANGES, Integer.toString(reads.rangesInFlight()));
        }
        if (reads.rangeBytes() != RangedRead.Settings.DEFAULT_RANGE_BYTES) {
            environment.put(S3_READ_RANGE_MB, Long.toString(reads.rangeBytes() >> 20));
        }
        consumersTable.ifPresent(table -> environment.put(CONSUMERS_TABLE, table));
        ledgerEventBus.ifPresent(bus -> environment.put(LEDGER_EVENT_BUS, bus));
        tableQueueUrl.ifPresent(url -> environment.put(TABLE_QUEUE_URL, url));
        if (!tableGrace.equals(TableTracking.DEFAULT_GRACE)) {
            environment.put(TABLE_GRACE_SECONDS, Long.toString(tableGrace.toSeconds()));
        }
        if (!perDatasetMetrics) {
            environment.put(METRICS_PER_DATASET, "false");
        }
        if (contractCache.maxEntries() != ContractCache.DEFAULT_MAX_ENTRIES) {
            environment.put(CONTRACT_CACHE_ENTRIES, Integer.toString(contractCache.maxEntries()));
        }
        if (!contractCache.ttl().equals(ContractCache.DEFAULT_TTL)) {
            environment.put(CONTRACT_CACHE_TTL_SECONDS, Long.toString(contractCache.ttl().toSeconds()));
        }
        return environment;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().inboxBucket(inboxBucket).lakeBucket(lakeBucket).ledgerTable(ledgerTable)
                .ledgerHistoryTable(ledgerHistoryTable).aws(aws).validationLimits(validationLimits)
                .validatorFunction(validatorFunction.orElse(null)).reads(reads)
                .consumersTable(consumersTable.orElse(null)).contractCache(contractCache).perDatasetMetrics(perDatasetMetrics)
                .ledgerEventBus(ledgerEventBus.orElse(null)).tableQueueUrl(tableQueueUrl.orElse(null))
                .tableGrace(tableGrace);
    }

    private static String required(Map<String, String> environment, String name, String source) {
        return optional(environment, name)
                .orElseThrow(() -> new IllegalStateException(name + " is not set; " + source));
    }

    private static Optional<String> optional(Map<String, String> environment, String name) {
        String value = environment.get(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }

    private static Optional<URI> endpoint(Map<String, String> environment, String name) {
        return optional(environment, name).map(value -> parseEndpoint(name, value));
    }

    private static URI parseEndpoint(String name, String value) {
        try {
            URI uri = new URI(value);
            String scheme = uri.getScheme();
            if (uri.getHost() != null && ("http".equals(scheme) || "https".equals(scheme))) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // reported below with the variable's name
        }
        throw new IllegalStateException(name + " is '" + value
                + "', not an http(s) URL with a host, such as http://localhost:4566");
    }

    private static void requireName(String value, String component) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(component + " must not be blank");
        }
    }

    /** Builds a configuration in code: the local run and the tests, where no environment is read. */
    public static final class Builder {
        private String inboxBucket;
        private String lakeBucket;
        private String ledgerTable;
        private String ledgerHistoryTable;
        private AwsConnection aws;
        private ValidationLimits validationLimits = ValidationLimits.defaults();
        private String validatorFunction;
        private RangedRead.Settings reads = RangedRead.Settings.DEFAULT;
        private String consumersTable;
        private ContractCache.Settings contractCache = ContractCache.Settings.DEFAULT;
        private boolean perDatasetMetrics = true;
        private String ledgerEventBus;
        private String tableQueueUrl;
        private Duration tableGrace = TableTracking.DEFAULT_GRACE;

        /** The table commit queue's URL ({@value FunctionConfig#TABLE_QUEUE_URL}); null or blank: no tables. */
        public Builder tableQueueUrl(String value) {
            this.tableQueueUrl = value;
            return this;
        }

        /** How long a table may lag its publish ({@value FunctionConfig#TABLE_GRACE_SECONDS}). */
        public Builder tableGrace(Duration value) {
            this.tableGrace = value;
            return this;
        }

        /** The bus the validator puts InputDecision events on ({@value FunctionConfig#LEDGER_EVENT_BUS}). */
        public Builder ledgerEventBus(String value) {
            this.ledgerEventBus = value;
            return this;
        }

        public Builder perDatasetMetrics(boolean value) {
            this.perDatasetMetrics = value;
            return this;
        }

        private Builder() {
        }

        /** How many contracts the functions keep and for how long. */
        public Builder contractCache(ContractCache.Settings value) {
            this.contractCache = value;
            return this;
        }

        public Builder reads(RangedRead.Settings value) {
            this.reads = value;
            return this;
        }

        public Builder validationLimits(ValidationLimits value) {
            this.validationLimits = value;
            return this;
        }

        /** The sweep's re-drive target; null or blank: in process. */
        public Builder validatorFunction(String value) {
            this.validatorFunction = value;
            return this;
        }

        /** The Consumers table; null or blank: none. */
        public Builder consumersTable(String value) {
            this.consumersTable = value;
            return this;
        }

        public Builder inboxBucket(String value) {
            this.inboxBucket = value;
            return this;
        }

        public Builder lakeBucket(String value) {
            this.lakeBucket = value;
            return this;
        }

        public Builder ledgerTable(String value) {
            this.ledgerTable = value;
            return this;
        }

        public Builder ledgerHistoryTable(String value) {
            this.ledgerHistoryTable = value;
            return this;
        }

        public Builder aws(AwsConnection value) {
            this.aws = value;
            return this;
        }

        public FunctionConfig build() {
            return new FunctionConfig(inboxBucket, lakeBucket, ledgerTable, ledgerHistoryTable, aws, validationLimits,
                    nonBlank(validatorFunction), reads, nonBlank(consumersTable), contractCache, perDatasetMetrics,
                    nonBlank(ledgerEventBus), nonBlank(tableQueueUrl), tableGrace);
        }

        private static Optional<String> nonBlank(String value) {
            return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
        }
    }
}
