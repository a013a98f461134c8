package io.landingledger.core.ledger;

/**
 * A history item's key (dataset and unit, instant and run id) is already held by another item, and nothing was
 * written: history items are created once and never replaced (issue 30, finding 5). No honest writer reuses a key (a
 * run id is new per run and unit), so this is a fault to investigate, not a race to retry: an item written outside the
 * product, or a bug that reuses a run id. The message names the key only, never the items' content.
 */
public final class HistoryKeyTakenException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public HistoryKeyTakenException(HistoryEntry attempted, String why) {
        super("the history of " + attempted.partitionKey() + " holds " + attempted.sortKey() + " already (" + why
                + "); nothing was written: history items are never replaced");
    }
}
