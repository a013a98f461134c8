package io.landingledger.core.sweep;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.Deadline;
import io.landingledger.core.store.ObjectStore;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Runs one shard: each of its datasets swept exactly as {@link CompletenessSweep#sweep(DatasetContract, String, String)}
 * sweeps one (the same bulk reads, {@link UnitClassifier}, the re-drive, the dataset's reports and
 * {@code _status/<dataset>/status.jsonl}), one dataset at a time so the shard holds one report in memory; then the
 * shard's result is written to {@code _reports/sweeps/<sweep-id>/shards/<nnnnn>.json}.
 *
 * <p>Bounded in time: before each dataset the invocation's remaining time is checked, and with less than the margin
 * left the rest are written as {@code OUT_OF_TIME} (the next incremental sweep reads them first), so a shard ends
 * with a result rather than being killed. A fault in one dataset is recorded ({@code FAILED}, the exception's class
 * and message, never row content) and the next one is swept.
 */
public final class SweepShardRunner {
    /** Time kept back for the result's PUT and the assembly check. */
    public static final Duration DEFAULT_MARGIN = Duration.ofSeconds(20);

    private final CompletenessSweep sweep;
    private final SweepFiles files;
    private final Function<String, Optional<DatasetContract>> contracts;
    private final Clock clock;

    public SweepShardRunner(CompletenessSweep sweep, ObjectStore store, String lakeBucket,
                            Function<String, Optional<DatasetContract>> contracts) {
        this.sweep = Objects.requireNonNull(sweep, "sweep");
        this.files = new SweepFiles(Objects.requireNonNull(store, "store"), Objects.requireNonNull(lakeBucket, "lakeBucket"));
        this.contracts = Objects.requireNonNull(contracts, "contracts");
        this.clock = sweep.clock();
    }

    /** What a shard did: its result (as written) and, in process, the reports it wrote. */
    public record Outcome(ShardResult result, List<DatasetReport> reports) {
    }

    public Outcome run(ShardTask task, int attempt, Deadline deadline, Duration margin, CompletenessSweep.ReportListener listener) {
        Instant started = clock.instant();
        List<DatasetFigures> swept = new ArrayList<>();
        List<ShardResult.Unswept> unswept = new ArrayList<>();
        List<DatasetReport> reports = new ArrayList<>();
        for (String dataset : task.shard().datasets()) {
            if (!deadline.allows(margin)) {
                unswept.add(new ShardResult.Unswept(dataset, "OUT_OF_TIME", "less than " + margin.toSeconds() + " s left"));
                continue;
            }
            Optional<DatasetContract> contract = contracts.apply(dataset);
            if (contract.isEmpty()) {
                unswept.add(new ShardResult.Unswept(dataset, "FAILED", "no contract named " + dataset));
                continue;
            }
            try {
                DatasetReport report = sweep.sweep(contract.get(), task.from(), task.to());
                for (Redrive redrive : report.redrives()) {
                    if (redrive.outcome() != null && !sweep.redrivesReportThemselves()) {
                        listener.redriveRan(redrive.outcome());
                    }
                }
                listener.swept(report);
                swept.add(DatasetFigures.of(report, task.sweepId(), contract.get(),
                        sweep.tables() == null ? null : sweep.tables().grace()));
                reports.add(report);
            } catch (RuntimeException e) {
                unswept.add(new ShardResult.Unswept(dataset, "FAILED", e.getClass().getSimpleName() + ": " + e.getMessage()));
            }
        }
        ShardResult result = new ShardResult(task.sweepId(), task.shard().index(), started, clock.instant(), attempt, swept, unswept);
        write(result);
        return new Outcome(result, reports);
    }

    /** Writes a result: also the one of a shard whose every attempt failed ({@link ShardResult#failed}). */
    public void write(ShardResult result) {
        files.write(SweepLayout.shardKey(result.sweepId(), result.index()), result, false);
    }
}
