package io.landingledger.lambda.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.Redrive;
import io.landingledger.lambda.DatasetMetrics;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.FunctionConfig;
import io.landingledger.lambda.JsonLine;
import io.landingledger.lambda.OutcomeReporter;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The scheduled completeness sweep (EventBridge Scheduler, {@code events/sweep-schedule.json}). Payload
 * {@code {"datasets": [...], "from": unit, "to": unit}}, every key optional: no datasets means every bundled
 * contract, a missing bound means the contract's default range ({@code lookbackDays} back, ending at now minus
 * {@code graceHours}). Maps the payload in, calls the core's {@link CompletenessSweep} per dataset, maps the
 * reports out.
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
public final class CompletenessSweepHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {
    /** The keys a payload may have; anything else is a mistake worth failing on (a typo would sweep everything). */
    static final Set<String> PAYLOAD_KEYS = Set.of("datasets", "from", "to");
    private static final Logger LOG = LogManager.getLogger(CompletenessSweepHandler.class);

    private final ContractRegistry contracts;
    private final CompletenessSweep sweep;
    private final DatasetMetrics metrics;
    private final OutcomeReporter reporter;

    /** Used by the Lambda runtime: clients, contracts and services are built once, at init. */
    public CompletenessSweepHandler() {
        this(DependencyFactory.forFunction());
    }

    private CompletenessSweepHandler(DependencyFactory dependencies) {
        this(dependencies.contracts(), dependencies.sweep(System.getenv()), DatasetMetrics.toStandardOutput(), dependencies.reporter());
    }

    /** For tests and the local run. */
    public CompletenessSweepHandler(ContractRegistry contracts, CompletenessSweep sweep, DatasetMetrics metrics,
                                    OutcomeReporter reporter) {
        this.contracts = Objects.requireNonNull(contracts, "contracts");
        this.sweep = Objects.requireNonNull(sweep, "sweep");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.reporter = Objects.requireNonNull(reporter, "reporter");
    }

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> payload, Context context) {
        Map<String, Object> input = payload == null ? Map.of() : payload;
        Set<String> unknown = new TreeSet<>(input.keySet());
        unknown.removeAll(PAYLOAD_KEYS);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown key(s) " + unknown + " in the sweep payload; it takes datasets (a list; "
                    + "omit it for all), from and to (units; omit them for the default range)");
        }
        String from = text(input, "from");
        String to = text(input, "to");
        List<DatasetContract> chosen = datasets(input.get("datasets"));
        Instant now = sweep.clock().instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        for (DatasetContract contract : chosen) {
            CompletenessSweep.range(contract, from, to, now); // every bound checked before anything is swept
        }

        List<Map<String, Object>> results = new ArrayList<>();
        boolean complete = true;
        RuntimeException failure = null;
        for (DatasetContract contract : chosen) {
            try {
                DatasetReport report = sweep.sweep(contract, from, to);
                for (Redrive redrive : report.redrives()) {
                    // through the deployed validator the outcome was logged and counted there, once
                    if (redrive.outcome() != null && !sweep.redrivesReportThemselves()) {
                        reporter.outcome(redrive.outcome());
                    }
                }
                emitMetrics(report);
                Map<String, Object> summary = report.summary();
                LOG.info(new JsonLine(report.complete() ? "sweep complete" : "sweep incomplete", logFields(summary)));
                results.add(summary);
                complete &= report.complete();
            } catch (RuntimeException e) {
                // sweep the other datasets, then fail the invocation so the fault is retried and alarmed on
                Map<String, Object> failed = new LinkedHashMap<>();
                failed.put("dataset", contract.dataset());
                failed.put("complete", false);
                failed.put("error", e.getClass().getSimpleName());
                results.add(failed);
                complete = false;
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("as_of", now.toString());
        response.put("complete", complete);
        response.put("datasets", results);
        return response;
    }

    private void emitMetrics(DatasetReport report) {
        Map<String, DatasetMetrics.Metric> values = new LinkedHashMap<>();
        report.metrics().forEach((name, value) -> values.put(name, name.endsWith("Seconds")
                ? DatasetMetrics.Metric.seconds(value) : DatasetMetrics.Metric.count(value)));
        try {
            metrics.emit(report.dataset(), values);
        } catch (RuntimeException e) {
            // the reports are written; a metrics document that cannot be written must not fail the sweep
            LOG.warn(new JsonLine("metrics not emitted", Map.of("dataset", report.dataset(), "error", e.getClass().getName())));
        }
    }

    private static Map<String, Object> logFields(Map<String, Object> summary) {
        Map<String, Object> fields = new LinkedHashMap<>(summary);
        fields.remove("not_ok"); // the report holds them; the line stays short
        fields.remove("redrives");
        return fields;
    }

    private List<DatasetContract> datasets(Object value) {
        if (value == null) {
            return List.copyOf(contracts.all().values());
        }
        if (!(value instanceof List<?> names) || names.isEmpty()) {
            throw new IllegalArgumentException("datasets must be a non-empty list of dataset names (omit it for all: "
                    + String.join(", ", contracts.all().keySet()) + ")");
        }
        List<DatasetContract> chosen = new ArrayList<>();
        for (Object name : names) {
            if (!(name instanceof String dataset) || contracts.get(dataset).isEmpty()) {
                throw new IllegalArgumentException("unknown dataset " + name + " in datasets; known: "
                        + String.join(", ", contracts.all().keySet()));
            }
            chosen.add(contracts.get(dataset).get());
        }
        return chosen;
    }

    private static String text(Map<String, Object> input, String key) {
        Object value = input.get(key);
        if (value == null) {
            return null;
        }
        if (!(value instanceof String text) || text.isBlank()) {
            throw new IllegalArgumentException(key + " must be a unit name such as \"2026-03-01\" (daily) or "
                    + "\"2026-03-01T05\" (hourly); omit it for the default range");
        }
        return text.strip();
    }
}
