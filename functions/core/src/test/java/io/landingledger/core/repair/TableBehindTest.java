package io.landingledger.core.repair;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.Deadline;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.InputRef;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.json.JsonCodec;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.ledger.TableState;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.Redrive;
import io.landingledger.core.sweep.TableTracking;
import io.landingledger.core.sweep.UnitReport;
import io.landingledger.core.sweep.UnitStatus;
import io.landingledger.core.sweep.UnitStatusExport;
import io.landingledger.core.table.TableMessage;
import io.landingledger.core.table.TableQueue;
import io.landingledger.core.testing.InMemoryLedger;
import io.landingledger.core.testing.InMemoryObjectStore;
import io.landingledger.core.testing.ManualClock;
import io.landingledger.core.testing.TestContracts;
import io.landingledger.core.validate.ValidationLimits;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TABLE_BEHIND end to end on the in-memory ports: a publish whose table commit is still within its grace is a flag
 * only; past the grace it fails completeness with the writer's reason; the sweep's re-drive and {@code landing repair}
 * submit it to the table queue (a dry run submits and writes nothing); the writer's record closes it. A stack without
 * tables never judges one.
 */
class TableBehindTest {
    private static final String INBOX = "inbox";
    private static final String LAKE = "lake";
    private static final String UNIT = "2026-03-03";
    private static final String KEY = "progress_events/progress-" + UNIT + ".jsonl";
    private static final String ROW = "{\"event_id\":\"e1\",\"learner_id\":\"l1\",\"lesson_id\":\"m1\",\"event_type\":\"checkpoint\","
            + "\"attempt_number\":1,\"event_time\":\"2026-03-03T10:00:00Z\",\"checkpoint\":1}\n";
    private static final Duration GRACE = Duration.ofMinutes(15);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-03T23:00:00Z"));
    private final InMemoryObjectStore s3 = new InMemoryObjectStore(clock).createBucket(INBOX, true).createBucket(LAKE, false);
    private final InMemoryLedger ledger = new InMemoryLedger();
    private final AtomicInteger runs = new AtomicInteger();
    private final List<TableMessage> queued = new ArrayList<>();
    private final TableQueue queue = queued::add;
    private final DatasetContract contract = TestContracts.progressEvents();

    private IngestService ingest() {
        return new IngestService(s3, ledger, LAKE, clock, ValidationLimits.defaults(), IngestService.StepListener.NONE);
    }

    private CompletenessSweep sweep(TableTracking tables) {
        CompletenessSweep sweep = new CompletenessSweep(s3, ledger, ingest(), new UnitRouter(registry()), INBOX, LAKE, clock,
                this::runId);
        return tables == null ? sweep : sweep.withTables(tables);
    }

    private ContractRegistry registry() {
        return new ContractRegistry(Map.of(contract.dataset(), contract));
    }

    private UnitReport status(TableTracking tables) {
        return report(tables).units().get(0);
    }

    private DatasetReport report(TableTracking tables) {
        return sweep(tables).classify(contract, CompletenessSweep.range(contract, UNIT, UNIT, clock.instant()), clock.instant());
    }

    private String runId() {
        return "run-" + runs.incrementAndGet();
    }

    private IngestOutcome produce() {
        InMemoryObjectStore.Version v = s3.put(INBOX, KEY, ROW.getBytes(StandardCharsets.UTF_8), "application/x-ndjson", Map.of());
        clock.advance(Duration.ofSeconds(2));
        return ingest().ingest(IngestService.Request.event(contract, UNIT, new InputRef(INBOX, KEY, v.versionId(), v.etag(), v.size(),
                v.sequencer(), v.lastModified()), runId(), Deadline.NONE));
    }

    private RepairResult.UnitResult repair(RepairService service, boolean dryRun) {
        Map<String, Object> payload = new HashMap<>(Map.of("dataset", contract.dataset(), "units", List.of(UNIT),
                "reason", "INC-31 table", "dryRun", dryRun));
        return service.run(RepairRequest.fromPayload(payload), Deadline.NONE, this::runId).units().get(0);
    }

    private RepairService repairs() {
        return new RepairService(registry(), ledger, s3, ingest(), INBOX, LAKE, clock, Duration.ofSeconds(1));
    }

    private LedgerItem item() {
        return ledger.get(contract.dataset(), UNIT).orElseThrow();
    }

    /** What the table writer does last: records the snapshot (or its failure) on the ledger item. */
    private void writerRecords(TableState state) {
        clock.advance(Duration.ofSeconds(1)); // a history item's key is its time and run
        LedgerItem item = item();
        HistoryEntry history = HistoryEntry.builder().dataset(contract.dataset()).unit(UNIT).at(clock.instant())
                .runId(item.runId()).runKind(RunKind.INGEST).action("TABLE_COMMITTED").published(item.published())
                .contractVersion(item.contractVersion()).build();
        assertTrue(ledger.recordTable(contract.dataset(), UNIT, item.runId(), item.published().contentSha256(), state,
                history), "the item stands on the publish the writer describes");
    }

    private TableState committed() {
        LedgerItem item = item();
        return new TableState(4242L, item.runId(), item.published().contentSha256(), clock.instant(), null, null);
    }

    @Test
    void withinTheGrace_aPublishAheadOfItsTable_isAFlag_andOk_thenPastIt_TableBehind_failingCompleteness() {
        produce();
        UnitReport fresh = status(new TableTracking(GRACE, null));
        assertEquals(UnitStatus.OK, fresh.status());
        assertEquals(List.of(UnitStatus.TABLE_BEHIND), fresh.flags());
        assertEquals("TABLE_NOT_WRITTEN", statusLine(new TableTracking(GRACE, null)).get("table_reason"));
        assertTrue(report(new TableTracking(GRACE, null)).complete());

        clock.advance(GRACE);
        DatasetReport late = report(new TableTracking(GRACE, null));
        UnitReport behind = late.units().get(0);
        assertEquals(UnitStatus.TABLE_BEHIND, behind.status());
        assertEquals("TABLE_NOT_WRITTEN", behind.reason());
        assertTrue(behind.detail().contains("run " + item().runId()), behind.detail());
        assertFalse(late.complete());
        assertEquals(1L, late.metrics().get("UnitsTableBehind").value());
    }

    @Test
    void aStackWithoutTables_neverJudgesOne() {
        produce();
        clock.advance(Duration.ofDays(3));
        UnitReport unit = status(null);
        assertEquals(UnitStatus.OK, unit.status());
        assertEquals(List.of(), unit.flags());
        Map<String, Object> line = statusLine(null);
        assertNull(line.get("table_reason"));
        assertNull(line.get("table_snapshot_id"));
    }

    @Test
    void theWritersLastError_isTheReason_andItsRecordedSnapshot_closesTheUnit() {
        produce();
        clock.advance(GRACE.plusMinutes(1));
        writerRecords(new TableState(null, null, null, null, "CATALOG_UNAVAILABLE", clock.instant()));
        UnitReport failing = status(new TableTracking(GRACE, null));
        assertEquals(UnitStatus.TABLE_BEHIND, failing.status());
        assertEquals("CATALOG_UNAVAILABLE", failing.reason());
        assertTrue(failing.detail().contains("last failed"), failing.detail());
        assertEquals("CATALOG_UNAVAILABLE", statusLine(new TableTracking(GRACE, null)).get("table_reason"));
        @SuppressWarnings("unchecked")
        Map<String, Object> table = (Map<String, Object>) ((Map<String, Object>) failing.toMap().get("ledger")).get("table");
        assertEquals("CATALOG_UNAVAILABLE", table.get("last_error"));

        writerRecords(committed());
        UnitReport ok = status(new TableTracking(GRACE, null));
        assertEquals(UnitStatus.OK, ok.status());
        assertEquals(List.of(), ok.flags());
        Map<String, Object> line = statusLine(new TableTracking(GRACE, null));
        assertEquals(4242L, ((Number) line.get("table_snapshot_id")).longValue());
        assertNull(line.get("table_reason"));
    }

    @Test
    void aTableHoldingAnOlderPublish_isBehind_whenTheLedgerMovesOn() {
        produce();
        // the table's record names the publish before this one (the ledger moved on since the writer's commit)
        writerRecords(new TableState(4242L, "run-0", "0f".repeat(32), clock.instant(), null, null));
        clock.advance(GRACE);
        UnitReport unit = status(new TableTracking(GRACE, null));
        assertEquals(UnitStatus.TABLE_BEHIND, unit.status());
        assertEquals("TABLE_HOLDS_OLDER_PUBLISH", unit.reason());
        assertTrue(unit.detail().contains("since snapshot 4242"), unit.detail());
    }

    @Test
    void theSweepsRedrive_submitsATableBehindUnit_toTheTableQueue_reportedSubmitted() throws Exception {
        produce();
        clock.advance(GRACE);
        DatasetReport report = sweep(new TableTracking(GRACE, queue)).sweep(contract, UNIT, UNIT);
        assertEquals(List.of(new TableMessage(contract.dataset(), UNIT, null, null)), queued);
        Redrive redrive = report.redrives().get(0);
        assertEquals(Redrive.SUBMITTED, redrive.action());
        assertTrue(redrive.toTable());
        assertEquals(item().runId(), redrive.runId());
        assertEquals(UnitStatus.TABLE_BEHIND, redrive.statusAfter());
        assertEquals("table", redrive.toMap().get("target"));
        String json = new String(s3.current(LAKE, report.reports().latestJson()).orElseThrow().body(), StandardCharsets.UTF_8);
        assertTrue(json.contains("\"target\" : \"table\""), json);
        String html = new String(s3.current(LAKE, report.reports().latestHtml()).orElseThrow().body(), StandardCharsets.UTF_8);
        assertTrue(html.contains("TBH") && html.contains("TABLE_BEHIND") && html.contains("table writer"), html);

        // a queue that refuses: not submitted, with the reason, and the next sweep tries again
        TableQueue refusing = message -> {
            throw new IllegalStateException("queue throttled");
        };
        Redrive refused = sweep(new TableTracking(GRACE, refusing)).sweep(contract, UNIT, UNIT).redrives().get(0);
        assertEquals(Redrive.NOT_SUBMITTED, refused.action());
        assertTrue(refused.detail().contains("queue throttled"), refused.detail());
    }

    @Test
    void withinTheGrace_theSweepSubmitsNothing() {
        produce();
        DatasetReport report = sweep(new TableTracking(GRACE, queue)).sweep(contract, UNIT, UNIT);
        assertEquals(List.of(), report.redrives());
        assertEquals(List.of(), queued);
    }

    @Test
    void repair_dryRun_plansTheTableSubmit_andWritesNothing_thenTheRepairSubmits_andTheWritersRecordClosesIt() {
        produce();
        clock.advance(GRACE);
        RepairService service = repairs().withTableQueue(queue);
        long writes = ledger.writes();
        int history = ledger.allHistory().size();

        RepairResult.UnitResult plan = repair(service, true);
        assertEquals("planned", plan.action());
        assertTrue(plan.expect().startsWith(RepairService.TABLE_SUBMIT), plan.expect());
        assertTrue(plan.expect().contains("TABLE_NOT_WRITTEN"), plan.expect());
        assertEquals(List.of(), queued);
        assertEquals(writes, ledger.writes());
        assertEquals(history, ledger.allHistory().size());

        RepairResult.UnitResult done = repair(service, false);
        assertEquals(RepairResult.TABLE_SUBMITTED, done.action());
        assertTrue(done.succeeded());
        assertEquals(List.of(new TableMessage(contract.dataset(), UNIT, null, null)), queued);
        HistoryEntry last = ledger.history(contract.dataset(), UNIT).get(ledger.history(contract.dataset(), UNIT).size() - 1);
        assertEquals("TABLE_SUBMITTED", last.action());
        assertEquals("INC-31 table", last.reason());
        assertEquals(writes, ledger.writes(), "the publish stands: the item is not written");
        assertEquals(UnitStatus.TABLE_BEHIND, status(new TableTracking(GRACE, null)).status(), "open until the writer records it");

        writerRecords(committed());
        assertEquals(UnitStatus.OK, status(new TableTracking(GRACE, null)).status());
        assertEquals("skip", repair(service, true).expect(), "in step: nothing to submit");
    }

    @Test
    void repair_withoutTables_skipsAsBefore() {
        produce();
        clock.advance(GRACE);
        RepairResult.UnitResult done = repair(repairs(), false);
        assertEquals("skipped", done.action());
        assertEquals(List.of(), queued);
        assertEquals(LakeLayout.publishedKey(contract.dataset(), UNIT), item().published().key());
    }

    private Map<String, Object> statusLine(TableTracking tables) {
        String line = new String(UnitStatusExport.lines(report(tables)), StandardCharsets.UTF_8).strip();
        return JsonCodec.readMap(line);
    }
}
