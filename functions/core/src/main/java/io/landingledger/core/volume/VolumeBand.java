package io.landingledger.core.volume;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The range of accepted rows a unit is expected to hold, both ends inclusive; a count outside it is suspect.
 *
 * @param low         the fewest rows that are not suspect (0: no floor)
 * @param high        the most rows that are not suspect ({@link Long#MAX_VALUE}: no ceiling)
 * @param median      the history's expected count (the median of the comparable units), or null without a history
 * @param basis       where the band came from
 * @param comparable  how many earlier units the history's figures are computed from (0 without a history)
 * @param description one sentence for a person: which units, which statistic, which contract bound
 */
public record VolumeBand(long low, long high, Long median, VolumeBasis basis, int comparable, String description) {
    public VolumeBand {
        Objects.requireNonNull(basis, "basis");
        Objects.requireNonNull(description, "description");
        if (low < 0 || high < low) {
            throw new IllegalArgumentException("a volume band runs from 0 up, low to high: " + low + ".." + high);
        }
    }

    /** True when {@code rows} lies outside the band. */
    public boolean excludes(long rows) {
        return rows < low || rows > high;
    }

    /** The band as JSON-ready fields ({@code high} null when there is no ceiling). */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("low", low);
        map.put("high", high == Long.MAX_VALUE ? null : high);
        map.put("median", median);
        map.put("basis", basis.lowerCase());
        map.put("comparable_units", comparable);
        map.put("description", description);
        return map;
    }

    /** "120..280" (or "120 or more"): the range as a person reads it. */
    public String range() {
        return high == Long.MAX_VALUE ? low + " or more" : low + ".." + high;
    }
}
