package io.landingledger.core.repair;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.Deadline;
import io.landingledger.core.ingest.IngestAction;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.InputRef;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.InvalidUnit;
import io.landingledger.core.sweep.SweepHtml;
import io.landingledger.core.sweep.UnitReport;
import io.landingledger.core.sweep.UnitStatus;
import io.landingledger.core.testing.InMemoryLedger;
import io.landingledger.core.testing.InMemoryObjectStore;
import io.landingledger.core.testing.ManualClock;
import io.landingledger.core.testing.TestContracts;
import io.landingledger.core.validate.ValidationLimits;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30, item 1: a producer's file named for an impossible date ({@code progress-2026-02-30.jsonl}) was published
 * as a unit and recorded in the ledger, and from then on status, sweep, explain and repair refused to answer. Now
 * routing refuses it (UNIT_INVALID), and a bad unit an older build recorded blinds nothing and can be omitted.
 */
class UnitInvalidTest {
    private static final String INBOX = "inbox";
    private static final String LAKE = "lake";
    private static final String GOOD = "2026-03-03";
    private static final String BAD = "2026-02-30";
    private static final String ROW = "{\"event_id\":\"e1\",\"learner_id\":\"l1\",\"lesson_id\":\"m1\",\"event_type\":\"checkpoint\","
            + "\"attempt_number\":1,\"event_time\":\"2026-03-03T10:00:00Z\",\"checkpoint\":1}\n";

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-04T12:00:00Z"));
    private final InMemoryObjectStore s3 = new InMemoryObjectStore(clock).createBucket(INBOX, true).createBucket(LAKE, false);
    private final InMemoryLedger ledger = new InMemoryLedger();
    private final AtomicInteger runs = new AtomicInteger();
    private final DatasetContract contract = TestContracts.progressEvents(edit -> {
        @SuppressWarnings("unchecked")
        Map<String, Object> unit = (Map<String, Object>) edit.get("unit");
        unit.put("autoRedrive", true);
    });
    private final ContractRegistry registry = new ContractRegistry(Map.of(contract.dataset(), contract));

    private IngestService ingest() {
        return new IngestService(s3, ledger, LAKE, clock, ValidationLimits.defaults(), IngestService.StepListener.NONE);
    }

    private CompletenessSweep sweep() {
        return new CompletenessSweep(s3, ledger, ingest(), new UnitRouter(registry), INBOX, LAKE, clock, this::runId);
    }

    private RepairService repairs() {
        return new RepairService(registry, ledger, s3, ingest(), INBOX, LAKE, clock, Duration.ofSeconds(1));
    }

    private String runId() {
        return "run-" + runs.incrementAndGet();
    }

    private static String key(String unit) {
        return "progress_events/progress-" + unit + ".jsonl";
    }

    /** Puts a file in the inbox and runs the ingest path for {@code unit}, as the validator (or an older build) did. */
    private void produceAndIngest(String unit) {
        InMemoryObjectStore.Version v = s3.put(INBOX, key(unit), ROW.getBytes(StandardCharsets.UTF_8), "application/x-ndjson", Map.of());
        clock.advance(Duration.ofSeconds(2));
        assertEquals(IngestAction.PUBLISHED, ingest().ingest(IngestService.Request.event(contract, unit, new InputRef(INBOX, key(unit),
                v.versionId(), v.etag(), v.size(), v.sequencer(), v.lastModified()), runId(), Deadline.NONE)).action());
    }

    private RepairResult omit(String unit) {
        return repairs().run(RepairRequest.fromPayload(Map.of("dataset", contract.dataset(), "units", List.of(unit),
                "reason", "misnamed file", "action", "omit")), Deadline.NONE, this::runId);
    }

    @Test
    void anImpossibleDate_isRefusedUnitInvalid_andNeverReachesTheLedger() {
        UnitRouter router = new UnitRouter(registry);
        for (String unit : List.of(BAD, "2026-13-45", "0000-00-00")) {
            UnitRouter.Route route = router.route(key(unit));
            UnitRouter.Unroutable refused = assertInstanceOf(UnitRouter.Unroutable.class, route, unit);
            assertEquals("UNIT_INVALID", refused.reason());
            assertTrue(refused.detail().contains("progress-" + unit + ".jsonl") && refused.detail().contains("'" + unit + "'")
                    && refused.detail().contains("daily"), refused.detail());
        }
        assertInstanceOf(UnitRouter.Routed.class, router.route(key(GOOD)));
        assertInstanceOf(UnitRouter.Routed.class, router.route(key("2028-02-29")), "a leap day is a real date");

        // in the inbox it is an unroutable object of the sweep's report, never re-driven, never in the ledger
        s3.put(INBOX, key(BAD), ROW.getBytes(StandardCharsets.UTF_8), "application/x-ndjson", Map.of());
        DatasetReport report = sweep().sweep(contract, "2026-02-27", "2026-03-03");
        assertEquals(1, report.unroutableInbox());
        assertEquals(List.of(), report.redrives());
        assertTrue(ledger.get(contract.dataset(), BAD).isEmpty());
        assertTrue(ledger.items(contract.dataset(), null, null).isEmpty());
        assertEquals(List.of(), sweep().invalidUnits(contract));
    }

    @Test
    void aBadUnitAlreadyInTheLedger_doesNotBlindStatusForTheOthers() {
        produceAndIngest(GOOD);
        produceAndIngest(BAD); // an older build routed it
        for (String bad : List.of("2026-13-45", "0000-00-00")) {
            produceAndIngest(bad);
        }
        assertEquals(List.of("0000-00-00", BAD, "2026-13-45"),
                sweep().invalidUnits(contract).stream().map(LedgerItem::unit).sorted().toList());

        // the sweep over the known units (and its default range) answers for every real unit
        DatasetReport report = sweep().sweep(contract, "2026-03-01", GOOD);
        UnitReport good = report.units().stream().filter(u -> u.unit().equals(GOOD)).findFirst().orElseThrow();
        assertEquals(UnitStatus.OK, good.status(), good.reason() + ": " + good.detail());
        assertTrue(report.units().stream().noneMatch(u -> u.unit().equals(BAD)));
        sweep().sweep(contract, null, null); // no "is not a daily unit"
    }

    @Test
    void aBadUnit_canBeOmitted_andLikeAnyOmittedUnit_hasNothingInPublished() {
        produceAndIngest(BAD); // published and recorded by an older build
        String publishedKey = LakeLayout.publishedKey(contract.dataset(), BAD);
        assertTrue(s3.head(LAKE, publishedKey).isPresent());

        // the dry run plans the omission after the object's removal (landing repair does that with the operator's
        // credentials: no function may delete from published/), and writes nothing
        RepairResult.UnitResult planned = repairs().run(RepairRequest.fromPayload(Map.of("dataset", contract.dataset(),
                "units", List.of(BAD), "reason", "misnamed file", "action", "omit", "dryRun", true)), Deadline.NONE,
                this::runId).units().get(0);
        assertEquals("planned", planned.action(), planned.detail());
        assertEquals(publishedKey, planned.output());
        assertTrue(planned.expect().startsWith("omit once " + publishedKey + " is removed"), planned.expect());
        assertEquals(LedgerStatus.PUBLISHED, ledger.get(contract.dataset(), BAD).orElseThrow().status());

        // as for any unit, the omission is refused while published/ holds the unit's object: readers would read rows
        RepairResult.UnitResult refused = omit(BAD).units().get(0);
        assertEquals("rejected", refused.action(), refused.detail());
        assertTrue(refused.detail().contains(publishedKey) && refused.detail().contains("landing repair --omit"),
                refused.detail());
        assertEquals(LedgerStatus.PUBLISHED, ledger.get(contract.dataset(), BAD).orElseThrow().status());

        s3.delete(LAKE, publishedKey); // what landing repair --omit does first, as the operator
        RepairResult.UnitResult omitted = omit(BAD).units().get(0);
        assertEquals("omitted", omitted.action(), omitted.detail());
        LedgerItem item = ledger.get(contract.dataset(), BAD).orElseThrow();
        assertEquals(LedgerStatus.OMITTED, item.status());
        assertEquals("misnamed file", item.reason());
        assertEquals(null, item.published(), "an omitted unit records no standing publish");
        assertEquals(1, item.publishCount());
        List<HistoryEntry> history = ledger.history(contract.dataset(), BAD);
        HistoryEntry last = history.get(history.size() - 1);
        assertEquals("OMITTED", last.action());
        assertEquals(publishedKey, last.published().key(), "the audit trail names the publish the omission took out");
        assertTrue(s3.head(LAKE, publishedKey).isEmpty());

        // a bad unit the ledger does not hold is still refused: an omission never writes a new non-unit
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> omit("2026-02-31"));
        assertTrue(e.getMessage().contains("is not a unit"), e.getMessage());
        // and a repair (not an omission) of the bad unit is refused as before
        assertThrows(IllegalArgumentException.class, () -> repairs().run(RepairRequest.fromPayload(Map.of("dataset", contract.dataset(),
                "units", List.of(BAD), "reason", "x")), Deadline.NONE, this::runId));
    }

    @Test
    void aBadUnitAlreadyInTheLedger_isListedApartByTheSweepsReport_andFailsCompletenessUntilOmitted() {
        produceAndIngest(GOOD);
        produceAndIngest(BAD); // an older build routed it
        DatasetReport report = sweep().sweep(contract, "2026-03-01", GOOD);
        assertEquals(List.of(BAD), report.invalidUnits().stream().map(InvalidUnit::unit).toList());
        InvalidUnit invalid = report.invalidUnits().get(0);
        assertEquals(InvalidUnit.INVALID_UNIT, invalid.status());
        assertEquals("UNIT_INVALID", invalid.reason());
        assertTrue(invalid.detail().contains("'" + BAD + "' is not a real date"), invalid.detail());
        assertEquals(InvalidUnit.omitCommand(contract.dataset(), BAD), invalid.omitCommand());
        assertTrue(report.units().stream().noneMatch(u -> u.unit().equals(BAD)), "never among the expected units");
        assertEquals(UnitStatus.OK,
                report.units().stream().filter(u -> u.unit().equals(GOOD)).findFirst().orElseThrow().status());
        assertFalse(report.complete(), "an invalid unit not yet omitted fails completeness, as status says");
        assertEquals(1, report.metrics().get("UnitsInvalid").value());
        assertEquals(report.units().size(), report.metrics().get("UnitsExpected").value());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> listed = (List<Map<String, Object>>) report.toMap().get("invalid_units");
        assertEquals(BAD, listed.get(0).get("unit"));
        assertEquals(listed, report.summary().get("invalid_units"));
        assertEquals(false, report.summary().get("complete"));
        String html = SweepHtml.render(report);
        assertTrue(html.contains("Ledger items that are not units (1)") && html.contains("<code>" + BAD + "</code>"),
                html);
        // the report written to _reports/ lists it too
        String written = new String(s3.current(LAKE, report.reports().latestJson()).orElseThrow().body(),
                StandardCharsets.UTF_8);
        assertTrue(written.contains("\"invalid_units\"") && written.contains("\"" + BAD + "\""), written);

        s3.delete(LAKE, LakeLayout.publishedKey(contract.dataset(), BAD));
        assertEquals("omitted", omit(BAD).units().get(0).action());
        DatasetReport after = sweep().sweep(contract, "2026-03-01", GOOD);
        assertEquals("OMITTED", after.invalidUnits().get(0).status());
        assertEquals(null, after.invalidUnits().get(0).omitCommand());
        assertEquals(0, after.metrics().get("UnitsInvalid").value());
        assertEquals(after.units().stream().noneMatch(u -> u.status().failsCompleteness()), after.complete());
    }
}
