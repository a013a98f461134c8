package io.landingledger.core.sweep;

import io.landingledger.core.ingest.IngestOutcome;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One UNPROCESSED input the sweep sent through the ingest path (autoRedrive), and what came of it.
 *
 * @param action       the ingest action in lower case (published, skipped, refused, finished, stale), or
 *                     {@code input_gone} (the key vanished before the re-drive) or {@code failed} (an
 *                     infrastructure fault; the next sweep tries again)
 * @param refusal      the refusal code when refused, else null
 * @param detail       the outcome's detail or the fault's class and message, else null
 * @param statusBefore the unit's status when the sweep found it
 * @param statusAfter  the unit's status after the re-drive (the sweep classifies it again)
 * @param outcome      the ingest outcome (for the one log line per outcome), or null when the run did not happen
 */
public record Redrive(String unit, String key, String versionId, String runId, String action, String refusal,
                      String detail, UnitStatus statusBefore, UnitStatus statusAfter, IngestOutcome outcome) {

    Redrive withStatusAfter(UnitStatus after) {
        return new Redrive(unit, key, versionId, runId, action, refusal, detail, statusBefore, after, outcome);
    }

    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("unit", unit);
        map.put("key", key);
        map.put("version", versionId);
        map.put("run_id", runId);
        map.put("run_kind", "INGEST");
        map.put("action", action);
        if (refusal != null) {
            map.put("refusal", refusal);
        }
        if (detail != null) {
            map.put("detail", detail);
        }
        map.put("status_before", statusBefore.name());
        map.put("status_after", statusAfter == null ? null : statusAfter.name());
        return map;
    }
}
