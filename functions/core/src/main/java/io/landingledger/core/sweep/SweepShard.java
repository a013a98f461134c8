package io.landingledger.core.sweep;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

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
}
