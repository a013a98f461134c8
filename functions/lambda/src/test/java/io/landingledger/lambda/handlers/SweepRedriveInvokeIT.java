package io.landingledger.lambda.handlers;

import io.landingledger.lambda.testing.Invocations;
import com.amazonaws.services.lambda.runtime.events.S3Event;
import com.amazonaws.services.lambda.runtime.events.models.s3.S3EventNotification.S3EventNotificationRecord;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.IngestPath;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.Redrive;
import io.landingledger.core.sweep.UnitStatus;
import io.landingledger.lambda.AwsConnection;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.adapters.LambdaIngestPath;
import io.landingledger.lambda.testing.AwsEmulators;
import io.landingledger.lambda.testing.PipelineFixture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvocationType;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 13, the re-drive through the deployed validator: a real sweep re-drives a lost event through
 * LambdaIngestPath with the sweep's Lambda client as production builds it ({@link DependencyFactory#redriveLambdaClient},
 * only the endpoint and the credentials overridden), against a stub Lambda endpoint on loopback that speaks the
 * Invoke REST API ({@code POST /2015-03-31/functions/{FunctionName}/invocations}), counts the requests and can answer
 * slowly or fail. For contrast, the old configuration (RequestResponse, the HTTP client's read timeout, the SDK's
 * retries) against the same slow stub, its read timeout shortened from 30 s so the test need not wait for it.
 * The figures go to standard output (the build log).
 */
@ExtendWith(AwsEmulators.class)
class SweepRedriveInvokeIT {
    private static final PojoSerializer<S3Event> EVENTS =
            LambdaEventSerializers.serializerFor(S3Event.class, SweepRedriveInvokeIT.class.getClassLoader());
    private static final String VALIDATOR = "arn:aws:lambda:us-east-1:123456789012:function:landing-ledger-dev-validator:live";
    private static final String INVOKE_PATH = "/2015-03-31/functions/" + VALIDATOR + "/invocations";
    /** The stub's slow answer: longer than the shortened read timeout below, far inside the production one (10 s). */
    private static final Duration SLOW = Duration.ofMillis(2500);
    /** Stands in for the old 30 s default read timeout (UrlConnectionHttpClient's), against the {@link #SLOW} stub. */
    private static final Duration OLD_READ_TIMEOUT_SHORTENED = Duration.ofMillis(500);
    private static final List<String> FIGURES = Collections.synchronizedList(new ArrayList<>());

    private final PipelineFixture pipeline;
    private StubLambda stub;

    SweepRedriveInvokeIT(PipelineFixture pipeline) {
        this.pipeline = pipeline;
    }

    @BeforeEach
    void setUp() throws IOException {
        stub = new StubLambda();
    }

    @AfterEach
    void tearDown() {
        stub.close();
    }

    @AfterAll
    static void printFigures() {
        System.out.println("SweepRedriveInvokeIT figures (stub Lambda endpoint answering after " + SLOW.toMillis() + " ms):");
        FIGURES.stream().sorted().forEach(line -> System.out.println("  " + line));
    }

    @Test
    void slowAnswer_isOneEventInvoke_carryingTheS3Event_andIsReportedSubmitted() throws Exception {
        PipelineFixture.Uploaded upload = pipeline.putExample("progress_events", "progress-2026-03-01.jsonl"); // event lost
        stub.delay = SLOW;
        CompletenessSweep sweep = sweep(productionPath(DependencyFactory.InvokeTimeouts.DEFAULT));

        long started = System.nanoTime();
        DatasetReport report = sweep.sweep(progressEvents(), "2026-03-01", "2026-03-01");
        long waitedMs = (System.nanoTime() - started) / 1_000_000;

        Redrive redrive = onlyRedrive(report);
        assertEquals(Redrive.SUBMITTED, redrive.action(), redrive.detail());
        assertEquals(1, stub.requests.size(), "exactly one Invoke request for the re-drive");
        StubLambda.Request request = stub.requests.get(0);
        assertEquals("POST", request.method());
        assertEquals(INVOKE_PATH, request.path());
        assertEquals("Event", request.invocationType());
        assertTrue(redrive.detail().contains(request.requestId()), "the report names Lambda's request id: " + redrive.detail());
        assertTrue(waitedMs >= SLOW.toMillis(), "the sweep waited for the answer: " + waitedMs + " ms");
        assertEquals(UnitStatus.UNPROCESSED, report.units().get(0).status(), "not run yet");

        // the payload is the S3 notification as the validator's runtime deserializes it, naming the very version
        S3Event event = EVENTS.fromJson(new ByteArrayInputStream(request.body()));
        assertEquals(1, event.getRecords().size());
        S3EventNotificationRecord record = event.getRecords().get(0);
        assertEquals("ObjectCreated:Put", record.getEventName());
        assertEquals(pipeline.inbox(), record.getS3().getBucket().getName());
        assertEquals(upload.key(), record.getS3().getObject().getUrlDecodedKey());
        assertEquals(upload.versionId(), record.getS3().getObject().getVersionId());
        assertEquals(upload.etag(), record.getS3().getObject().geteTag());
        assertEquals(upload.size(), record.getS3().getObject().getSizeAsLong());

        // Lambda runs the queued event: the validator's handler on exactly that payload; the next sweep reads the ledger
        Invocations.invoke(pipeline.handler(), event, null);
        DatasetReport next = sweep.sweep(progressEvents(), "2026-03-01", "2026-03-01");
        assertEquals(List.of(), next.redrives(), "the next sweep finds the unit done");
        assertEquals(UnitStatus.OK, next.units().get(0).status());
        assertEquals(LedgerStatus.PUBLISHED, pipeline.ledgerItem("progress_events", "2026-03-01").status());
        assertEquals(1, stub.requests.size());
        FIGURES.add("new: " + stub.requests.size() + " request (X-Amz-Invocation-Type: Event), " + stub.maxInFlight.get()
                + " at once, reported " + redrive.action() + " in " + waitedMs + " ms (answer after " + SLOW.toMillis() + " ms)");
    }

    @Test
    void throttled_isOneRequest_notRetried_andReportedNotSubmittedWithTheReason() throws Exception {
        assertRefusedOnce(429, "TooManyRequestsException", "Rate Exceeded.");
    }

    @Test
    void serverError_isOneRequest_notRetried_andReportedNotSubmittedWithTheReason() throws Exception {
        assertRefusedOnce(500, "ServiceException", "internal failure");
    }

    private void assertRefusedOnce(int status, String errorType, String message) throws Exception {
        pipeline.putExample("progress_events", "progress-2026-03-01.jsonl");
        stub.status = status;
        stub.errorType = errorType;
        stub.errorMessage = message;

        long started = System.nanoTime();
        DatasetReport report = sweep(productionPath(DependencyFactory.InvokeTimeouts.DEFAULT))
                .sweep(progressEvents(), "2026-03-01", "2026-03-01");
        long waitedMs = (System.nanoTime() - started) / 1_000_000;

        Redrive redrive = onlyRedrive(report);
        assertEquals(Redrive.NOT_SUBMITTED, redrive.action(), redrive.detail());
        assertEquals(1, stub.requests.size(), "one request: the SDK did not retry it");
        assertTrue(redrive.detail().contains("HTTP " + status) && redrive.detail().contains(errorType), redrive.detail());
        assertTrue(redrive.detail().contains("nothing was queued"), redrive.detail());
        assertEquals(UnitStatus.UNPROCESSED, report.units().get(0).status());
        assertTrue(pipeline.ledger.get("progress_events", "2026-03-01").isEmpty());
        FIGURES.add("new, HTTP " + status + ": " + stub.requests.size() + " request, reported " + redrive.action() + " in "
                + waitedMs + " ms: " + redrive.detail());

        // the next sweep re-drives it (one more request) once Lambda accepts again
        stub.status = 202;
        DatasetReport next = sweep(productionPath(DependencyFactory.InvokeTimeouts.DEFAULT))
                .sweep(progressEvents(), "2026-03-01", "2026-03-01");
        assertEquals(Redrive.SUBMITTED, onlyRedrive(next).action());
        assertEquals(2, stub.requests.size());
    }

    @Test
    void noAnswerInTime_isOneRequest_notRetried_andReportedNotSubmittedWithTheReason() throws Exception {
        pipeline.putExample("progress_events", "progress-2026-03-01.jsonl");
        stub.delay = SLOW;
        // production's client with its read timeout shortened below the stub's answer (production: 10 s)
        DependencyFactory.InvokeTimeouts shortened = new DependencyFactory.InvokeTimeouts(Duration.ofSeconds(1),
                OLD_READ_TIMEOUT_SHORTENED, Duration.ofSeconds(2));

        long started = System.nanoTime();
        DatasetReport report = sweep(productionPath(shortened)).sweep(progressEvents(), "2026-03-01", "2026-03-01");
        long waitedMs = (System.nanoTime() - started) / 1_000_000;
        Thread.sleep(500); // a retry, if there were one, would have arrived by now (the SDK's backoff is ~100 ms)

        Redrive redrive = onlyRedrive(report);
        assertEquals(Redrive.NOT_SUBMITTED, redrive.action(), redrive.detail());
        assertEquals(1, stub.requests.size(), "one request: a timed-out Event invoke is not retried");
        assertTrue(redrive.detail().contains("in time") && redrive.detail().contains("may or may not be queued"), redrive.detail());
        // NOT_SUBMITTED "in time" already says the sweep gave up before the stub answered; how long it waited is a
        // figure (below), not an assertion, so a loaded machine cannot fail it
        FIGURES.add("new, no answer within the read timeout (" + OLD_READ_TIMEOUT_SHORTENED.toMillis() + " ms): "
                + stub.requests.size() + " request, reported " + redrive.action() + " in " + waitedMs + " ms");
    }

    /** The code before issue 13's fix: RequestResponse, the HTTP client's read timeout (30 s, shortened), SDK retries. */
    @Test
    void oldSynchronousConfiguration_againstTheSlowStub_sentSeveralRequests_andReportedFailed() throws Exception {
        pipeline.putExample("progress_events", "progress-2026-03-01.jsonl");
        stub.delay = SLOW;
        stub.status = 200; // a RequestResponse answer, after the (shortened) read timeout
        LambdaClient old = LambdaClient.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder().socketTimeout(OLD_READ_TIMEOUT_SHORTENED))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsConnection.EMULATOR_CREDENTIALS))
                .endpointOverride(stub.endpoint())
                .build();
        IngestPath oldPath = request -> {
            String[] event = new String[1]; // the same S3 event JSON the sweep sends
            new LambdaIngestPath(json -> {
                event[0] = json;
                return "";
            }, "us-east-1").ingest(request);
            InvokeResponse response = old.invoke(r -> r.functionName(VALIDATOR).invocationType(InvocationType.REQUEST_RESPONSE)
                    .payload(SdkBytes.fromUtf8String(event[0])));
            throw new IllegalStateException("answered " + response.statusCode()); // not reached: every attempt timed out
        };

        long started = System.nanoTime();
        DatasetReport report;
        try (old) {
            report = sweep(oldPath).sweep(progressEvents(), "2026-03-01", "2026-03-01");
        }
        long waitedMs = (System.nanoTime() - started) / 1_000_000;

        Redrive redrive = onlyRedrive(report);
        assertEquals(Redrive.FAILED, redrive.action(), redrive.detail());
        assertTrue(stub.requests.size() > 1, "the SDK retried the synchronous invoke: " + stub.requests.size());
        assertTrue(stub.maxInFlight.get() > 1, "and the validator would have run more than once at once: " + stub.maxInFlight.get());
        assertTrue(stub.requests.stream().allMatch(r -> "RequestResponse".equals(r.invocationType())));
        FIGURES.add("old: " + stub.requests.size() + " requests (X-Amz-Invocation-Type: RequestResponse), " + stub.maxInFlight.get()
                + " at once, reported " + redrive.action() + " after " + waitedMs + " ms (read timeout " + OLD_READ_TIMEOUT_SHORTENED.toMillis()
                + " ms standing in for 30 s): " + redrive.detail());
    }

    private LambdaIngestPath productionPath(DependencyFactory.InvokeTimeouts timeouts) {
        LambdaClient client = DependencyFactory.redriveLambdaClient(Region.US_EAST_1, timeouts)
                .endpointOverride(stub.endpoint())
                .credentialsProvider(StaticCredentialsProvider.create(AwsConnection.EMULATOR_CREDENTIALS))
                .build();
        stub.clients.add(client);
        return new LambdaIngestPath(() -> client, VALIDATOR, "us-east-1");
    }

    private CompletenessSweep sweep(IngestPath path) {
        return new CompletenessSweep(pipeline.store, pipeline.ledger, path, new UnitRouter(pipeline.contracts()), pipeline.inbox(),
                pipeline.lake(), Clock.systemUTC(), () -> UUID.randomUUID().toString());
    }

    private DatasetContract progressEvents() {
        return pipeline.contracts().get("progress_events").orElseThrow();
    }

    private static Redrive onlyRedrive(DatasetReport report) {
        assertEquals(1, report.redrives().size(), String.valueOf(report.redrives()));
        return report.redrives().get(0);
    }

    /**
     * Lambda's Invoke API on loopback: records every request, answers after {@link #delay} with {@link #status}
     * (202 with no body for an Event invoke; an error with Lambda's {@code X-Amzn-ErrorType}), and counts the
     * requests in flight at once (each one a validation Lambda would run).
     */
    static final class StubLambda implements AutoCloseable {
        record Request(String method, String path, String invocationType, String requestId, byte[] body) {
        }

        final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger maxInFlight = new AtomicInteger();
        final List<LambdaClient> clients = Collections.synchronizedList(new ArrayList<>());
        volatile Duration delay = Duration.ZERO;
        volatile int status = 202;
        volatile String errorType;
        volatile String errorMessage;
        private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "stub-lambda");
            t.setDaemon(true);
            return t;
        });
        private final HttpServer server;

        StubLambda() throws IOException {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
            server.setExecutor(threads);
            server.createContext("/2015-03-31/functions/", this::handle);
            server.start();
        }

        URI endpoint() {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        }

        private void handle(HttpExchange exchange) throws IOException {
            int now = inFlight.incrementAndGet();
            maxInFlight.accumulateAndGet(now, Math::max);
            try (exchange) {
                String requestId = UUID.randomUUID().toString();
                byte[] body = exchange.getRequestBody().readAllBytes();
                requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                        exchange.getRequestHeaders().getFirst("X-Amz-Invocation-Type"), requestId, body));
                try {
                    Thread.sleep(delay.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                exchange.getResponseHeaders().add("x-amzn-RequestId", requestId);
                byte[] answer;
                if (status >= 400) {
                    exchange.getResponseHeaders().add("X-Amzn-ErrorType", errorType);
                    exchange.getResponseHeaders().add("Content-Type", "application/json");
                    answer = ("{\"Type\":\"" + (status >= 500 ? "Service" : "User") + "\",\"message\":\"" + errorMessage + "\"}").getBytes(UTF_8);
                } else if (status == 202) {
                    answer = new byte[0];
                } else {
                    exchange.getResponseHeaders().add("X-Amz-Executed-Version", "1");
                    answer = "{\"records\":[{\"action\":\"published\"}]}".getBytes(UTF_8);
                }
                exchange.sendResponseHeaders(status, answer.length == 0 ? -1 : answer.length);
                if (answer.length > 0) {
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(answer);
                    }
                }
            } catch (IOException e) {
                // the client gave up (read timeout) and closed the connection: nothing to answer
            } finally {
                inFlight.decrementAndGet();
            }
        }

        @Override
        public void close() {
            clients.forEach(LambdaClient::close);
            server.stop(0);
            threads.shutdownNow();
            try {
                threads.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
