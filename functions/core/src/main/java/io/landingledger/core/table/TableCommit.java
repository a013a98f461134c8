package io.landingledger.core.table;

/**
 * The publish one table commit puts into a unit's partition, and the snapshot the writer read before it: what the
 * snapshot's summary records ({@code landing.*} keys) and what conflict detection validates from.
 *
 * @param dataset           the dataset (the table)
 * @param unit              the unit (the partition)
 * @param runId             the publish's run id, from the ledger
 * @param contentSha256     SHA-256 of the published object's bytes, from the ledger
 * @param inputVersion      the S3 version id of the input the publish was built from, or null when unversioned
 * @param contractVersion   the contract version the publish was validated with
 * @param basedOnSnapshotId the table's current snapshot when the writer read it, or null when it had none
 */
public record TableCommit(String dataset, String unit, String runId, String contentSha256, String inputVersion,
                          int contractVersion, Long basedOnSnapshotId) {
}
