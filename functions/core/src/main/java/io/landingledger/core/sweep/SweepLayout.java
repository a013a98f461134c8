package io.landingledger.core.sweep;

import io.landingledger.core.ingest.LakeLayout;

import java.util.Locale;

/**
 * Where a sharded sweep keeps its files in the lake bucket, under {@code _reports/sweeps/} (the sweep roles already
 * write {@code _reports/}; a lifecycle rule expires a sweep's directory after 30 days):
 * <ul>
 *   <li>{@code <sweep-id>/plan.json}: the plan, written before any shard is handed out;</li>
 *   <li>{@code <sweep-id>/shards/<nnnnn>.json}: one shard's result (its datasets' summaries and metrics, the ones that
 *       failed or were not reached and why);</li>
 *   <li>{@code <sweep-id>/summary.json}: the assembled sweep, naming the shards that did not finish;</li>
 *   <li>{@code state.json}: every dataset's last figures, which an incremental sweep carries for the datasets it
 *       does not read; {@code planned.json}: the last sweep planned (the next planner assembles it if no shard did);</li>
 *   <li>{@code latest.json}: the last assembled summary, written last.</li>
 * </ul>
 */
public final class SweepLayout {
    public static final String PREFIX = LakeLayout.REPORTS_PREFIX + "sweeps/";
    public static final String STATE_KEY = PREFIX + "state.json";
    public static final String PLANNED_KEY = PREFIX + "planned.json";
    public static final String LATEST_KEY = PREFIX + "latest.json";

    private SweepLayout() {
    }

    public static String sweepPrefix(String sweepId) {
        return PREFIX + sweepId + "/";
    }

    public static String shardsPrefix(String sweepId) {
        return sweepPrefix(sweepId) + "shards/";
    }

    public static String shardKey(String sweepId, int index) {
        return shardsPrefix(sweepId) + String.format(Locale.ROOT, "%05d", index) + ".json";
    }

    public static String summaryKey(String sweepId) {
        return sweepPrefix(sweepId) + "summary.json";
    }
}
