package io.landingledger.core.sweep;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;
import java.util.Map;

/**
 * The completeness sweep's answer, on both sides of the wire (CompletenessSweepHandler writes it, the CLI's
 * {@code landing sweep --stack} reads it, through JsonCodec).
 *
 * @param asOf     when the sweep ran (ISO-8601, seconds)
 * @param complete every dataset complete
 * @param datasets each dataset's {@link DatasetReport#summary()}, or after a fault its name, {@code complete: false}
 *                 and the error
 */
public record SweepResult(@JsonProperty("as_of") String asOf, boolean complete, List<Map<String, Object>> datasets) {
    public SweepResult {
        datasets = datasets == null ? List.of() : List.copyOf(datasets);
    }
}
