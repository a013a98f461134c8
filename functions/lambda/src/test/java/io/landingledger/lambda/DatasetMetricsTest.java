package io.landingledger.lambda;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.lambda.DatasetMetrics.Metric;
import io.landingledger.lambda.testing.MetricDirectives;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The EMF documents another function (the completeness sweep) writes through {@link DatasetMetrics}. */
class DatasetMetricsTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final DatasetMetrics metrics = new DatasetMetrics(new PrintStream(out, true, UTF_8));

    @Test
    void aFleetWithoutPerDatasetMetrics_emitsTheAggregateOnly_theDatasetAPropertyNotADimension() throws IOException {
        ByteArrayOutputStream fleetOut = new ByteArrayOutputStream();
        DatasetMetrics fleet = DatasetMetrics.to(new PrintStream(fleetOut, true, UTF_8), false);
        fleet.emit("progress_events", Map.of("UnitsExpected", Metric.count(31)));
        Map<String, Object> document = JSON.std.mapFrom(fleetOut.toString(UTF_8).lines().findFirst().orElseThrow());
        Map<String, Object> directive = MetricDirectives.directive(document);
        // one dimension set, the empty one: one custom metric per name for the whole fleet, whatever its size
        assertEquals(List.of(List.of()), directive.get("Dimensions"));
        assertEquals("progress_events", document.get("dataset"));
        assertEquals(31.0, document.get("UnitsExpected"));
    }

    @Test
    void aConfigurationReadsTheSwitch_andRefusesAnythingButTrueOrFalse() {
        Map<String, String> environment = new java.util.HashMap<>(Map.of("INBOX_BUCKET", "i", "LAKE_BUCKET", "l", "LEDGER_TABLE", "t",
                "LEDGER_HISTORY_TABLE", "h", "AWS_REGION", "us-east-1"));
        org.junit.jupiter.api.Assertions.assertTrue(FunctionConfig.fromEnvironment(environment).perDatasetMetrics());
        environment.put(FunctionConfig.METRICS_PER_DATASET, "false");
        org.junit.jupiter.api.Assertions.assertFalse(FunctionConfig.fromEnvironment(environment).perDatasetMetrics());
        environment.put(FunctionConfig.METRICS_PER_DATASET, "no");
        IllegalStateException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> FunctionConfig.fromEnvironment(environment));
        org.junit.jupiter.api.Assertions.assertTrue(refused.getMessage().contains("METRICS_PER_DATASET"), refused.getMessage());
    }

    @Test
    void emit_writesOneEmfDocumentWithTheNamespaceTheDatasetDimensionAndEachUnit() throws IOException {
        Map<String, Metric> sweep = new LinkedHashMap<>();
        sweep.put("UnitsExpected", Metric.count(31));
        sweep.put("UnitsOk", Metric.count(28));
        sweep.put("UnitsMissing", Metric.count(2));
        sweep.put("UnitsRefused", Metric.count(1));
        sweep.put("OldestUnpublishedAgeSeconds", Metric.seconds(5400));
        sweep.put("SweepDuration", Metric.milliseconds(Duration.ofMillis(250)));
        sweep.put("PublishedBytes", Metric.bytes(1 << 20));

        // outside Lambda (this test): the document still goes to the given stream, not to an agent the library
        // would have looked for (no AWS_LAMBDA_FUNCTION_NAME here), and nothing probes an instance metadata endpoint
        metrics.emit("progress_events", sweep);

        List<String> documents = out.toString(UTF_8).lines().toList();
        assertEquals(1, documents.size(), String.valueOf(documents));
        Map<String, Object> document = JSON.std.mapFrom(documents.get(0));
        Map<String, Object> directive = MetricDirectives.directive(document);
        assertEquals("LandingLedger", directive.get("Namespace"));
        assertEquals(List.of(List.of("dataset"), List.of()), directive.get("Dimensions")); // per dataset, and the fleet's aggregate
        assertEquals(Map.of("UnitsExpected", "Count", "UnitsOk", "Count", "UnitsMissing", "Count", "UnitsRefused", "Count",
                        "OldestUnpublishedAgeSeconds", "Seconds", "SweepDuration", "Milliseconds", "PublishedBytes", "Bytes"),
                MetricDirectives.units(directive));
        assertEquals("progress_events", document.get("dataset"));
        assertEquals(31.0, document.get("UnitsExpected"));
        assertEquals(28.0, document.get("UnitsOk"));
        assertEquals(2.0, document.get("UnitsMissing"));
        assertEquals(1.0, document.get("UnitsRefused"));
        assertEquals(5400.0, document.get("OldestUnpublishedAgeSeconds"));
        assertEquals(250.0, document.get("SweepDuration"));
        assertEquals(1048576.0, document.get("PublishedBytes"));
    }

    @Test
    void emit_writesOneDocumentPerCallAndKeepsDatasetsApart() throws IOException {
        metrics.emit("progress_events", Map.of("UnitsOk", Metric.count(3)));
        metrics.emit("transactions", Map.of("UnitsOk", Metric.count(5)));

        List<String> documents = out.toString(UTF_8).lines().toList();
        assertEquals(2, documents.size(), String.valueOf(documents));
        Map<String, Object> first = JSON.std.mapFrom(documents.get(0));
        Map<String, Object> second = JSON.std.mapFrom(documents.get(1));
        assertEquals("progress_events", first.get("dataset"));
        assertEquals(3.0, first.get("UnitsOk"));
        assertEquals("transactions", second.get("dataset"));
        assertEquals(5.0, second.get("UnitsOk"));
    }

    @Test
    void emit_whenANameIsOneCloudWatchRefuses_throwsIllegalArgumentExceptionAndWritesNothing() {
        assertThrows(IllegalArgumentException.class, () -> metrics.emit("", Map.of("UnitsOk", Metric.count(1))));
        assertThrows(IllegalArgumentException.class, () -> metrics.emit("progress_events", Map.of(" ", Metric.count(1))));
        assertThrows(IllegalArgumentException.class,
                () -> metrics.emit("progress_events", Map.of("UnitsOk", Metric.seconds(Double.NaN))));

        assertEquals("", out.toString(UTF_8));
    }
}
