package io.landingledger.core.sweep;

import io.landingledger.core.contract.Cadence;
import io.landingledger.core.contract.DatasetContract;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Decides what a sweep reads and splits it into shards (docs/design.md section 5). Pure but for one read of
 * {@link SweepChanges} in incremental mode.
 *
 * <p>Incremental: a dataset is read when it changed since the last sweep (a change record), when the clock moved
 * a unit the last read found without an input due (PENDING becomes MISSING at its deadline with no change
 * anywhere), when a re-drive of the last sweep was not handed over (which records nothing) or the last sweep did not
 * finish it, or when the last sweep never saw it. Everything else is carried: its reports stay
 * as the last sweep wrote them, its figures move with the clock.
 */
public final class SweepPlanner {
    private final SweepChanges changes;
    private final ShardBudget budget;

    public SweepPlanner(SweepChanges changes, ShardBudget budget) {
        this.changes = Objects.requireNonNull(changes, "changes");
        this.budget = Objects.requireNonNull(budget, "budget");
    }

    /**
     * @param datasets the request's contracts, in order
     * @param now      the sweep's as-of, to the second
     * @param previous the last assembled sweep's state ({@link SweepState#EMPTY} before the first)
     * @throws IllegalArgumentException a bound that is not a unit of some dataset (checked for all before planning)
     */
    public SweepPlan plan(SweepMode mode, List<DatasetContract> datasets, String from, String to, Instant now, SweepState previous) {
        Map<String, CompletenessSweep.Range> ranges = new LinkedHashMap<>();
        for (DatasetContract contract : datasets) {
            ranges.put(contract.dataset(), CompletenessSweep.range(contract, from, to, now));
        }
        Instant listedAt = now;
        Set<String> changed = Set.of();
        if (mode == SweepMode.INCREMENTAL && previous.changesCursor() != null) {
            changed = changes.changedSince(previous.changesCursor(), now);
        }
        Map<String, String> reasons = new LinkedHashMap<>();
        for (DatasetContract contract : datasets) {
            String reason = mode == SweepMode.FULL ? "full"
                    : why(contract, ranges.get(contract.dataset()), previous.datasets().get(contract.dataset()), changed, now, previous);
            if (reason != null) {
                reasons.put(contract.dataset(), reason);
            }
        }
        String sweepId = CompletenessSweep.AS_OF_NAME.format(now) + "-" + mode.lowerCase();
        List<SweepShard> shards = shard(datasets, ranges, reasons);
        return new SweepPlan(sweepId, now, mode, from, to, listedAt, shards, reasons, datasets.size() - reasons.size(),
                datasets.stream().map(DatasetContract::dataset).toList());
    }

    private static String why(DatasetContract contract, CompletenessSweep.Range range, DatasetFigures last, Set<String> changed,
                              Instant now, SweepState previous) {
        if (last == null || last.asOf() == null || previous.changesCursor() == null) {
            return "new";
        }
        if (last.pending()) {
            return "pending";
        }
        if (last.actionable()) {
            return "actionable";
        }
        if (changed.contains(contract.dataset())) {
            return "changed";
        }
        if (contract.unit().cadence() == Cadence.LIST) {
            return range.from() == null && last.rangeFrom() == null ? null : "clock";
        }
        // a unit the last read found without an input falls due (PENDING becomes MISSING) with no change anywhere;
        // a range that only moved on (a new unit not yet due, an old one past the lookback) changes no status
        if (last.nextDeadline() == null || !now.isBefore(last.nextDeadline())) {
            return "clock";
        }
        if (range.to() != null && last.rangeTo() != null && range.to().compareTo(last.rangeTo()) < 0) {
            return "clock"; // an explicit range that moved back: units the last read never classified
        }
        if (range.from() != null && last.rangeFrom() != null && range.from().compareTo(last.rangeFrom()) < 0) {
            return "clock";
        }
        return null;
    }

    private List<SweepShard> shard(List<DatasetContract> datasets, Map<String, CompletenessSweep.Range> ranges, Map<String, String> reasons) {
        List<SweepShard> shards = new ArrayList<>();
        List<String> current = new ArrayList<>();
        long units = 0;
        for (DatasetContract contract : datasets) {
            if (!reasons.containsKey(contract.dataset())) {
                continue;
            }
            long size = expectedUnits(contract, ranges.get(contract.dataset()));
            if (!current.isEmpty() && (current.size() >= budget.maxDatasets() || units + size > budget.maxUnits())) {
                shards.add(new SweepShard(shards.size(), current, units));
                current = new ArrayList<>();
                units = 0;
            }
            current.add(contract.dataset());
            units += size;
        }
        if (!current.isEmpty()) {
            shards.add(new SweepShard(shards.size(), current, units));
        }
        return shards;
    }

    /** How many units a dataset's range expects, without listing them (a daily year is 365). */
    static long expectedUnits(DatasetContract contract, CompletenessSweep.Range range) {
        if (contract.unit().cadence() == Cadence.LIST) {
            return contract.unit().units().size();
        }
        if (range.from() == null || range.to() == null || range.from().compareTo(range.to()) > 0) {
            return 0;
        }
        java.time.LocalDateTime a = start(range.from());
        java.time.LocalDateTime b = start(range.to());
        return contract.unit().cadence() == Cadence.DAILY ? java.time.Duration.between(a, b).toDays() + 1
                : java.time.Duration.between(a, b).toHours() + 1;
    }

    private static java.time.LocalDateTime start(String unit) {
        return unit.length() == 10 ? java.time.LocalDate.parse(unit).atStartOfDay()
                : java.time.LocalDateTime.parse(unit + ":00");
    }

}
