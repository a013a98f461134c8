package io.landingledger.cli.ops;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.cli.stack.LocalStackRecord;
import io.landingledger.cli.testing.LandingRun;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.Deadline;
import io.landingledger.core.ingest.IngestAction;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.InputRef;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.sweep.InvalidUnit;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.tools.testing.WatchedLocalStack;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.landingledger.cli.testing.StatusUnits.byUnit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30, item 1, on the locally deployed stack: a ledger already holds a unit its cadence cannot name
 * ({@code 2026-02-30}, planted as an older build wrote it: published and recorded by the ingest path), and a
 * producer's misnamed file is refused by the validator function with UNIT_INVALID. Status (one dataset and all),
 * sweep, explain and {@code repair --omit} all answer, with docs/operations.md's exit codes, and after the omission
 * nothing of the bad unit is left under {@code published/}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class InvalidUnitIT {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final String DATASET = "progress_events";
    static final String BAD = "2026-02-30";
    static final String MISNAMED = "progress-2026-02-31.jsonl";

    Path work;
    WatchedLocalStack stack;
    LocalStackRecord record;
    S3Client s3;
    DependencyFactory olderBuild;
    /** What landing local --watch prints as it runs: the validator's answers, as an operator reads its logs. */
    final ByteArrayOutputStream watchOutput = new ByteArrayOutputStream();

    LandingRun landing(String... args) {
        return LandingRun.inProcess(args);
    }

    @BeforeAll
    void startTheLocalStack_withABadUnitInTheLedger() throws Exception {
        work = Files.createTempDirectory("invalid-unit-");
        System.setProperty(LocalStackRecord.PROPERTY, work.resolve("state/local.json").toString());
        Path inbox = work.resolve("inbox/" + DATASET);
        Files.createDirectories(inbox);
        for (String day : List.of("01", "02")) {
            Files.copy(ROOT.resolve("examples/inbox/" + DATASET + "/progress-2026-03-" + day + ".jsonl"),
                    inbox.resolve("progress-2026-03-" + day + ".jsonl"));
        }
        PrintStream original = System.err;
        System.setErr(new PrintStream(new Tee(original, watchOutput), true, StandardCharsets.UTF_8));
        try {
            stack = WatchedLocalStack.startIn(work); // landing local keeps the error stream it started with
        } finally {
            System.setErr(original);
        }
        record = stack.record;
        s3 = stack.s3;
        olderBuild = stack.dependencies("an older build's validator");

        // an older build routed progress-2026-02-30.jsonl to the unit 2026-02-30 and ran the ingest path on it
        String key = DATASET + "/progress-" + BAD + ".jsonl";
        byte[] body = Files.readAllBytes(ROOT.resolve("examples/inbox/" + DATASET + "/progress-2026-03-01.jsonl"));
        PutObjectResponse put = s3.putObject(r -> r.bucket(record.inboxBucket()).key(key), RequestBody.fromBytes(body));
        DatasetContract contract = olderBuild.contracts().get(DATASET).orElseThrow();
        InputRef input = new InputRef(record.inboxBucket(), key, put.versionId(), put.eTag().replace("\"", ""),
                body.length, null, Instant.now());
        IngestService.Request request =
                IngestService.Request.event(contract, BAD, input, "older-build-run", Deadline.NONE);
        assertEquals(IngestAction.PUBLISHED, olderBuild.ingestService().ingest(request).action());
        assertTrue(publishedExists(), "the older build published the bad unit");
    }

    @AfterAll
    void stopTheLocalStack() throws Exception {
        if (olderBuild != null) {
            olderBuild.close();
        }
        stack.close();
        System.clearProperty(LocalStackRecord.PROPERTY);
    }

    boolean publishedExists() {
        try {
            s3.headObject(r -> r.bucket(record.lakeBucket()).key(LakeLayout.publishedKey(DATASET, BAD)));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        }
    }

    @Test
    @Order(1)
    void aProducersMisnamedFile_isRefusedByTheValidator_unitInvalid_andNeverReachesTheLedger() throws Exception {
        Files.writeString(work.resolve("inbox/" + DATASET + "/" + MISNAMED),
                Files.readString(ROOT.resolve("examples/inbox/" + DATASET + "/progress-2026-03-02.jsonl")));
        // a budget far above any machine's speed, not a goal
        long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (refusal().isEmpty() && System.nanoTime() < until) {
            Thread.sleep(500);
        }
        String line = refusal().orElse(watched());
        assertTrue(line.contains("unroutable") && line.contains("UNIT_INVALID")
                && line.contains("'2026-02-31' is not a real date"), line);
        assertTrue(olderBuild.ledger().get(DATASET, "2026-02-31").isEmpty(), "the ledger never holds it");
        assertThrows(NoSuchKeyException.class, () -> s3.headObject(r -> r.bucket(record.lakeBucket())
                .key(LakeLayout.publishedKey(DATASET, "2026-02-31"))));
    }

    @Test
    @Order(2)
    void status_ofTheDatasetAndOfAll_listsTheBadUnitApart_andAnswersForTheOthers_exitOne() throws Exception {
        for (String[] args : List.of(new String[] {"status", DATASET, "--json"}, new String[] {"status", "--json"})) {
            LandingRun status = landing(args);
            assertEquals(1, status.exit(), status.stdout() + status.stderr());
            Map<String, Map<String, Object>> units = byUnit(status.json());
            assertEquals(InvalidUnit.INVALID_UNIT, units.get(BAD).get("status"), status.stdout());
            String detail = (String) units.get(BAD).get("detail");
            assertTrue(detail.contains(InvalidUnit.omitCommand(DATASET, BAD)), status.stdout());
            assertEquals("OK", units.get("2026-03-01").get("status"), status.stdout());
            assertEquals("OK", units.get("2026-03-02").get("status"), status.stdout());
            assertFalse(units.containsKey("2026-02-31"), "a refused file is never a unit");
        }
        LandingRun table = landing("status", DATASET);
        assertEquals(1, table.exit(), table.stderr());
        assertTrue(table.stdout().matches("(?s).*" + BAD + "\\s+INVALID_UNIT.*"), table.stdout());
    }

    @Test
    @Order(3)
    @SuppressWarnings("unchecked")
    void sweep_reportsTheBadUnitApart_exitOne_andItsReportSaysSo() throws Exception {
        LandingRun sweep = landing("sweep", DATASET, "--json");
        assertEquals(1, sweep.exit(), sweep.stdout() + sweep.stderr());
        Map<String, Object> dataset = (Map<String, Object>) ((List<Object>) sweep.json().get("datasets")).get(0);
        List<Map<String, Object>> invalid = (List<Map<String, Object>>) dataset.get("invalid_units");
        assertEquals(BAD, invalid.get(0).get("unit"), dataset.toString());
        assertEquals(InvalidUnit.INVALID_UNIT, invalid.get(0).get("status"));
        assertEquals(List.of(), dataset.get("not_ok"), "every expected unit is OK");
        assertTrue(((Number) dataset.get("unroutable_inbox_objects")).intValue() >= 1, dataset.toString());
        String latest = (String) ((Map<String, Object>) dataset.get("reports")).get("latest_json");
        Map<String, Object> report = JSON.std.mapFrom(s3.getObjectAsBytes(r -> r.bucket(record.lakeBucket())
                .key(latest)).asUtf8String());
        assertEquals(BAD, ((List<Map<String, Object>>) report.get("invalid_units")).get(0).get("unit"));
        String html = s3.getObjectAsBytes(r -> r.bucket(record.lakeBucket())
                .key((String) ((Map<String, Object>) dataset.get("reports")).get("latest_html"))).asUtf8String();
        assertTrue(html.contains("Ledger items that are not units (1)"), html);

        LandingRun text = landing("sweep", DATASET);
        assertEquals(1, text.exit());
        assertTrue(text.stdout().matches("(?s).*" + DATASET + "\\s+" + BAD + "\\s+INVALID_UNIT\\s+UNIT_INVALID.*"),
                text.stdout());
    }

    @Test
    @Order(4)
    @SuppressWarnings("unchecked")
    void explain_answersForTheBadUnit_withTheOmission_exitOne() throws Exception {
        LandingRun explain = landing("explain", DATASET, BAD, "--json");
        assertEquals(1, explain.exit(), explain.stdout() + explain.stderr());
        assertEquals(InvalidUnit.INVALID_UNIT, ((Map<String, Object>) explain.json().get("sweep")).get("status"));
        assertEquals(InvalidUnit.omitCommand(DATASET, BAD),
                ((Map<String, Object>) explain.json().get("repair")).get("command"));
        assertFalse(((List<Object>) explain.json().get("history")).isEmpty(),
                "the older build's publish is in the history");
    }

    @Test
    @Order(5)
    @SuppressWarnings("unchecked")
    void repairOmit_removesItsPublish_recordsTheOmission_andEveryCommandIsCompleteAgain() throws Exception {
        String reason = "misnamed file: not a unit";
        LandingRun dry = landing("repair", DATASET, BAD, "--omit", "--reason", reason, "--dry-run", "--json");
        assertEquals(0, dry.exit(), dry.stdout() + dry.stderr());
        Map<String, Object> radius = ((List<Map<String, Object>>) dry.json().get("blast_radius")).get(0);
        assertTrue(radius.get("may_write").toString().contains(LakeLayout.publishedKey(DATASET, BAD) + " (deleted"),
                radius.toString());
        assertTrue(publishedExists(), "a dry run writes nothing");
        assertEquals("PUBLISHED", olderBuild.ledger().get(DATASET, BAD).orElseThrow().status().name());

        LandingRun omit = landing("repair", DATASET, BAD, "--omit", "--reason", reason, "--yes", "--json");
        assertEquals(0, omit.exit(), omit.stdout() + omit.stderr());
        assertEquals(List.of(LakeLayout.publishedKey(DATASET, BAD)), omit.json().get("removed"));
        assertFalse(publishedExists(), "an omitted unit, like any, has nothing in published/");
        assertEquals("OMITTED", olderBuild.ledger().get(DATASET, BAD).orElseThrow().status().name());

        LandingRun status = landing("status", DATASET, "--json");
        assertEquals(0, status.exit(), status.stdout() + status.stderr());
        assertEquals("OMITTED", byUnit(status.json()).get(BAD).get("status"));
        assertEquals(0, landing("status").exit());
        LandingRun sweep = landing("sweep", DATASET, "--json");
        assertEquals(0, sweep.exit(), sweep.stdout());
        Map<String, Object> dataset = (Map<String, Object>) ((List<Object>) sweep.json().get("datasets")).get(0);
        assertEquals("OMITTED", ((List<Map<String, Object>>) dataset.get("invalid_units")).get(0).get("status"));
        LandingRun explain = landing("explain", DATASET, BAD, "--json");
        assertEquals(0, explain.exit(), explain.stdout() + explain.stderr());
        assertNull(explain.json().get("repair"));
    }

    /** The validator's answer for the misnamed file, as landing local --watch prints it. */
    private java.util.Optional<String> refusal() {
        return watched().lines().filter(l -> l.contains(MISNAMED) && l.contains("unroutable")).findFirst();
    }

    private String watched() {
        synchronized (watchOutput) {
            return watchOutput.toString(StandardCharsets.UTF_8);
        }
    }

    /** Writes to both: the test's stderr as before, and a copy to read. */
    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final ByteArrayOutputStream copy;

        Tee(OutputStream first, ByteArrayOutputStream copy) {
            this.first = first;
            this.copy = copy;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            synchronized (copy) {
                copy.write(b, off, len);
            }
            try {
                first.write(b, off, len);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
