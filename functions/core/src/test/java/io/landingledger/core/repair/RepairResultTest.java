package io.landingledger.core.repair;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The continuation an operator (or `landing repair`) sends back as the next page of the same repair. */
class RepairResultTest {

    private static RepairResult stoppedBefore(List<String> notReached, Map<String, Object> payload) {
        return new RepairResult(RepairRequest.fromPayload(payload), false, List.of(), notReached);
    }

    @Test
    void continuation_ofADryRun_isADryRun() {
        RepairResult result = stoppedBefore(List.of("2026-03-03"), Map.of("dataset", "progress_events",
                "units", List.of("2026-03-01", "2026-03-03"), "dryRun", true, "reason", "check first"));

        Map<String, Object> next = result.continuation();
        assertEquals(true, next.get("dryRun"), "following a dry run's continuation must not repair");
        assertEquals(List.of("2026-03-03"), next.get("units"));
        assertEquals(true, RepairRequest.fromPayload(next).dryRun());
    }

    @Test
    void continuation_ofARepair_keepsItsOptions_andIsAbsentWhenEveryUnitWasReached() {
        RepairResult result = stoppedBefore(List.of("2026-03-03"), Map.of("dataset", "progress_events",
                "units", List.of("2026-03-03"), "force", true, "reason", "contract 2", "inputVersion", "latest"));
        RepairRequest next = RepairRequest.fromPayload(result.continuation());
        assertEquals(false, next.dryRun());
        assertEquals(true, next.force());
        assertEquals("contract 2", next.reason());
        assertEquals(RepairRequest.InputVersion.LATEST, next.inputVersion());

        assertNull(stoppedBefore(List.of(), Map.of("dataset", "progress_events", "units", List.of("2026-03-03"),
                "reason", "r")).continuation());
    }
}
