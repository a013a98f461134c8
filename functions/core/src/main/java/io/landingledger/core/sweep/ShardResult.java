package io.landingledger.core.sweep;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one shard did, as written to {@code _reports/sweeps/<sweep-id>/shards/<nnnnn>.json}: the figures of each
 * dataset it swept, and each dataset it did not (a fault, or no time left), with why. A shard whose every attempt
 * failed writes one too, on its last attempt ({@link #failed}), so the assembler can name it.
 *
 * @param attempt how many times the shard was handed out when this was written (SQS's receive count; 1 in process)
 */
public record ShardResult(String sweepId, int index, Instant startedAt, Instant finishedAt, int attempt, List<DatasetFigures> swept,
                          List<Unswept> unswept) {
    /** Why a dataset of the shard has no figures: {@code FAILED} (its sweep threw) or {@code OUT_OF_TIME}. */
    public record Unswept(String dataset, String reason, String error) {
        public Map<String, Object> toMap() {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("dataset", dataset);
            map.put("reason", reason);
            map.put("error", error);
            return map;
        }
    }

    public ShardResult {
        swept = List.copyOf(swept);
        unswept = List.copyOf(unswept);
    }

    /** A shard none of whose datasets was swept (every attempt failed): {@code error} says why. */
    public static ShardResult failed(String sweepId, SweepShard shard, Instant at, int attempt, String error) {
        return new ShardResult(sweepId, shard.index(), at, at, attempt, List.of(),
                shard.datasets().stream().map(d -> new Unswept(d, "SHARD_FAILED", error)).toList());
    }

    public boolean finished() {
        return unswept.isEmpty();
    }

    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("sweep_id", sweepId);
        map.put("index", index);
        map.put("started_at", startedAt.toString());
        map.put("finished_at", finishedAt.toString());
        map.put("attempt", attempt);
        map.put("finished", finished());
        map.put("swept", swept.stream().map(DatasetFigures::toMap).toList());
        map.put("unswept", unswept.stream().map(Unswept::toMap).toList());
        return map;
    }

    @SuppressWarnings("unchecked")
    public static ShardResult fromMap(Map<String, Object> map) {
        List<DatasetFigures> swept = new ArrayList<>();
        for (Object figures : (List<Object>) map.getOrDefault("swept", List.of())) {
            swept.add(DatasetFigures.fromMap((Map<String, Object>) figures));
        }
        List<Unswept> unswept = new ArrayList<>();
        for (Object u : (List<Object>) map.getOrDefault("unswept", List.of())) {
            Map<String, Object> m = (Map<String, Object>) u;
            unswept.add(new Unswept((String) m.get("dataset"), (String) m.get("reason"), (String) m.get("error")));
        }
        return new ShardResult((String) map.get("sweep_id"), ((Number) map.get("index")).intValue(),
                Instant.parse((String) map.get("started_at")), Instant.parse((String) map.get("finished_at")),
                ((Number) map.getOrDefault("attempt", 1)).intValue(), swept, unswept);
    }
}
