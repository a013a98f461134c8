package io.landingledger.lambda;

import com.fasterxml.jackson.core.JsonProcessingException;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import software.amazon.cloudwatchlogs.emf.environment.Environment;
import software.amazon.cloudwatchlogs.emf.environment.LambdaEnvironment;
import software.amazon.cloudwatchlogs.emf.logger.MetricsLogger;
import software.amazon.cloudwatchlogs.emf.model.DimensionSet;
import software.amazon.cloudwatchlogs.emf.model.MetricsContext;
import software.amazon.cloudwatchlogs.emf.model.Unit;
import software.amazon.cloudwatchlogs.emf.sinks.ISink;

/**
 * CloudWatch metrics for one dataset, written as Embedded Metric Format documents (aws-embedded-metrics): one JSON
 * line on stdout per {@link #emit}, namespace {@value #NAMESPACE}, each metric both with the dimension {@value #DIMENSION}
 * and without any (the fleet's aggregate, which the template's alarms watch). CloudWatch Logs
 * extracts the metrics from the function's log group; no PutMetricData call, no IAM permission, no network.
 *
 * <p>Any function can use it: the validator's {@link LogAndMetricsReporter} emits its per-outcome counts, and the
 * sweep emits its per-dataset figures the same way:
 * <pre>{@code
 * metrics.emit("progress_events", Map.of(
 *         "UnitsExpected", DatasetMetrics.Metric.count(31),
 *         "UnitsOk", DatasetMetrics.Metric.count(29),
 *         "OldestUnpublishedAgeSeconds", DatasetMetrics.Metric.seconds(5400)));
 * }</pre>
 *
 * <p>The EMF environment is pinned, never detected: the library's detection (a {@code new MetricsLogger()}) probes
 * the ECS and EC2 metadata endpoints and falls back to a CloudWatch agent socket when the process is not in Lambda,
 * which would send traffic from the local run and the tests. Here every document goes to the given stream, in
 * Lambda's format (the runtime forwards stdout to CloudWatch Logs), wherever the code runs.
 *
 * <p>Thread-safe: each {@link #emit} builds and flushes its own document.
 */
public final class DatasetMetrics {
    /** The CloudWatch namespace of every Landing Ledger metric. */
    public static final String NAMESPACE = "LandingLedger";
    /** The one dimension: the dataset's name (for records that route to none: {@value #UNROUTABLE}). */
    public static final String DIMENSION = "dataset";
    /** The dimension value of records that route to no dataset, so that arbitrary keys never become dimensions. */
    public static final String UNROUTABLE = "unroutable";

    private final Environment environment;
    /**
     * Whether each metric also carries the dataset's dimension. Every distinct dimension value is a custom metric
     * CloudWatch bills monthly: at 10,000 datasets about 200,000 of them (docs/performance.md), so a fleet that large
     * emits the fleet's aggregate only (METRICS_PER_DATASET false) and names the dataset as a property of the document,
     * which Logs Insights can still group by.
     */
    private final boolean perDataset;

    /** Metrics written to {@code out}, one EMF document per line. */
    DatasetMetrics(PrintStream out) {
        this(out, true);
    }

    DatasetMetrics(PrintStream out, boolean perDataset) {
        this.environment = new PinnedLambdaEnvironment(new PrintStreamSink(Objects.requireNonNull(out, "out")));
        this.perDataset = perDataset;
    }

    /** Metrics written to {@code out} (the local run sends them nowhere: they are CloudWatch's). */
    public static DatasetMetrics to(PrintStream out) {
        return new DatasetMetrics(out);
    }

    /** As {@link #to(PrintStream)}; {@code perDataset} false: the fleet's aggregate only, the dataset a property. */
    public static DatasetMetrics to(PrintStream out, boolean perDataset) {
        return new DatasetMetrics(out, perDataset);
    }

    /** Metrics written to this process's stdout, which Lambda forwards to the function's log group. */
    public static DatasetMetrics toStandardOutput() {
        return new DatasetMetrics(System.out);
    }

    /**
     * Writes one EMF document with {@code metrics} for {@code dataset}. Names, counts and durations only: never a
     * value read from a file.
     *
     * @throws IllegalArgumentException when a name or value is one CloudWatch would refuse (blank, too long, not
     *                                  ASCII, not finite), with the library's message
     */
    public void emit(String dataset, Map<String, Metric> metrics) {
        Objects.requireNonNull(dataset, "dataset");
        MetricsLogger logger = new MetricsLogger(environment);
        logger.setNamespace(NAMESPACE);
        // setDimensions, not putDimensions: it also drops the library's default dimensions (LogGroup, ServiceName,
        // ServiceType), which would make each metric a different one per function. Two sets: per dataset (the
        // dashboard's graphs), and none, the fleet's aggregate that the alarms watch (datasets are registered at run
        // time, so no alarm in the template can name one)
        if (perDataset) {
            logger.setDimensions(DimensionSet.of(DIMENSION, dataset), new DimensionSet());
        } else {
            logger.setDimensions(new DimensionSet());
            logger.putProperty(DIMENSION, dataset);
        }
        metrics.forEach((name, metric) -> logger.putMetric(name, metric.value(), metric.unit()));
        logger.flush();
    }

    /**
     * One metric's value and CloudWatch unit.
     *
     * @param value a finite number
     * @param unit  its unit, e.g. {@link Unit#COUNT}
     */
    public record Metric(double value, Unit unit) {
        public Metric {
            Objects.requireNonNull(unit, "unit");
        }

        public static Metric count(long count) {
            return new Metric(count, Unit.COUNT);
        }

        public static Metric bytes(long bytes) {
            return new Metric(bytes, Unit.BYTES);
        }

        public static Metric milliseconds(Duration duration) {
            return new Metric(duration.toMillis(), Unit.MILLISECONDS);
        }

        public static Metric seconds(double seconds) {
            return new Metric(seconds, Unit.SECONDS);
        }
    }

    /**
     * Lambda's environment (its properties: function version, log stream, sampled trace id) with our sink: what
     * {@code AWS_EMF_ENVIRONMENT=Lambda} would select, without the detection a {@code new MetricsLogger()} starts.
     */
    private static final class PinnedLambdaEnvironment extends LambdaEnvironment {
        private final ISink sink;

        PinnedLambdaEnvironment(ISink sink) {
            this.sink = sink;
        }

        @Override
        public ISink getSink() {
            return sink;
        }
    }

    /** The library's ConsoleSink, on a given stream (System.out in the functions, a buffer in the tests). */
    private static final class PrintStreamSink implements ISink {
        private final PrintStream out;

        PrintStreamSink(PrintStream out) {
            this.out = out;
        }

        @Override
        public void accept(MetricsContext context) {
            try {
                // one document per line; the library splits a context past 100 metrics into several documents
                for (String document : context.serialize()) {
                    out.println(document);
                }
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException("could not serialize an EMF document", e);
            }
        }

        @Override
        public CompletableFuture<Void> shutdown() {
            return CompletableFuture.completedFuture(null);
        }
    }
}
