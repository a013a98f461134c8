package io.landingledger.lambda.handlers;

import com.amazonaws.services.lambda.runtime.Context;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.SweepRequest;
import io.landingledger.core.sweep.SweepResult;
import io.landingledger.lambda.DatasetMetrics;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.FunctionConfig;
import io.landingledger.lambda.JsonLine;
import io.landingledger.lambda.OutcomeReporter;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The scheduled completeness sweep (EventBridge Scheduler, {@code events/sweep-schedule.json}). Payload
 * {@code {"datasets": [...], "from": unit, "to": unit}}, every key optional: no datasets means every bundled
 * contract, a missing bound means the contract's default range ({@code lookbackDays} back, ending at now minus
 * {@code graceHours}). Reads the payload as a {@link SweepRequest.Payload} (JsonCodec: any other key fails the
 * invocation), makes it a {@link SweepRequest}, runs {@link CompletenessSweep} over its datasets,
 * and reports each dataset's outcome (metrics, a log line).
 *
 * <p>Result: {@code as_of}, {@code complete} (every dataset complete) and per dataset its counts, the units that are
 * not OK (status, reason, detail), the re-drives and the report keys. A dataset is complete when every unit is OK,
 * PENDING or OMITTED: an omission is an operator's explicit, recorded decision, shown in the report but not a
 * failure. An incomplete dataset is a result, not an error: the invocation fails only on an invalid payload or an
 * infrastructure fault (after sweeping the other datasets), so retries apply to faults only.
 *
 * <p>Retries: EventBridge Scheduler invokes the sweep asynchronously, and the sweep's EventInvokeConfig (in
 * infra/template.yaml) gives a failed invocation at most one retry ({@code MaximumRetryAttempts: 1}), after which
 * the event goes to the on-failure destination, the SQS queue {@code SweepFailureQueue}. A retried sweep starts
 * over and is idempotent: it classifies every unit afresh from S3 and the ledger (nothing carried over from the
 * failed attempt), rewrites the reports under its own as-of (latest.json last), and re-drives only what is still
 * UNPROCESSED or LEDGER_DRIFT, each re-drive an ordinary run of the publish protocol, which any number of runs of
 * one input leave in one state.
 *
 * <p>Re-drives: the deployed sweep ({@value FunctionConfig#VALIDATOR_FUNCTION} set) hands each one to the validator
 * function asynchronously (one Event invoke, no SDK retries, {@link io.landingledger.lambda.adapters.LambdaIngestPath})
 * and reports it {@code submitted}; the validator runs it under its own EventInvokeConfig, and the next sweep reads
 * the result from the ledger. A hand-over that fails (throttled, a server error, no answer in time) is reported
 * {@code not_submitted} with the reason, is not retried, and does not fail the invocation: the next sweep
 * re-drives the unit if it is still unprocessed. In process (the local run, tests) a re-drive runs the ingest path
 * in the sweep and reports its outcome.
 *
 * <p>Per dataset it also writes one EMF document ({@link DatasetMetrics}): UnitsExpected, UnitsOk, one count per
 * other status (UnitsMissing, UnitsRefused, ...), UnitsRedriven and OldestUnpublishedAgeSeconds; and one log line.
 * Each re-drive's ingest outcome is reported like the validator's (one log line and its File* metrics) when it ran
 * in the sweep; a submitted re-drive is reported by the validator function when it runs there.
 */
public final class CompletenessSweepHandler extends TypedHandler<SweepRequest.Payload, SweepResult> {
    private static final Logger LOG = LogManager.getLogger(CompletenessSweepHandler.class);

    private final ContractRegistry contracts;
    private final CompletenessSweep sweep;
    private final DatasetMetrics metrics;
    private final OutcomeReporter reporter;

    /** Used by the Lambda runtime: clients, contracts and services are built once, at init. */
    public CompletenessSweepHandler() {
        this(System.getenv(), System.out);
    }

    /**
     * The function's init from its environment and its log stream: Lambda's runtime passes the process's, and the
     * local cloud the function's own through {@link FunctionHandlers} (one JVM runs every function there).
     */
    CompletenessSweepHandler(Map<String, String> environment, PrintStream stdout) {
        this(DependencyFactory.forFunction(environment, stdout));
    }

    private CompletenessSweepHandler(DependencyFactory dependencies) {
        this(dependencies.contracts(), dependencies.deployedSweep(), dependencies.metrics(), dependencies.reporter());
    }

    /** For tests and the local run. */
    public CompletenessSweepHandler(ContractRegistry contracts, CompletenessSweep sweep, DatasetMetrics metrics,
                                    OutcomeReporter reporter) {
        super(SweepRequest.Payload.class);
        this.contracts = Objects.requireNonNull(contracts, "contracts");
        this.sweep = Objects.requireNonNull(sweep, "sweep");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.reporter = Objects.requireNonNull(reporter, "reporter");
    }

    @Override
    public SweepResult handle(SweepRequest.Payload payload, Context context) {
        return sweep.sweep(SweepRequest.of(payload, contracts), new CompletenessSweep.ReportListener() {
            @Override
            public void redriveRan(IngestOutcome outcome) {
                reporter.outcome(outcome);
            }

            @Override
            public void swept(DatasetReport report) {
                emitMetrics(report);
                Map<String, Object> fields = new LinkedHashMap<>(report.summary());
                fields.remove("not_ok"); // the report holds them; the line stays short
                fields.remove("redrives");
                LOG.info(new JsonLine(report.complete() ? "sweep complete" : "sweep incomplete", fields));
            }
        });
    }

    private void emitMetrics(DatasetReport report) {
        Map<String, DatasetMetrics.Metric> values = new LinkedHashMap<>();
        report.metrics().forEach((name, metric) -> values.put(name, switch (metric.unit()) {
            case COUNT -> DatasetMetrics.Metric.count(metric.value());
            case SECONDS -> DatasetMetrics.Metric.seconds(metric.value());
        }));
        try {
            metrics.emit(report.dataset(), values);
        } catch (RuntimeException e) {
            // the reports are written; a metrics document that cannot be written must not fail the sweep
            LOG.warn(new JsonLine("metrics not emitted", Map.of("dataset", report.dataset(), "error", e.getClass().getName())));
        }
    }
}
