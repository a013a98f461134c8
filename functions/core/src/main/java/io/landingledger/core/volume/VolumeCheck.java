package io.landingledger.core.volume;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One published unit's accepted rows judged against its expected band: the figures the sweep's SUSPECT_VOLUME status,
 * {@code landing explain}, the reports and a producer's "suspect volume" event carry (counts only, never row content).
 *
 * @param unit   the unit judged
 * @param actual its standing publish's accepted rows
 * @param band   the rows expected of it ({@link VolumeModel#band})
 */
public record VolumeCheck(String unit, long actual, VolumeBand band) {
    /** Fewer rows than the band's low end. */
    public static final String BELOW = "ROWS_BELOW_EXPECTED";
    /** More rows than the band's high end. */
    public static final String ABOVE = "ROWS_ABOVE_EXPECTED";

    public VolumeCheck {
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(band, "band");
    }

    /** True when the actual count lies outside the band. */
    public boolean suspect() {
        return band.excludes(actual);
    }

    /** {@link #BELOW} or {@link #ABOVE} for a suspect count, null otherwise. */
    public String reasonCode() {
        if (!suspect()) {
            return null;
        }
        return actual < band.low() ? BELOW : ABOVE;
    }

    /** One sentence: the actual count, the expected range and where it came from. */
    public String detail() {
        return actual + " rows accepted; expected " + band.range() + " (" + band.basis().lowerCase() + ": "
                + band.description() + ")";
    }

    /** The figures as JSON-ready fields: {@code actual}, {@code suspect}, {@code reason} and the band's own. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("actual", actual);
        map.put("suspect", suspect());
        map.put("reason", reasonCode());
        map.putAll(band.toMap());
        return map;
    }
}
