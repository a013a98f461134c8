package io.landingledger.cli.ops;

import io.landingledger.cli.stack.LocalStackRecord;
import io.landingledger.cli.stack.CloudFormationQuery;
import io.landingledger.cli.stack.DeployedStack;
import io.landingledger.cli.stack.RemoteFunction;
import io.landingledger.cli.stack.StackResolutionException;
import io.landingledger.cli.stack.StackResources;
import io.landingledger.cli.stack.StackTables;

import picocli.CommandLine.Option;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Which stack an operator command talks to (a picocli mixin of every operator command, through {@link OpsCommand}):
 * <ol>
 *   <li>{@code --stack NAME [--region R]}: a deployed stack, its resources read from CloudFormation
 *       ({@link #resolveStack}; S3 and DynamoDB read with the SDK's default credentials chain, repair and sweep
 *       invoked in the stack's functions);</li>
 *   <li>{@code --endpoint URL}: one endpoint for S3 and DynamoDB (LocalStack), resource names from the flags or the
 *       names {@code localstack/init/ready.d/10-resources.sh} creates;</li>
 *   <li>otherwise the running {@code landing local --watch}, found through {@link LocalStackRecord#path()}.</li>
 * </ol>
 */
public final class TargetOptions {
    static final String DEFAULT_INBOX = "landing-inbox-local";
    static final String DEFAULT_LAKE = "landing-lake-local";
    static final String DEFAULT_LEDGER = "LandingLedger-Ledger";
    static final String DEFAULT_HISTORY = "LandingLedger-LedgerHistory";
    /** The Consumers table of the local stack and of LocalStack (localstack/init/ready.d/10-resources.sh). */
    public static final String DEFAULT_CONSUMERS = "LandingLedger-Consumers";

    @Option(names = "--stack", paramLabel = "NAME", description = "A deployed stack: resources resolved from CloudFormation.")
    String stack;

    @Option(names = "--region", paramLabel = "R", description = "The region (default: AWS_REGION, else us-east-1).")
    String region;

    @Option(names = "--endpoint", paramLabel = "URL",
            description = "One S3 and DynamoDB endpoint (LocalStack, e.g. http://localhost:4566) instead of the running `landing local --watch`.")
    URI endpoint;

    @Option(names = "--inbox-bucket", paramLabel = "NAME", description = "With --endpoint: the inbox bucket (default: " + DEFAULT_INBOX + ").")
    String inboxBucket;

    @Option(names = "--lake-bucket", paramLabel = "NAME", description = "With --endpoint: the lake bucket (default: " + DEFAULT_LAKE + ").")
    String lakeBucket;

    @Option(names = "--ledger-table", paramLabel = "NAME", description = "With --endpoint: the ledger table (default: " + DEFAULT_LEDGER + ").")
    String ledgerTable;

    @Option(names = "--history-table", paramLabel = "NAME",
            description = "With --endpoint: the ledger history table (default: " + DEFAULT_HISTORY + ").")
    String historyTable;

    /** A target that cannot be resolved: the command prints the message and exits 2. */
    public static final class TargetException extends RuntimeException {
        public TargetException(String message) {
            super(message);
        }
    }

    /** The resources this invocation's flags (or the local stack's record) name. */
    public Resources resolve() {
        Region chosen = Region.of(region != null ? region : Optional.ofNullable(System.getenv("AWS_REGION")).orElse("us-east-1"));
        if (stack != null) {
            if (endpoint != null) {
                throw new TargetException("give --stack or --endpoint, not both");
            }
            return resolveStack(stack, chosen);
        }
        if (endpoint != null) {
            return Resources.builder()
                    .source("--endpoint " + endpoint)
                    .region(chosen)
                    .inboxBucket(or(inboxBucket, DEFAULT_INBOX))
                    .lakeBucket(or(lakeBucket, DEFAULT_LAKE))
                    .ledgerTable(or(ledgerTable, DEFAULT_LEDGER))
                    .historyTable(or(historyTable, DEFAULT_HISTORY))
                    .s3Endpoint(endpoint)
                    .dynamoDbEndpoint(endpoint)
                    .consumersTable(DEFAULT_CONSUMERS)
                    .build();
        }
        if (inboxBucket != null || lakeBucket != null || ledgerTable != null || historyTable != null) {
            throw new TargetException("--inbox-bucket, --lake-bucket, --ledger-table and --history-table go with --endpoint");
        }
        LocalStackRecord record;
        try {
            record = LocalStackRecord.read().orElseThrow(() -> new TargetException("no local stack is running (nothing at "
                    + LocalStackRecord.path() + "): start `./landing local --watch` in another terminal, or give --endpoint URL "
                    + "(LocalStack) or --stack NAME (a deployed stack)"));
        } catch (IOException | IllegalArgumentException e) {
            throw new TargetException("cannot read the local stack's record " + LocalStackRecord.path() + ": " + e.getMessage());
        }
        if (!record.alive()) {
            throw new TargetException("the local stack recorded at " + LocalStackRecord.path() + " (process " + record.pid()
                    + ") is not running any more: start `./landing local --watch` again");
        }
        AwsBasicCredentials keys = AwsBasicCredentials.create(record.accessKeyId(), record.secretAccessKey());
        Optional<StackTables> tables = Optional.empty();
        if (record.stackName() != null) {
            // the stack deployed from the template: its gateway answers CloudFormation too, and names the tables
            try (CloudFormationQuery query = new CloudFormationQuery(record.s3Endpoint(), Region.of(record.region()),
                    StaticCredentialsProvider.create(keys))) {
                tables = stackTables(record.stackName(), query, record.s3Endpoint());
            }
        }
        return Resources.builder()
                .source("local stack (" + LocalStackRecord.path() + ")")
                .region(Region.of(record.region()))
                .inboxBucket(record.inboxBucket())
                .lakeBucket(record.lakeBucket())
                .ledgerTable(record.ledgerTable())
                .historyTable(record.historyTable())
                .s3Endpoint(Objects.requireNonNull(record.s3Endpoint(), "s3Endpoint"))
                .dynamoDbEndpoint(Objects.requireNonNull(record.dynamoDbEndpoint(), "dynamoDbEndpoint"))
                .credentials(keys)
                .consumersTable(record.consumersTable() != null ? record.consumersTable() : DEFAULT_CONSUMERS)
                .tables(tables.orElse(null))
                .build();
    }

    /**
     * Where a {@code --stack} target's AWS APIs answer. {@link #AWS} (every field null): CloudFormation's and Lambda's
     * regional endpoints, S3 and DynamoDB through {@code AwsConnection.aws(region)}, the SDK's default credentials
     * chain. Package-private test seam: DeployedTargetIT sets {@link #stackApis} to loopback stubs (CloudFormation,
     * Lambda) and the embedded emulators (S3, DynamoDB) with static credentials.
     */
    record StackApis(URI cloudFormation, URI lambda, URI s3, URI dynamoDb, AwsBasicCredentials credentials) {
        static final StackApis AWS = new StackApis(null, null, null, null, null);

        /**
         * The SDK's own endpoint setting, {@code AWS_ENDPOINT_URL} (or the {@code aws.endpointUrl} system property):
         * every API of the stack at that URL (the locally deployed stack's gateway, as {@code landing local} prints it),
         * with the default credentials chain; unset, {@link #AWS}.
         */
        static StackApis fromEnvironment() {
            String endpoint = System.getProperty("aws.endpointUrl");
            if (endpoint == null || endpoint.isBlank()) {
                endpoint = System.getenv("AWS_ENDPOINT_URL");
            }
            if (endpoint == null || endpoint.isBlank()) {
                return AWS;
            }
            URI uri = URI.create(endpoint.strip());
            AwsBasicCredentials credentials;
            try {
                var resolved = DefaultCredentialsProvider.builder().build().resolveCredentials();
                credentials = AwsBasicCredentials.create(resolved.accessKeyId(), resolved.secretAccessKey());
            } catch (RuntimeException e) {
                throw new TargetException("AWS_ENDPOINT_URL is " + uri + " but no credentials are set (AWS_ACCESS_KEY_ID and "
                        + "AWS_SECRET_ACCESS_KEY, e.g. the ones landing local --watch prints)");
            }
            return new StackApis(uri, uri, uri, uri, credentials);
        }

        AwsCredentialsProvider credentialsProvider() {
            return credentials == null ? DefaultCredentialsProvider.builder().build() : StaticCredentialsProvider.create(credentials);
        }
    }

    /** Null: {@link StackApis#fromEnvironment()} at the first {@code --stack}. */
    static volatile StackApis stackApis;

    /**
     * {@code --stack NAME --region R}: the deployed stack's buckets, tables and functions from CloudFormation
     * (DescribeStackResources, by the template's logical ids; the Iceberg tables from DescribeStacks' outputs) into {@link Resources} with no endpoints (AWS itself)
     * and {@code repairFunction}/{@code sweepFunction} set, which {@link OpsCommand#repairJob} and
     * {@link OpsCommand#sweepJob} invoke instead of running the job in process.
     */
    Resources resolveStack(String name, Region chosen) {
        StackApis apis = apis();
        StackResources stack;
        Optional<StackTables> tables;
        try (CloudFormationQuery query = apis.cloudFormation() == null ? CloudFormationQuery.create(chosen)
                : new CloudFormationQuery(apis.cloudFormation(), chosen, apis.credentialsProvider())) {
            stack = DeployedStack.resolve(name, chosen.id(), query);
            tables = stackTables(name, query, apis.s3());
        } catch (StackResolutionException e) {
            throw new TargetException("--stack " + name + ": " + e.getMessage());
        }
        return Resources.builder()
                .source("stack " + name + " (" + chosen.id() + ")")
                .region(chosen)
                .inboxBucket(stack.inboxBucket())
                .lakeBucket(stack.lakeBucket())
                .ledgerTable(stack.ledgerTable())
                .historyTable(stack.historyTable())
                .s3Endpoint(apis.s3())
                .dynamoDbEndpoint(apis.dynamoDb())
                .credentials(apis.credentials())
                .repairFunction(Objects.requireNonNull(stack.repairFunction(), "repairFunction"))
                .sweepFunction(Objects.requireNonNull(stack.sweepFunction(), "sweepFunction"))
                .consumersTable(stack.consumersTable())
                .tables(tables.orElse(null))
                .build();
    }

    /**
     * The stack's tables from its outputs ({@link StackTables}), {@code endpoint} the stack's own (null on AWS). Empty
     * for a stack without them, and when CloudFormation refuses DescribeStacks: an operator allowed only
     * DescribeStackResources still gets every ledger command, and {@code landing history} says that it lists no
     * snapshots.
     */
    private static Optional<StackTables> stackTables(String name, CloudFormationQuery query, URI endpoint) {
        try {
            return StackTables.fromOutputs(query.describeStackOutputs(name), endpoint);
        } catch (StackResolutionException e) {
            return Optional.empty();
        }
    }

    /**
     * The physical name of the deployed stack's {@code ReaderDatabase} (the Glue database of the reader tables), when the
     * target is a {@code --stack} on AWS itself; empty for the local stack, {@code --endpoint} and a stubbed stack
     * (none has a Glue catalog).
     */
    Optional<String> readerDatabase(Region chosen) {
        if (stack == null || stackApis.cloudFormation() != null) {
            return Optional.empty();
        }
        try (CloudFormationQuery query = CloudFormationQuery.create(chosen)) {
            return Optional.ofNullable(query.describeStackResources(stack).get(DeployedStack.READER_DATABASE));
        }
    }

    /** A Lambda client for a deployed stack's function of timeout {@code functionTimeout}: no retries, a read timeout above it. */
    static LambdaClient lambdaClient(Region region, Duration functionTimeout) {
        StackApis apis = apis();
        return RemoteFunction.lambdaClient(region, apis.lambda(), apis.credentialsProvider(), functionTimeout);
    }

    private static StackApis apis() {
        StackApis apis = stackApis;
        return apis != null ? apis : StackApis.fromEnvironment();
    }

    private static String or(String value, String fallback) {
        return value != null ? value : fallback;
    }
}
