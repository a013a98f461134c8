package io.landingledger.cli.ops;

import io.landingledger.cli.stack.StackTables;
import io.landingledger.lambda.AwsConnection;
import io.landingledger.lambda.FunctionConfig;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.regions.Region;

import java.net.URI;
import java.util.Optional;

/**
 * What an operator command talks to: the region, the two buckets and the two tables, the endpoints of a local stack
 * (empty for AWS itself) with the credentials the emulators accept, and for a deployed stack the repair and sweep
 * functions' names (empty locally: the commands then run the same job in process).
 *
 * <p>Build one with {@link #builder()}: {@code source}, {@code region}, the buckets and the ledger's tables are required;
 * an endpoint, the credentials or a function not named is empty, a Consumers table not named null.
 *
 * @param consumersTable the Consumers table (consumer receipts), or null when the target has none
 * @param tables where the datasets' Iceberg tables are (the stack's outputs), empty when the target names none
 * @param source where these came from, for messages ("local stack (…/local.json)", "--endpoint …", "stack …")
 */
public record Resources(String source, Region region, String inboxBucket, String lakeBucket, String ledgerTable, String historyTable,
                        Optional<URI> s3Endpoint, Optional<URI> dynamoDbEndpoint, Optional<AwsBasicCredentials> credentials,
                        Optional<String> repairFunction, Optional<String> sweepFunction, String consumersTable,
                        Optional<StackTables> tables) {

    /** A builder with every component unset: no endpoints, credentials, functions or Consumers table. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these resources, to build a copy that differs in some. */
    public Builder toBuilder() {
        return new Builder()
                .source(source)
                .region(region)
                .inboxBucket(inboxBucket)
                .lakeBucket(lakeBucket)
                .ledgerTable(ledgerTable)
                .historyTable(historyTable)
                .s3Endpoint(s3Endpoint.orElse(null))
                .dynamoDbEndpoint(dynamoDbEndpoint.orElse(null))
                .credentials(credentials.orElse(null))
                .repairFunction(repairFunction.orElse(null))
                .sweepFunction(sweepFunction.orElse(null))
                .consumersTable(consumersTable)
                .tables(tables.orElse(null));
    }

    /** The connection the SDK clients are built with. */
    public AwsConnection connection() {
        if (s3Endpoint.isEmpty() && dynamoDbEndpoint.isEmpty()) {
            return AwsConnection.aws(region);
        }
        return new AwsConnection(region, s3Endpoint, dynamoDbEndpoint, credentials.or(() -> Optional.of(AwsConnection.EMULATOR_CREDENTIALS)));
    }

    /** The functions' configuration over these resources (the same one the handlers are built from). */
    public FunctionConfig config() {
        return FunctionConfig.builder().inboxBucket(inboxBucket).lakeBucket(lakeBucket).ledgerTable(ledgerTable)
                .ledgerHistoryTable(historyTable).aws(connection()).consumersTable(consumersTable).build();
    }

    /** Names each component of {@link Resources}; {@link #build()} checks the required ones. */
    public static final class Builder {
        private String source;
        private Region region;
        private String inboxBucket;
        private String lakeBucket;
        private String ledgerTable;
        private String historyTable;
        private URI s3Endpoint;
        private URI dynamoDbEndpoint;
        private AwsBasicCredentials credentials;
        private String repairFunction;
        private String sweepFunction;
        private String consumersTable;
        private StackTables tables;

        private Builder() {
        }

        public Builder source(String value) {
            this.source = value;
            return this;
        }

        public Builder region(Region value) {
            this.region = value;
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

        public Builder historyTable(String value) {
            this.historyTable = value;
            return this;
        }

        /** S3's endpoint, or null for AWS's own. */
        public Builder s3Endpoint(URI value) {
            this.s3Endpoint = value;
            return this;
        }

        /** DynamoDB's endpoint, or null for AWS's own. */
        public Builder dynamoDbEndpoint(URI value) {
            this.dynamoDbEndpoint = value;
            return this;
        }

        /** The credentials to sign with, or null for the SDK's default chain (the emulators' when an endpoint is set). */
        public Builder credentials(AwsBasicCredentials value) {
            this.credentials = value;
            return this;
        }

        /** The deployed repair function's name, or null to run repairs in process. */
        public Builder repairFunction(String value) {
            this.repairFunction = value;
            return this;
        }

        /** The deployed sweep function's name, or null to run sweeps in process. */
        public Builder sweepFunction(String value) {
            this.sweepFunction = value;
            return this;
        }

        public Builder consumersTable(String value) {
            this.consumersTable = value;
            return this;
        }

        /** Where the datasets' tables are, or null when the target names none. */
        public Builder tables(StackTables value) {
            this.tables = value;
            return this;
        }

        /** The resources; throws {@link IllegalStateException} naming the first required component left unset. */
        public Resources build() {
            require(source, "source");
            require(region, "region");
            require(inboxBucket, "inboxBucket");
            require(lakeBucket, "lakeBucket");
            require(ledgerTable, "ledgerTable");
            require(historyTable, "historyTable");
            return new Resources(source, region, inboxBucket, lakeBucket, ledgerTable, historyTable, Optional.ofNullable(s3Endpoint),
                    Optional.ofNullable(dynamoDbEndpoint), Optional.ofNullable(credentials), Optional.ofNullable(repairFunction),
                    Optional.ofNullable(sweepFunction), consumersTable, Optional.ofNullable(tables));
        }

        private static void require(Object value, String component) {
            if (value == null) {
                throw new IllegalStateException("Resources: " + component + " is required");
            }
        }
    }
}
