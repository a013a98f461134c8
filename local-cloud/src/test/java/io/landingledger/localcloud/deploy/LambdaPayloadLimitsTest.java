package io.landingledger.localcloud.deploy;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvocationType;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.lambda.model.LambdaException;

import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30, finding 4: Lambda's payload quotas on the local stack, through the gateway with the real SDK client (what
 * the sweep's re-drives and the on-call commands send) and on the runtime every other invocation goes through (S3's
 * notifications, EventBridge, Scheduler, the pollers). A payload one byte over is refused as Lambda refuses it; one at
 * the limit runs.
 */
class LambdaPayloadLimitsTest {
    private static final String FUNCTION = "echo-size";
    /** Each run's payload size, in the order the function ran. */
    private static final List<Integer> RECEIVED = new CopyOnWriteArrayList<>();
    @TempDir
    static Path logs;
    private static LocalLambda lambda;
    private static AwsGateway gateway;
    private static LambdaClient client;

    /** Answers {@code {"received": N}}, or a JSON string of N bytes for a payload {@code {"respond": N}}. */
    private static final RequestStreamHandler HANDLER = (input, output, context) -> {
        String payload = new String(input.readAllBytes(), StandardCharsets.UTF_8);
        RECEIVED.add(payload.getBytes(StandardCharsets.UTF_8).length);
        if (payload.startsWith("{\"respond\":")) {
            int size = Integer.parseInt(payload.replaceAll("\\D", ""));
            output.write(("\"" + "r".repeat(size - 2) + "\"").getBytes(StandardCharsets.UTF_8));
        } else {
            output.write(("{\"received\":" + payload.length() + "}").getBytes(StandardCharsets.UTF_8));
        }
    };

    @BeforeAll
    static void start() throws Exception {
        lambda = new LocalLambda(logs, spec -> Map.of(), new FunctionRuntime() {
            @Override
            public Map<String, String> variables(FunctionSpec function, StackConnection session) {
                return Map.of();
            }

            @Override
            public RequestStreamHandler handler(FunctionSpec function, Map<String, String> environment, PrintStream stdout) {
                return HANDLER;
            }
        });
        lambda.create(new FunctionSpec("EchoSize", FUNCTION, "arn:aws:lambda:us-east-1:123456789012:function:" + FUNCTION,
                "example.EchoSize::handleRequest", Map.of(), 60, 512, "arn:aws:iam::123456789012:role/echo",
                "/aws/lambda/" + FUNCTION, false));
        // no S3 or DynamoDB request is made here: the gateway answers Lambda itself
        gateway = AwsGateway.start(URI.create("http://127.0.0.1:9"), URI.create("http://127.0.0.1:9"));
        gateway.principal(new Principal("test", "arn:aws:iam::123456789012:user/operator", null));
        gateway.localService("lambda", new LambdaApi(lambda));
        client = LambdaClient.builder().httpClientBuilder(UrlConnectionHttpClient.builder()).region(Region.US_EAST_1)
                .endpointOverride(gateway.endpoint())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"))).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        gateway.close();
        lambda.close();
    }

    /** A JSON string payload of exactly {@code bytes} bytes. */
    private static String payloadOf(int bytes) {
        return "\"" + "p".repeat(bytes - 2) + "\"";
    }

    private static InvokeResponse invoke(InvocationType type, String payload) {
        return client.invoke(r -> r.functionName(FUNCTION).invocationType(type).payload(SdkBytes.fromUtf8String(payload)));
    }

    private static void assertTooLarge(String message, InvocationType type, String payload) {
        int runs = RECEIVED.size();
        LambdaException e = assertThrows(LambdaException.class, () -> invoke(type, payload));
        assertEquals(413, e.statusCode(), e.getMessage());
        assertEquals("RequestEntityTooLargeException", e.awsErrorDetails().errorCode(), e.getMessage());
        assertEquals(message, e.awsErrorDetails().errorMessage());
        assertEquals(runs, RECEIVED.size(), "the function never ran");
    }

    @Test
    void aSynchronousRequestOver6MiB_isRequestEntityTooLarge_andTheFunctionNeverRuns() {
        assertTooLarge("Request must be smaller than 6291456 bytes for the InvokeFunction operation",
                InvocationType.REQUEST_RESPONSE, payloadOf(6 * 1024 * 1024 + 1));
        InvokeResponse atLimit = invoke(InvocationType.REQUEST_RESPONSE, payloadOf(6 * 1024 * 1024));
        assertNull(atLimit.functionError());
        assertEquals("{\"received\":6291456}", atLimit.payload().asUtf8String());
    }

    @Test
    void anAsynchronousRequestOver1MiB_isRequestEntityTooLarge_andNothingIsQueued() throws Exception {
        int big = 1024 * 1024 + 1;
        assertTooLarge(big + " byte payload is too large for the Event invocation type (limit 1048576 bytes)",
                InvocationType.EVENT, payloadOf(big));
        // a synchronous invocation takes it: the quota is the invocation type's
        assertNull(invoke(InvocationType.REQUEST_RESPONSE, payloadOf(big)).functionError());
        assertEquals(202, invoke(InvocationType.EVENT, payloadOf(1024 * 1024)).statusCode());
        lambda.awaitIdle(Duration.ofMinutes(1));
        assertEquals(1024 * 1024, RECEIVED.get(RECEIVED.size() - 1));
    }

    @Test
    void aSynchronousResponseOverItsLimit_failsTheInvocation_asFunctionResponseSizeTooLarge() {
        InvokeResponse tooLarge = invoke(InvocationType.REQUEST_RESPONSE, "{\"respond\":6291557}");
        assertEquals(200, tooLarge.statusCode());
        assertEquals("Unhandled", tooLarge.functionError());
        String error = tooLarge.payload().asUtf8String();
        assertTrue(error.contains("\"errorType\":\"Function.ResponseSizeTooLarge\""), error);
        assertTrue(error.contains("Response payload size (6291557 bytes) exceeded maximum allowed payload size (6291556 bytes)."),
                error);
        InvokeResponse atLimit = invoke(InvocationType.REQUEST_RESPONSE, "{\"respond\":6291556}");
        assertNull(atLimit.functionError());
        assertEquals(6291556, atLimit.payload().asByteArray().length);
    }

    @Test
    void anEventAServiceSendsOverTheAsynchronousQuota_isRefusedByTheRuntime_notQueued() {
        // S3's notifications, EventBridge's and Scheduler's targets all invoke asynchronously through this one call
        LocalLambda.RequestTooLarge e = assertThrows(LocalLambda.RequestTooLarge.class,
                () -> lambda.invokeAsync(FUNCTION, null, payloadOf(1024 * 1024 + 1)));
        assertTrue(e.getMessage().contains("limit 1048576 bytes"), e.getMessage());
        // the event source pollers invoke synchronously
        assertThrows(LocalLambda.RequestTooLarge.class, () -> lambda.invoke(FUNCTION, null, payloadOf(6 * 1024 * 1024 + 1)));
    }

    @Test
    void aRequestOverWhatTheGatewayReadsWhole_isStillAnswered413() {
        assertTooLarge("Request must be smaller than 6291456 bytes for the InvokeFunction operation",
                InvocationType.REQUEST_RESPONSE, payloadOf(17 * 1024 * 1024));
    }
}
