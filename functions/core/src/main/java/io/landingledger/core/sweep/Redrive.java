package io.landingledger.core.sweep;

import io.landingledger.core.ingest.IngestOutcome;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One unit the sweep re-drove (autoRedrive), and what came of it: an UNPROCESSED or LEDGER_DRIFT unit's input sent
 * through the ingest path ({@value #INGEST}), or a TABLE_BEHIND unit submitted to the table queue for the table
 * writer ({@value #TABLE}: the key is the published object the writer reads, the run id the publish the table must
 * hold, the action {@value #SUBMITTED} or {@value #NOT_SUBMITTED}).
 *
 * @param runId        the run's id when it ran in the sweep, else null (a submitted run takes its own)
 * @param action       the ingest action in lower case (published, skipped, refused, finished, unchanged, stale) when
 *                     the run happened in the sweep; {@code input_gone} (the key vanished before the re-drive);
 *                     {@value #SUBMITTED} (handed to the validator function asynchronously: its result is in the
 *                     ledger for the next sweep); {@value #NOT_SUBMITTED} (the hand-over was refused or unanswered;
 *                     the next sweep re-drives the unit if it is still unprocessed); or {@value #FAILED} (an
 *                     infrastructure fault in a run in the sweep; the next sweep tries again)
 * @param refusal      the refusal code when refused, else null
 * @param detail       the outcome's detail, where a submitted run went (the invocation's request id), why it was not
 *                     submitted, or the fault's class and message; else null
 * @param statusBefore the unit's status when the sweep found it
 * @param statusAfter  the unit's status after the re-drive (the sweep classifies it again; after a submit the run has
 *                     usually not happened yet)
 * @param outcome      the ingest outcome (for the one log line per outcome), or null when the run did not happen in
 *                     the sweep
 * @param target       {@value #INGEST} or {@value #TABLE}: where the unit was re-driven
 */
public record Redrive(String unit, String key, String versionId, String runId, String action, String refusal,
                      String detail, UnitStatus statusBefore, UnitStatus statusAfter, IngestOutcome outcome, String target) {
    /** The target of a re-drive through the ingest path. */
    public static final String INGEST = "ingest";
    /** The target of a re-drive to the table queue. */
    public static final String TABLE = "table";
    /** The action of a re-drive handed to the validator function (Event invocation): it runs after the sweep. */
    public static final String SUBMITTED = "submitted";
    /** The action of a re-drive whose hand-over failed (throttled, a server error, no answer in time). */
    public static final String NOT_SUBMITTED = "not_submitted";
    /** The action of a re-drive run in the sweep that hit an infrastructure fault. */
    public static final String FAILED = "failed";

    /** A re-drive through the ingest path. */
    public Redrive(String unit, String key, String versionId, String runId, String action, String refusal, String detail,
                   UnitStatus statusBefore, UnitStatus statusAfter, IngestOutcome outcome) {
        this(unit, key, versionId, runId, action, refusal, detail, statusBefore, statusAfter, outcome, INGEST);
    }

    Redrive withStatusAfter(UnitStatus after) {
        return new Redrive(unit, key, versionId, runId, action, refusal, detail, statusBefore, after, outcome, target);
    }

    /** True for a re-drive to the table queue. */
    public boolean toTable() {
        return TABLE.equals(target);
    }

    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("unit", unit);
        map.put("key", key);
        map.put("version", versionId);
        map.put("run_id", runId);
        if (toTable()) {
            map.put("target", TABLE); // the table writer commits the standing publish: no run of its own
        } else {
            map.put("run_kind", "INGEST");
        }
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
