package io.landingledger.cli.ops;

import com.fasterxml.jackson.jr.ob.JSON;
import com.sun.net.httpserver.HttpServer;

import io.landingledger.core.json.JsonCodec;
import io.landingledger.cli.stack.LocalStackRecord;
import io.landingledger.cli.testing.LandingRun;
import io.landingledger.tools.testing.WatchedLocalStack;
import io.landingledger.core.ingest.Deadline;
import io.landingledger.core.repair.RepairRequest;
import io.landingledger.core.repair.RepairResult;
import io.landingledger.lambda.DependencyFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.landingledger.cli.testing.StatusUnits.byUnit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --stack NAME}: status and repair against a "deployed" stack whose CloudFormation and Lambda are loopback
 * stubs and whose buckets and tables are the embedded emulators of a {@code landing local --watch} run in this JVM
 * (pointed at through the package-private seam {@link TargetOptions#stackApis}). CloudFormation answers the recorded
 * DescribeStackResources of DeployedStackTest with the local stack's names. The stub repair function runs the real
 * RepairService on the emulators one unit per invocation, as a function that runs out of time after each unit does,
 * and answers its {@code RepairResult} (through JsonCodec) with the rest as continuation: every invocation is a page.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class DeployedTargetIT {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final String DATASET = "progress_events";
    static final String STACK = "landing-ledger-dev";
    static final String REPAIR_PATH = "/2015-03-31/functions/landing-ledger-dev-repair/invocations";

    record Request(String path, String query, String invocationType, Map<String, Object> body) {
    }

    Path work;
    WatchedLocalStack stack;
    LocalStackRecord record;
    S3Client s3;
    DependencyFactory functions;
    HttpServer cloudFormation;
    HttpServer lambda;
    final List<String> cloudFormationBodies = new ArrayList<>();
    final List<Request> invocations = new ArrayList<>();

    @BeforeAll
    void startTheStackAndTheStubs() throws Exception {
        work = Files.createTempDirectory("deployed-");
        System.setProperty(LocalStackRecord.PROPERTY, work.resolve("state/local.json").toString());
        Path inbox = work.resolve("inbox/" + DATASET);
        Files.createDirectories(inbox);
        for (String day : List.of("01", "02")) {
            Files.copy(ROOT.resolve("examples/inbox/" + DATASET + "/progress-2026-03-" + day + ".jsonl"), inbox.resolve("progress-2026-03-" + day + ".jsonl"));
        }
        stack = WatchedLocalStack.startIn(work);
        record = stack.record;
        AwsBasicCredentials credentials = stack.credentials;
        s3 = stack.s3;
        // what the deployed repair function would be built from: the same buckets and tables
        functions = stack.dependencies("stub function");

        String description;
        try (InputStream in = DeployedTargetIT.class.getResourceAsStream("/stack/describe-stack-resources.xml")) {
            description = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace("landing-ledger-dev-inbox-123456789012", record.inboxBucket())
                    .replace("landing-ledger-dev-lake-123456789012", record.lakeBucket())
                    .replace("landing-ledger-dev-LedgerHistory<", record.historyTable() + "<")
                    .replace("landing-ledger-dev-Ledger<", record.ledgerTable() + "<");
        }
        cloudFormation = server(exchange -> {
            synchronized (this) {
                cloudFormationBodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            }
            reply(exchange, 200, "text/xml", description);
        });
        lambda = server(exchange -> {
            Map<String, Object> body = JSON.std.mapFrom(exchange.getRequestBody().readAllBytes());
            synchronized (this) {
                invocations.add(new Request(exchange.getRequestURI().getRawPath(), exchange.getRequestURI().getRawQuery(),
                        exchange.getRequestHeaders().getFirst("X-Amz-Invocation-Type"), body));
            }
            if (!REPAIR_PATH.equals(exchange.getRequestURI().getRawPath())) {
                reply(exchange, 404, "application/json", "{\"Type\":\"User\",\"message\":\"no such function\"}");
                return;
            }
            reply(exchange, 200, "application/json", JsonCodec.writeString(onePage(RepairRequest.fromPayload(body))));
        });
        TargetOptions.stackApis = new TargetOptions.StackApis(endpoint(cloudFormation), endpoint(lambda), record.s3Endpoint(),
                record.dynamoDbEndpoint(), credentials);
    }

    /** The repair function that runs out of time after each unit: the first unit repaired (or planned), the rest continued. */
    RepairResult onePage(RepairRequest payload) {
        List<String> units = payload.units();
        RepairRequest first = new RepairRequest(payload.dataset(), units.subList(0, 1), null, null, payload.mode(), payload.dryRun(),
                payload.force(), payload.reason(), payload.inputVersion(), payload.action());
        RepairResult ran = functions.repairService().run(first, Deadline.NONE, () -> UUID.randomUUID().toString());
        return new RepairResult(payload, ran.forward(), ran.units(), units.subList(1, units.size()));
    }

    static HttpServer server(com.sun.net.httpserver.HttpHandler handler) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            try {
                handler.handle(exchange);
            } catch (RuntimeException e) {
                reply(exchange, 500, "application/json", "{\"Type\":\"Service\",\"message\":\"" + e.getClass().getSimpleName() + "\"}");
            }
        });
        server.start();
        return server;
    }

    static URI endpoint(HttpServer server) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    static void reply(com.sun.net.httpserver.HttpExchange exchange, int status, String type, String body) throws java.io.IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @AfterAll
    void stopEverything() throws Exception {
        TargetOptions.stackApis = null;
        if (cloudFormation != null) {
            cloudFormation.stop(0);
        }
        if (lambda != null) {
            lambda.stop(0);
        }
        if (functions != null) {
            functions.close();
        }
        stack.close();
        System.clearProperty(LocalStackRecord.PROPERTY);
    }

    LandingRun landing(String... args) {
        return LandingRun.inProcess(args);
    }

    static String published(String unit) {
        return "published/progress_events/unit=" + unit + "/part-00000.jsonl";
    }

    @Test
    @Order(1)
    void status_resolvesTheStackFromCloudFormation_andReadsItsTables() throws Exception {
        LandingRun ok = landing("status", DATASET, "--stack", STACK, "--region", record.region(), "--json");
        assertEquals(0, ok.exit(), ok.stdout() + ok.stderr());
        assertEquals("OK", byUnit(ok.json()).get("2026-03-02").get("status"), ok.stdout());
        // the resources, then the outputs that name the stack's tables (this stub has none: no table is listed)
        assertEquals(List.of("Action=DescribeStackResources&Version=2010-05-15&StackName=" + STACK,
                "Action=DescribeStacks&Version=2010-05-15&StackName=" + STACK), cloudFormationBodies);
        assertTrue(invocations.isEmpty(), "status invokes nothing");

        for (String unit : List.of("2026-03-01", "2026-03-02")) {
            s3.deleteObject(r -> r.bucket(record.lakeBucket()).key(published(unit)));
        }
        LandingRun drift = landing("status", DATASET, "--stack", STACK, "--region", record.region());
        assertEquals(1, drift.exit(), drift.stderr());
        assertTrue(drift.stdout().matches("(?s).*2026-03-01\\s+LEDGER_DRIFT.*2026-03-02\\s+LEDGER_DRIFT.*"), drift.stdout());
    }

    @Test
    @Order(2)
    void aDryRun_isOneInvokePerPage_everyPageADryRun_andWritesNothing() {
        LandingRun dry = landing("repair", DATASET, "2026-03-01", "2026-03-02", "--reason", "INC-3 deleted publishes", "--dry-run",
                "--stack", STACK, "--region", record.region());
        assertEquals(0, dry.exit(), dry.stdout() + dry.stderr());
        assertTrue(dry.stdout().matches("(?s).*2026-03-01 .*plan: .*2026-03-02 .*plan: .*"), dry.stdout());
        assertTrue(dry.stdout().contains("Blast radius:\n  2026-03-01: "), dry.stdout());
        assertTrue(dry.stdout().contains("Dry run: nothing was written."), dry.stdout());
        assertEquals(2, invocations.size(), "one Invoke per page, no retry");
        for (Request invocation : invocations) {
            assertEquals(REPAIR_PATH, invocation.path());
            assertEquals("Qualifier=live", invocation.query());
            assertEquals("RequestResponse", invocation.invocationType());
            assertEquals(Boolean.TRUE, invocation.body().get("dryRun"), invocation.body().toString());
        }
        assertEquals(List.of("2026-03-01", "2026-03-02"), invocations.get(0).body().get("units"));
        assertEquals(List.of("2026-03-02"), invocations.get(1).body().get("units"), "the second page is the first's continuation");
        for (String unit : List.of("2026-03-01", "2026-03-02")) {
            assertFalse(s3.listObjectsV2(r -> r.bucket(record.lakeBucket()).prefix(published(unit))).hasContents(), "a dry run writes nothing");
        }
    }

    @Test
    @Order(3)
    void aRepair_plansThenRepairs_inTheFunction_onePagePerUnit_andRestoresBothUnits() throws Exception {
        invocations.clear();
        LandingRun repair = landing("repair", DATASET, "2026-03-01", "2026-03-02", "--reason", "INC-3 deleted publishes", "--yes",
                "--stack", STACK, "--region", record.region());
        assertEquals(0, repair.exit(), repair.stdout() + repair.stderr());
        assertTrue(repair.stdout().matches("(?s).*Result:.*2026-03-01\\s+\\S+\\s+PUBLISHED\\(2\\)\\s+published.*2026-03-02\\s+\\S+\\s+PUBLISHED\\(2\\)\\s+published.*"),
                repair.stdout());
        assertTrue(repair.stdout().contains("Repaired: every unit listed was restored."), repair.stdout());
        assertEquals(List.of(true, true, false, false), invocations.stream().map(i -> i.body().get("dryRun")).toList(),
                "the plan's two pages, then the repair's two: four Invokes, none retried");
        assertEquals(List.of("2026-03-02"), invocations.get(3).body().get("units"));
        for (String unit : List.of("2026-03-01", "2026-03-02")) {
            assertTrue(s3.listObjectsV2(r -> r.bucket(record.lakeBucket()).prefix(published(unit))).hasContents(), unit + " is published again");
        }
        LandingRun after = landing("status", DATASET, "--stack", STACK, "--region", record.region(), "--json");
        assertEquals("OK", byUnit(after.json()).get("2026-03-01").get("status"), "the same rows published again: " + after.stdout());
    }

    @Test
    @Order(4)
    void aFleetRepair_isTheRepairFunctionsJobPerDataset_onlyForDatasetsWithTheStatus() {
        invocations.clear();
        put(io.landingledger.core.ingest.LakeLayout.statusKey(DATASET),
                "{\"unit\":\"2026-03-01\",\"status\":\"LEDGER_DRIFT\"}\n{\"unit\":\"2026-03-02\",\"status\":\"OK\"}\n");
        put(io.landingledger.core.ingest.LakeLayout.statusKey("transactions"), "{\"unit\":\"2026-10-01\",\"status\":\"OK\"}\n");
        LandingRun dry = landing("repair", "--all-datasets", "--status", "LEDGER_DRIFT", "--reason", "INC-4 fleet", "--dry-run",
                "--stack", STACK, "--region", record.region());
        assertEquals(0, dry.exit(), dry.stdout() + dry.stderr());
        assertTrue(dry.stdout().contains("== progress_events (1 unit(s))") && !dry.stdout().contains("== transactions"), dry.stdout());
        assertEquals(1, invocations.size(), "one Invoke for the one dataset with a unit of that status: " + invocations);
        assertEquals(REPAIR_PATH, invocations.get(0).path());
        assertEquals(DATASET, invocations.get(0).body().get("dataset"));
        assertEquals(List.of("2026-03-01"), invocations.get(0).body().get("units"));
        assertEquals(Boolean.TRUE, invocations.get(0).body().get("dryRun"));
    }

    void put(String key, String body) {
        s3.putObject(r -> r.bucket(record.lakeBucket()).key(key), software.amazon.awssdk.core.sync.RequestBody.fromString(body));
    }

    @Test
    @Order(5)
    void aFunctionThatFails_isOneInvoke_andExitsTwo() {
        invocations.clear();
        LandingRun sweep = landing("sweep", DATASET, "--stack", STACK, "--region", record.region());
        assertEquals(2, sweep.exit(), sweep.stdout());
        assertEquals(1, invocations.size(), "no retry");
        assertEquals("/2015-03-31/functions/landing-ledger-dev-sweep/invocations", invocations.get(0).path());
        assertTrue(sweep.stderr().startsWith("landing sweep: ") && sweep.stderr().contains("stack " + STACK), sweep.stderr());
    }
}
