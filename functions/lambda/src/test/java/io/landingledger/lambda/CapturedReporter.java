package io.landingledger.lambda;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;

/**
 * The functions' own reporter (JSON log lines through their log4j configuration, EMF metric documents) with both
 * outputs captured: everything an operator would see in CloudWatch for the records a handler reports through it.
 */
public final class CapturedReporter implements AutoCloseable {
    private final CapturedLogs logs = new CapturedLogs();
    private final ByteArrayOutputStream metrics = new ByteArrayOutputStream();
    private final LogAndMetricsReporter reporter = new LogAndMetricsReporter(logs.logger(LogAndMetricsReporter.class),
            new DatasetMetrics(new PrintStream(metrics, true, UTF_8)));

    public OutcomeReporter reporter() {
        return reporter;
    }

    /** Every log line and metrics document written so far. */
    public String output() {
        return String.join("\n", logs.lines()) + "\n" + metrics.toString(UTF_8);
    }

    /** How many log lines were written (a scan of nothing proves nothing). */
    public int logLines() {
        return logs.lines().size();
    }

    @Override
    public void close() {
        logs.close();
    }
}
