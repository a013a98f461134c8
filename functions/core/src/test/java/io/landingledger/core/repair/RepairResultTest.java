package io.landingledger.core.repair;

import io.landingledger.core.json.JsonCodec;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The continuation an operator (or `landing repair`) sends back as the next page of the same repair. */
class RepairResultTest {

    private static RepairResult stoppedBefore(List<String> notReached, Map<String, Object> payload) {
        return new RepairResult(RepairRequest.fromPayload(payload), false, List.of(), notReached);
    }

    @Test
    void continuation_ofADryRun_isADryRun() {
        RepairResult result = stoppedBefore(List.of("2026-03-03"), Map.of("dataset", "progress_events",
                "units", List.of("2026-03-01", "2026-03-03"), "dryRun", true, "reason", "check first"));

        Map<String, Object> next = JsonCodec.readMap(JsonCodec.writeString(result.continuation()));
        assertEquals(true, next.get("dryRun"), "following a dry run's continuation must not repair");
        assertEquals(List.of("2026-03-03"), next.get("units"));
        assertEquals(true, RepairRequest.fromPayload(next).dryRun());
    }

    @Test
    void theAnswer_roundTripsThroughTheCodec_asTheCliReadsIt() {
        RepairResult result = stoppedBefore(List.of("2026-03-03"), Map.of("dataset", "progress_events",
                "units", List.of("2026-03-01", "2026-03-03"), "reason", "INC-1", "action", "accept-empty"));
        String json = JsonCodec.writeString(result);
        Map<String, Object> answer = JsonCodec.readMap(json);
        assertEquals(false, answer.get("succeeded"));
        assertEquals(List.of("2026-03-03"), answer.get("notReached"));
        assertEquals("accept-empty", ((Map<?, ?>) answer.get("continuation")).get("action"));
        assertEquals(result, JsonCodec.read(json, RepairResult.class));
    }

    @Test
    void aBadPayload_failsNamingTheField() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> RepairRequest.fromJson(
                "{\"dataset\": \"progress_events\", \"units\": [\"2026-03-01\"], \"reason\": \"r\", \"dryrun\": true}"));
        assertTrue(unknown.getMessage().startsWith("unknown field \"dryrun\" (allowed: action, dataset, dryRun"), unknown.getMessage());
        IllegalArgumentException type = assertThrows(IllegalArgumentException.class, () -> RepairRequest.fromJson(
                "{\"dataset\": \"progress_events\", \"units\": [\"2026-03-01\"], \"reason\": \"r\", \"dryRun\": \"yes\"}"));
        assertEquals("\"dryRun\" must be true or false", type.getMessage());
        IllegalArgumentException mode = assertThrows(IllegalArgumentException.class, () -> RepairRequest.fromJson(
                "{\"dataset\": \"progress_events\", \"units\": [\"2026-03-01\"], \"reason\": \"r\", \"mode\": \"sideways\"}"));
        assertEquals("\"mode\" must be one of targeted, forward, not \"sideways\"", mode.getMessage());
        IllegalArgumentException reason = assertThrows(IllegalArgumentException.class, () -> RepairRequest.fromJson(
                "{\"dataset\": \"progress_events\", \"units\": [\"2026-03-01\"]}"));
        assertTrue(reason.getMessage().startsWith("\"reason\" is required"), reason.getMessage());
        IllegalArgumentException unit = assertThrows(IllegalArgumentException.class, () -> RepairRequest.fromJson(
                "{\"dataset\": \"progress_events\", \"units\": [3], \"reason\": \"r\"}"));
        assertEquals("\"units[0]\" must be a string", unit.getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RepairRequest.fromJson(" ")).getMessage()
                .startsWith("the payload is empty"));
    }

    @Test
    void continuation_ofARepair_keepsItsOptions_andIsAbsentWhenEveryUnitWasReached() {
        RepairResult result = stoppedBefore(List.of("2026-03-03"), Map.of("dataset", "progress_events",
                "units", List.of("2026-03-03"), "force", true, "reason", "contract 2", "inputVersion", "latest"));
        RepairRequest next = RepairRequest.fromJson(result.continuation().toJson());
        assertEquals(false, next.dryRun());
        assertEquals(true, next.force());
        assertEquals("contract 2", next.reason());
        assertEquals(RepairRequest.InputVersion.LATEST, next.inputVersion());

        assertNull(stoppedBefore(List.of(), Map.of("dataset", "progress_events", "units", List.of("2026-03-03"),
                "reason", "r")).continuation());
    }
}
