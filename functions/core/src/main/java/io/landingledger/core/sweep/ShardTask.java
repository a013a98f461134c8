package io.landingledger.core.sweep;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One shard handed to a worker: the message body on the shard queue (a few KB: dataset names, never a unit's
 * evidence, far below SQS's 256 KB), or the argument of an in-process call.
 */
public record ShardTask(String sweepId, String from, String to, SweepShard shard) {
    public static ShardTask of(SweepPlan plan, SweepShard shard) {
        return new ShardTask(plan.sweepId(), plan.from(), plan.to(), shard);
    }

    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("sweep_id", sweepId);
        map.put("from", from);
        map.put("to", to);
        map.put("shard", shard.toMap());
        return map;
    }

    @SuppressWarnings("unchecked")
    public static ShardTask fromMap(Map<String, Object> map) {
        Object sweepId = map.get("sweep_id");
        Object shard = map.get("shard");
        if (!(sweepId instanceof String id) || !(shard instanceof Map<?, ?>)) {
            throw new IllegalArgumentException("a shard task has sweep_id and shard; got keys " + map.keySet());
        }
        return new ShardTask(id, (String) map.get("from"), (String) map.get("to"), SweepShard.fromMap((Map<String, Object>) shard));
    }
}
