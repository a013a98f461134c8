package io.landingledger.core.table;

/**
 * What one {@link TableWriter#write} did for a unit.
 *
 * @param outcome    the decision
 * @param snapshotId the snapshot the table holds for the unit's standing publish afterwards, or null
 * @param reason     a reason code for {@link Outcome#FAILED} and {@link Outcome#SKIPPED}, else null
 */
public record TableWriteResult(Outcome outcome, Long snapshotId, String reason) {

    /** The writer's decisions (docs/design.md section 12). */
    public enum Outcome {
        /** A new snapshot replaced the unit's partition with the ledger's standing publish, and the ledger says so. */
        COMMITTED,
        /** The ledger already recorded that the table holds the standing publish: nothing written. */
        IN_STEP,
        /** The table already held the standing publish (a commit whose ledger update was lost): only recorded. */
        RECOVERED,
        /** Nothing to write: the unit has no standing publish, or the ledger moved on while the writer worked. */
        SKIPPED,
        /** The commit failed after its retries: the raw publish stands, the table shows its previous snapshot whole. */
        FAILED
    }
}
