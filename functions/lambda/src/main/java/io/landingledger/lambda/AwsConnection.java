package io.landingledger.lambda;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.regions.Region;

/**
 * Where the SDK clients connect and as whom: the region, and for an emulator or LocalStack an endpoint per service
 * with the static credentials it accepts. On AWS both endpoints are empty and credentials come from the default
 * provider chain (the function's execution role).
 *
 * <p>The endpoints are separate because the embedded emulators are two servers (S3Proxy for S3, moto_server for
 * DynamoDB); LocalStack serves both on one endpoint.
 *
 * @param region           the region every client signs for
 * @param s3Endpoint       S3 endpoint override; the client then uses path-style addressing
 * @param dynamoDbEndpoint DynamoDB endpoint override
 * @param endpointCredentials static credentials for the overridden services, present exactly when an endpoint
 *                            override is; a service without an override still uses the default provider chain
 * @param lambdaEndpoint      Lambda endpoint override for the sweep's re-drives (the locally deployed stack's gateway)
 */
public record AwsConnection(Region region, Optional<URI> s3Endpoint, Optional<URI> dynamoDbEndpoint,
                            Optional<AwsBasicCredentials> endpointCredentials, Optional<URI> lambdaEndpoint) {

    /** The credentials emulators accept by convention (S3Proxy as the tests start it, LocalStack, moto). */
    public static final AwsBasicCredentials EMULATOR_CREDENTIALS = AwsBasicCredentials.create("test", "test");

    /** No Lambda endpoint override: the sweep re-drives through Lambda's regional endpoint (or in process). */
    public AwsConnection(Region region, Optional<URI> s3Endpoint, Optional<URI> dynamoDbEndpoint,
                         Optional<AwsBasicCredentials> endpointCredentials) {
        this(region, s3Endpoint, dynamoDbEndpoint, endpointCredentials, Optional.empty());
    }

    public AwsConnection {
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(lambdaEndpoint, "lambdaEndpoint");
        Objects.requireNonNull(s3Endpoint, "s3Endpoint");
        Objects.requireNonNull(dynamoDbEndpoint, "dynamoDbEndpoint");
        Objects.requireNonNull(endpointCredentials, "endpointCredentials");
        boolean overridden = s3Endpoint.isPresent() || dynamoDbEndpoint.isPresent() || lambdaEndpoint.isPresent();
        if (overridden && endpointCredentials.isEmpty()) {
            throw new IllegalArgumentException("an endpoint override needs static credentials (emulators accept "
                    + "test/test); the default provider chain is for AWS itself");
        }
        if (!overridden && endpointCredentials.isPresent()) {
            // Static keys in a deployed function would bypass its execution role: refuse them.
            throw new IllegalArgumentException("static credentials are only used with an endpoint override");
        }
    }

    /** AWS itself: no endpoint override, credentials from the default provider chain. */
    public static AwsConnection aws(Region region) {
        return new AwsConnection(region, Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** One endpoint for both services (LocalStack), with the emulator credentials. */
    public static AwsConnection endpoint(Region region, URI endpoint) {
        return endpoints(region, endpoint, endpoint);
    }

    /**
     * One endpoint for S3, DynamoDB and Lambda (the locally deployed stack's gateway), signing with {@code credentials}:
     * the gateway knows which role they belong to.
     */
    public static AwsConnection gateway(Region region, URI gateway, AwsBasicCredentials credentials) {
        return new AwsConnection(region, Optional.of(gateway), Optional.of(gateway), Optional.of(credentials), Optional.of(gateway));
    }

    /** One endpoint per service (S3Proxy and moto_server), with the emulator credentials. */
    public static AwsConnection endpoints(Region region, URI s3Endpoint, URI dynamoDbEndpoint) {
        return new AwsConnection(region, Optional.of(s3Endpoint), Optional.of(dynamoDbEndpoint),
                Optional.of(EMULATOR_CREDENTIALS));
    }
}
