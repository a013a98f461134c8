package io.landingledger.core.repair;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.Deadline;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.InputRef;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.UnitReport;
import io.landingledger.core.sweep.UnitStatus;
import io.landingledger.core.testing.InMemoryLedger;
import io.landingledger.core.testing.InMemoryObjectStore;
import io.landingledger.core.testing.ManualClock;
import io.landingledger.core.testing.TestContracts;
import io.landingledger.core.validate.ValidationLimits;
import io.landingledger.core.volume.VolumeBasis;
import io.landingledger.core.volume.VolumeCheck;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The truncated day (issue 32): sixty days of about 40 rows published through the real ingest path, then a day of
 * 2 rows. The sweep's own Query reads the history the band needs; the day is SUSPECT_VOLUME with its figures, fails
 * completeness, and closes by the producer's republish (judged afresh) or an operator's recorded, reversible acceptance.
 */
class SuspectVolumeTest {
    private static final String INBOX = "inbox";
    private static final String LAKE = "lake";
    private static final LocalDate FIRST = LocalDate.parse("2026-01-01");
    private static final String UNIT = "2026-03-02"; // the sixty-first day, a Monday

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-03T23:00:00Z"));
    private final InMemoryObjectStore s3 = new InMemoryObjectStore(clock).createBucket(INBOX, true).createBucket(LAKE,
            false);
    private final InMemoryLedger ledger = new InMemoryLedger();
    private final AtomicInteger runs = new AtomicInteger();
    private final DatasetContract contract = TestContracts.progressEvents().withUnit(
            TestContracts.progressEvents().unit().toBuilder().first(FIRST.toString()).build());

    private IngestService ingest() {
        return new IngestService(s3, ledger, LAKE, clock, ValidationLimits.defaults(), IngestService.StepListener.NONE);
    }

    private CompletenessSweep sweep() {
        return new CompletenessSweep(s3, ledger, ingest(),
                new UnitRouter(new ContractRegistry(Map.of(contract.dataset(), contract))),
                INBOX, LAKE, clock, () -> "run-" + runs.incrementAndGet());
    }

    private UnitReport status() {
        DatasetReport report = sweep().classify(contract, CompletenessSweep.range(contract, UNIT, UNIT,
                clock.instant()), clock.instant());
        return report.units().get(0);
    }

    private static String rows(String unit, int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= count; i++) {
            text.append("{\"event_id\":\"e").append(unit.replace("-", "")).append('_').append(i)
                    .append("\",\"learner_id\":\"l1\",\"lesson_id\":\"m1\",\"event_type\":\"checkpoint\",\"attempt_number\":1,")
                    .append("\"event_time\":\"").append(unit).append("T10:00:00Z\",\"checkpoint\":").append(i)
                            .append("}\n");
        }
        return text.toString();
    }

    private void produce(String unit, String body) {
        clock.advance(Duration.ofSeconds(5));
        String key = contract.dataset() + "/progress-" + unit + ".jsonl";
        InMemoryObjectStore.Version v = s3.put(INBOX, key, body.getBytes(StandardCharsets.UTF_8),
                "application/x-ndjson", Map.of());
        ingest().ingest(IngestService.Request.event(contract, unit, new InputRef(INBOX, key, v.versionId(), v.etag(),
                v.size(),
                v.sequencer(), v.lastModified()), "run-" + runs.incrementAndGet(), Deadline.NONE));
    }

    private RepairResult.UnitResult repair(Map<String, Object> extra) {
        clock.advance(Duration.ofMinutes(1));
        Map<String, Object> payload = new java.util.HashMap<>(Map.of("dataset", contract.dataset(), "units",
                List.of(UNIT),
                "reason", "INC-32 drill"));
        payload.putAll(extra);
        RepairService repairs = new RepairService(new ContractRegistry(Map.of(contract.dataset(), contract)), ledger,
                s3, ingest(),
                INBOX, LAKE, clock, Duration.ofSeconds(1));
        return repairs.run(RepairRequest.fromPayload(payload), Deadline.NONE, () -> "run-" + runs.incrementAndGet())
                .units().get(0);
    }

    private LedgerItem item() {
        return ledger.get(contract.dataset(), UNIT).orElseThrow();
    }

    private void sixtyNormalDaysThenATruncatedOne() {
        for (int d = 0; d < 60; d++) {
            String unit = FIRST.plusDays(d).toString();
            produce(unit, rows(unit, 38 + (d * 7) % 5)); // 38..42 rows
        }
        produce(UNIT, rows(UNIT, 2));
    }

    @Test
    void aTruncatedDayAmongSixtyNormalOnes_isSuspectVolume_withItsFigures_andFailsCompleteness() {
        sixtyNormalDaysThenATruncatedOne();

        UnitReport unit = status();
        assertEquals(UnitStatus.SUSPECT_VOLUME, unit.status(), unit.reason() + ": " + unit.detail());
        assertEquals(VolumeCheck.BELOW, unit.reason());
        assertTrue(unit.status().failsCompleteness());
        VolumeCheck volume = unit.volume();
        assertEquals(2, volume.actual());
        assertEquals(VolumeBasis.HISTORY, volume.band().basis());
        assertEquals(8, volume.band().comparable(), "the last eight Mondays, read by the range's own Query");
        assertTrue(volume.band().description().contains("Mondays"), volume.band().description());
        assertTrue(volume.band().low() > 2 && volume.band().low() <= 38 && volume.band().high() >= 42, volume.detail());

        // the whole range's report: the other sixty days are OK, the truncated one is the one unit that fails
        DatasetReport report = sweep().sweep(contract, FIRST.toString(), UNIT);
        assertFalse(report.complete());
        assertEquals(1, report.counts().get(UnitStatus.SUSPECT_VOLUME));
        assertEquals(60, report.counts().get(UnitStatus.OK), () -> report.counts() + " " + report.units().get(0)
                .toMap());
        assertEquals(1L, report.metrics().get("UnitsSuspectVolume").value());
        @SuppressWarnings("unchecked")
        Map<String, Object> figures = (Map<String, Object>) report.units().get(60).toMap().get("volume");
        assertEquals(2L, figures.get("actual"));
        assertEquals(true, figures.get("suspect"));
        assertEquals("history", figures.get("basis"));
        assertEquals(volume.band().low(), figures.get("low"));
        String html = new String(s3.current(LAKE, report.reports().latestHtml()).orElseThrow().body(),
                StandardCharsets.UTF_8);
        assertTrue(html.contains("<g class=\"mark\" data-unit=\"" + UNIT + "\">"), "the chart marks the truncated day");
        assertEquals(1, html.split("class=\"bar suspect\"", -1).length - 1, "one red bar");
        assertEquals(61, html.split("<rect class=\"bar", -1).length - 1, "a bar per published unit");
        assertTrue(html.contains("INCOMPLETE"));
    }

    @Test
    void theSweep_tellsTheProducerOfTheSuspectUnitsInput_withTheBandAndTheRows() {
        sixtyNormalDaysThenATruncatedOne();
        List<io.landingledger.core.ingest.InputDecision> told = new java.util.ArrayList<>();

        sweep().withNotices(told::add).sweep(contract, FIRST.toString(), UNIT);

        assertEquals(1, told.size(), "only the truncated day, not its sixty OK neighbours: " + told);
        io.landingledger.core.ingest.InputDecision decision = told.get(0);
        assertEquals(io.landingledger.core.ingest.InputDecision.Decision.SUSPECT_VOLUME, decision.decision());
        assertEquals(UNIT, decision.unit());
        assertEquals(INBOX, decision.bucket());
        assertEquals(item().input().key(), decision.key());
        assertEquals(item().input().versionId(), decision.versionId(), "the version the standing publish was built from");
        assertEquals(item().runId(), decision.runId());
        assertEquals(2, decision.accepted());
        UnitReport unit = status();
        assertEquals(new io.landingledger.core.ingest.InputDecision.ExpectedRows(unit.volume().band().low(),
                unit.volume().band().high()), decision.expectedRows());
    }

    @Test
    void anOperatorsAcceptance_closesIt_isRecorded_andIsReversible_aDryRunWritesNothing() {
        sixtyNormalDaysThenATruncatedOne();

        assertEquals("planned", repair(Map.of("action", "accept-volume", "dryRun", true)).action());
        assertNull(item().volumeAccepted(), "a dry run writes nothing");
        assertEquals(UnitStatus.SUSPECT_VOLUME, status().status());

        assertEquals("accepted_volume", repair(Map.of("action", "accept-volume", "reason",
                "INC-32 the source was down at noon"))
                .action());
        UnitReport accepted = status();
        assertEquals(UnitStatus.OK, accepted.status());
        assertTrue(accepted.volume().suspect(), "the figures still say what the band expected");
        assertEquals("INC-32 the source was down at noon", accepted.volumeMap().get("accepted"));
        assertEquals("skipped", repair(Map.of("action", "accept-volume")).action(), "accepting twice changes nothing");

        assertEquals("revoked", repair(Map.of("action", "revoke-accept-volume", "reason", "INC-32 the rest arrived"))
                .action());
        assertEquals(UnitStatus.SUSPECT_VOLUME, status().status());
        List<HistoryEntry> history = ledger.history(contract.dataset(), UNIT);
        assertEquals(List.of("PUBLISHED", "VOLUME_ACCEPTED", "VOLUME_ACCEPTANCE_REVOKED"), history.stream()
                .map(HistoryEntry::action).toList());
        assertEquals(RunKind.ACCEPT_VOLUME, history.get(1).runKind());
        assertEquals("INC-32 the rest arrived", history.get(2).reason());
    }

    @Test
    void theProducersRepublish_isJudgedAfresh_andDropsAnAcceptanceOfOtherRows() {
        sixtyNormalDaysThenATruncatedOne();
        repair(Map.of("action", "accept-volume"));
        assertEquals(UnitStatus.OK, status().status());

        produce(UNIT, rows(UNIT, 3)); // still truncated, other rows: the acceptance was of the two rows
        assertNull(item().volumeAccepted(), "other rows are judged afresh");
        assertEquals(UnitStatus.SUSPECT_VOLUME, status().status());

        produce(UNIT, rows(UNIT, 40)); // the whole day
        UnitReport whole = status();
        assertEquals(UnitStatus.RESTATED, whole.status(), "within the band: complete, the new rows stand");
        assertFalse(whole.volume().suspect());
    }

    @Test
    void onlyAUnitPublishedWithRows_canHaveItsCountAccepted() {
        assertEquals("rejected", repair(Map.of("action", "accept-volume")).action(), "nothing published");
        assertEquals("skipped", repair(Map.of("action", "revoke-accept-volume")).action(), "nothing to revoke");
    }
}
