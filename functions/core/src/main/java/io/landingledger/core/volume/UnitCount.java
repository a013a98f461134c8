package io.landingledger.core.volume;

import java.util.Objects;

/**
 * One earlier unit's accepted rows (its standing publish's {@code accepted}): the history a unit's volume is judged
 * against ({@link VolumeModel}).
 */
public record UnitCount(String unit, long rows) {
    public UnitCount {
        Objects.requireNonNull(unit, "unit");
        if (rows < 0) {
            throw new IllegalArgumentException("a unit's row count is never negative: " + unit + " has " + rows);
        }
    }
}
