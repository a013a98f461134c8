package io.landingledger.core.sweep;

/**
 * How big a shard may be. Jackson-style: named defaults, a message naming the knob.
 *
 * <p>The defaults come from the fleet simulation ({@code landing fleet-sim}, docs/performance.md): a dataset of
 * 365 daily units costs its shard two listing pages, two Query pages and five report PUTs, about 0.8 s at the modelled
 * latencies (0.8 s at 100 ms an S3 request), so 25 datasets are about 20 s, and 40 s at 200 ms an S3 request, within
 * the 60 s a shard may take; a shard holds one dataset's report in memory at a time (about 2 MB for 365 units).
 *
 * @param maxDatasets datasets per shard
 * @param maxUnits    expected units per shard (a dataset larger than this has a shard of its own)
 */
public record ShardBudget(int maxDatasets, long maxUnits) {
    public static final int DEFAULT_MAX_DATASETS = 25;
    public static final long DEFAULT_MAX_UNITS = 25L * 400;

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
