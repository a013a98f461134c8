package io.landingledger.core.sweep;

import java.time.Instant;
import java.util.Set;

/**
 * Which datasets changed since a given instant: what lets an incremental sweep read only those (docs/design.md
 * section 5, "What changed"). Fed from outside the sweep, by two paths that do not share the validator's
 * invocation (so a lost invocation still leaves a record): the Ledger table's stream (every ledger write) and the
 * buckets' S3 notifications through EventBridge (every inbox version created or deleted, every deletion under
 * {@code published/}). A record names a dataset, not a unit: the incremental sweep re-reads a changed dataset with
 * its bulk pages, which cost the same for one changed unit as for all of them.
 */
public interface SweepChanges {
    /** Nothing is ever recorded: an incremental sweep then reads only what the clock and its own state name. */
    SweepChanges NONE = new SweepChanges() {
        @Override
        public void record(String dataset, Instant at) {
        }

        @Override
        public Set<String> changedSince(Instant since, Instant until) {
            return Set.of();
        }
    };

    /** Records that {@code dataset} changed at {@code at} (idempotent: recording twice is recording once). */
    void record(String dataset, Instant at);

    /**
     * Every dataset with a change recorded from {@code since} (inclusive) until the call, at least; it may name more
     * (a record made later in the same hour): a sweep of a dataset that did not change costs, never misleads.
     *
     * @param until the caller's now: records are kept by the hour, and the hours from since's to until's are read
     */
    Set<String> changedSince(Instant since, Instant until);
}
