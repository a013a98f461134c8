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
     * is written only if its key is new; if it is not, nothing is written and this throws
     * {@link LedgerConflictException} as for a failed condition (the caller re-reads and decides again).
     *
     * @throws LedgerConflictException when the condition failed, the history key exists, or another transaction on
     *                                 the item was in flight; carries the item as it is now (empty when absent)
     */
    void write(LedgerItem item, long expectedRevision, HistoryEntry history) throws LedgerConflictException;

    /**
     * Appends one history item on its own (a repair that found nothing to change), only if its key is new: an
     * existing key is left as it is, and that is not an error (a retry of the same run appends nothing twice).
     */
    void appendHistory(HistoryEntry history);

    /** The unit's history, oldest first. */
    List<HistoryEntry> history(String dataset, String unit);

    /** Every item of a dataset whose unit is within [fromUnit, toUnit] (inclusive; null for open), unit order. */
    List<LedgerItem> items(String dataset, String fromUnit, String toUnit);
}
