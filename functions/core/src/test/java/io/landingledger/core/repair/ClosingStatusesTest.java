package io.landingledger.core.repair;

import io.landingledger.core.consumers.ConsumerReceipt;
import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.Deadline;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.InputRef;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.UnitReport;
import io.landingledger.core.sweep.UnitStatus;
import io.landingledger.core.testing.InMemoryConsumerReceipts;
import io.landingledger.core.testing.InMemoryLedger;
import io.landingledger.core.testing.InMemoryObjectStore;
import io.landingledger.core.testing.ManualClock;
import io.landingledger.core.testing.TestContracts;
import io.landingledger.core.validate.ValidationLimits;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every status an on-call engineer can close, through the real ingest path, repair and sweep on the in-memory ports:
 * a republish of the same rows is OK, a change of rows is RESTATED and complete with its stale readers named, an empty
 * unit fails until it is accepted (by an operator, reversibly, or by the contract).
 */
class ClosingStatusesTest {
    private static final String INBOX = "inbox";
    private static final String LAKE = "lake";
    private static final String UNIT = "2026-03-03";
    private static final String KEY = "progress_events/progress-" + UNIT + ".jsonl";
    private static final String ROW_1 = "{\"event_id\":\"e1\",\"learner_id\":\"l1\",\"lesson_id\":\"m1\",\"event_type\":\"checkpoint\","
            + "\"attempt_number\":1,\"event_time\":\"2026-03-03T10:00:00Z\",\"checkpoint\":1}\n";
    private static final String ROW_2 = ROW_1.replace("e1", "e2").replace("\"checkpoint\":1", "\"checkpoint\":2");

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-03T23:00:00Z"));
    private final InMemoryObjectStore s3 = new InMemoryObjectStore(clock).createBucket(INBOX, true).createBucket(LAKE, false);
    private final InMemoryLedger ledger = new InMemoryLedger();
    private final InMemoryConsumerReceipts receipts = new InMemoryConsumerReceipts();
    private final AtomicInteger runs = new AtomicInteger();

    private DatasetContract contract = TestContracts.progressEvents();

    private IngestService ingest() {
        return new IngestService(s3, ledger, LAKE, clock, ValidationLimits.defaults(), IngestService.StepListener.NONE);
    }

    private RepairService repairs() {
        return new RepairService(new ContractRegistry(Map.of(contract.dataset(), contract)), ledger, s3, ingest(), INBOX, LAKE, clock,
                Duration.ofSeconds(1));
    }

    private UnitReport status() {
        CompletenessSweep sweep = new CompletenessSweep(s3, ledger, ingest(), new UnitRouter(new ContractRegistry(Map.of(contract.dataset(),
                contract))), INBOX, LAKE, clock, this::runId, receipts);
        DatasetReport report = sweep.classify(contract, CompletenessSweep.range(contract, UNIT, UNIT, clock.instant()), clock.instant());
        return report.units().get(0);
    }

    private String runId() {
        return "run-" + runs.incrementAndGet();
    }

    private IngestOutcome produce(String rows) {
        clock.advance(Duration.ofMinutes(5));
        InMemoryObjectStore.Version v = s3.put(INBOX, KEY, rows.getBytes(StandardCharsets.UTF_8), "application/x-ndjson", Map.of());
        clock.advance(Duration.ofSeconds(2));
        return ingest().ingest(IngestService.Request.event(contract, UNIT, new InputRef(INBOX, KEY, v.versionId(), v.etag(), v.size(),
                v.sequencer(), v.lastModified()), runId(), Deadline.NONE));
    }

    private RepairResult.UnitResult repair(Map<String, Object> extra) {
        clock.advance(Duration.ofMinutes(1));
        Map<String, Object> payload = new java.util.HashMap<>(Map.of("dataset", contract.dataset(), "units", List.of(UNIT),
                "reason", "INC-8 drill"));
        payload.putAll(extra);
        RepairResult result = repairs().run(RepairRequest.fromPayload(payload), Deadline.NONE, this::runId);
        return result.units().get(0);
    }

    private LedgerItem item() {
        return ledger.get(contract.dataset(), UNIT).orElseThrow();
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    @Test
    void theDrill_deletedPublish_isLedgerDrift_andItsRepair_leavesTheUnitOk_andTheDatasetComplete() throws Exception {
        produce(ROW_1 + ROW_2);
        assertEquals(UnitStatus.OK, status().status());
        byte[] rows = s3.current(LAKE, LakeLayout.publishedKey(contract.dataset(), UNIT)).orElseThrow().body();

        s3.delete(LAKE, LakeLayout.publishedKey(contract.dataset(), UNIT)); // out of band
        assertEquals(UnitStatus.LEDGER_DRIFT, status().status());
        assertEquals("PUBLISHED_OBJECT_MISSING", status().reason());

        assertEquals("published", repair(Map.of()).action());
        UnitReport after = status();
        assertEquals(UnitStatus.OK, after.status(), after.reason() + ": " + after.detail());
        assertFalse(after.status().failsCompleteness());
        LedgerItem item = item();
        assertEquals(2, item.publishCount(), "the republish is recorded and counted");
        assertEquals(0, item.restatements());
        assertEquals(sha256(rows), item.published().contentSha256(), "the content hash is the SHA-256 of the published bytes");
        List<HistoryEntry> published = ledger.history(contract.dataset(), UNIT).stream().filter(h -> "PUBLISHED".equals(h.action())).toList();
        assertEquals(2, published.size());
        assertEquals(published.get(0).published().contentSha256(), published.get(1).published().contentSha256());
        assertEquals(published.get(0).runId(), item.contentRunId(), "the rows stand since the first publish");
    }

    @Test
    void aForcedRepairThatYieldsTheSameRows_isOk_andMovesNoReaderBehind() {
        produce(ROW_1);
        String firstRun = item().runId();
        receipts.record(new ConsumerReceipt(contract.dataset(), UNIT, "mart", firstRun, clock.instant()));
        assertEquals("published", repair(Map.of("force", true)).action());
        assertEquals(2, item().publishCount());
        assertEquals(UnitStatus.OK, status().status());
        assertEquals(List.of(), status().consumersBehind());
    }

    @Test
    void aRealRestatement_isRestated_complete_andNamesTheReaderOfTheOlderRows() {
        produce(ROW_1);
        receipts.record(new ConsumerReceipt(contract.dataset(), UNIT, "mart", item().runId(), clock.instant()));
        produce(ROW_1 + ROW_2); // the producer re-sends the day with a row more
        UnitReport restated = status();
        assertEquals(UnitStatus.RESTATED, restated.status());
        assertEquals("ROWS_CHANGED_1_TIMES", restated.reason());
        assertFalse(restated.status().failsCompleteness());
        assertEquals(List.of("mart"), restated.consumersBehind());

        receipts.record(new ConsumerReceipt(contract.dataset(), UNIT, "mart", item().runId(), clock.instant().plusSeconds(1)));
        assertEquals(List.of(), status().consumersBehind(), "acknowledged");
        assertEquals(UnitStatus.RESTATED, status().status(), "still shown: the rows did change");
    }

    @Test
    void anEmptyUnit_failsUntilAnOperatorAcceptsIt_andTheAcceptanceIsRecordedAndReversible() {
        produce("{\"event_id\":\"e1\",\"surprise\":1}\n"); // one rejected line: a publish of 0 rows
        assertEquals(UnitStatus.EMPTY, status().status());
        assertTrue(status().status().failsCompleteness());

        assertEquals("planned", repair(Map.of("action", "accept-empty", "dryRun", true)).action());
        assertNull(item().emptyAccepted(), "a dry run writes nothing");
        assertEquals("accepted_empty", repair(Map.of("action", "accept-empty", "reason", "INC-9 no lessons on a holiday")).action());
        UnitReport accepted = status();
        assertEquals(UnitStatus.EMPTY_ACCEPTED, accepted.status());
        assertEquals("ACCEPTED_BY_OPERATOR", accepted.reason());
        assertTrue(accepted.detail().contains("INC-9 no lessons on a holiday"), accepted.detail());
        assertFalse(accepted.status().failsCompleteness());
        assertEquals("skipped", repair(Map.of("action", "accept-empty")).action(), "accepting twice changes nothing");

        assertEquals("revoked", repair(Map.of("action", "revoke-accept-empty", "reason", "INC-9 the file was late after all")).action());
        assertEquals(UnitStatus.EMPTY, status().status());
        List<String> actions = ledger.history(contract.dataset(), UNIT).stream().map(HistoryEntry::action).toList();
        assertEquals(List.of("PUBLISHED", "EMPTY_ACCEPTED", "EMPTY_ACCEPTANCE_REVOKED"), actions);
        assertEquals("INC-9 the file was late after all", ledger.history(contract.dataset(), UNIT).get(2).reason());
    }

    @Test
    void anAcceptance_isConditionedOnTheItemRead_andDecidedAgainAfterAConflict() {
        produce("{\"event_id\":\"e1\",\"surprise\":1}\n");
        ledger.conflictNextWrite();
        assertEquals("accepted_empty", repair(Map.of("action", "accept-empty")).action());
        assertEquals(UnitStatus.EMPTY_ACCEPTED, status().status());
    }

    @Test
    void onlyAnEmptyPublishCanBeAccepted_andNewRowsDropTheAcceptance() {
        assertEquals("rejected", repair(Map.of("action", "accept-empty")).action(), "nothing published");
        produce(ROW_1);
        assertEquals("rejected", repair(Map.of("action", "accept-empty")).action(), "published with rows");

        produce("{\"event_id\":\"e1\",\"surprise\":1}\n");
        repair(Map.of("action", "accept-empty"));
        assertEquals(UnitStatus.EMPTY_ACCEPTED, status().status());
        produce(ROW_2);
        assertNull(item().emptyAccepted(), "other rows are judged afresh");
        produce("{\"event_id\":\"e1\",\"surprise\":2}\n");
        assertEquals(UnitStatus.EMPTY, status().status(), "an empty day again needs its own acceptance");
    }

    /**
     * The schedule the protocol simulation found (seed 20261201, schedule 7547): a repair dies after its promote, a
     * newer input's event is lost, and the sweep's re-drive first records the orphan publish, then publishes the newer
     * rows. Two publishes recorded in one run, the second with other rows: one restatement.
     */
    @Test
    void aCrashedRepairsPublish_recordedByTheReDrive_thenNewerRows_isOneRestatement() {
        clock.advance(Duration.ofMinutes(5));
        s3.put(INBOX, KEY, ROW_1.getBytes(StandardCharsets.UTF_8), "application/x-ndjson", Map.of()); // its event lost
        IngestService crashing = new IngestService(s3, ledger, LAKE, clock, ValidationLimits.defaults(), (step, unit) -> {
            if (step == IngestService.Step.PROMOTED) {
                throw new IllegalStateException("the function died after its promote");
            }
        });
        RepairService dying = new RepairService(new ContractRegistry(Map.of(contract.dataset(), contract)), ledger, s3, crashing, INBOX, LAKE,
                clock, Duration.ofSeconds(1));
        RepairResult crashed = dying.run(RepairRequest.fromPayload(Map.of("dataset", contract.dataset(), "units", List.of(UNIT),
                "inputVersion", "latest", "reason", "INC-10")), Deadline.NONE, this::runId);
        assertEquals("failed", crashed.units().get(0).action());
        assertTrue(ledger.get(contract.dataset(), UNIT).isEmpty(), "promoted, not recorded");
        clock.advance(Duration.ofMinutes(5));
        s3.put(INBOX, KEY, (ROW_1 + ROW_2).getBytes(StandardCharsets.UTF_8), "application/x-ndjson", Map.of()); // its event lost too

        new CompletenessSweep(s3, ledger, ingest(), new UnitRouter(new ContractRegistry(Map.of(contract.dataset(), contract))), INBOX, LAKE,
                clock, this::runId, receipts).sweep(contract, UNIT, UNIT);
        assertEquals(2, item().publishCount(), "the orphan publish, then the newer rows");
        assertEquals(1, item().restatements());
        assertEquals(UnitStatus.RESTATED, status().status());
    }

    @Test
    void aContractThatAcceptsEmptyUnits_needsNoOperator() {
        contract = TestContracts.progressEvents(c -> c.put("acceptEmptyUnits", true));
        produce("{\"event_id\":\"e1\",\"surprise\":1}\n");
        assertEquals(UnitStatus.EMPTY_ACCEPTED, status().status());
        assertEquals("ACCEPTED_BY_CONTRACT", status().reason());
    }
}
