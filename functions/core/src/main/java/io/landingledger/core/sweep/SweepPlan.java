package io.landingledger.core.sweep;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
public record SweepPlan(String sweepId, Instant asOf, SweepMode mode, String from, String to, Instant changesListedAt,
                        List<SweepShard> shards, Map<String, String> reasons, int carried, List<String> requested) {
    public SweepPlan {
        shards = List.copyOf(shards);
        reasons = Map.copyOf(reasons);
        requested = List.copyOf(requested);
    }

    /** The plan's key in the lake bucket. */
    public static String planKey(String sweepId) {
        return SweepLayout.sweepPrefix(sweepId) + "plan.json";
    }

    public int datasetCount() {
        return shards.stream().mapToInt(s -> s.datasets().size()).sum();
    }

    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("sweep_id", sweepId);
        map.put("as_of", asOf.toString());
        map.put("mode", mode.lowerCase());
        map.put("from", from);
        map.put("to", to);
        map.put("changes_listed_at", changesListedAt.toString());
        map.put("carried", carried);
        map.put("reasons", new java.util.TreeMap<>(reasons));
        map.put("shards", shards.stream().map(SweepShard::toMap).toList());
        map.put("requested", requested);
        return map;
    }

    @SuppressWarnings("unchecked")
    public static SweepPlan fromMap(Map<String, Object> map) {
        List<SweepShard> shards = new ArrayList<>();
        for (Object shard : (List<Object>) map.get("shards")) {
            shards.add(SweepShard.fromMap((Map<String, Object>) shard));
        }
        Map<String, String> reasons = new LinkedHashMap<>();
        ((Map<String, Object>) map.getOrDefault("reasons", Map.of())).forEach((k, v) -> reasons.put(k, String.valueOf(v)));
        return new SweepPlan((String) map.get("sweep_id"), Instant.parse((String) map.get("as_of")),
                SweepMode.parse((String) map.get("mode")), (String) map.get("from"), (String) map.get("to"),
                Instant.parse((String) map.get("changes_listed_at")), shards, reasons,
                ((Number) map.getOrDefault("carried", 0)).intValue(), (List<String>) map.getOrDefault("requested", List.of()));
    }
}
