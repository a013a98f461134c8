package io.landingledger.core.sweep;

import java.util.Locale;

/**
 * How much of the fleet a sharded sweep reads (docs/design.md section 5, "Sharded and incremental").
 *
 * <ul>
 *   <li>{@link #FULL}: every dataset of the request is classified from S3 and the ledger, as one
 *       {@link CompletenessSweep} does: the reconciliation, on the slower schedule. It catches what no change
 *       record names (an out-of-band deletion from {@code published/} whose notification was lost, a lost marker).</li>
 *   <li>{@link #INCREMENTAL}: only the datasets with a change recorded since the last sweep ({@link SweepChanges}),
 *       whose range or due unit moved with the clock, whose last sweep left work (an UNPROCESSED or LEDGER_DRIFT unit,
 *       a shard that did not finish) or that the last sweep never saw. The others keep their last reports.</li>
 * </ul>
 */
public enum SweepMode {
    FULL, INCREMENTAL;

    @com.fasterxml.jackson.annotation.JsonValue
    public String lowerCase() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code full} or {@code incremental}, any case. */
    @com.fasterxml.jackson.annotation.JsonCreator
    public static SweepMode parse(String text) {
        for (SweepMode mode : values()) {
            if (mode.name().equalsIgnoreCase(text == null ? "" : text.strip())) {
                return mode;
            }
        }
        throw new IllegalArgumentException("mode must be full or incremental, not " + text);
    }
}
