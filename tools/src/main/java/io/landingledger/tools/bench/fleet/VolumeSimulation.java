package io.landingledger.tools.bench.fleet;

import io.landingledger.core.contract.Cadence;
import io.landingledger.core.contract.VolumeSpec;
import io.landingledger.core.volume.UnitCount;
import io.landingledger.core.volume.VolumeCheck;
import io.landingledger.core.volume.VolumeModel;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The sweep's volume check (SUSPECT_VOLUME, {@link VolumeModel}) over generated normal histories at the fleet's scale:
 * each dataset a year of daily row counts in one of five shapes (flat, weekly seasonal with quiet weekends, growing
 * 0.3% a day, noisy, small counts), a rate of truncated days (2% of the day's rows) put in, and every unit judged
 * against its own earlier units as the sweep judges it. A flag on a normal day is a false alarm; a truncated day not
 * flagged is a miss.
 */
final class VolumeSimulation {
    /** Truncated exports: one unit in a thousand holds 2% of its rows. */
    static final double TRUNCATED_RATE = 0.001;
    private static final LocalDate FIRST = LocalDate.parse("2025-01-06");

    /** What the check said. */
    record Figures(int datasets, long units, long judged, long warmUp, long falseAlarms, long truncated, long caught) {
        double falseAlarmRate() {
            return judged == 0 ? 0 : (double) falseAlarms / (judged - caught);
        }
    }

    private VolumeSimulation() {
    }

    static Figures run(int datasets, int units, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long judged = 0;
        long warmUp = 0;
        long falseAlarms = 0;
        long truncated = 0;
        long caught = 0;
        for (int d = 0; d < datasets; d++) {
            List<UnitCount> history = new ArrayList<>(units);
            int shape = d % 5;
            double base = shape == 4 ? 5 + random.nextInt(40) : 200 + random.nextInt(200_000);
            for (int u = 0; u < units; u++) {
                LocalDate day = FIRST.plusDays(u);
                boolean weekend = day.getDayOfWeek() == DayOfWeek.SATURDAY || day.getDayOfWeek() == DayOfWeek.SUNDAY;
                double expected = switch (shape) {
                    case 1 -> weekend ? base * 0.3 : base;
                    case 2 -> base * Math.pow(1.003, u);
                    default -> base;
                };
                double rows = shape == 4 ? poisson(expected, random)
                        : expected * Math.max(0.05, 1 + (shape == 3 ? 0.18 : 0.06) * gaussian(random));
                boolean cut = shape != 4 && random.nextDouble() < TRUNCATED_RATE;
                long count = Math.max(0, Math.round(cut ? rows * 0.02 : rows));
                Optional<VolumeCheck> check = VolumeModel.check(Cadence.DAILY, VolumeSpec.NONE, day.toString(), count,
                        history);
                truncated += cut ? 1 : 0;
                if (check.isEmpty()) {
                    warmUp++;
                } else if (count > 0) { // an empty unit is EMPTY's to judge
                    judged++;
                    if (check.get().suspect()) {
                        if (cut) {
                            caught++;
                        } else {
                            falseAlarms++;
                        }
                    }
                }
                history.add(new UnitCount(day.toString(), count));
                if (history.size() > 64) {
                    history.remove(0); // the sweep reads eight weeks before a unit: nothing older is judged on
                }
            }
        }
        return new Figures(datasets, (long) datasets * units, judged, warmUp, falseAlarms, truncated, caught);
    }

    private static double gaussian(SplittableRandom random) {
        // Box-Muller: SplittableRandom has no nextGaussian before Java 17's RandomGenerator default; this is explicit
        double u = 1 - random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
    }

    private static long poisson(double mean, SplittableRandom random) {
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
