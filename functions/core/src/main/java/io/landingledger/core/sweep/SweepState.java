package io.landingledger.core.sweep;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the last assembled sweep left for the next one ({@code _reports/sweeps/state.json}): every dataset's figures,
 * and from when the next incremental sweep reads the change records. About 600 bytes a dataset (6 MB at 10,000).
 *
 * @param lastSweepId   the sweep assembled last
 * @param lastAsOf      its as-of
 * @param changesCursor the instant from which the next incremental sweep reads {@link SweepChanges}
 * @param lastFullAsOf  the as-of of the last full sweep assembled, or null
 * @param datasets      by name
 */
@JsonPropertyOrder({"last_sweep_id", "last_as_of", "changes_cursor", "last_full_as_of", "datasets"})
public record SweepState(@JsonProperty("last_sweep_id") String lastSweepId, @JsonProperty("last_as_of") Instant lastAsOf,
                         @JsonProperty("changes_cursor") Instant changesCursor, @JsonProperty("last_full_as_of") Instant lastFullAsOf,
                         Map<String, DatasetFigures> datasets) {
    public static final SweepState EMPTY = new SweepState(null, null, null, null, Map.of());

    public SweepState {
        datasets = Collections.unmodifiableMap(new TreeMap<>(datasets == null ? Map.of() : datasets)); // written in name order
    }
}
