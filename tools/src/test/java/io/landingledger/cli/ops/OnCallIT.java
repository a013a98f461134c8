package io.landingledger.cli.ops;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.cli.stack.LocalStackRecord;
import io.landingledger.cli.testing.LandingRun;
import io.landingledger.tools.testing.WatchedLocalStack;
import io.landingledger.core.validate.Events;
import io.landingledger.lambda.AwsConnection;
import io.landingledger.lambda.DependencyFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.landingledger.cli.testing.StatusUnits.byUnit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/operations.md's "On call" section, command for command (keep the two in step): `landing local --watch
 * --no-bucket-events` runs in this JVM as a user starts it, and status, explain, repair, sweep and history find it
 * through its record and walk a refused day, a lost event and a deleted publish. Every command's output is kept and
 * checked at the end for values planted in a refused file and in quarantined lines: none may appear.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class OnCallIT {
    static final String PLANTED_REFUSED = "PLANTED-7731@secret.example";
    static final String PLANTED_QUARANTINED = "PLANTED-Q-9917";
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final String DATASET = "progress_events";

    Path work;
    WatchedLocalStack stack;
    final StringBuilder everything = new StringBuilder();
    S3Client s3;
    LocalStackRecord record;

    LandingRun landing(String... args) {
        LandingRun run = LandingRun.inProcess(args);
        everything.append(run.stdout()).append(run.stderr());
        return run;
    }

    @BeforeAll
    void startTheLocalStack() throws Exception {
        work = Files.createTempDirectory("oncall-");
        System.setProperty(LocalStackRecord.PROPERTY, work.resolve("state/local.json").toString());
        Path inbox = work.resolve("inbox/" + DATASET);
        Files.createDirectories(inbox);
        Path examples = ROOT.resolve("examples/inbox/" + DATASET);
        for (String day : List.of("01", "02", "05")) {
            Files.copy(examples.resolve("progress-2026-03-" + day + ".jsonl"), inbox.resolve("progress-2026-03-" + day + ".jsonl"));
        }
        // 03-03's ordinary bad lines, plus one whose bad value is planted: quarantined by line number and reason only
        Files.writeString(inbox.resolve("progress-2026-03-03.jsonl"), Files.readString(examples.resolve("progress-2026-03-03.jsonl"))
                + Events.event("evt_20260303_0099").text("learner_id", "lrn_1099").text("lesson_id", "les_09")
                .text("attempt_number", PLANTED_QUARANTINED).text("event_time", "2026-03-03T18:00:00Z").raw("checkpoint", "1").line() + "\n");
        // 03-04: a producer sends a prohibited field, with a planted value: refused
        Files.writeString(inbox.resolve("progress-2026-03-04.jsonl"),
                Events.lines(
                        Events.event("evt_20260304_0001").text("learner_id", "lrn_2001").text("lesson_id", "les_01")
                                .text("event_time", "2026-03-04T07:00:00Z").raw("checkpoint", "1").line(),
                        Events.event("evt_20260304_0002").text("learner_id", "lrn_2002").text("lesson_id", "les_01")
                                .text("event_time", "2026-03-04T08:00:00Z").raw("checkpoint", "1").text("email", PLANTED_REFUSED).line()));
        stack = WatchedLocalStack.startIn(work);
        record = stack.record;
        s3 = stack.s3;
    }

    @AfterAll
    void stopTheLocalStack() throws Exception {
        stack.close();
        assertFalse(Files.exists(LocalStackRecord.path()), "the record is removed when landing local --watch exits");
        System.clearProperty(LocalStackRecord.PROPERTY);
    }

    Map<String, Object> ledgerDump() throws Exception {
        try (DynamoDbClient dynamo = DependencyFactory.dynamoDbClient(AwsConnection.endpoints(Region.of(record.region()), record.s3Endpoint(),
                record.dynamoDbEndpoint()))) {
            return Map.of("ledger", dynamo.scan(r -> r.tableName(record.ledgerTable())).items().toString(),
                    "history", dynamo.scan(r -> r.tableName(record.historyTable())).items().toString());
        }
    }

    @Test
    @Order(1)
    void status_findsTheRefusedDaysWithoutFlags_andExitsOneForAnIncompleteSet() throws Exception {
        LandingRun status = landing("status", DATASET, "--json");
        assertEquals(1, status.exit(), status.stderr());
        Map<String, Map<String, Object>> units = byUnit(status.json());
        assertEquals("OK", units.get("2026-03-01").get("status"));
        assertEquals("OK", units.get("2026-03-03").get("status"));
        assertEquals("REFUSED", units.get("2026-03-04").get("status"));
        assertEquals("REFUSED", units.get("2026-03-05").get("status"));
        assertEquals(false, status.json().get("complete"));

        LandingRun table = landing("status", DATASET);
        assertEquals(1, table.exit());
        assertTrue(table.stdout().matches("(?s).*2026-03-05\\s+REFUSED.*"), table.stdout());
        LandingRun restated = landing("status", DATASET, "--restated", "--json");
        assertTrue(byUnit(restated.json()).isEmpty(), restated.stdout());
        LandingRun help = landing("status", "--help");
        assertTrue(help.stdout().contains("0") && help.stdout().contains("complete"), help.stdout());
    }

    @Test
    @Order(2)
    @SuppressWarnings("unchecked")
    void explain_aRefusedDay_givesTheCodeLinesAndTheRepairCommand_andQuarantineByReason() throws Exception {
        LandingRun explain = landing("explain", DATASET, "2026-03-04", "--json");
        assertEquals(1, explain.exit(), explain.stderr());
        Map<String, Object> bundle = explain.json();
        Map<String, Object> refusal = (Map<String, Object>) bundle.get("refusal");
        assertEquals("PROHIBITED_FIELD", refusal.get("code"));
        assertEquals(List.of(2), refusal.get("lines"), refusal.toString());
        assertEquals(1, ((List<Object>) bundle.get("inbox_versions")).size());
        assertEquals("REFUSED", ((Map<String, Object>) bundle.get("sweep")).get("status"));
        String command = (String) ((Map<String, Object>) bundle.get("repair")).get("command");
        assertTrue(command.startsWith("landing repair progress_events 2026-03-04 --input-version latest --reason ") && command.endsWith("--dry-run"), command);

        LandingRun text = landing("explain", DATASET, "2026-03-05");
        assertTrue(text.stdout().contains("Refusal: PROHIBITED_FIELD"), text.stdout());
        assertTrue(text.stdout().contains("landing repair progress_events 2026-03-05"), text.stdout());

        LandingRun quarantined = landing("explain", DATASET, "2026-03-03", "--json");
        assertEquals(0, quarantined.exit(), quarantined.stderr());
        Map<String, Object> quarantine = (Map<String, Object>) quarantined.json().get("quarantine");
        assertNotNull(quarantine, quarantined.stdout());
        assertTrue(((Map<String, Object>) quarantine.get("reasons")).values().stream().mapToLong(v -> ((Number) v).longValue()).sum() >= 2,
                quarantine.toString());
        assertNotNull(((Map<String, Object>) quarantined.json().get("published")).get("metadata"));
    }

    @Test
    @Order(3)
    @SuppressWarnings("unchecked")
    void aLostEvent_isUnprocessed_theDryRunWritesNothing_theRepairPublishesIt_andHistoryShowsTheReason() throws Exception {
        // the producer's corrected file lands with its S3 event lost (docs/operations.md, On call: aws s3 cp ... with --no-bucket-events)
        s3.putObject(r -> r.bucket(record.inboxBucket()).key("progress_events/progress-2026-03-05.jsonl"),
                RequestBody.fromFile(ROOT.resolve("examples/redelivery/progress_events/progress-2026-03-05.jsonl")));
        LandingRun status = landing("status", DATASET, "--drift", "--json");
        assertEquals("UNPROCESSED", byUnit(status.json()).get("2026-03-05").get("status"), status.stdout());

        Map<String, Object> before = ledgerDump();
        LandingRun dry = landing("repair", DATASET, "2026-03-05", "--input-version", "latest", "--reason", "INC-1 lost event", "--dry-run");
        assertEquals(0, dry.exit(), dry.stderr());
        assertTrue(dry.stdout().contains("plan: publish"), dry.stdout());
        assertTrue(dry.stdout().contains("Blast radius"), dry.stdout());
        assertEquals(before, ledgerDump(), "a dry run writes nothing");

        LandingRun noTerminal = landing("repair", DATASET, "2026-03-05", "--input-version", "latest", "--reason", "INC-1 lost event");
        assertEquals(2, noTerminal.exit());
        assertTrue(noTerminal.stderr().contains("no terminal"), noTerminal.stderr());
        assertEquals(before, ledgerDump(), "a refused confirmation writes nothing");

        LandingRun repair = landing("repair", DATASET, "2026-03-05", "--input-version", "latest", "--reason", "INC-1 lost event", "--yes");
        assertEquals(0, repair.exit(), repair.stdout() + repair.stderr());
        assertTrue(repair.stdout().matches("(?s).*2026-03-05\\s+REFUSED\\(0\\)\\s+PUBLISHED\\(1\\)\\s+published.*"), repair.stdout());

        LandingRun history = landing("history", DATASET, "2026-03-05", "--json");
        List<Map<String, Object>> items = (List<Map<String, Object>>) history.json().get("history");
        Map<String, Object> last = items.get(items.size() - 1);
        assertEquals("PUBLISHED", last.get("action"));
        assertEquals("REPAIR", last.get("run_kind"));
        assertEquals("INC-1 lost event", last.get("reason"));
        assertTrue(landing("history", DATASET, "2026-03-05").stdout().contains("INC-1 lost event"));
    }

    @Test
    @Order(4)
    @SuppressWarnings("unchecked")
    void aDeletedPublish_isLedgerDrift_andTheRepairRestoresExactlyTheListedUnit() throws Exception {
        String key = "published/progress_events/unit=2026-03-01/part-00000.jsonl";
        String etag = s3.headObject(r -> r.bucket(record.lakeBucket()).key(key)).eTag();
        s3.deleteObject(r -> r.bucket(record.lakeBucket()).key(key));
        Map<String, Map<String, Object>> units = byUnit(landing("status", DATASET, "--json").json());
        assertEquals("LEDGER_DRIFT", units.get("2026-03-01").get("status"));

        LandingRun explain = landing("explain", DATASET, "2026-03-01", "--json");
        Map<String, Object> fix = (Map<String, Object>) explain.json().get("repair");
        assertEquals("landing repair progress_events 2026-03-01 --reason 'LEDGER_DRIFT PUBLISHED_OBJECT_MISSING' --dry-run", fix.get("command"));

        Map<String, Object> before = ledgerDump();
        LandingRun dry = landing("repair", DATASET, "2026-03-01", "--reason", "INC-2 deleted publish", "--dry-run", "--json");
        assertEquals(0, dry.exit(), dry.stderr());
        Map<String, Object> radius = ((List<Map<String, Object>>) dry.json().get("blast_radius")).get(0);
        Map<String, Object> rows = (Map<String, Object>) radius.get("rows");
        assertEquals(12, ((Number) rows.get("add")).intValue(), radius.toString());
        assertEquals(0, ((Number) rows.get("remove")).intValue());
        assertEquals(before, ledgerDump(), "a dry run writes nothing");

        LandingRun repair = landing("repair", DATASET, "2026-03-01", "--reason", "INC-2 deleted publish", "--yes");
        assertEquals(0, repair.exit(), repair.stdout() + repair.stderr());
        assertEquals(etag, s3.headObject(r -> r.bucket(record.lakeBucket()).key(key)).eTag(), "the same rows are published again");
        Map<String, Map<String, Object>> after = byUnit(landing("status", DATASET, "--json").json());
        assertEquals("OK", after.get("2026-03-01").get("status"), "a republish of the same rows closes the drift: OK, not RESTATED");
        assertEquals(((Number) units.get("2026-03-01").get("publish_count")).intValue() + 1,
                ((Number) after.get("2026-03-01").get("publish_count")).intValue(), "the republish is counted");
        assertEquals(0, landing("status", DATASET, "--from", "2026-03-01", "--to", "2026-03-01").exit(), "the unit is complete");
        for (String other : List.of("2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05")) {
            assertEquals(units.get(other).get("publish_count"), after.get(other).get("publish_count"), other + " is not touched");
            assertEquals(units.get(other).get("ledger_input_version"), after.get(other).get("ledger_input_version"), other);
        }
    }

    @Test
    @Order(5)
    @SuppressWarnings("unchecked")
    void sweep_runsNowAndWritesTheReports_andNoOutputEverHoldsRowContent() throws Exception {
        LandingRun sweep = landing("sweep", DATASET, "--json");
        assertEquals(1, sweep.exit(), sweep.stderr()); // 03-04 is still refused
        Map<String, Object> dataset = (Map<String, Object>) ((List<Object>) sweep.json().get("datasets")).get(0);
        String latest = (String) ((Map<String, Object>) dataset.get("reports")).get("latest_json");
        assertNotNull(s3.headObject(r -> r.bucket(record.lakeBucket()).key(latest)));
        assertTrue(landing("sweep", DATASET).stdout().contains("Report progress_events: s3://" + record.lakeBucket()));

        for (String[] args : List.of(new String[] {"explain", DATASET, "2026-03-04"}, new String[] {"explain", DATASET, "2026-03-03"},
                new String[] {"history", DATASET, "2026-03-04", "--json"}, new String[] {"repair", DATASET, "2026-03-04", "--input-version",
                        "latest", "--reason", "r", "--dry-run", "--json"}, new String[] {"status", "--json"})) {
            landing(args);
        }
        assertFalse(everything.toString().contains(PLANTED_REFUSED), "a refused file's value reached an output");
        assertFalse(everything.toString().contains(PLANTED_QUARANTINED), "a quarantined line's value reached an output");
        assertFalse(everything.toString().contains("lrn_2002"), "no row content at all");
    }

    @Test
    @Order(6)
    void withoutAStack_theCommandsSaySoAndExitTwo() {
        LandingRun both = landing("status", "--stack", "landing-prod", "--endpoint", "http://127.0.0.1:1");
        assertEquals(2, both.exit());
        assertTrue(both.stderr().contains("give --stack or --endpoint, not both"), both.stderr());
        String saved = System.getProperty(LocalStackRecord.PROPERTY);
        System.setProperty(LocalStackRecord.PROPERTY, work.resolve("nowhere/local.json").toString());
        try {
            LandingRun none = landing("status");
            assertEquals(2, none.exit());
            assertTrue(none.stderr().contains("landing local --watch"), none.stderr());
        } finally {
            System.setProperty(LocalStackRecord.PROPERTY, saved);
        }
    }
    @Test
    @Order(7)
    @SuppressWarnings("unchecked")
    void aRestatement_showsTheConsumerThatReadTheEarlierPublishBehind_untilItAcksTheNewOne() throws Exception {
        String unit = "2026-03-02";
        LandingRun ack = landing("ack", DATASET, unit, "--consumer", "mart", "--json");
        assertEquals(0, ack.exit(), ack.stderr());
        String firstRun = (String) ack.json().get("publish");
        assertEquals(firstRun, byUnitRunId(unit));
        assertEquals(Map.of(), landing("status", DATASET, "--json").json().get("consumers_behind"));

        // a restatement: a new input of the unit, published anew (by repair: --no-bucket-events delivers no event)
        s3.putObject(r -> r.bucket(record.inboxBucket()).key("progress_events/progress-2026-03-02.jsonl"),
                RequestBody.fromFile(ROOT.resolve("examples/redelivery/progress_events/progress-2026-03-02.jsonl")));
        LandingRun repair = landing("repair", DATASET, unit, "--input-version", "latest", "--reason", "INC-3 restatement", "--yes");
        assertEquals(0, repair.exit(), repair.stdout() + repair.stderr());
        assertFalse(firstRun.equals(byUnitRunId(unit)), "a new publish");

        LandingRun status = landing("status", DATASET, "--json");
        assertEquals(Map.of(DATASET, Map.of("mart", List.of(unit))), status.json().get("consumers_behind"), status.stdout());
        assertEquals(List.of("mart"), byUnit(status.json()).get(unit).get("consumers_behind"));
        LandingRun text = landing("status", DATASET);
        assertTrue(text.stdout().contains("Consumers behind") && text.stdout().matches("(?s).*mart +progress_events +2026-03-02.*"), text.stdout());
        assertEquals(Map.of("mart", List.of(unit)), latestReport().get("consumers_behind"));
        assertEquals(1, latestReport().get("units_behind_consumers"));

        // mart rebuilt from the new publish and says so
        LandingRun again = landing("ack", DATASET, unit, "--consumer", "mart");
        assertEquals(0, again.exit(), again.stderr());
        assertTrue(again.stdout().contains("Recorded: mart read progress_events/2026-03-02"), again.stdout());
        assertEquals(Map.of(), landing("status", DATASET, "--json").json().get("consumers_behind"));
        assertFalse(landing("status", DATASET).stdout().contains("Consumers behind"));
        assertEquals(Map.of(), latestReport().get("consumers_behind"));

        LandingRun unknown = landing("ack", DATASET, "2026-03-09", "--consumer", "mart");
        assertEquals(2, unknown.exit());
        assertTrue(unknown.stderr().contains("has no publish to acknowledge"), unknown.stderr());
    }

    private String byUnitRunId(String unit) throws Exception {
        Map<String, Object> explain = landing("history", DATASET, unit, "--json").json();
        List<Map<String, Object>> history = (List<Map<String, Object>>) explain.get("history");
        return history.stream().filter(h -> "PUBLISHED".equals(h.get("action"))).reduce((a, b) -> b).map(h -> (String) h.get("run_id")).orElseThrow();
    }

    /** Runs the sweep and reads the report it wrote as latest.json. */
    private Map<String, Object> latestReport() throws Exception {
        LandingRun sweep = landing("sweep", DATASET, "--json");
        Map<String, Object> dataset = (Map<String, Object>) ((List<Object>) sweep.json().get("datasets")).get(0);
        String latest = (String) ((Map<String, Object>) dataset.get("reports")).get("latest_json");
        return JSON.std.mapFrom(s3.getObjectAsBytes(r -> r.bucket(record.lakeBucket()).key(latest)).asUtf8String());
    }
}
