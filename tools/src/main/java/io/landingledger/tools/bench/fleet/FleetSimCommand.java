package io.landingledger.tools.bench.fleet;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.sweep.ShardBudget;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code landing fleet-sim}: the sharded sweep at fleet scale, simulated (issue 26 part 4; docs/performance.md, "Ten
 * thousand datasets"). Builds the fleet on generated in-memory ports, runs a full sweep and a day of hourly sweeps
 * with the real planner, shard runner and assembler, and prints for the full sweep and the incremental ones: S3 and
 * DynamoDB requests, bytes read, the slowest shard, the modelled wall time, the heap a shard holds, and the monthly
 * cost at published prices; then whether the goal is met.
 */
@Command(name = "fleet-sim", mixinStandardHelpOptions = true,
        description = {"Simulate the sharded completeness sweep over a fleet of datasets x daily units on in-memory ports",
                "with request counters and a latency model from AWS's published figures; print requests, bytes, the slowest",
                "shard, the modelled wall time, a shard's heap and the monthly cost of an hourly schedule with a daily full one.",
                "Exit status: 0 the goal is met, 1 it is not, 2 usage error."})
public final class FleetSimCommand implements Callable<Integer> {
    @Option(names = "--datasets", paramLabel = "N", description = "Datasets in the fleet (default: ${DEFAULT-VALUE}).")
    int datasets = 10_000;

    @Option(names = "--units", paramLabel = "N", description = "Daily units per dataset, a year by default (default: ${DEFAULT-VALUE}).")
    int units = 365;

    @Option(names = "--seed", paramLabel = "N", description = "The fleet's seed (default: ${DEFAULT-VALUE}).")
    long seed = 26;

    @Option(names = "--concurrency", paramLabel = "N",
            description = "The worker's MaximumConcurrency, as the template sets it (default: ${DEFAULT-VALUE}).")
    int concurrency = 50;

    @Option(names = "--shard-datasets", paramLabel = "N", description = "Datasets per shard (default: ${DEFAULT-VALUE}).")
    int shardDatasets = ShardBudget.DEFAULT_MAX_DATASETS;

    @Option(names = "--hours", paramLabel = "N", description = "Hourly sweeps simulated after the first full one (default: ${DEFAULT-VALUE}).")
    int hours = 24;

    @Option(names = "--full-hour", paramLabel = "H", description = "The UTC hour of the daily full reconciliation (default: ${DEFAULT-VALUE}).")
    int fullHour = 3;

    @Option(names = "--volume-datasets", paramLabel = "N",
            description = "Datasets whose generated histories the volume check judges (default: ${DEFAULT-VALUE}, at most --datasets).")
    int volumeDatasets = 2_000;

    /** The goal of issue 26: the whole fleet's incremental sweep within 5 minutes, no shard over 60 s, under $50 a month. */
    static final double GOAL_WALL_SECONDS = 300;
    static final double GOAL_SHARD_SECONDS = 60;
    static final double GOAL_MONTHLY_DOLLARS = 50;

    @Override
    public Integer call() {
        if (datasets < 1 || units < 3 || concurrency < 1 || shardDatasets < 1 || hours < 1 || fullHour < 0 || fullHour > 23) {
            System.err.println("fleet-sim: --datasets >= 1, --units >= 3, --concurrency >= 1, --shard-datasets >= 1, --hours >= 1, "
                    + "--full-hour 0-23");
            return 2;
        }
        DatasetContract template = ContractRegistry.bundled(FleetSimCommand.class, "progress_events")
                .orElseThrow(() -> new IllegalStateException("the progress_events contract is not bundled"));
        long started = System.nanoTime();
        FleetSimulation.Config config = new FleetSimulation.Config(datasets, units, seed, concurrency,
                new ShardBudget(shardDatasets, ShardBudget.DEFAULT_MAX_UNITS * Math.max(1, shardDatasets) / ShardBudget.DEFAULT_MAX_DATASETS + units),
                fullHour, hours);
        FleetSimulation.Day day = new FleetSimulation(config).run(template);
        Result result = result(day);
        VolumeSimulation.Figures volume = VolumeSimulation.run(Math.min(datasets, Math.max(1, volumeDatasets)), units, seed);
        print(System.out, config, day, result, (System.nanoTime() - started) / 1e9);
        printVolume(System.out, volume, datasets);
        return result.met() ? 0 : 1;
    }

    /** The figures the goal is judged on. */
    record Result(FleetSimulation.SweepFigures medianIncremental, FleetSimulation.SweepFigures heaviestIncremental,
                  FleetSimulation.SweepFigures full, double monthlyDollars, double[] monthlyParts, boolean met) {
    }

    static Result result(FleetSimulation.Day day) {
        List<FleetSimulation.SweepFigures> incremental = new ArrayList<>(day.hourly().stream()
                .filter(f -> f.mode() == io.landingledger.core.sweep.SweepMode.INCREMENTAL).toList());
        incremental.sort(Comparator.comparingDouble(FleetSimulation.SweepFigures::wallMs));
        FleetSimulation.SweepFigures median = incremental.get(incremental.size() / 2);
        FleetSimulation.SweepFigures heaviest = incremental.get(incremental.size() - 1);
        FleetSimulation.SweepFigures full = day.hourly().stream().filter(f -> f.mode() == io.landingledger.core.sweep.SweepMode.FULL)
                .findFirst().orElse(day.initialFull());
        double perDay = day.hourly().stream().mapToDouble(FleetSimulation.SweepFigures::dollars).sum()
                * (24.0 / day.hourly().size());
        double sweeps = perDay * AwsFigures.DAYS_PER_MONTH;
        // the change records: one marker PUT each, one recorder invocation each (256 MB, 100 ms: an estimate)
        double recorder = day.changeRecords() * (AwsFigures.S3_PUT_LIST_PER_REQUEST + AwsFigures.LAMBDA_PER_REQUEST
                + 0.25 * 0.1 * AwsFigures.LAMBDA_PER_GB_SECOND) * (24.0 / day.hourly().size()) * AwsFigures.DAYS_PER_MONTH;
        double idle = AwsFigures.SQS_IDLE_POLLS_PER_MONTH * AwsFigures.SQS_PER_REQUEST;
        double monthly = sweeps + recorder + idle;
        boolean met = heaviest.wallMs() / 1000 <= GOAL_WALL_SECONDS
                && incremental.stream().allMatch(f -> f.slowestShardMs() / 1000 <= GOAL_SHARD_SECONDS)
                && monthly <= GOAL_MONTHLY_DOLLARS;
        return new Result(median, heaviest, full, monthly, new double[] {sweeps, recorder, idle}, met);
    }

    static void print(PrintStream out, FleetSimulation.Config config, FleetSimulation.Day day, Result r, double seconds) {
        Fleet fleet = day.fleet();
        Fleet.Rates rates = fleet.rates;
        out.printf(Locale.ROOT, "fleet: %,d datasets x %,d daily units (%,d units, %,d with an input), seed %d; graces 1-23 h%n",
                fleet.datasets, fleet.units, (long) fleet.datasets * fleet.units, fleet.unitsWithInput(), config.seed());
        out.printf(Locale.ROOT, "rates: lost event %.2f%%, refused %.2f%%, re-sent %.1f%% of units, never sent %.2f%%, publish deleted %.3f%%%n",
                rates.lostEvent() * 100, rates.refused() * 100, rates.resendPerUnitDay() * 100, rates.missing() * 100, rates.drift() * 100);
        out.printf(Locale.ROOT, "engine: SQS fan-out, %d datasets a shard, MaximumConcurrency %d; hourly incremental, full at %02d:05 UTC%n",
                config.budget().maxDatasets(), config.concurrency(), config.fullHour());
        String[] labels = {"full (first)", "incremental, median hour", "incremental, heaviest hour", "full (daily, " + r.full().label() + ")"};
        FleetSimulation.SweepFigures[] columns = {day.initialFull(), r.medianIncremental(), r.heaviestIncremental(), r.full()};
        out.printf(Locale.ROOT, "%-34s", "");
        for (String label : labels) {
            out.printf(Locale.ROOT, "%28s", label);
        }
        out.println();
        row(out, "sweep at", columns, f -> f.label());
        row(out, "datasets read / shards", columns, f -> String.format(Locale.ROOT, "%,d / %,d", f.datasetsRead(), f.shards()));
        row(out, "why read", columns, f -> f.reasons().toString().replace(" ", ""));
        row(out, "S3 LIST / GET / PUT / HEAD", columns, f -> String.format(Locale.ROOT, "%,d/%,d/%,d/%,d", f.total().s3List, f.total().s3Get,
                f.total().s3Put, f.total().s3Head));
        row(out, "S3 bytes read / written", columns, f -> mb(f.total().s3BytesRead) + " / " + mb(f.total().s3BytesWritten));
        row(out, "DynamoDB Query pages / GetItem", columns, f -> String.format(Locale.ROOT, "%,d / %,d", f.total().dynamoQuery, f.total().dynamoGet));
        row(out, "DynamoDB read units / bytes", columns, f -> String.format(Locale.ROOT, "%,.0f / %s", f.total().dynamoRru, mb(f.total().dynamoBytesRead)));
        row(out, "re-drives (Event invokes)", columns, f -> String.format(Locale.ROOT, "%,d", f.total().lambdaInvokes));
        row(out, "slowest shard (S3 100 / 200 ms)", columns, f -> String.format(Locale.ROOT, "%.1f / %.1f s", f.slowestShardMs() / 1000,
                f.slowestShardPessimisticMs() / 1000));
        row(out, "wall time (S3 100 / 200 ms)", columns, f -> String.format(Locale.ROOT, "%.0f / %.0f s", f.wallMs() / 1000, f.wallPessimisticMs() / 1000));
        row(out, "CPU measured here (all shards)", columns, f -> String.format(Locale.ROOT, "%.1f s", f.total().cpuNanos / 1e9));
        row(out, "Lambda GB-s / SQS requests", columns, f -> String.format(Locale.ROOT, "%,.0f / %,d", f.lambdaGbSeconds(), f.sqsRequests()));
        row(out, "cost of this sweep", columns, f -> String.format(Locale.ROOT, "$%.4f", f.dollars()));
        row(out, "every shard finished", columns, f -> String.valueOf(f.finished()));
        out.printf(Locale.ROOT, "a shard's heap: one dataset's report %s retained (measured: %,d units, after GC), plus %s of JSON, HTML and "
                + "status bytes while they are written (measured sizes); one dataset at a time%n", mb(day.retainedReportBytes()), fleet.units,
                mb(day.transientReportBytes()));
        out.printf(Locale.ROOT, "day: %d sweeps (%d incremental, %d full) read %,d datasets in all; %,d change records%n",
                day.hourly().size(), day.hourly().stream().filter(f -> f.mode() == io.landingledger.core.sweep.SweepMode.INCREMENTAL).count(),
                day.hourly().stream().filter(f -> f.mode() == io.landingledger.core.sweep.SweepMode.FULL).count(),
                day.hourly().stream().mapToLong(FleetSimulation.SweepFigures::datasetsRead).sum(), day.changeRecords());
        out.printf(Locale.ROOT, "monthly (30 days): sweeps $%.2f + change records $%.2f + SQS idle polling $%.2f = $%.2f%n",
                r.monthlyParts()[0], r.monthlyParts()[1], r.monthlyParts()[2], r.monthlyDollars());
        out.printf(Locale.ROOT, "  an hourly full sweep instead: $%.2f a month%n", r.full().dollars() * 24 * AwsFigures.DAYS_PER_MONTH
                + r.monthlyParts()[2]);
        out.print("datasets read each hour:");
        day.hourly().forEach(f -> out.printf(Locale.ROOT, " %s", f.datasetsRead()));
        out.println();
        double wall = r.heaviestIncremental().wallMs() / 1000;
        double shard = day.hourly().stream().filter(f -> f.mode() == io.landingledger.core.sweep.SweepMode.INCREMENTAL)
                .mapToDouble(FleetSimulation.SweepFigures::slowestShardMs).max().orElse(0) / 1000;
        out.printf(Locale.ROOT, "goal: incremental wall %.0f s (<= %.0f), slowest incremental shard %.1f s (<= %.0f), $%.2f a month (<= %.0f): %s%n",
                wall, GOAL_WALL_SECONDS, shard, GOAL_SHARD_SECONDS, r.monthlyDollars(), GOAL_MONTHLY_DOLLARS, r.met() ? "met" : "NOT met");
        out.printf(Locale.ROOT, "(simulated in %.1f s)%n", seconds);
    }

    /** The volume check's false alarms and catches on generated normal histories, scaled to the fleet. */
    static void printVolume(PrintStream out, VolumeSimulation.Figures v, int fleetDatasets) {
        out.printf(Locale.ROOT, "volume check: %,d datasets x %,d days of generated normal histories (flat, weekly with quiet "
                + "weekends, growing, noisy, small), %.1f%% of units truncated to 2%% of their rows%n", v.datasets(),
                v.units() / Math.max(1, v.datasets()), VolumeSimulation.TRUNCATED_RATE * 100);
        out.printf(Locale.ROOT, "  judged %,d units (%,d in warm-up, no band yet); false alarms %,d (%.3f%% of normal units, %.1f a "
                + "day across %,d datasets); truncated days caught %,d of %,d%n", v.judged(), v.warmUp(), v.falseAlarms(),
                v.falseAlarmRate() * 100, v.falseAlarmRate() * fleetDatasets, fleetDatasets, v.caught(), v.truncated());
    }

    private static void row(PrintStream out, String name, FleetSimulation.SweepFigures[] columns,
                            java.util.function.Function<FleetSimulation.SweepFigures, String> cell) {
        out.printf(Locale.ROOT, "%-34s", name);
        for (FleetSimulation.SweepFigures f : columns) {
            out.printf(Locale.ROOT, "%28s", cell.apply(f));
        }
        out.println();
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
