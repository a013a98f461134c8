package io.landingledger.core.volume;

import io.landingledger.core.contract.Cadence;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.VolumeSpec;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The rows a published unit is expected to hold, from the dataset's own recent history and its contract's
 * {@code volume} (docs/design.md section 5, "Volume"). Pure: the caller hands over the earlier units' counts.
 *
 * <p>The statistic is the median and the median absolute deviation (MAD) of comparable earlier units, because both
 * ignore the odd bad day a mean and a standard deviation would be dragged by. The MAD is pooled: every unit of the
 * window against its own weekday's (hour's) median, relative to it, so the spread rests on up to 56 units:
 * <ul>
 *   <li><b>Seasonal</b> (once {@value #MIN_SEASONAL} comparable units exist): a daily unit is compared with the same
 *       weekday's last {@value #SEASONAL_UNITS} units (a quiet Sunday with earlier Sundays), an hourly one with the
 *       same hour of day's. The band is their median plus or minus {@value #SIGMAS} robust standard deviations
 *       (1.4826 pooled relative MAD times the median), at least {@value #MIN_RELATIVE_PERCENT}% of the median
 *       and at least the counting noise of a small count (4 square roots plus 5), so a small dataset's noise
 *       never alarms; its low end is never below a fifth of the median, so a unit holding a fifth or less of its
 *       usual rows always does.</li>
 *   <li><b>Recent</b> (a daily unit with fewer seasonal units, at least {@value #WARM_UP} earlier units of any
 *       day): the median of the last {@value #RECENT_UNITS} units, within a factor of {@value #RECENT_FACTOR} either
 *       way: wide enough for the quiet weekend of a dataset that has not yet seen four of them, narrow enough for a
 *       truncated day (2%). An hourly unit has none: its recent hours span the day's cycle (quiet nights).</li>
 *   <li><b>Warm-up</b> (fewer than {@value #WARM_UP} earlier units, or an hourly unit with fewer than
 *       {@value #MIN_SEASONAL} same-hour units): no band from history; only the contract's {@code minRows} and
 *       {@code maxRows} apply.</li>
 * </ul>
 * A list cadence's units are different things (tenants, source tables), not one series: only the contract judges
 * them. The contract narrows the history's band: {@code maxChangePercent} replaces its width (so far from the median
 * is suspect), {@code minRows} and {@code maxRows} clip it; where they exclude it altogether they are the band.
 */
public final class VolumeModel {
    /** Same-weekday (same-hour) units a seasonal band is computed from, at most. */
    public static final int SEASONAL_UNITS = 8;
    /** Same-weekday (same-hour) units needed before the seasonal band is used. */
    public static final int MIN_SEASONAL = 4;
    /** Earlier units needed before the history gives any band: a new dataset's first units never alarm from history. */
    public static final int WARM_UP = 8;
    /** Units the recent band is computed from, at most. */
    public static final int RECENT_UNITS = 14;
    /** The recent band's width: this factor either side of the median. */
    public static final int RECENT_FACTOR = 10;
    /** The seasonal band's half-width in robust standard deviations. */
    public static final int SIGMAS = 5;
    /** The seasonal band's least half-width, in percent of the median. */
    public static final int MIN_RELATIVE_PERCENT = 25;
    /** The seasonal band's low end is never below the median divided by this. */
    static final int FLOOR_DIVISOR = 5;
    /** MAD times this estimates a normal distribution's standard deviation. */
    private static final double MAD_TO_SIGMA = 1.4826;
    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH");

    private VolumeModel() {
    }

    /**
     * The first unit of the history {@code unit} is judged against: the earlier units a caller reads (one ledger Query
     * from here to the unit). Eight weeks for a daily unit, eight days for an hourly one; null for a list cadence,
     * whose units the history does not judge.
     */
    public static String historyStart(Cadence cadence, String unit) {
        return switch (cadence) {
            case DAILY -> LocalDate.parse(unit).minusWeeks(SEASONAL_UNITS).toString();
            case HOURLY -> HOUR.format(LocalDateTime.parse(unit, HOUR).minusDays(SEASONAL_UNITS));
            case LIST -> null;
        };
    }

    /** {@link #check(Cadence, VolumeSpec, String, long, List)} with the contract's cadence and volume. */
    public static Optional<VolumeCheck> check(DatasetContract contract, String unit, long actual,
                                              List<UnitCount> earlier) {
        return check(contract.unit().cadence(), contract.volume(), unit, actual, earlier);
    }

    /**
     * Judges {@code actual} rows of {@code unit}; empty when nothing gives a band (a new dataset without declared
     * bounds, a list cadence without them).
     *
     * @param earlier the accepted rows of the dataset's published units before {@code unit}, oldest first (units from
     *                {@link #historyStart} on; others are ignored)
     */
    public static Optional<VolumeCheck> check(Cadence cadence, VolumeSpec spec, String unit, long actual,
                                              List<UnitCount> earlier) {
        return band(cadence, spec, unit, earlier).map(band -> new VolumeCheck(unit, actual, band));
    }

    /** The band {@code unit} is expected to fall in, from {@code earlier} (as {@link #check}) and the contract. */
    public static Optional<VolumeBand> band(Cadence cadence, VolumeSpec spec, String unit, List<UnitCount> earlier) {
        VolumeSpec declared = spec == null ? VolumeSpec.NONE : spec;
        Optional<VolumeBand> history = cadence == Cadence.LIST ? Optional.empty() : history(cadence, unit, earlier);
        if (history.isEmpty()) {
            return contractOnly(declared);
        }
        return Optional.of(applyContract(history.get(), declared));
    }

    private static Optional<VolumeBand> history(Cadence cadence, String unit, List<UnitCount> earlier) {
        String start = historyStart(cadence, unit);
        List<UnitCount> window = new ArrayList<>();
        for (UnitCount count : earlier) {
            if (count.unit().compareTo(start) >= 0 && count.unit().compareTo(unit) < 0) {
                window.add(count);
            }
        }
        List<UnitCount> seasonal = new ArrayList<>();
        String phase = phase(cadence, unit);
        for (UnitCount count : window) {
            if (phase(cadence, count.unit()).equals(phase)) {
                seasonal.add(count);
            }
        }
        if (seasonal.size() >= MIN_SEASONAL) {
            long[] rows = last(seasonal, SEASONAL_UNITS);
            double median = median(rows);
            double spread = SIGMAS * MAD_TO_SIGMA * relativeMad(cadence, window) * median;
            double half = Math.max(spread, Math.max(median * MIN_RELATIVE_PERCENT / 100.0, 4 * Math.sqrt(median) + 5));
            double low = Math.max(median - half, median / FLOOR_DIVISOR);
            String description = "median " + Math.round(median) + " of the last " + rows.length + " "
                    + phaseName(cadence, unit) + ", +/-" + Math.round(half) + " (" + SIGMAS
                    + " robust deviations, at least " + MIN_RELATIVE_PERCENT + "%)";
            return Optional.of(new VolumeBand((long) Math.floor(low), (long) Math.ceil(median + half),
                    Math.round(median), VolumeBasis.HISTORY, rows.length, description));
        }
        if (cadence == Cadence.DAILY && window.size() >= WARM_UP) {
            long[] rows = last(window, RECENT_UNITS);
            double median = median(rows);
            double low = median / RECENT_FACTOR;
            double high = median * RECENT_FACTOR + 4 * Math.sqrt(median) + 5;
            String description = "median " + Math.round(median) + " of the last " + rows.length
                    + " units, within a factor of " + RECENT_FACTOR + " (fewer than " + MIN_SEASONAL + " "
                    + phaseName(cadence, unit) + " yet)";
            return Optional.of(new VolumeBand((long) Math.floor(low), (long) Math.ceil(high), Math.round(median),
                    VolumeBasis.HISTORY, rows.length, description));
        }
        return Optional.empty();
    }

    private static Optional<VolumeBand> contractOnly(VolumeSpec spec) {
        if (spec.minRows() == null && spec.maxRows() == null) {
            return Optional.empty(); // maxChangePercent needs a history's median
        }
        long low = spec.minRows() == null ? 0 : spec.minRows();
        long high = spec.maxRows() == null ? Long.MAX_VALUE : Math.max(low, spec.maxRows());
        return Optional.of(new VolumeBand(low, high, null, VolumeBasis.CONTRACT, 0, bounds(spec)
                + " (too little history for the dataset's own band)"));
    }

    private static VolumeBand applyContract(VolumeBand history, VolumeSpec spec) {
        if (!spec.declared()) {
            return history;
        }
        long low = history.low();
        long high = history.high();
        String description = history.description();
        if (spec.maxChangePercent() != null) {
            double half = history.median() * spec.maxChangePercent() / 100.0;
            low = (long) Math.floor(Math.max(0, history.median() - half));
            high = (long) Math.ceil(history.median() + half);
            description = "median " + history.median() + " of the last " + history.comparable()
                    + " comparable units, +/-" + spec.maxChangePercent() + "% (the contract's maxChangePercent)";
        }
        if (spec.minRows() != null || spec.maxRows() != null) {
            long min = spec.minRows() == null ? 0 : spec.minRows();
            long max = spec.maxRows() == null ? Long.MAX_VALUE : Math.max(min, spec.maxRows());
            if (min > high || max < low) {
                // the contract's bounds exclude the history's band: the declaration wins
                return new VolumeBand(min, max, history.median(), VolumeBasis.HISTORY_AND_CONTRACT,
                        history.comparable(),
                        bounds(spec) + ", which exclude the history's band (" + description + ")");
            }
            low = Math.max(low, min);
            high = Math.min(high, max);
            description = description + "; " + bounds(spec);
        }
        return new VolumeBand(low, high, history.median(), VolumeBasis.HISTORY_AND_CONTRACT, history.comparable(),
                description);
    }

    private static String bounds(VolumeSpec spec) {
        List<String> parts = new ArrayList<>();
        if (spec.minRows() != null) {
            parts.add("minRows " + spec.minRows());
        }
        if (spec.maxRows() != null) {
            parts.add("maxRows " + spec.maxRows());
        }
        return "the contract's " + String.join(" and ", parts);
    }

    /** The seasonal phase a unit shares with its comparable units: its weekday (daily) or hour of day (hourly). */
    private static String phase(Cadence cadence, String unit) {
        return cadence == Cadence.DAILY ? LocalDate.parse(unit).getDayOfWeek().name()
                : unit.substring(unit.length() - 2);
    }

    private static String phaseName(Cadence cadence, String unit) {
        return cadence == Cadence.DAILY
                ? LocalDate.parse(unit).getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + "s"
                : "units at hour " + unit.substring(unit.length() - 2);
    }

    /**
     * The spread of the whole window, each unit against the median of its own phase (weekday, hour), relative to that
     * median: a pooled estimate from up to eight weeks of units, where eight same-weekday units alone would now and
     * then give a narrow band by chance. Growth within the window widens it, as it should.
     */
    private static double relativeMad(Cadence cadence, List<UnitCount> window) {
        java.util.Map<String, List<UnitCount>> byPhase = new java.util.HashMap<>();
        for (UnitCount count : window) {
            byPhase.computeIfAbsent(phase(cadence, count.unit()), p -> new ArrayList<>()).add(count);
        }
        List<Double> deviations = new ArrayList<>(window.size());
        for (List<UnitCount> group : byPhase.values()) {
            if (group.size() < 2) {
                continue;
            }
            double median = median(group.stream().mapToLong(UnitCount::rows).toArray());
            for (UnitCount count : group) {
                deviations.add(Math.abs(count.rows() - median) / Math.max(1, median));
            }
        }
        if (deviations.isEmpty()) {
            return 0;
        }
        double[] sorted = deviations.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    private static long[] last(List<UnitCount> counts, int n) {
        return counts.subList(Math.max(0, counts.size() - n), counts.size()).stream()
                .mapToLong(UnitCount::rows).toArray();
    }

    static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
    }

}
