package io.landingledger.core.repair;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.Deadline;
import io.landingledger.core.ingest.IngestAction;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.InputRef;
import io.landingledger.core.testing.InMemoryLedger;
import io.landingledger.core.testing.InMemoryObjectStore;
import io.landingledger.core.testing.ManualClock;
import io.landingledger.core.testing.TestContracts;
import io.landingledger.core.validate.ValidationLimits;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Found by tools' KeyFuzzIT: {@code progress-9999-12-31.jsonl} is a real date, so it is routed and published; then a
 * range "from a unit to the latest known" ran to 9999-12-31 (2.9 million units: the repair's plan never ended, as
 * status did). A unit ahead of now bounds no open range; named, it is repaired like any other.
 */
class FarAheadUnitTest {
    private static final String INBOX = "inbox";
    private static final String LAKE = "lake";
    private static final String ROW = "{\"event_id\":\"e1\",\"learner_id\":\"l1\",\"lesson_id\":\"m1\",\"event_type\":\"checkpoint\","
            + "\"attempt_number\":1,\"event_time\":\"2026-03-03T10:00:00Z\",\"checkpoint\":1}\n";

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-04T12:00:00Z"));
    private final InMemoryObjectStore s3 = new InMemoryObjectStore(clock).createBucket(INBOX, true).createBucket(LAKE, false);
    private final InMemoryLedger ledger = new InMemoryLedger();
    private final AtomicInteger runs = new AtomicInteger();
    private final DatasetContract contract = TestContracts.progressEvents(edit -> { });
    private final ContractRegistry registry = new ContractRegistry(Map.of(contract.dataset(), contract));

    private IngestService ingest() {
        return new IngestService(s3, ledger, LAKE, clock, ValidationLimits.defaults(), IngestService.StepListener.NONE);
    }

    private String runId() {
        return "run-" + runs.incrementAndGet();
    }

    private void produceAndIngest(String unit) {
        String key = "progress_events/progress-" + unit + ".jsonl";
        InMemoryObjectStore.Version v = s3.put(INBOX, key, ROW.getBytes(StandardCharsets.UTF_8), "application/x-ndjson", Map.of());
        clock.advance(Duration.ofSeconds(2));
        assertEquals(IngestAction.PUBLISHED, ingest().ingest(IngestService.Request.event(contract, unit, new InputRef(INBOX, key,
                v.versionId(), v.etag(), v.size(), v.sequencer(), v.lastModified()), runId(), Deadline.NONE)).action());
    }

    private List<String> planned(Map<String, Object> payload) {
        RepairService repairs = new RepairService(registry, ledger, s3, ingest(), INBOX, LAKE, clock, Duration.ofSeconds(1));
        return repairs.run(RepairRequest.fromPayload(payload), Deadline.NONE, this::runId).units().stream()
                .map(RepairResult.UnitResult::unit).toList();
    }

    @Test
    @Timeout(120) // before the fix the plan walked 2.9 million units: a failure, not a hang (far above any machine's need)
    void aRangeToTheLatest_isNotStretchedByAUnitNamedFarAhead_andTheUnitCanStillBeNamed() {
        produceAndIngest("2026-03-02");
        produceAndIngest("9999-12-31");
        assertEquals(List.of("2026-03-01", "2026-03-02"), planned(Map.of("dataset", contract.dataset(), "from", "2026-03-01",
                "reason", "r", "dryRun", true)));
        assertEquals(List.of("2026-03-01", "2026-03-02"), planned(Map.of("dataset", contract.dataset(), "units", List.of("2026-03-01"),
                "mode", "forward", "reason", "r", "dryRun", true)), "forward runs to the latest unit begun, not to 9999");
        assertEquals(List.of("9999-12-31"), planned(Map.of("dataset", contract.dataset(), "units", List.of("9999-12-31"),
                "reason", "r", "dryRun", true)));
        assertEquals(List.of("9999-12-30"), planned(Map.of("dataset", contract.dataset(), "from", "9999-12-30",
                "reason", "r", "dryRun", true)), "a range that starts ahead is its one unit");
    }
}
