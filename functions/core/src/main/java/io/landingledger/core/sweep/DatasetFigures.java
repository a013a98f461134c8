package io.landingledger.core.sweep;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import io.landingledger.core.contract.Cadence;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnitCalendar;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One dataset's figures from its last sweep: what a shard result holds for each dataset it swept, what the sweep
 * state keeps for every dataset, and what the metrics are made of. Names, counts and seconds only.
 *
 * @param asOf       the instant the dataset was classified
 * @param sweepId    the sweep that classified it
 * @param complete   every unit OK, PENDING or OMITTED
 * @param actionable a re-drive of the sweep was not handed over or failed: the next incremental sweep reads the
 *                   dataset again whatever the change records say (a re-drive handed over records its own change)
 * @param rangeFrom  the first unit of the range swept (null: a list cadence)
 * @param rangeTo    the last unit of the range swept
 * @param metrics    {@link DatasetReport#metrics()} as of {@code asOf}
 * @param reports    the report keys the sweep wrote ({@link DatasetReport.ReportKeys#toMap()}), or null
 * @param pending    the last sweep that planned the dataset did not finish it: read it next time
 * @param nextDeadline the first instant at which the clock alone changes a status: the deadline of the earliest unit
 *                   the sweep found without an input (PENDING), else of the unit after the range, or earlier the end
 *                   of a table commit's grace ({@link #tableDue}); null for a list cadence (its units have no
 *                   deadline) without a table commit in its grace
 */
@JsonPropertyOrder({"dataset", "as_of", "sweep_id", "complete", "actionable", "range_from", "range_to", "metrics", "reports", "pending",
        "next_deadline"})
public record DatasetFigures(String dataset, @JsonProperty("as_of") Instant asOf, @JsonProperty("sweep_id") String sweepId, boolean complete,
                             boolean actionable, @JsonProperty("range_from") String rangeFrom, @JsonProperty("range_to") String rangeTo,
                             Map<String, DatasetReport.Metric> metrics, Map<String, Object> reports,
                             @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean pending,
                             @JsonProperty("next_deadline") Instant nextDeadline) {
    static final String OLDEST_UNPUBLISHED = "OldestUnpublishedAgeSeconds";

    public DatasetFigures {
        metrics = Collections.unmodifiableMap(ordered(metrics == null ? Map.of() : metrics));
        reports = reports == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(reports));
    }

    static DatasetFigures of(DatasetReport report, String sweepId, DatasetContract contract, Duration tableGrace) {
        // a re-drive handed over writes the ledger, whose stream records the change; one that was not (throttled, no
        // answer, a fault) records nothing, so the next sweep must try again on its own account
        boolean actionable = report.redrives().stream()
                .anyMatch(r -> Redrive.NOT_SUBMITTED.equals(r.action()) || Redrive.FAILED.equals(r.action()));
        return new DatasetFigures(report.dataset(), report.asOf(), sweepId, report.complete(), actionable, report.from(), report.to(),
                report.metrics(), report.reports() == null ? null : report.reports().toMap(), false, earliest(nextDeadline(report, contract), tableDue(report, tableGrace)));
    }

    /**
     * The first instant a table commit still within its grace (TABLE_BEHIND as a flag only) falls due: with no change
     * anywhere, the clock alone then makes the unit TABLE_BEHIND. Null when no unit waits on its table.
     */
    static Instant tableDue(DatasetReport report, Duration tableGrace) {
        Instant due = null;
        if (tableGrace == null) {
            return null;
        }
        for (UnitReport unit : report.units()) {
            if (unit.flags().contains(UnitStatus.TABLE_BEHIND) && unit.status() != UnitStatus.TABLE_BEHIND
                    && unit.item() != null && unit.item().publishedAt() != null) {
                due = earliest(due, unit.item().publishedAt().plus(tableGrace));
            }
        }
        return due;
    }

    private static Instant earliest(Instant a, Instant b) {
        return a == null ? b : b == null ? a : a.isBefore(b) ? a : b;
    }

    /** The earliest deadline of a PENDING unit; with none, the deadline of the unit after the range. */
    static Instant nextDeadline(DatasetReport report, DatasetContract contract) {
        if (contract.unit().cadence() == Cadence.LIST || report.to() == null) {
            return null;
        }
        for (UnitReport unit : report.units()) {
            if (unit.status() == UnitStatus.PENDING && unit.deadline() != null) {
                return unit.deadline();
            }
        }
        UnitCalendar calendar = UnitCalendar.of(contract);
        // the unit after the range: its deadline is one cadence step after the last unit's
        Instant last = calendar.deadline(report.to()).orElse(null);
        if (last == null) {
            return null;
        }
        return last.plus(contract.unit().cadence() == Cadence.DAILY ? java.time.Duration.ofDays(1) : java.time.Duration.ofHours(1));
    }

    /** The figures moved to {@code now}: only the age of the oldest unpublished unit grows with the clock. */
    public Map<String, DatasetReport.Metric> metricsAt(Instant now) {
        Map<String, DatasetReport.Metric> at = new LinkedHashMap<>(ordered());
        DatasetReport.Metric oldest = at.get(OLDEST_UNPUBLISHED);
        if (oldest != null && oldest.value() > 0 && now.isAfter(asOf)) {
            at.put(OLDEST_UNPUBLISHED, DatasetReport.Metric.seconds(oldest.value() + Duration.between(asOf, now).toSeconds()));
        }
        return at;
    }

    /** The metrics in {@link DatasetReport#metrics()}' order (the constructor keeps them so). */
    Map<String, DatasetReport.Metric> ordered() {
        return metrics;
    }

    private static Map<String, DatasetReport.Metric> ordered(Map<String, DatasetReport.Metric> metrics) {
        Map<String, DatasetReport.Metric> ordered = new LinkedHashMap<>();
        ordered.put("UnitsExpected", metrics.get("UnitsExpected"));
        for (UnitStatus status : UnitStatus.values()) {
            if (metrics.containsKey(status.metricName())) {
                ordered.put(status.metricName(), metrics.get(status.metricName()));
            }
        }
        metrics.forEach(ordered::putIfAbsent);
        ordered.values().removeIf(v -> v == null);
        return ordered;
    }

    DatasetFigures asPending() {
        return new DatasetFigures(dataset, asOf, sweepId, complete, actionable, rangeFrom, rangeTo, metrics, reports, true, nextDeadline);
    }
}
