package io.landingledger.cli.ops;

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
 * @param consumersTable the Consumers table (consumer receipts), or null when the target has none
 * @param source where these came from, for messages ("local stack (…/local.json)", "--endpoint …", "stack …")
 */
public record Resources(String source, Region region, String inboxBucket, String lakeBucket, String ledgerTable, String historyTable,
                        Optional<URI> s3Endpoint, Optional<URI> dynamoDbEndpoint, Optional<AwsBasicCredentials> credentials,
                        Optional<String> repairFunction, Optional<String> sweepFunction, String consumersTable) {

    /** Without a Consumers table: no consumer receipts are read or written. */
    public Resources(String source, Region region, String inboxBucket, String lakeBucket, String ledgerTable, String historyTable,
                     Optional<URI> s3Endpoint, Optional<URI> dynamoDbEndpoint, Optional<AwsBasicCredentials> credentials,
                     Optional<String> repairFunction, Optional<String> sweepFunction) {
        this(source, region, inboxBucket, lakeBucket, ledgerTable, historyTable, s3Endpoint, dynamoDbEndpoint, credentials,
                repairFunction, sweepFunction, null);
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
}
