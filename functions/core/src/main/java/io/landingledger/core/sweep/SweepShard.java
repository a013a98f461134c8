package io.landingledger.core.sweep;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One shard of a sweep: a bounded set of whole datasets, swept one after the other by one worker (one Lambda
 * invocation, or one call in process). A dataset is never split: one dataset's bulk reads are a few pages (a page is
 * 1,000 keys of a listing, 1 MB of a ledger Query), so the budget ({@link ShardBudget}) bounds the datasets and units
 * a shard holds, and with them its reads, its time and its memory (one dataset's report at a time).
 *
 * @param index          the shard's number in its plan, from 0
 * @param datasets       the datasets it sweeps, in order
 * @param estimatedUnits the expected units of its datasets' ranges (the plan's measure of its size)
 */
public record SweepShard(int index, List<String> datasets, @JsonProperty("estimated_units") long estimatedUnits) {
    public SweepShard {
        datasets = List.copyOf(datasets);
        if (index < 0) {
            throw new IllegalArgumentException("a shard index is 0 or more");
        }
    }

    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("index", index);
        map.put("datasets", datasets);
        map.put("estimated_units", estimatedUnits);
        return map;
    }

    @SuppressWarnings("unchecked")
    public static SweepShard fromMap(Map<String, Object> map) {
        return new SweepShard(((Number) map.get("index")).intValue(), (List<String>) map.get("datasets"),
                ((Number) map.getOrDefault("estimated_units", 0)).longValue());
    }
}
