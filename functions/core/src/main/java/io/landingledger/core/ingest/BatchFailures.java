package io.landingledger.core.ingest;

/**
 * The faults of a batch that goes on past a failed item (an event's records, a sweep's datasets): every item is
 * tried, each one's result is reported, and the invocation still fails at the end, with the first fault thrown and
 * the later ones suppressed in it, so that Lambda retries it and every fault's trace reaches the log.
 */
public final class BatchFailures {
    private RuntimeException first;

    /** Notes an item's fault; the batch goes on to the next item. */
    public void add(RuntimeException failure) {
        if (first == null) {
            first = failure;
        } else if (failure != first) {
            first.addSuppressed(failure);
        }
    }

    /** Throws the first fault noted, the others suppressed in it; returns when none was. */
    public void throwIfAny() {
        if (first != null) {
            throw first;
        }
    }
}
