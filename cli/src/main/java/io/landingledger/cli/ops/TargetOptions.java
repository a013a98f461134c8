package io.landingledger.cli.ops;

import io.landingledger.cli.local.LocalStackRecord;

import picocli.CommandLine.Option;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.regions.Region;

import java.io.IOException;
import java.net.URI;
import java.util.Optional;

/**
 * Which stack an operator command talks to (a picocli mixin shared by status, explain, repair, sweep and history):
 * <ol>
 *   <li>{@code --stack NAME [--region R]}: a deployed stack, its resources read from CloudFormation
 *       ({@link #resolveStack}: the seam where that resolution goes; not built yet);</li>
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
            return new Resources("--endpoint " + endpoint, chosen, or(inboxBucket, DEFAULT_INBOX), or(lakeBucket, DEFAULT_LAKE),
                    or(ledgerTable, DEFAULT_LEDGER), or(historyTable, DEFAULT_HISTORY), Optional.of(endpoint), Optional.of(endpoint),
                    Optional.empty(), Optional.empty(), Optional.empty());
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
        return new Resources("local stack (" + LocalStackRecord.path() + ")", Region.of(record.region()), record.inboxBucket(),
                record.lakeBucket(), record.ledgerTable(), record.historyTable(), Optional.of(record.s3Endpoint()),
                Optional.of(record.dynamoDbEndpoint()), Optional.of(AwsBasicCredentials.create(record.accessKeyId(), record.secretAccessKey())),
                Optional.empty(), Optional.empty());
    }

    /**
     * THE SEAM for {@code --stack NAME --region R}: resolve the deployed stack's buckets, tables and functions from
     * CloudFormation (DescribeStacks outputs / physical resource ids) into {@link Resources} with empty endpoints and
     * {@code repairFunction}/{@code sweepFunction} set; {@link OpsCommand#repairJob} and {@link OpsCommand#sweepJob}
     * are where a set function name turns the in-process run into an invocation.
     */
    Resources resolveStack(String name, Region chosen) {
        throw new TargetException("--stack " + name + ": resolving a deployed stack: not built yet (use the running "
                + "`landing local --watch`, or --endpoint URL)");
    }

    private static String or(String value, String fallback) {
        return value != null ? value : fallback;
    }
}
