package io.landingledger.core.sweep;

import io.landingledger.core.table.TableQueue;

import java.time.Duration;
import java.util.Objects;

/**
 * How the sweep judges the datasets' tables (docs/design.md section 5, TABLE_BEHIND): on a stack that publishes into
 * tables (the function's environment names the table queue, TABLE_QUEUE_URL), every dataset has one, and a published
 * unit whose table partition does not hold the standing publish once {@code grace} has passed since the publish is
 * TABLE_BEHIND. A stack without
 * tables passes no tracking at all, so its units are never judged against a table that does not exist.
 *
 * @param grace how long after a publish the table writer may take before the unit is TABLE_BEHIND (the stack's
 *              {@code TableGraceSeconds}; {@link #DEFAULT_GRACE} by default): the writer is fed by the ledger's
 *              stream and a FIFO queue, so a fresh publish is briefly ahead of its table
 * @param queue where the sweep's re-drive (autoRedrive) submits a TABLE_BEHIND unit for the table writer, or null
 *              when the sweep only reports (the command line's classification)
 */
public record TableTracking(Duration grace, TableQueue queue) {
    /** The default grace: the stream, the queue and one commit take seconds; minutes mean something is wrong. */
    public static final Duration DEFAULT_GRACE = Duration.ofMinutes(15);

    public TableTracking {
        Objects.requireNonNull(grace, "grace");
        if (grace.isNegative()) {
            throw new IllegalArgumentException("the table grace period must not be negative: " + grace);
        }
    }

    /** Judges tables with the default grace and re-drives through {@code queue} (null: reports only). */
    public static TableTracking of(TableQueue queue) {
        return new TableTracking(DEFAULT_GRACE, queue);
    }
}
