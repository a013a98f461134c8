package io.landingledger.lambda.handlers;

import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.SweepAssembler;
import io.landingledger.lambda.DatasetMetrics;
import io.landingledger.lambda.JsonLine;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.logging.log4j.LogManager;

/** The assembler's metrics as EMF documents: one per dataset a sweep, one for the fleet ({@value SweepAssembler#FLEET}). */
public final class SweepMetrics implements SweepAssembler.MetricsSink {
    private final DatasetMetrics metrics;

    public SweepMetrics(DatasetMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void emit(String dataset, Map<String, DatasetReport.Metric> values) {
        Map<String, DatasetMetrics.Metric> converted = new LinkedHashMap<>();
        values.forEach((name, metric) -> converted.put(name, switch (metric.unit()) {
            case COUNT -> DatasetMetrics.Metric.count(metric.value());
            case SECONDS -> DatasetMetrics.Metric.seconds(metric.value());
        }));
        try {
            metrics.emit(dataset, converted);
        } catch (RuntimeException e) {
            // the sweep's files are written; a metrics document that cannot be written must not fail the sweep
            LogManager.getLogger(SweepMetrics.class).warn(new JsonLine("metrics not emitted",
                    Map.of("dataset", dataset, "error", e.getClass().getName())));
        }
    }
}
