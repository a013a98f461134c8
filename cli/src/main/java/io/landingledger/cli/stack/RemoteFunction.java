package io.landingledger.cli.stack;


import io.landingledger.core.json.JsonCodec;

import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvocationType;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;

import java.net.URI;
import java.time.Duration;

/**
 * One deployed function invoked synchronously (RequestResponse) at its live alias: the client reads for longer than
 * the function may run ({@link #readTimeout}) and never retries, since a retried repair or sweep would run the job a
 * second time while the first may still be running. A function error is a {@link RemoteFunctionException}.
 */
public final class RemoteFunction implements AutoCloseable {
    /** Added to the function's timeout for the read and the whole call: the answer of a run that used all its time still arrives. */
    static final Duration READ_MARGIN = Duration.ofSeconds(60);

    private final LambdaClient lambda;
    private final String functionName;
    private final String qualifier;
    private final boolean ownsClient;

    RemoteFunction(LambdaClient lambda, String functionName, String qualifier, boolean ownsClient) {
        this.lambda = lambda;
        this.functionName = functionName;
        this.qualifier = qualifier;
        this.ownsClient = ownsClient;
    }

    /** The read and call timeout for a function that may run {@code functionTimeout}. */
    public static Duration readTimeout(Duration functionTimeout) {
        return functionTimeout.plus(READ_MARGIN);
    }

    /**
     * A Lambda client for invoking a function of timeout {@code functionTimeout}: socket (read) timeout and API call
     * timeouts {@link #readTimeout}, no retries. {@code endpoint} null is Lambda's regional endpoint.
     */
    public static LambdaClient lambdaClient(Region region, URI endpoint, AwsCredentialsProvider credentials, Duration functionTimeout) {
        Duration read = readTimeout(functionTimeout);
        var builder = LambdaClient.builder().region(region).credentialsProvider(credentials)
                .httpClientBuilder(UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofSeconds(10)).socketTimeout(read))
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()).apiCallTimeout(read).apiCallAttemptTimeout(read));
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        }
        return builder.build();
    }

    /** The default credentials chain. */
    static LambdaClient lambdaClient(String region, Duration functionTimeout) {
        return lambdaClient(Region.of(region), null, DefaultCredentialsProvider.builder().build(), functionTimeout);
    }

    public String functionName() {
        return functionName;
    }

    /**
     * One synchronous invocation: {@code payload} written and the function's answer read as {@code answer} by
     * JsonCodec, the codec the function itself reads and writes with.
     */
    public <T> T invoke(Object payload, Class<T> answer) {
        InvokeResponse response = lambda.invoke(r -> r.functionName(functionName).qualifier(qualifier)
                .invocationType(InvocationType.REQUEST_RESPONSE).payload(SdkBytes.fromByteArray(JsonCodec.write(payload))));
        String body = response.payload() == null ? "" : response.payload().asUtf8String();
        if (response.functionError() != null) {
            throw RemoteFunctionException.of(functionName, response.functionError(), body);
        }
        try {
            T read = JsonCodec.read(body, answer);
            if (read == null) {
                throw new RemoteFunctionException(functionName, "the function answered nothing");
            }
            return read;
        } catch (IllegalArgumentException e) {
            throw new RemoteFunctionException(functionName, "the function's answer is not a " + answer.getSimpleName() + ": " + e.getMessage());
        }
    }

    @Override
    public void close() {
        if (ownsClient) {
            lambda.close();
        }
    }
}
