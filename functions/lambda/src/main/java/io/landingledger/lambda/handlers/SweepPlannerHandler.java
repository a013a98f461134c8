package io.landingledger.lambda.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.fasterxml.jackson.annotation.JsonProperty;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.json.JsonCodec;
import io.landingledger.core.sweep.ShardTask;
import io.landingledger.core.sweep.ShardedSweep;
import io.landingledger.core.sweep.SweepMode;
import io.landingledger.core.sweep.SweepPlan;
import io.landingledger.core.sweep.SweepRequest;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.JsonLine;
import io.landingledger.lambda.adapters.SqsShardQueue;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The sharded sweep's planner (docs/design.md section 5, "Sharded and incremental"), on two EventBridge Scheduler
 * schedules: hourly {@code {"mode": "incremental"}} and daily {@code {"mode": "full"}}; the rest of the payload is
 * the sweep's ({@code datasets}, {@code from}, {@code to}). Assembles the last planned sweep if no worker did, plans
 * this one (which datasets, in which shards), and puts one message per shard on the shard queue
 * ({@value #SHARD_QUEUE}). Result: the sweep id, its mode, how many datasets it reads and carries, its shards.
 */
public final class SweepPlannerHandler extends TypedHandler<SweepPlannerHandler.Schedule, SweepPlannerHandler.Planned> {
    /** The shard queue's URL (infra/template.yaml, SweepShardQueue). */
    public static final String SHARD_QUEUE = "SWEEP_SHARD_QUEUE";
    private static final Logger LOG = LogManager.getLogger(SweepPlannerHandler.class);

    private final ContractRegistry contracts;
    private final ShardedSweep sweep;
    private final Consumer<java.util.List<ShardTask>> queue;
    private final SweepMetrics metrics;

    /** Used by the Lambda runtime. */
    public SweepPlannerHandler() {
        this(System.getenv(), System.out);
    }

    /**
     * The function's init from its environment and its log stream: Lambda's runtime passes the process's, and the
     * local cloud the function's own through {@link FunctionHandlers} (one JVM runs every function there).
     */
    SweepPlannerHandler(Map<String, String> environment, PrintStream stdout) {
        this(DependencyFactory.forFunction(environment, stdout), environment);
    }

    private SweepPlannerHandler(DependencyFactory dependencies, Map<String, String> environment) {
        this(dependencies.contracts(), dependencies.shardedSweep(), new SqsShardQueue(dependencies.sqsClient(),
                Objects.requireNonNull(environment.get(SHARD_QUEUE), SHARD_QUEUE + " is not set (infra/template.yaml)"))::submit,
                new SweepMetrics(dependencies.metrics()));
    }

    /** For tests and the local stack: {@code queue} takes the shards (the lead's SQS emulator, or a list). */
    public SweepPlannerHandler(ContractRegistry contracts, ShardedSweep sweep, Consumer<java.util.List<ShardTask>> queue, SweepMetrics metrics) {
        super(Schedule.class);
        this.contracts = Objects.requireNonNull(contracts, "contracts");
        this.sweep = Objects.requireNonNull(sweep, "sweep");
        this.queue = Objects.requireNonNull(queue, "queue");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    /** The schedule's payload: the sweep's mode (default incremental) and the sweep's own keys. */
    public record Schedule(String mode, List<String> datasets, String from, String to) {
    }

    /** The answer: the sweep planned, how many datasets it reads and carries, its shards. */
    public record Planned(@JsonProperty("sweep_id") String sweepId, String mode, @JsonProperty("datasets_read") int datasetsRead,
                          @JsonProperty("datasets_carried") int datasetsCarried, int shards) {
    }

    @Override
    public Planned handle(Schedule payload, Context context) {
        Schedule schedule = payload == null ? new Schedule(null, null, null, null) : payload;
        SweepMode sweepMode = schedule.mode() == null ? SweepMode.INCREMENTAL : SweepMode.parse(schedule.mode());
        SweepPlan plan = sweep.plan(sweepMode, SweepRequest.of(new SweepRequest.Payload(schedule.datasets(), schedule.from(),
                schedule.to()), contracts), metrics);
        queue.accept(plan.shards().stream().map(shard -> ShardTask.of(plan, shard)).toList());
        Planned planned = new Planned(plan.sweepId(), plan.mode().lowerCase(), plan.datasetCount(), plan.carried(), plan.shards().size());
        LOG.info(new JsonLine("sweep planned", JsonCodec.fields(planned)));
        return planned;
    }
}
