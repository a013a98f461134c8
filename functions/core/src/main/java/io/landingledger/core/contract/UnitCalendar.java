package io.landingledger.core.contract;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which units a dataset expects, and when each is due: daily and hourly cadences count from the contract's
 * {@code first} unit (UTC); a list cadence names its units. One place for unit arithmetic, shared by the sweep and
 * repair.
 */
public final class UnitCalendar {
    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH");

    private final UnitSpec spec;

    public UnitCalendar(UnitSpec spec) {
        this.spec = spec;
    }

    public static UnitCalendar of(DatasetContract contract) {
        return new UnitCalendar(contract.unit());
    }

    /** True when {@code unit} is a well-formed unit name for this cadence (a listed name for a list cadence). */
    public boolean isUnit(String unit) {
        try {
            return switch (spec.cadence()) {
                case DAILY -> LocalDate.parse(unit).toString().equals(unit);
                case HOURLY -> HOUR.format(LocalDateTime.parse(unit + ":00")).equals(unit);
                case LIST -> spec.units().contains(unit);
            };
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * True unless a daily or hourly cadence cannot name {@code unit} (an impossible date such as {@code 2026-02-30},
     * {@code 2026-13-45} or {@code 0000-00-00}): such a unit is refused at routing (UNIT_INVALID) and, when an older
     * build already recorded one, listed apart by status and the sweep. A list cadence's matched names are left to it.
     */
    public boolean canName(String unit) {
        return spec.cadence() == Cadence.LIST || isUnit(unit);
    }

    /** Why {@link #canName} is false for {@code unit}: names the unit, the cadence and the shape it needs. */
    public String whyNot(String unit) {
        return "'" + unit + "' is not a real " + (spec.cadence() == Cadence.HOURLY ? "UTC hour (YYYY-MM-DDTHH)" : "date (YYYY-MM-DD)")
                + ", so it is not a " + spec.cadence().name().toLowerCase(java.util.Locale.ROOT) + " unit";
    }

    /** The expected units from {@code from} to {@code to} inclusive (null: the first unit / the last listed), in order. */
    public List<String> units(String from, String to) {
        List<String> units = new ArrayList<>();
        switch (spec.cadence()) {
            case LIST -> {
                for (String unit : spec.units()) {
                    if ((from == null || unit.compareTo(from) >= 0) && (to == null || unit.compareTo(to) <= 0)) {
                        units.add(unit);
                    }
                }
            }
            case DAILY -> {
                LocalDate first = LocalDate.parse(spec.first());
                LocalDate start = from == null ? first : max(first, LocalDate.parse(from));
                LocalDate end = LocalDate.parse(require(to));
                for (LocalDate day = start; !day.isAfter(end); day = day.plusDays(1)) {
                    units.add(day.toString());
                }
            }
            case HOURLY -> {
                LocalDateTime first = LocalDateTime.parse(spec.first() + ":00");
                LocalDateTime requested = from == null ? first : LocalDateTime.parse(from + ":00");
                LocalDateTime start = requested.isBefore(first) ? first : requested;
                LocalDateTime end = LocalDateTime.parse(require(to) + ":00");
                for (LocalDateTime hour = start; !hour.isAfter(end); hour = hour.plusHours(1)) {
                    units.add(HOUR.format(hour));
                }
            }
        }
        return units;
    }

    /** The unit that contains an instant (daily: its UTC date; hourly: its UTC hour); empty for a list cadence. */
    public String unitAt(Instant instant) {
        return switch (spec.cadence()) {
            case DAILY -> LocalDate.ofInstant(instant, ZoneOffset.UTC).toString();
            case HOURLY -> HOUR.format(LocalDateTime.ofInstant(instant, ZoneOffset.UTC).truncatedTo(ChronoUnit.HOURS));
            case LIST -> null;
        };
    }

    /**
     * When a unit's input is due: its end plus {@code graceHours}. Empty for a list cadence, whose units have no
     * time (they are missing as soon as the sweep looks).
     */
    public Optional<Instant> deadline(String unit) {
        Duration grace = Duration.ofHours(spec.graceHours());
        return switch (spec.cadence()) {
            case DAILY -> Optional.of(LocalDate.parse(unit).plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC).plus(grace));
            case HOURLY -> Optional.of(LocalDateTime.parse(unit + ":00").plusHours(1).toInstant(ZoneOffset.UTC).plus(grace));
            case LIST -> Optional.empty();
        };
    }

    /**
     * The sweep's default range: {@code lookbackDays} back from now, not before {@code first}, through the unit
     * that contains now minus the grace period (later units cannot be due yet).
     *
     * @return {from, to}; for a list cadence both null (every listed unit)
     */
    public String[] defaultRange(Instant now) {
        if (spec.cadence() == Cadence.LIST) {
            return new String[] {null, null};
        }
        Instant due = now.minus(Duration.ofHours(spec.graceHours()));
        String to = unitAt(due);
        String from = unitAt(now.minus(Duration.ofDays(spec.lookbackDays())));
        if (from.compareTo(spec.first()) < 0) {
            from = spec.first();
        }
        return new String[] {from, to};
    }

    private static LocalDate max(LocalDate a, LocalDate b) {
        return a.isAfter(b) ? a : b;
    }

    private static String require(String to) {
        if (to == null) {
            throw new IllegalArgumentException("a daily or hourly range needs an end unit");
        }
        return to;
    }
}
