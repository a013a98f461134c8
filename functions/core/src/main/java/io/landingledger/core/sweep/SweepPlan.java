package io.landingledger.core.sweep;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One sweep, split into shards: what the planner decided and wrote to {@code _reports/sweeps/<sweep-id>/plan.json}
 * before any shard ran, so the assembler (whoever runs it, whenever) knows which shard results to expect.
 *
 * @param sweepId         the as-of in report form plus the mode, e.g. {@code 20261203T170000Z-incremental}
 * @param asOf            the planner's now (to the second)
 * @param mode            full or incremental
 * @param from            the request's first unit, or null for each dataset's default range
 * @param to              the request's last unit, or null
 * @param changesListedAt when the planner began reading {@link SweepChanges}: the next incremental reads from here
 * @param shards          the shards, index order
 * @param reasons         why each planned dataset is swept ({@code full}, {@code changed}, {@code clock}, {@code pending},
 *                        {@code new}); datasets not named here are carried from the last sweep
 * @param carried         how many datasets of the request this sweep does not read (incremental only)
 * @param requested       every dataset the request named, planned or carried (the assembler reports on all of them)
 */
@JsonPropertyOrder({"sweep_id", "as_of", "mode", "from", "to", "changes_listed_at", "carried", "reasons", "shards", "requested"})
public record SweepPlan(@JsonProperty("sweep_id") String sweepId, @JsonProperty("as_of") Instant asOf, SweepMode mode, String from,
                        String to, @JsonProperty("changes_listed_at") Instant changesListedAt, List<SweepShard> shards,
                        Map<String, String> reasons, int carried, List<String> requested) {
    public SweepPlan {
        shards = List.copyOf(shards);
        reasons = Collections.unmodifiableMap(new TreeMap<>(reasons == null ? Map.of() : reasons)); // written in name order
        requested = requested == null ? List.of() : List.copyOf(requested);
    }

    /** The plan's key in the lake bucket. */
    public static String planKey(String sweepId) {
        return SweepLayout.sweepPrefix(sweepId) + "plan.json";
    }

    public int datasetCount() {
        return shards.stream().mapToInt(s -> s.datasets().size()).sum();
    }
}
