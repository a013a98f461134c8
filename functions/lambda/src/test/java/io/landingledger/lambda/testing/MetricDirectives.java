package io.landingledger.lambda.testing;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reads the CloudWatch embedded metric format documents the functions print: their directive and its metrics. */
public final class MetricDirectives {
    private MetricDirectives() {
    }

    /** The document's one metric directive ({@code _aws.CloudWatchMetrics[0]}), after checking the {@code _aws} member. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> directive(Map<String, Object> document) {
        Map<String, Object> aws = (Map<String, Object>) document.get("_aws");
        assertNotNull(aws, "no _aws member: " + document);
        assertTrue(aws.get("Timestamp") instanceof Number, "_aws.Timestamp is epoch millis: " + aws);
        List<Map<String, Object>> directives = (List<Map<String, Object>>) aws.get("CloudWatchMetrics");
        assertEquals(1, directives.size(), String.valueOf(directives));
        return directives.get(0);
    }

    /** A directive's metrics: name to unit. */
    @SuppressWarnings("unchecked")
    public static Map<String, String> units(Map<String, Object> directive) {
        return ((List<Map<String, Object>>) directive.get("Metrics")).stream()
                .collect(Collectors.toMap(metric -> (String) metric.get("Name"), metric -> (String) metric.get("Unit")));
    }
}
