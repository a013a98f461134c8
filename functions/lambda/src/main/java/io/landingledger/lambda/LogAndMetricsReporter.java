package io.landingledger.lambda;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.ingest.IngestOutcome;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One JSON log line per outcome on stdout (CloudWatch Logs keeps it as a structured event). Names, hashes, counts
 * and codes only: an {@link IngestOutcome} cannot carry row content.
 */
public final class LogAndMetricsReporter implements OutcomeReporter {
    private final PrintStream out;

    public LogAndMetricsReporter() {
        this(System.out);
    }

    LogAndMetricsReporter(PrintStream out) {
        this.out = out;
    }

    @Override
    public void outcome(IngestOutcome outcome) {
        Map<String, Object> line = header("INFO", "outcome");
        line.putAll(outcome.toMap());
        write(line);
    }

    @Override
    public void unroutable(String bucket, String key, String versionId, String reason, String detail) {
        Map<String, Object> line = header("WARN", "unroutable");
        line.put("action", "unroutable");
        line.put("bucket", bucket);
        line.put("key", key);
        line.put("version", versionId);
        line.put("reason", reason);
        line.put("detail", detail);
        write(line);
    }

    @Override
    public void failed(String bucket, String key, String versionId, String runId, RuntimeException fault) {
        Map<String, Object> line = header("ERROR", "failed");
        line.put("action", "failed");
        line.put("bucket", bucket);
        line.put("key", key);
        line.put("version", versionId);
        line.put("run_id", runId);
        line.put("error", fault.getClass().getName());
        line.put("error_message", String.valueOf(fault.getMessage()));
        write(line);
    }

    private static Map<String, Object> header(String level, String message) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("timestamp", Instant.now().toString());
        line.put("level", level);
        line.put("message", message);
        return line;
    }

    private void write(Map<String, Object> line) {
        try {
            out.println(JSON.std.asString(line));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
