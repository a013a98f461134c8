package io.landingledger.core.sweep;

import io.landingledger.core.consumers.ConsumersBehind;
import io.landingledger.core.contract.Cadence;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One dataset's completeness at one instant: every expected unit classified, the re-drives the sweep made, and
 * where the reports were written.
 *
 * @param from              the first expected unit swept (null: a list cadence's first)
 * @param to                the last expected unit swept (null: a list cadence's last)
 * @param asOf              the sweep's instant (its clock), the reports' name
 * @param units             every expected unit, in unit order
 * @param redrives          the re-drives, in unit order (empty without autoRedrive)
 * @param unroutableInbox   inbox objects under the dataset's prefix whose names match no unit
 * @param reports           where the reports were written, or null before they are
 * @param invalidUnits      ledger items whose unit the cadence cannot name (recorded before routing refused them as
 *                          UNIT_INVALID), listed apart: never classified, an open one fails completeness
 */
public record DatasetReport(String dataset, Cadence cadence, String from, String to, Instant asOf, boolean autoRedrive,
                            List<UnitReport> units, List<Redrive> redrives, int unroutableInbox, ReportKeys reports,
                            List<InvalidUnit> invalidUnits) {

    public DatasetReport {
        units = List.copyOf(units);
        redrives = List.copyOf(redrives);
        invalidUnits = invalidUnits == null ? List.of() : List.copyOf(invalidUnits);
    }

    /** A report with no invalid unit (see {@link #withInvalidUnits}). */
    public DatasetReport(String dataset, Cadence cadence, String from, String to, Instant asOf, boolean autoRedrive,
                         List<UnitReport> units, List<Redrive> redrives, int unroutableInbox, ReportKeys reports) {
        this(dataset, cadence, from, to, asOf, autoRedrive, units, redrives, unroutableInbox, reports, List.of());
    }

    /** The four report objects in the lake bucket. */
    public record ReportKeys(String json, String html, String latestJson, String latestHtml) {
        public Map<String, Object> toMap() {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("json", json);
            map.put("html", html);
            map.put("latest_json", latestJson);
            map.put("latest_html", latestHtml);
            return map;
        }
    }

    DatasetReport withReports(ReportKeys keys) {
        return new DatasetReport(dataset, cadence, from, to, asOf, autoRedrive, units, redrives, unroutableInbox, keys,
                invalidUnits);
    }

    DatasetReport withInvalidUnits(List<InvalidUnit> invalid) {
        return new DatasetReport(dataset, cadence, from, to, asOf, autoRedrive, units, redrives, unroutableInbox,
                reports, invalid);
    }

    /** The invalid units not yet omitted: each fails completeness until an operator omits it. */
    public long openInvalidUnits() {
        return invalidUnits.stream().filter(InvalidUnit::open).count();
    }

    /** Units per status, every status present (zeros included), in {@link UnitStatus} order. */
    public Map<UnitStatus, Integer> counts() {
        Map<UnitStatus, Integer> counts = new LinkedHashMap<>();
        for (UnitStatus status : UnitStatus.values()) {
            counts.put(status, 0);
        }
        for (UnitReport unit : units) {
            counts.merge(unit.status(), 1, Integer::sum);
        }
        return counts;
    }

    /**
     * False when any unit is not OK, PENDING or OMITTED (see {@link UnitStatus#failsCompleteness()}), or the ledger
     * holds an invalid unit not yet omitted (as {@code landing status} says).
     */
    public boolean complete() {
        return units.stream().noneMatch(u -> u.status().failsCompleteness()) && openInvalidUnits() == 0;
    }

    /** The units that are not OK (PENDING and OMITTED included: they are shown, but do not fail completeness). */
    public List<UnitReport> notOk() {
        return units.stream().filter(u -> u.status() != UnitStatus.OK).toList();
    }

    /** The largest {@link UnitReport#unpublishedAgeSeconds()}, 0 when no unit is owed a publish. */
    public long oldestUnpublishedAgeSeconds() {
        return units.stream().map(UnitReport::unpublishedAgeSeconds).filter(v -> v != null).mapToLong(Long::longValue).max().orElse(0);
    }

    /** Per consumer (name order), the units whose current publish it has not read (unit order; see UnitReport). */
    public Map<String, List<String>> consumersBehind() {
        Map<String, List<String>> byUnit = new LinkedHashMap<>();
        for (UnitReport unit : units) {
            if (!unit.consumersBehind().isEmpty()) {
                byUnit.put(unit.unit(), unit.consumersBehind());
            }
        }
        return ConsumersBehind.byConsumer(byUnit);
    }

    /** The units some consumer has not read the current publish of. */
    public long unitsBehindConsumers() {
        return units.stream().filter(u -> !u.consumersBehind().isEmpty()).count();
    }

    /**
     * The dataset's metrics, by EMF name: UnitsExpected, UnitsOk, one count per other status (UnitsMissing,
     * UnitsRefused, ...), UnitsRedriven (every re-drive: run in the sweep, submitted to the validator, or not
     * submitted), OldestUnpublishedAgeSeconds and UnitsBehindConsumers (units some consumer has not read the current
     * publish of: one figure per dataset, never a consumer dimension, whose values are names the consumers choose)
     * and UnitsInvalid (ledger items whose unit the cadence cannot name, not yet omitted; never among the expected).
     */
    public Map<String, Metric> metrics() {
        Map<String, Metric> metrics = new LinkedHashMap<>();
        metrics.put("UnitsExpected", Metric.count(units.size()));
        counts().forEach((status, count) -> metrics.put(status.metricName(), Metric.count(count)));
        metrics.put("UnitsRedriven", Metric.count(redrives.size()));
        metrics.put("OldestUnpublishedAgeSeconds", Metric.seconds(oldestUnpublishedAgeSeconds()));
        metrics.put("UnitsBehindConsumers", Metric.count(unitsBehindConsumers()));
        metrics.put("UnitsInvalid", Metric.count(openInvalidUnits()));
        return metrics;
    }

    /** One of {@link #metrics()}: its value and its unit (the EMF document names the unit). */
    public record Metric(long value, Unit unit) {
        public enum Unit { COUNT, SECONDS }

        /** As stored ({@code _reports/sweeps/state.json}): a count is a number, an age {@code {"seconds": n}}. */
        @com.fasterxml.jackson.annotation.JsonValue
        Object json() {
            return unit == Unit.SECONDS ? Map.of("seconds", value) : value;
        }

        @com.fasterxml.jackson.annotation.JsonCreator(mode = com.fasterxml.jackson.annotation.JsonCreator.Mode.DELEGATING)
        static Metric fromJson(Object json) {
            if (json instanceof Number count) {
                return count(count.longValue());
            }
            if (json instanceof Map<?, ?> map && map.size() == 1 && map.get("seconds") instanceof Number seconds) {
                return seconds(seconds.longValue());
            }
            throw new IllegalArgumentException("a metric is a count or {\"seconds\": n}, not " + json);
        }

        public static Metric count(long count) {
            return new Metric(count, Unit.COUNT);
        }

        public static Metric seconds(long seconds) {
            return new Metric(seconds, Unit.SECONDS);
        }
    }

    /** A short result for the handler: counts, the units that are not OK with status and reason, re-drives, keys. */
    public Map<String, Object> summary() {
        Map<String, Object> map = header();
        map.put("not_ok", notOk().stream().map(u -> {
            Map<String, Object> unit = new LinkedHashMap<>();
            unit.put("unit", u.unit());
            unit.put("status", u.status().name());
            unit.put("reason", u.reason());
            unit.put("detail", u.detail());
            return unit;
        }).toList());
        map.put("redrives", redrives.stream().map(Redrive::toMap).toList());
        map.put("reports", reports == null ? null : reports.toMap());
        return map;
    }

    /** The whole report as the JSON document written to {@code _reports/}. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = header();
        map.put("redrives", redrives.stream().map(Redrive::toMap).toList());
        map.put("reports", reports == null ? null : reports.toMap());
        map.put("units", units.stream().map(UnitReport::toMap).toList());
        return map;
    }

    private Map<String, Object> header() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("dataset", dataset);
        map.put("as_of", asOf.toString());
        map.put("cadence", cadence.name().toLowerCase(Locale.ROOT));
        map.put("from", from);
        map.put("to", to);
        map.put("complete", complete());
        map.put("auto_redrive", autoRedrive);
        map.put("expected", units.size());
        Map<String, Object> counts = new LinkedHashMap<>();
        counts().forEach((status, count) -> counts.put(status.name(), count));
        map.put("counts", counts);
        map.put("oldest_unpublished_age_seconds", oldestUnpublishedAgeSeconds());
        map.put("unroutable_inbox_objects", unroutableInbox);
        map.put("units_behind_consumers", unitsBehindConsumers());
        map.put("consumers_behind", consumersBehind());
        map.put("invalid_units", invalidUnits.stream().map(InvalidUnit::toMap).toList());
        return map;
    }
}
