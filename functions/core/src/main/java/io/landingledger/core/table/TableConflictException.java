package io.landingledger.core.table;

/**
 * Another commit added data to the unit's partition after the snapshot the writer read: nothing was committed, and
 * the writer reads the ledger and the table again before it tries once more.
 */
public class TableConflictException extends RuntimeException {
    public TableConflictException(String message) {
        super(message);
    }
}
