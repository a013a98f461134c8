package io.landingledger.core.table;

import io.landingledger.core.contract.DatasetContract;

import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * A dataset's analytic table (an Apache Iceberg table, one per dataset, partitioned by unit), as the table writer
 * and the command line see it (docs/design.md section 12). The ledger is the truth and the table follows it: the only
 * write is {@link #replaceUnit}, one commit that replaces exactly one unit's partition and names the publish it holds
 * in the snapshot's summary. Implemented on Iceberg's REST catalog ({@code functions/tables}) and in memory for the
 * protocol simulation.
 */
public interface TablePort {

    /**
     * Creates the dataset's table from {@code contract} when it does not exist, and evolves its schema when the
     * contract's version adds columns. A change the table cannot follow is refused before this is ever called
     * (at registration), so here it is an {@link IllegalStateException}.
     */
    void ensureTable(DatasetContract contract);

    /** The id of the table's current snapshot, or empty when the table has none (or does not exist). */
    Optional<Long> currentSnapshotId(String dataset);

    /**
     * The snapshots whose commit replaced {@code unit}'s partition and carry a publish's identity, newest first,
     * walking the current snapshot's ancestry (snapshots without the identity, such as compaction's, are skipped).
     */
    List<TableSnapshot> unitSnapshots(String dataset, String unit);

    /**
     * One commit that replaces {@code commit.unit()}'s partition with the canonical JSONL rows of
     * {@code publishedRows} (the published object's bytes), validated from {@code commit.basedOnSnapshotId()}: when
     * another commit added data to the unit since then, nothing is committed and {@link TableConflictException} is
     * thrown. The table is never half-visible: a failure leaves the previous snapshot whole.
     *
     * @return the snapshot this commit made
     */
    TableSnapshot replaceUnit(DatasetContract contract, TableCommit commit, InputStream publishedRows);
}
