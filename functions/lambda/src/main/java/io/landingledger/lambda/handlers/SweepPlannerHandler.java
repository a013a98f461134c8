package io.landingledger.lambda.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.sweep.ShardTask;
import io.landingledger.core.sweep.ShardedSweep;
import io.landingledger.core.sweep.SweepMode;
import io.landingledger.core.sweep.SweepPlan;
import io.landingledger.core.sweep.SweepRequest;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.JsonLine;
import io.landingledger.lambda.adapters.SqsShardQueue;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
public final class SweepPlannerHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {
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
        this.contracts = Objects.requireNonNull(contracts, "contracts");
        this.sweep = Objects.requireNonNull(sweep, "sweep");
        this.queue = Objects.requireNonNull(queue, "queue");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> payload, Context context) {
        Map<String, Object> rest = new HashMap<>(payload == null ? Map.of() : payload);
        Object mode = rest.remove("mode");
        SweepMode sweepMode = mode == null ? SweepMode.INCREMENTAL : SweepMode.parse(String.valueOf(mode));
        SweepPlan plan = sweep.plan(sweepMode, SweepRequest.fromPayload(rest, contracts), metrics);
        queue.accept(plan.shards().stream().map(shard -> ShardTask.of(plan, shard)).toList());
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("sweep_id", plan.sweepId());
        result.put("mode", plan.mode().lowerCase());
        result.put("datasets_read", plan.datasetCount());
        result.put("datasets_carried", plan.carried());
        result.put("shards", plan.shards().size());
        LOG.info(new JsonLine("sweep planned", result));
        return result;
    }
}
