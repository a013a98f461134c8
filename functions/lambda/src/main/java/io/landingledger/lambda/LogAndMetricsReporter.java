package io.landingledger.lambda;

import io.landingledger.core.ingest.IngestAction;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.lambda.DatasetMetrics.Metric;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Each record's outcome as one structured JSON log line and one EMF metrics document for its dataset (docs/design.md
 * section 8). Names, hashes, counts and codes only: an {@link IngestOutcome} carries no row content, and a refusal's
 * detail is a sentence that names fields and line numbers, never a value (invariant 7).
 *
 * <p>Logs: log4j2 with JsonTemplateLayout ({@code log4j2.properties}, {@code LandingLogLayout.json}); each field of
 * {@link IngestOutcome#fields()} becomes a top-level JSON field next to timestamp, level, logger and message. Metrics:
 * {@link DatasetMetrics}, namespace {@value DatasetMetrics#NAMESPACE}, dimension {@value DatasetMetrics#DIMENSION}.
 *
 * <p>Metrics per outcome: {@code FilesPublished}, {@code FilesRefused}, {@code FilesSkipped}, {@code FilesFinished}
 * and {@code FilesStale} (1 for the outcome's action, 0 for the others, so every dataset has all five series) and
 * {@code DurationMs}. {@code RowsAccepted}, {@code RowsRejected}, {@code RowsDuplicate} and {@code Bytes} (the input's
 * stored size) are counted by the run that decided the file: the run whose promote made the publish (published) or
 * the run that refused it (refused; its accepted and duplicate rows are 0, none reached {@code published/}). Every
 * other outcome reports counts of a decision made elsewhere: a skip the publish it found, a finished run the publish
 * another run promoted (when a duplicate records it first, the promoting run still reports published), and a stale
 * input is never recorded; counting those would count a file again on every replayed or concurrent event. So each
 * publish counts its rows once, except a promote whose run crashed before reporting (the run that finishes it counts
 * FilesFinished only).
 * Unroutable records count {@code FilesUnroutable} under dataset {@value DatasetMetrics#UNROUTABLE}, and failures
 * {@code FilesFailed} under the dataset named by the key's first segment.
 *
 * <p>A metrics document that cannot be written is logged and dropped: reporting never fails a record, since the
 * handler would then have Lambda retry a file that was processed correctly.
 */
public final class LogAndMetricsReporter implements OutcomeReporter {
    private final Logger log;
    private final DatasetMetrics metrics;

    /** For the functions: the logger configured by {@code log4j2.properties}, metrics on stdout. */
    public LogAndMetricsReporter() {
        this(LogManager.getLogger(LogAndMetricsReporter.class), DatasetMetrics.toStandardOutput());
    }

    /** As {@link #LogAndMetricsReporter()}, the metrics documents on {@code stdout} (the function's log stream). */
    public static LogAndMetricsReporter to(PrintStream stdout) {
        return to(DatasetMetrics.to(stdout));
    }

    /** The functions' log lines, and metrics through {@code metrics}. */
    public static LogAndMetricsReporter to(DatasetMetrics metrics) {
        return new LogAndMetricsReporter(LogManager.getLogger(LogAndMetricsReporter.class), metrics);
    }

    LogAndMetricsReporter(Logger log, DatasetMetrics metrics) {
        this.log = Objects.requireNonNull(log, "log");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    @Override
    public void outcome(IngestOutcome outcome) {
        // a refusal needs the producer to act; everything else is the pipeline working
        Level level = outcome.action() == IngestAction.REFUSED ? Level.WARN : Level.INFO;
        log.log(level, new JsonLine("outcome", new RecordResult.Ingested(outcome).logFields()));

        Map<String, Metric> values = new LinkedHashMap<>();
        for (IngestAction action : IngestAction.values()) {
            if (!action.ran()) {
                continue; // a submitted re-drive is no run: the run it starts reports itself
            }
            values.put(filesMetric(action), Metric.count(action == outcome.action() ? 1 : 0));
        }
        // rows and bytes belong to the run that decided the file; see the class comment
        boolean published = outcome.action() == IngestAction.PUBLISHED;
        boolean decided = published || outcome.action() == IngestAction.REFUSED;
        values.put("RowsAccepted", Metric.count(published ? outcome.accepted() : 0));
        values.put("RowsRejected", Metric.count(decided ? outcome.rejected() : 0));
        values.put("RowsDuplicate", Metric.count(published ? outcome.duplicates() : 0));
        values.put("Bytes", Metric.bytes(decided ? Math.max(outcome.bytes(), 0) : 0));
        values.put("DurationMs", Metric.milliseconds(outcome.duration()));
        emit(outcome.dataset(), values);
    }

    @Override
    public void unroutable(String bucket, String key, String versionId, String reason, String detail) {
        log.warn(new JsonLine("unroutable", new RecordResult.Unroutable(bucket, key, versionId, reason, detail).logFields()));
        // one constant dimension value: the key's first segment is whatever a producer typed
        emit(DatasetMetrics.UNROUTABLE, Map.of("FilesUnroutable", Metric.count(1)));
    }

    @Override
    public void failed(String bucket, String key, String versionId, String runId, RuntimeException fault) {
        log.error(new JsonLine("failed", new RecordResult.Failed(bucket, key, versionId, runId, fault).logFields()));
        emit(datasetOf(key), Map.of("FilesFailed", Metric.count(1)));
    }

    static String filesMetric(IngestAction action) {
        return switch (action) {
            case PUBLISHED -> "FilesPublished";
            case SKIPPED -> "FilesSkipped";
            case REFUSED -> "FilesRefused";
            case FINISHED -> "FilesFinished";
            case UNCHANGED -> "FilesUnchanged";
            case STALE -> "FilesStale";
            case SUBMITTED -> throw new IllegalArgumentException("a submitted re-drive is not a run; no file is counted under it");
        };
    }

    /**
     * The dataset of a routed key: its first segment, the routing rule of docs/design.md section 2 (the handler reports a
     * failure only for a record it routed).
     */
    private static String datasetOf(String key) {
        int slash = key == null ? -1 : key.indexOf('/');
        return slash > 0 ? key.substring(0, slash) : DatasetMetrics.UNROUTABLE;
    }

    private void emit(String dataset, Map<String, Metric> values) {
        try {
            metrics.emit(dataset, values);
        } catch (RuntimeException e) {
            log.warn(new JsonLine("metrics not emitted", Map.of("dataset", String.valueOf(dataset),
                    "error", e.getClass().getName(), "error_message", String.valueOf(e.getMessage()))));
        }
    }
}
