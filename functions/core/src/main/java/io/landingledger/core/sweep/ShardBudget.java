package io.landingledger.core.sweep;

/**
 * How big a shard may be. Jackson-style: named defaults, a message naming the knob.
 *
 * <p>The defaults come from the fleet simulation ({@code landing fleet-sim}, docs/performance.md): a dataset of
 * 365 daily units costs its shard about four list/Query pages and five report PUTs, about 0.5 s at the modelled
 * latencies, so 40 datasets are about 20 s, a third of the 60 s a shard may take, and hold one dataset's report in
 * memory at a time.
 *
 * @param maxDatasets datasets per shard
 * @param maxUnits    expected units per shard (a dataset larger than this has a shard of its own)
 */
public record ShardBudget(int maxDatasets, long maxUnits) {
    public static final int DEFAULT_MAX_DATASETS = 40;
    public static final long DEFAULT_MAX_UNITS = 40L * 400;

    public ShardBudget {
        if (maxDatasets < 1) {
            throw new IllegalArgumentException("ShardBudget.maxDatasets must be at least 1, not " + maxDatasets);
        }
        if (maxUnits < 1) {
            throw new IllegalArgumentException("ShardBudget.maxUnits must be at least 1, not " + maxUnits);
        }
    }

    public static ShardBudget defaults() {
        return new ShardBudget(DEFAULT_MAX_DATASETS, DEFAULT_MAX_UNITS);
    }
}
