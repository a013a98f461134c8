package io.landingledger.core.sweep;

import io.landingledger.core.store.ObjectStore;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds a sweep from its shards' results: the new {@code state.json} (the swept datasets' figures, the carried ones'
 * as they were, the unfinished ones marked pending so the next sweep reads them), the sweep's {@code summary.json}
 * naming every shard that did not finish and why, the metrics (every dataset of the request, each exactly once a
 * sweep, and the fleet's own), and {@code latest.json}, written last.
 *
 * <p>Who runs it: the worker whose result completes the set (each worker lists the results after writing its own;
 * two that finish together both assemble, and assembling twice writes the same files), or else the next planner,
 * which assembles a planned sweep that has no summary yet, naming the shards without a result. A sweep's state is
 * never written over a newer sweep's.
 */
public final class SweepAssembler {
    /** The dimension value of the fleet's own figures (a dataset name cannot start with '_'). */
    public static final String FLEET = "_fleet";

    private final SweepFiles files;
    private final Clock clock;

    public SweepAssembler(ObjectStore store, String lakeBucket, Clock clock) {
        this.files = new SweepFiles(Objects.requireNonNull(store, "store"), Objects.requireNonNull(lakeBucket, "lakeBucket"));
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Where each sweep's metrics go (CloudWatch EMF in the functions). */
    public interface MetricsSink {
        MetricsSink NONE = (dataset, metrics) -> { };

        void emit(String dataset, Map<String, DatasetReport.Metric> metrics);
    }

    /** The assembled sweep. */
    public record Assembly(Map<String, Object> summary, SweepState state) {
        public boolean finished() {
            return Boolean.TRUE.equals(summary.get("finished"));
        }

        public boolean complete() {
            return Boolean.TRUE.equals(summary.get("complete"));
        }
    }

    /** How many of the plan's shards have written a result (one listing page per 1,000 shards). */
    public int shardsReported(String sweepId) {
        int n = 0;
        for (ObjectStore.ListedObject ignored : files.list(SweepLayout.shardsPrefix(sweepId))) {
            n++;
        }
        return n;
    }

    public SweepState state() {
        return files.read(SweepLayout.STATE_KEY, SweepState.class).orElse(SweepState.EMPTY);
    }

    public java.util.Optional<SweepPlan> plan(String sweepId) {
        return files.read(SweepPlan.planKey(sweepId), SweepPlan.class);
    }

    public boolean assembled(String sweepId) {
        return files.read(SweepLayout.summaryKey(sweepId), Map.class).isPresent();
    }

    /**
     * Assembles {@code plan} from whatever shard results exist now.
     *
     * @param requested every dataset the sweep's request named (the planned ones and the carried ones)
     */
    public Assembly assemble(SweepPlan plan, Set<String> requested, MetricsSink metrics) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        SweepState previous = state();
        Map<Integer, ShardResult> results = new TreeMap<>();
        for (ObjectStore.ListedObject object : files.list(SweepLayout.shardsPrefix(plan.sweepId()))) {
            files.read(object.key(), ShardResult.class).ifPresent(r -> results.put(r.index(), r));
        }

        Map<String, DatasetFigures> figures = new TreeMap<>(previous.datasets());
        List<Map<String, Object>> unfinished = new ArrayList<>();
        List<Map<String, Object>> failed = new ArrayList<>();
        Set<String> swept = new java.util.HashSet<>();
        long slowestShardMillis = 0;
        for (SweepShard shard : plan.shards()) {
            ShardResult result = results.get(shard.index());
            if (result == null) {
                Map<String, Object> missing = new LinkedHashMap<>();
                missing.put("index", shard.index());
                missing.put("datasets", shard.datasets().size());
                missing.put("reason", "NO_RESULT");
                missing.put("detail", "no result was written: the shard is still running, or its last attempt was killed (timeout, memory)");
                unfinished.add(missing);
                for (String dataset : shard.datasets()) {
                    failed.add(Map.of("dataset", dataset, "reason", "NO_RESULT"));
                }
                continue;
            }
            slowestShardMillis = Math.max(slowestShardMillis, result.finishedAt().toEpochMilli() - result.startedAt().toEpochMilli());
            for (DatasetFigures f : result.swept()) {
                figures.put(f.dataset(), f);
                swept.add(f.dataset());
            }
            if (!result.finished()) {
                Map<String, Object> partial = new LinkedHashMap<>();
                partial.put("index", shard.index());
                partial.put("datasets", shard.datasets().size());
                partial.put("reason", "UNSWEPT_DATASETS");
                partial.put("attempt", result.attempt());
                partial.put("unswept", result.unswept());
                unfinished.add(partial);
                for (ShardResult.Unswept u : result.unswept()) {
                    Map<String, Object> f = new LinkedHashMap<>();
                    f.put("dataset", u.dataset());
                    f.put("reason", u.reason());
                    f.put("error", u.error());
                    failed.add(f);
                }
            }
        }
        // the planned datasets that were not swept: read again by the next sweep, their last figures kept meanwhile
        for (Map<String, Object> f : failed) {
            String dataset = (String) f.get("dataset");
            DatasetFigures last = figures.get(dataset);
            figures.put(dataset, last != null ? last.asPending()
                    : new DatasetFigures(dataset, null, plan.sweepId(), false, false, null, null, Map.of(), null, true, null));
        }

        boolean finished = unfinished.isEmpty();
        Map<String, Long> counts = new LinkedHashMap<>();
        for (UnitStatus status : UnitStatus.values()) {
            counts.put(status.name(), 0L);
        }
        List<String> incomplete = new ArrayList<>();
        for (String dataset : new java.util.TreeSet<>(requested)) {
            DatasetFigures f = figures.get(dataset);
            if (f == null || f.asOf() == null) {
                incomplete.add(dataset);
                continue;
            }
            Map<String, DatasetReport.Metric> values = swept.contains(dataset) ? f.ordered() : f.metricsAt(now);
            metrics.emit(dataset, values);
            for (UnitStatus status : UnitStatus.values()) {
                DatasetReport.Metric m = values.get(status.metricName());
                counts.merge(status.name(), m == null ? 0 : m.value(), Long::sum);
            }
            if (!f.complete() || f.pending()) {
                incomplete.add(dataset);
            }
        }
        Map<String, DatasetReport.Metric> fleet = new LinkedHashMap<>();
        fleet.put("SweepDatasetsSwept", DatasetReport.Metric.count(swept.size()));
        fleet.put("SweepDatasetsCarried", DatasetReport.Metric.count(plan.carried()));
        fleet.put("SweepDatasetsUnswept", DatasetReport.Metric.count(failed.size()));
        fleet.put("SweepShardsUnfinished", DatasetReport.Metric.count(unfinished.size()));
        fleet.put("DatasetsIncomplete", DatasetReport.Metric.count(incomplete.size()));
        metrics.emit(FLEET, fleet);

        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("sweep_id", plan.sweepId());
        summary.put("mode", plan.mode().lowerCase());
        summary.put("as_of", plan.asOf().toString());
        summary.put("assembled_at", now.toString());
        summary.put("finished", finished);
        summary.put("complete", finished && incomplete.isEmpty());
        summary.put("shards", plan.shards().size());
        summary.put("shards_reported", results.size());
        summary.put("slowest_shard_seconds", slowestShardMillis / 1000.0);
        summary.put("unfinished_shards", unfinished);
        summary.put("datasets_requested", requested.size());
        summary.put("datasets_swept", swept.size());
        summary.put("datasets_carried", plan.carried());
        summary.put("datasets_unswept", failed);
        summary.put("datasets_incomplete", incomplete.size());
        summary.put("incomplete", incomplete.size() <= 1000 ? incomplete : incomplete.subList(0, 1000));
        summary.put("counts", counts);

        SweepState state = new SweepState(plan.sweepId(), plan.asOf(), plan.changesListedAt(),
                plan.mode() == SweepMode.FULL ? plan.asOf() : previous.lastFullAsOf(), figures);
        files.write(SweepLayout.summaryKey(plan.sweepId()), summary, true);
        // never over a newer sweep's state: a late assembly of an older sweep leaves it alone
        if (previous.lastAsOf() == null || !previous.lastAsOf().isAfter(plan.asOf())) {
            files.write(SweepLayout.STATE_KEY, state, false);
            files.write(SweepLayout.LATEST_KEY, summary, true);
        }
        return new Assembly(summary, state);
    }
}
