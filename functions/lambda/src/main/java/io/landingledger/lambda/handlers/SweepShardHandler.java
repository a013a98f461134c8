package io.landingledger.lambda.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.annotation.JsonProperty;

import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.json.JsonCodec;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.ShardTask;
import io.landingledger.core.sweep.ShardedSweep;
import io.landingledger.core.sweep.SweepShardRunner;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.JsonLine;
import io.landingledger.lambda.LambdaDeadline;
import io.landingledger.lambda.OutcomeReporter;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The sweep worker: one shard per invocation, from the shard queue (event source mapping, batch size 1,
 * MaximumConcurrency in infra/template.yaml). Sweeps the shard's datasets, writes its result, and assembles the sweep
 * when its result was the last one missing.
 *
 * <p>Failure: a shard whose datasets did not all sweep (a fault, no time left) throws after writing its result, so
 * SQS delivers it again after the visibility timeout; on the queue's last receive ({@value #MAX_RECEIVES}, the
 * redrive policy's maxReceiveCount) the result it wrote stands, the sweep is assembled naming it, and the message goes
 * to the dead-letter queue (alarmed). A worker killed on its last attempt writes nothing: the next planner names the
 * shard ({@code NO_RESULT}).
 */
public final class SweepShardHandler extends TypedHandler<SQSEvent, SweepShardHandler.ShardRun> {
    /** The shard queue's redrive policy maxReceiveCount (infra/template.yaml, SweepShardQueue). */
    public static final int MAX_RECEIVES = 3;
    private static final Logger LOG = LogManager.getLogger(SweepShardHandler.class);

    private final ShardedSweep sweep;
    private final OutcomeReporter reporter;
    private final SweepMetrics metrics;

    /** Used by the Lambda runtime. */
    public SweepShardHandler() {
        this(System.getenv(), System.out);
    }

    /**
     * The function's init from its environment and its log stream: Lambda's runtime passes the process's, and the
     * local cloud the function's own through {@link FunctionHandlers} (one JVM runs every function there).
     */
    SweepShardHandler(Map<String, String> environment, PrintStream stdout) {
        this(DependencyFactory.forFunction(environment, stdout));
    }

    private SweepShardHandler(DependencyFactory dependencies) {
        this(dependencies.shardedSweep(), dependencies.reporter(), new SweepMetrics(dependencies.metrics()));
    }

    /** For tests and the local stack. */
    public SweepShardHandler(ShardedSweep sweep, OutcomeReporter reporter, SweepMetrics metrics) {
        super(SQSEvent.class);
        this.sweep = Objects.requireNonNull(sweep, "sweep");
        this.reporter = Objects.requireNonNull(reporter, "reporter");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    /** The answer: the shard run, how many of its datasets were swept and left unswept (empty for an empty batch). */
    public record ShardRun(@JsonProperty("sweep_id") String sweepId, Integer shard, Integer swept, Integer unswept) {
        static final ShardRun NONE = new ShardRun(null, null, null, null);
    }

    /** An SQS event: {@code Records[].body} a {@link ShardTask}, {@code attributes.ApproximateReceiveCount}. */
    @Override
    public ShardRun handle(SQSEvent event, Context context) {
        List<SQSEvent.SQSMessage> records = event == null || event.getRecords() == null ? List.of() : event.getRecords();
        ShardRun result = ShardRun.NONE;
        for (SQSEvent.SQSMessage record : records) {
            ShardTask task = task(record.getBody());
            Map<String, String> attributes = record.getAttributes() == null ? Map.of() : record.getAttributes();
            int attempt = Integer.parseInt(attributes.getOrDefault("ApproximateReceiveCount", "1"));
            SweepShardRunner.Outcome outcome;
            try {
                outcome = sweep.runShard(task, attempt, LambdaDeadline.of(context), listener());
            } catch (RuntimeException e) {
                if (attempt >= MAX_RECEIVES) {
                    sweep.recordFailedShard(task, attempt, e.getClass().getSimpleName() + ": " + e.getMessage());
                    sweep.assembleIfComplete(task.sweepId(), metrics);
                }
                throw e;
            }
            if (!outcome.result().finished() && attempt < MAX_RECEIVES) {
                throw new IllegalStateException("shard " + task.shard().index() + " of " + task.sweepId() + " left "
                        + outcome.result().unswept().size() + " dataset(s) unswept; SQS delivers it again");
            }
            sweep.assembleIfComplete(task.sweepId(), metrics).ifPresent(a -> LOG.info(new JsonLine("sweep assembled", Map.of(
                    "sweep_id", task.sweepId(), "finished", a.finished(), "complete", a.complete()))));
            result = new ShardRun(task.sweepId(), task.shard().index(), outcome.result().swept().size(), outcome.result().unswept().size());
            if (!outcome.result().finished()) {
                throw new IllegalStateException("shard " + task.shard().index() + " of " + task.sweepId()
                        + " left datasets unswept on its last attempt; its result names them");
            }
        }
        return result;
    }

    private CompletenessSweep.ReportListener listener() {
        return new CompletenessSweep.ReportListener() {
            @Override
            public void redriveRan(IngestOutcome outcome) {
                reporter.outcome(outcome);
            }

            @Override
            public void swept(DatasetReport report) {
                Map<String, Object> fields = new LinkedHashMap<>(report.summary());
                fields.remove("not_ok");
                fields.remove("redrives");
                LOG.info(new JsonLine(report.complete() ? "sweep complete" : "sweep incomplete", fields));
            }
        };
    }

    private static ShardTask task(String body) {
        return JsonCodec.read(body == null ? "" : body, ShardTask.class);
    }
}
