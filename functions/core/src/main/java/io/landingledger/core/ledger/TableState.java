package io.landingledger.core.ledger;

import java.time.Instant;

/**
 * What the dataset's Iceberg table holds for one unit, as the table writer last recorded it on the ledger item
 * (docs/design.md section 4). The ledger is the truth and the table follows it: the unit's table partition is in
 * step when {@link #runId()} and {@link #contentSha256()} name the item's standing publish.
 *
 * @param snapshotId    the snapshot whose commit put the recorded content in the unit's partition, or null when the
 *                      writer has only ever failed for the unit
 * @param runId         the publish run whose rows that snapshot holds, or null
 * @param contentSha256 the SHA-256 of those rows' published object, or null
 * @param committedAt   when that snapshot was committed, or null
 * @param lastError     a reason code for the writer's last failure on the standing publish, or null when none
 * @param failedAt      when that failure happened, or null
 */
public record TableState(Long snapshotId, String runId, String contentSha256, Instant committedAt, String lastError,
                         Instant failedAt) {

    /** True when the table's partition holds the publish identified by {@code runId} and {@code sha256}. */
    public boolean holds(String publishRunId, String sha256) {
        return snapshotId != null && sha256 != null && sha256.equals(contentSha256)
                && publishRunId != null && publishRunId.equals(runId);
    }
}
