package io.landingledger.core.sweep;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.Deadline;
import io.landingledger.core.store.ObjectStore;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The sharded sweep's three steps, one object: {@link #plan} (the scheduled planner), {@link #runShard} and
 * {@link #assembleIfComplete} (each shard's worker), and {@link #run}, all three in this process, one shard after
 * the other: the same shards and code the deployed functions run, for the local stack and the tests.
 */
public final class ShardedSweep {
    private final CompletenessSweep sweep;
    private final SweepPlanner planner;
    private final SweepShardRunner runner;
    private final SweepAssembler assembler;
    private final SweepFiles files;

    /**
     * @param sweep     classifies, re-drives and writes one dataset's reports (the same object the unsharded sweep is)
     * @param changes   the change records an incremental sweep reads
     * @param contracts the contract of a dataset by name (the registry's lookup)
     */
    public ShardedSweep(CompletenessSweep sweep, ObjectStore store, String lakeBucket, SweepChanges changes, ShardBudget budget,
                        Function<String, Optional<DatasetContract>> contracts) {
        this.sweep = Objects.requireNonNull(sweep, "sweep");
        this.planner = new SweepPlanner(changes, budget);
        this.runner = new SweepShardRunner(sweep, store, lakeBucket, contracts);
        this.assembler = new SweepAssembler(store, lakeBucket, sweep.clock());
        this.files = new SweepFiles(store, lakeBucket);
    }

    /** A sweep run in process: its plan, its assembly, and the reports of the datasets it swept. */
    public record Result(SweepPlan plan, SweepAssembler.Assembly assembly, List<DatasetReport> reports) {
        /** The report of one dataset swept by this run. */
        public Optional<DatasetReport> report(String dataset) {
            return reports.stream().filter(r -> r.dataset().equals(dataset)).findFirst();
        }
    }

    /**
     * Plans, runs every shard here in turn (no retries: a failed dataset is reported as a failed shard's would be,
     * after its last attempt) and assembles. The one call the local stack and the tests make.
     */
    public Result run(SweepMode mode, SweepRequest request, CompletenessSweep.ReportListener listener,
                      SweepAssembler.MetricsSink metrics) {
        SweepPlan plan = plan(mode, request, metrics);
        List<DatasetReport> reports = new ArrayList<>();
        for (SweepShard shard : plan.shards()) {
            reports.addAll(runShard(ShardTask.of(plan, shard), 1, Deadline.NONE, listener).reports());
        }
        SweepAssembler.Assembly assembly = assembler.assemble(plan, new LinkedHashSet<>(plan.requested()), metrics);
        return new Result(plan, assembly, reports);
    }

    /**
     * The planner's step: assembles the sweep planned before this one if nobody did (its last shard's worker was
     * killed, or a shard's every attempt failed without a result), then plans, writes the plan, and records it as the
     * last planned. The caller hands each shard out ({@link ShardTask#of}). A plan with no shards is assembled here.
     */
    public SweepPlan plan(SweepMode mode, SweepRequest request, SweepAssembler.MetricsSink metrics) {
        assembleOverdue(metrics);
        Instant now = sweep.clock().instant().truncatedTo(ChronoUnit.SECONDS);
        SweepPlan plan = planner.plan(mode, request.datasets(), request.from(), request.to(), now, assembler.state());
        files.write(SweepPlan.planKey(plan.sweepId()), plan, false);
        files.write(SweepLayout.PLANNED_KEY, new Planned(plan.sweepId(), plan.asOf()), true);
        if (plan.shards().isEmpty()) {
            assembler.assemble(plan, new LinkedHashSet<>(plan.requested()), metrics);
        }
        return plan;
    }

    /** A worker's step: sweeps the shard's datasets and writes its result. */
    public SweepShardRunner.Outcome runShard(ShardTask task, int attempt, Deadline deadline, CompletenessSweep.ReportListener listener) {
        return runner.run(task, attempt, deadline, SweepShardRunner.DEFAULT_MARGIN, listener);
    }

    /** A worker's last attempt that failed: the shard's result says so, so the assembly can name it. */
    public void recordFailedShard(ShardTask task, int attempt, String error) {
        runner.write(ShardResult.failed(task.sweepId(), task.shard(), sweep.clock().instant(), attempt, error));
    }

    /** After a worker's result: assembles the sweep when every shard of its plan has a result. */
    public Optional<SweepAssembler.Assembly> assembleIfComplete(String sweepId, SweepAssembler.MetricsSink metrics) {
        Optional<SweepPlan> plan = assembler.plan(sweepId);
        if (plan.isEmpty() || assembler.shardsReported(sweepId) < plan.get().shards().size()) {
            return Optional.empty();
        }
        return Optional.of(assembler.assemble(plan.get(), new LinkedHashSet<>(plan.get().requested()), metrics));
    }

    private void assembleOverdue(SweepAssembler.MetricsSink metrics) {
        Optional<String> last = files.read(SweepLayout.PLANNED_KEY, Planned.class).map(Planned::sweepId);
        if (last.isPresent() && !assembler.assembled(last.get())) {
            assembler.plan(last.get()).ifPresent(p -> assembler.assemble(p, new LinkedHashSet<>(p.requested()), metrics));
        }
    }

    /** How long a worker keeps back for its result. */
    public static Duration margin() {
        return SweepShardRunner.DEFAULT_MARGIN;
    }

    /** The last sweep planned ({@link SweepLayout#PLANNED_KEY}). */
    record Planned(@com.fasterxml.jackson.annotation.JsonProperty("sweep_id") String sweepId,
                   @com.fasterxml.jackson.annotation.JsonProperty("as_of") Instant asOf) {
    }
}
