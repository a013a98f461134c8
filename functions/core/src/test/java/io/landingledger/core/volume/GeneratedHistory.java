package io.landingledger.core.volume;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded daily histories of accepted rows in the shapes real datasets have: flat, weekly seasonal (quiet weekends),
 * trending growth, noisy, and small. Every generated count is "normal": a volume check that flags one is a false alarm.
 */
final class GeneratedHistory {
    enum Shape { FLAT, WEEKLY, GROWTH, NOISY, SMALL }

    static final LocalDate FIRST = LocalDate.of(2026, 1, 5); // a Monday

    private GeneratedHistory() {
    }

    /** {@code days} daily units from {@link #FIRST}, oldest first. */
    static List<UnitCount> daily(Shape shape, int days, Random random) {
        double base = switch (shape) {
            case SMALL -> 5 + random.nextInt(40);
            default -> 200 + random.nextInt(200_000);
        };
        List<UnitCount> counts = new ArrayList<>(days);
        for (int d = 0; d < days; d++) {
            LocalDate day = FIRST.plusDays(d);
            boolean weekend = day.getDayOfWeek() == DayOfWeek.SATURDAY || day.getDayOfWeek() == DayOfWeek.SUNDAY;
            double expected = switch (shape) {
                case FLAT, SMALL, NOISY -> base;
                case WEEKLY -> weekend ? base * 0.3 : base;
                case GROWTH -> base * Math.pow(1.003, d); // +0.3% a day: x3 in a year
            };
            double cv = shape == Shape.NOISY ? 0.18 : 0.06;
            double rows = shape == Shape.SMALL
                    ? poisson(expected, random)
                    : expected * Math.max(0.05, 1 + cv * random.nextGaussian());
            counts.add(new UnitCount(day.toString(), Math.max(0, Math.round(rows))));
        }
        return counts;
    }

    private static long poisson(double mean, Random random) {
        double limit = Math.exp(-mean);
        long k = 0;
        double p = random.nextDouble();
        while (p > limit) {
            k++;
            p *= random.nextDouble();
        }
        return k;
    }
}
