package io.landingledger.core.table;

import java.time.Instant;

/**
 * One table snapshot that replaced a unit's partition, with the publish identity its summary carries.
 *
 * @param snapshotId      Iceberg's snapshot id (what {@code FOR VERSION AS OF} names)
 * @param committedAt     when it was committed
 * @param dataset         {@code landing.dataset}
 * @param unit            {@code landing.unit}
 * @param runId           {@code landing.run-id}
 * @param contentSha256   {@code landing.content-sha256}
 * @param inputVersion    {@code landing.input-version}, or null
 * @param contractVersion {@code landing.contract-version}
 * @param rows            rows the unit's partition holds after the commit
 */
public record TableSnapshot(long snapshotId, Instant committedAt, String dataset, String unit, String runId,
                            String contentSha256, String inputVersion, int contractVersion, long rows) {
}
