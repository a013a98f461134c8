package io.landingledger.core.ledger;

import java.util.List;
import java.util.Optional;

/**
 * The publish ledger (DynamoDB in production, see {@code DynamoDbLedger}). Reads are strongly consistent.
 * Infrastructure faults are runtime exceptions the caller lets propagate.
 */
public interface Ledger {

    /** The unit's item, or empty when the unit was never recorded. */
    Optional<LedgerItem> get(String dataset, String unit);

    /**
     * Writes {@code item} and appends {@code history} in one transaction, only if the stored item is still the one
     * its writer read: its revision is {@code expectedRevision} (0: the item does not exist). The stored item gets
     * revision {@code expectedRevision + 1}, whatever {@code item.revision()} says. The history item (null for none)
     * is created only if its key is new (DynamoDB: {@code attribute_not_exists} of both key attributes); history items
     * are never replaced. If either condition fails nothing at all is written.
     *
     * <p>A history key that exists while the item is still at the revision read was not written by this write's
     * transaction (each transaction moves the revision): that is {@link HistoryKeyTakenException}. A history key that
     * exists while the revision moved too is the retry of a transaction that did commit (its response was lost):
     * a {@link LedgerConflictException}, as for any stale revision; the caller re-reads and finds its own write.
     *
     * @throws LedgerConflictException when the revision condition failed (whatever the history key), or another
     *                                 transaction on the item was in flight; carries the item as it is now (empty
     *                                 when absent)
     * @throws HistoryKeyTakenException when only the history key's condition failed
     */
    void write(LedgerItem item, long expectedRevision, HistoryEntry history) throws LedgerConflictException;

    /**
     * Appends one history item on its own (a repair that found nothing to change), only if its key is new. An
     * existing key holding this very entry is success with nothing written: the retry of a put whose response was lost
     * (the SDK retries a PutItem, which carries no idempotency token). An existing key holding anything else is
     * {@link HistoryKeyTakenException}, and the stored item stays as it is.
     */
    void appendHistory(HistoryEntry history);

    /**
     * Records what the dataset's table holds for the unit ({@link LedgerItem#table()}, replacing the recorded state
     * whole) and appends {@code history} (null for none) in one transaction, only if the item still stands on the
     * publish the state describes: status PUBLISHED, run id {@code expectedRunId} and content hash
     * {@code expectedSha256}. The condition is on the publish, not on the revision (an unrelated write such as an
     * attempt's record moves the revision without changing what the table must hold), and the write does not move the
     * revision: the table state is an annotation of the publish, so recording it never makes a run's conditional
     * write fail. {@link #write} never changes the recorded table state (a publish of new rows leaves the old state,
     * which then no longer {@link TableState#holds holds} the standing publish: the table is behind until the writer
     * runs). The history item is created only if its key is new, as in {@link #write}.
     *
     * @return true when recorded; false when the item is absent or stands on another publish (nothing written)
     * @throws HistoryKeyTakenException when only the history key's condition failed
     */
    boolean recordTable(String dataset, String unit, String expectedRunId, String expectedSha256, TableState state,
                        HistoryEntry history);

    /** The unit's history, oldest first. */
    List<HistoryEntry> history(String dataset, String unit);

    /** Every item of a dataset whose unit is within [fromUnit, toUnit] (inclusive; null for open), unit order. */
    List<LedgerItem> items(String dataset, String fromUnit, String toUnit);
}
