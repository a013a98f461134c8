package io.landingledger.core.sweep;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.consumers.ConsumerReceipt;
import io.landingledger.core.consumers.ConsumerReceipts;
import io.landingledger.core.consumers.ConsumersBehind;
import io.landingledger.core.contract.Cadence;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnitCalendar;
import io.landingledger.core.ingest.BatchFailures;
import io.landingledger.core.ingest.DecisionNotices;
import io.landingledger.core.ingest.InputDecision;
import io.landingledger.core.ingest.IngestAction;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.IngestPath;
import io.landingledger.core.ingest.Deadline;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.InputRef;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ingest.NotSubmittedException;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.ledger.Ledger;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.table.TableMessage;
import io.landingledger.core.volume.UnitCount;
import io.landingledger.core.volume.VolumeCheck;
import io.landingledger.core.volume.VolumeModel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The completeness sweep (docs/design.md section 5): classifies every expected unit of a dataset, re-drives the inputs
 * the ledger never recorded when the contract enables {@code autoRedrive}, and writes the JSON and HTML reports.
 *
 * <p>Its reads are bulk reads: one ledger Query (paged) for the range and the volume history before it (eight weeks of a
 * daily dataset, eight days of an hourly one: {@link VolumeModel#historyStart}), one version listing of the inbox under
 * {@code <dataset>/} (ListObjectVersions: version ids, ETags and LastModified, never an object's body or metadata)
 * and one listing of {@code published/<dataset>/unit=...}, each paged 1,000 entries a request. A unit costs a
 * request of its own only when it is re-driven. The sweep writes {@code _reports/} and {@code _status/} and nothing else;
 * {@code published/} and the ledger change only through the re-drive, which is the ingest path itself, and on a stack
 * with tables ({@link #withTables}) a TABLE_BEHIND unit's re-drive is one message to the table queue.
 */
public final class CompletenessSweep {
    /** Where the reports go: {@code _reports/completeness/<dataset>/<as-of>.json}, {@code .html} and {@code latest.*}. */
    public static final String REPORTS_PREFIX = LakeLayout.REPORTS_PREFIX + "completeness/";
    /** The as-of in report names: ISO 8601 basic, UTC, to the second (sorts by time, no characters to escape). */
    static final DateTimeFormatter AS_OF_NAME = DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private static final JSON PRETTY = JSON.std.with(JSON.Feature.PRETTY_PRINT_OUTPUT);

    private final ObjectStore store;
    private final Ledger ledger;
    private final IngestPath ingest;
    private final UnitRouter router;
    private final String inboxBucket;
    private final String lakeBucket;
    private final Clock clock;
    private final Supplier<String> runIds;
    private final ConsumerReceipts consumers;
    private final TableTracking tables;
    /** Where a SUSPECT_VOLUME unit's producer hears of it ({@link #withNotices}); nobody by default. */
    private final DecisionNotices notices;

    /**
     * @param ingest the publish protocol a re-drive runs (the same one the S3 trigger runs)
     * @param router routes inbox keys to units (the same contracts as {@code ingest}'s callers)
     * @param clock  the sweep's now: deadlines, ages and the report's as-of
     * @param runIds a new run id per re-drive (made per run, never at init)
     */
    public CompletenessSweep(ObjectStore store, Ledger ledger, IngestPath ingest, UnitRouter router, String inboxBucket,
                             String lakeBucket, Clock clock, Supplier<String> runIds) {
        this(store, ledger, ingest, router, inboxBucket, lakeBucket, clock, runIds, ConsumerReceipts.NONE);
    }

    /** @param consumers the receipts consumers recorded: the report names, per unit, the consumers behind on it */
    public CompletenessSweep(ObjectStore store, Ledger ledger, IngestPath ingest, UnitRouter router, String inboxBucket,
                             String lakeBucket, Clock clock, Supplier<String> runIds, ConsumerReceipts consumers) {
        this(store, ledger, ingest, router, inboxBucket, lakeBucket, clock, runIds, consumers, null, DecisionNotices.NONE);
    }

    private CompletenessSweep(ObjectStore store, Ledger ledger, IngestPath ingest, UnitRouter router, String inboxBucket,
                              String lakeBucket, Clock clock, Supplier<String> runIds, ConsumerReceipts consumers,
                              TableTracking tables, DecisionNotices notices) {
        this.tables = tables;
        this.notices = Objects.requireNonNull(notices, "notices");
        this.consumers = Objects.requireNonNull(consumers);
        this.store = Objects.requireNonNull(store);
        this.ledger = Objects.requireNonNull(ledger);
        this.ingest = Objects.requireNonNull(ingest);
        this.router = Objects.requireNonNull(router);
        this.inboxBucket = Objects.requireNonNull(inboxBucket);
        this.lakeBucket = Objects.requireNonNull(lakeBucket);
        this.clock = Objects.requireNonNull(clock);
        this.runIds = Objects.requireNonNull(runIds);
    }

    /**
     * This sweep on a stack whose datasets publish into tables: published units are judged against their table
     * (TABLE_BEHIND) and, with autoRedrive and a queue, re-driven to the table queue. Null: no tables.
     */
    public CompletenessSweep withTables(TableTracking tracking) {
        return new CompletenessSweep(store, ledger, ingest, router, inboxBucket, lakeBucket, clock, runIds, consumers, tracking,
                notices);
    }

    /**
     * This sweep telling producers (docs/producers.md): each unit it finds SUSPECT_VOLUME goes to {@code notices} as
     * an InputDecision about the input the ledger names, with the expected band and the accepted rows. Every sweep
     * passes every such unit; that the producer hears it once (a unit newly suspect, not every sweep again) is the
     * notices' part: the deployed ones skip an input version already tagged with this decision of this run
     * (ProducerNotices), so a republish (a new run) or a new input is heard again, and a unit still suspect is not.
     */
    public CompletenessSweep withNotices(DecisionNotices decisionNotices) {
        return new CompletenessSweep(store, ledger, ingest, router, inboxBucket, lakeBucket, clock, runIds, consumers, tables,
                decisionNotices);
    }

    /** How the datasets' tables are judged, or null on a stack without tables. */
    public TableTracking tables() {
        return tables;
    }

    /** True when the re-drives' ingest path reports each outcome itself (the deployed validator function). */
    public boolean redrivesReportThemselves() {
        return ingest.reportsOutcomes();
    }

    /** The sweep's clock (the handler reports its as-of). */
    public Clock clock() {
        return clock;
    }

    /** A range of units, both ends inclusive; null ends only for a list cadence (every listed unit). */
    public record Range(String from, String to) {
    }

    /**
     * The range to sweep: the given ends, each missing end taken from {@link UnitCalendar#defaultRange(Instant)}
     * (the contract's lookback, ending at now minus the grace period).
     *
     * @throws IllegalArgumentException an end that is not a unit name of the dataset's cadence, or from after to
     */
    public static Range range(DatasetContract contract, String from, String to, Instant now) {
        UnitCalendar calendar = UnitCalendar.of(contract);
        String[] defaults = calendar.defaultRange(now);
        String start = from != null ? from : defaults[0];
        String end = to != null ? to : defaults[1];
        if (contract.unit().cadence() != Cadence.LIST) {
            String shape = contract.unit().cadence() == Cadence.DAILY ? "YYYY-MM-DD" : "YYYY-MM-DDTHH";
            for (String[] bound : new String[][] {{"from", start}, {"to", end}}) {
                if (!calendar.isUnit(bound[1])) {
                    throw new IllegalArgumentException(bound[0] + " '" + bound[1] + "' is not a "
                            + contract.unit().cadence().name().toLowerCase(Locale.ROOT) + " unit of "
                            + contract.dataset() + " (" + shape + ")");
                }
            }
        }
        if (start != null && end != null && start.compareTo(end) > 0 && (from != null && to != null)) {
            throw new IllegalArgumentException("from '" + start + "' is after to '" + end + "' for " + contract.dataset());
        }
        return new Range(start, end);
    }

    /**
     * The ledger items of {@code contract}'s dataset whose unit its cadence cannot name ({@link UnitCalendar#canName}:
     * an impossible date such as {@code 2026-02-30}, recorded before routing refused such files as UNIT_INVALID).
     * No range holds them, so the sweep never classifies them; status and the sweep's report list them apart
     * ({@link InvalidUnit}), each with the omission that takes it out of the picture. One Query of the dataset's items
     * (their keys can sort anywhere: {@code 0000-00-00}, {@code 2026-13-45}); empty for a list cadence.
     */
    public List<LedgerItem> invalidUnits(DatasetContract contract) {
        UnitCalendar calendar = UnitCalendar.of(contract);
        List<LedgerItem> invalid = new ArrayList<>();
        if (contract.unit().cadence() != Cadence.LIST) {
            for (LedgerItem item : ledger.items(contract.dataset(), null, null)) {
                if (!calendar.canName(item.unit())) {
                    invalid.add(item);
                }
            }
        }
        return invalid;
    }

    /** What the caller does with each dataset's sweep: report the re-drives that ran here, emit metrics, log. */
    public interface ReportListener {
        /** A re-drive's ingest outcome when it ran in this sweep (never one the validator function reports itself). */
        void redriveRan(IngestOutcome outcome);

        /** A dataset swept, its reports written. */
        void swept(DatasetReport report);
    }

    /**
     * Sweeps every dataset of {@code request}: every bound is checked against every dataset before anything is
     * swept; a fault in one dataset is recorded and the others are swept, then the first fault is thrown (the
     * others suppressed on it), so the invocation fails and is retried. An incomplete dataset is a result.
     *
     * @return {@code as_of}, {@code complete} (every dataset complete) and {@code datasets}, each its
     *         {@link DatasetReport#summary()} (or, after a fault, its name, {@code complete: false} and the error)
     */
    public SweepResult sweep(SweepRequest request, ReportListener listener) {
        String from = request.from();
        String to = request.to();
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        for (DatasetContract contract : request.datasets()) {
            range(contract, from, to, now); // every bound checked before anything is swept
        }
        List<Map<String, Object>> results = new ArrayList<>();
        boolean complete = true;
        BatchFailures failures = new BatchFailures();
        for (DatasetContract contract : request.datasets()) {
            try {
                DatasetReport report = sweep(contract, from, to);
                for (Redrive redrive : report.redrives()) {
                    // through the deployed validator the outcome was logged and counted there, once
                    if (redrive.outcome() != null && !redrivesReportThemselves()) {
                        listener.redriveRan(redrive.outcome());
                    }
                }
                listener.swept(report);
                results.add(report.summary());
                complete &= report.complete();
            } catch (RuntimeException e) {
                Map<String, Object> failed = new LinkedHashMap<>();
                failed.put("dataset", contract.dataset());
                failed.put("complete", false);
                failed.put("error", e.getClass().getSimpleName());
                results.add(failed);
                complete = false;
                failures.add(e);
            }
        }
        failures.throwIfAny();
        return new SweepResult(now.toString(), complete, results);
    }

    /** Sweeps one dataset over {@code from}..{@code to} (null: the default range): classify, re-drive, report. */
    public DatasetReport sweep(DatasetContract contract, String from, String to) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS); // the reports' name has seconds
        Range range = range(contract, from, to, now);
        Classified classified = classifyUnits(contract, range, now);
        DatasetReport report = classified.report();
        if (contract.unit().autoRedrive()) {
            report = redrive(contract, report, now, classified.counts());
        }
        // a bad unit an older build recorded is listed apart, never hidden, and never stops the rest being reported
        report = report.withInvalidUnits(invalidUnits(contract).stream()
                .map(item -> InvalidUnit.of(contract, item)).toList());
        tellSuspectVolume(report);
        return write(report);
    }

    /**
     * Each unit of {@code report} found SUSPECT_VOLUME (its status or a flag beside a status that outranks it) to the
     * notices, about the input its standing publish was built from.
     */
    private void tellSuspectVolume(DatasetReport report) {
        for (UnitReport unit : report.units()) {
            LedgerItem item = unit.item();
            // a finding, whatever outranks it in the unit's status (a table behind, a newer refused input)
            if (!unit.flags().contains(UnitStatus.SUSPECT_VOLUME) || item == null || item.input() == null
                    || item.published() == null || unit.volume() == null) {
                continue;
            }
            String bucket = item.input().bucket() != null ? item.input().bucket() : inboxBucket;
            notices.decided(InputDecision.suspectVolume(item.dataset(), item.unit(), bucket, item.input().key(),
                    item.input().versionId(), item.published().accepted(),
                    new InputDecision.ExpectedRows(unit.volume().band().low(), unit.volume().band().high()),
                    item.runId(), item.contractVersion()));
        }
    }

    /** Classifies every expected unit; writes nothing. */
    public DatasetReport classify(DatasetContract contract, Range range, Instant now) {
        return classifyUnits(contract, range, now).report();
    }

    /**
     * A classified range and the accepted rows of the published units read with it, the range's and its history's
     * (unit order): a re-drive judges a unit's new publish against the same history.
     */
    private record Classified(DatasetReport report, NavigableMap<String, Long> counts) {
    }

    private Classified classifyUnits(DatasetContract contract, Range range, Instant now) {
        String dataset = contract.dataset();
        UnitCalendar calendar = UnitCalendar.of(contract);
        List<String> expected = range.from() != null && range.to() != null && range.from().compareTo(range.to()) > 0
                ? List.of() : calendar.units(range.from(), range.to());
        List<UnitReport> units = new ArrayList<>(expected.size());
        NavigableMap<String, Long> counts = new TreeMap<>();
        int unroutable = 0;
        if (!expected.isEmpty()) {
            // a list cadence names its units in any order: the Query and the listing take the lexical bounds
            String first = Collections.min(expected);
            String last = Collections.max(expected);

            // the same Query reaches back over the volume history of the range's first unit (a few dozen more
            // items: on a range of days, the same page; a list cadence has no history, its units are not a series)
            String historyFrom = contract.unit().cadence() == Cadence.LIST ? first
                    : VolumeModel.historyStart(contract.unit().cadence(), first);
            Map<String, LedgerItem> items = new HashMap<>();
            for (LedgerItem item : ledger.items(dataset, historyFrom, last)) {
                if (item.unit().compareTo(first) >= 0) {
                    items.put(item.unit(), item);
                }
                if (item.published() != null && item.status() == LedgerStatus.PUBLISHED
                        && calendar.isUnit(item.unit())) {
                    counts.put(item.unit(), item.published().accepted());
                }
            }
            // one Query of the Consumers table for the range: who read which publish
            Map<String, List<String>> behind = ConsumersBehind.byUnit(items.values(), consumers.forUnits(dataset, first, last));

            // one version listing of the dataset's inbox prefix: every unit's newest input by the ingest path's rule
            int[] unroutableKeys = {0};
            Map<String, InboxObject> inbox = new HashMap<>();
            router.newestInputs(store.versions(inboxBucket, dataset + "/"), dataset, (version, reason) -> {
                if (!"FOLDER_MARKER".equals(reason.reason()) && version.latest()) {
                    unroutableKeys[0]++;
                }
            }).forEach((unit, newest) -> inbox.put(unit, InboxObject.listed(newest)));
            unroutable = unroutableKeys[0];

            Map<String, ObjectStore.ListedObject> published = new HashMap<>();
            String unitPrefix = LakeLayout.publishedDatasetPrefix(dataset);
            for (ObjectStore.ListedObject object : store.list(lakeBucket, unitPrefix + commonPrefix(first, last))) {
                int slash = object.key().indexOf('/', unitPrefix.length());
                if (slash > 0) {
                    String unit = object.key().substring(unitPrefix.length(), slash);
                    if (object.key().equals(LakeLayout.publishedKey(dataset, unit))) {
                        published.put(unit, object);
                    }
                }
            }

            for (String unit : expected) {
                LedgerItem item = items.get(unit);
                InboxObject current = inbox.get(unit);
                UnitClassifier.Evidence evidence = new UnitClassifier.Evidence(unit, calendar.deadline(unit).orElse(null), now,
                        item, current, published.get(unit), contract.acceptEmptyUnits(), tableGrace(),
                        volume(contract, unit, item, counts));
                units.add(UnitReport.of(evidence, UnitClassifier.classify(evidence)).withConsumersBehind(behind.get(unit)));
            }
        }
        return new Classified(new DatasetReport(dataset, contract.unit().cadence(), range.from(), range.to(), now,
                contract.unit().autoRedrive(), units, List.of(), unroutable, null), counts);
    }

    /**
     * The unit's standing publish judged against its expected band ({@link VolumeModel}: the earlier units' counts
     * and the contract's {@code volume}), or null when it has no publish with rows or nothing gives a band.
     */
    static VolumeCheck volume(DatasetContract contract, String unit, LedgerItem item, NavigableMap<String, Long> counts) {
        if (item == null || item.status() != LedgerStatus.PUBLISHED || item.published() == null
                || item.published().accepted() == 0) {
            return null; // an empty publish is EMPTY's to judge
        }
        List<UnitCount> earlier = new ArrayList<>();
        if (contract.unit().cadence() != Cadence.LIST) {
            counts.subMap(VolumeModel.historyStart(contract.unit().cadence(), unit), true, unit, false)
                    .forEach((name, rows) -> earlier.add(new UnitCount(name, rows)));
        }
        return VolumeModel.check(contract, unit, item.published().accepted(), earlier).orElse(null);
    }

    /**
     * Runs the inbox's newest input of every UNPROCESSED or LEDGER_DRIFT unit through the ingest path (run kind
     * INGEST, exactly as a delivered S3 event would), then classifies the unit again. For drift the ingest path's
     * decision does the repair: it records a publish the ledger missed (a run died after its promote) or republishes
     * a published object that is gone. A fault in one re-drive is reported and the next unit goes on; the next sweep
     * tries again.
     *
     * <p>Through an asynchronous ingest path (the deployed sweep: the validator function invoked with the Event
     * invocation type) a re-drive is {@code submitted}: the run happens after this sweep, so the unit is usually
     * still UNPROCESSED when classified again here, and the next sweep reads the run's result from the ledger. One
     * the path could not hand over is {@code not_submitted}, with the reason, and is left to the next sweep: it is
     * never retried within a sweep.
     */
    DatasetReport redrive(DatasetContract contract, DatasetReport report, Instant now, NavigableMap<String, Long> counts) {
        List<UnitReport> units = new ArrayList<>(report.units().size());
        List<Redrive> redrives = new ArrayList<>();
        UnitCalendar calendar = UnitCalendar.of(contract);
        for (UnitReport unit : report.units()) {
            // drift is re-driven too (the ingest path records a publish the ledger missed, whatever input it carries),
            // except a missing published object while the newest input is a recorded refusal: a refused input cannot
            // republish the standing publish's rows (an operator's repair of the recorded input can)
            boolean missingBehindARefusal = unit.status() == UnitStatus.LEDGER_DRIFT && "PUBLISHED_OBJECT_MISSING".equals(unit.reason())
                    && unit.flags().contains(UnitStatus.REFUSED);
            boolean actionable = unit.flags().contains(UnitStatus.UNPROCESSED)
                    || (unit.flags().contains(UnitStatus.LEDGER_DRIFT) && !missingBehindARefusal);
            if (!actionable || unit.inbox() == null) {
                Redrive table = redriveTable(unit);
                if (table != null) {
                    redrives.add(table);
                    units.add(unit.withRedrive(table));
                } else {
                    units.add(unit);
                }
                continue;
            }
            String key = unit.inbox().key();
            InboxObject current = unit.inbox();
            String runId = runIds.get();
            InputRef input = new InputRef(inboxBucket, key, current.versionId(), current.etag(), current.size(), null,
                    current.lastModified());
            Redrive redrive;
            try {
                IngestOutcome outcome = ingest.ingest(IngestService.Request.event(contract, unit.unit(), input, runId, Deadline.NONE));
                if (outcome.action() == IngestAction.SUBMITTED) {
                    // queued for the validator, which runs it under a run id of its own and reports it; the next
                    // sweep classifies the unit from the ledger and S3 as always
                    redrive = new Redrive(unit.unit(), key, current.versionId(), null, Redrive.SUBMITTED, null, outcome.detail(),
                            unit.status(), null, null);
                } else {
                    String action = "INPUT_GONE".equals(outcome.refusalCode()) ? "input_gone"
                            : outcome.action().name().toLowerCase(Locale.ROOT);
                    redrive = new Redrive(unit.unit(), key, current.versionId(), runId, action, outcome.refusalCode(), outcome.detail(),
                            unit.status(), null, outcome);
                }
            } catch (NotSubmittedException e) {
                // never retried here: a second hand-over of one that did arrive would start a second validation
                redrive = new Redrive(unit.unit(), key, current.versionId(), null, Redrive.NOT_SUBMITTED, null, e.getMessage(),
                        unit.status(), null, null);
            } catch (RuntimeException e) {
                redrive = new Redrive(unit.unit(), key, current.versionId(), runId, Redrive.FAILED, null,
                        e.getClass().getSimpleName() + ": " + e.getMessage(), unit.status(), null, null);
            }
            UnitReport again = reclassify(contract, calendar, unit.unit(), current, now, counts);
            redrive = redrive.withStatusAfter(again.status());
            redrives.add(redrive);
            units.add(again.withRedrive(redrive));
        }
        return new DatasetReport(report.dataset(), report.cadence(), report.from(), report.to(), report.asOf(), report.autoRedrive(),
                units, redrives, report.unroutableInbox(), null);
    }

    /**
     * A TABLE_BEHIND unit submitted to the table queue for the table writer, which reads the ledger again and commits
     * the standing publish (or finds its own earlier commit); null for any other unit, or without a queue. Nothing
     * changes before the sweep ends, so the unit stays TABLE_BEHIND in this report: the next sweep reads the writer's
     * record from the ledger. A unit also re-driven through the ingest path is not submitted here: a new publish
     * reaches the table writer through the ledger's stream.
     */
    private Redrive redriveTable(UnitReport unit) {
        if (tables == null || tables.queue() == null || unit.status() != UnitStatus.TABLE_BEHIND) {
            return null;
        }
        LedgerItem item = unit.item();
        String key = item.published().key();
        try {
            tables.queue().submit(new TableMessage(item.dataset(), item.unit(), null, null));
            return new Redrive(unit.unit(), key, null, item.runId(), Redrive.SUBMITTED, null,
                    "queued for the table writer to commit run " + item.runId(), unit.status(), unit.status(), null,
                    Redrive.TABLE);
        } catch (RuntimeException e) {
            return new Redrive(unit.unit(), key, null, item.runId(), Redrive.NOT_SUBMITTED, null,
                    e.getClass().getSimpleName() + ": " + e.getMessage(), unit.status(), unit.status(), null, Redrive.TABLE);
        }
    }

    private Duration tableGrace() {
        return tables == null ? null : tables.grace();
    }

    /** One unit again after its re-drive: its ledger item (GetItem) and published object (HEAD). */
    private UnitReport reclassify(DatasetContract contract, UnitCalendar calendar, String unit, InboxObject current, Instant now,
                                  NavigableMap<String, Long> counts) {
        LedgerItem item = ledger.get(contract.dataset(), unit).orElse(null);
        String key = LakeLayout.publishedKey(contract.dataset(), unit);
        ObjectStore.ListedObject published = store.head(lakeBucket, key)
                .map(o -> new ObjectStore.ListedObject(key, o.etag(), o.size(), o.lastModified())).orElse(null);
        UnitClassifier.Evidence evidence = new UnitClassifier.Evidence(unit, calendar.deadline(unit).orElse(null), now, item,
                current, published, contract.acceptEmptyUnits(), tableGrace(),
                volume(contract, unit, item, counts));
        // the re-drive may have published anew: the unit's receipts again (one Query, re-driven units only)
        List<ConsumerReceipt> receipts = consumers.forUnits(contract.dataset(), unit, unit);
        List<String> behind = item == null || receipts.isEmpty() ? List.of()
                : ConsumersBehind.byUnit(List.of(item), receipts).getOrDefault(unit, List.of());
        return UnitReport.of(evidence, UnitClassifier.classify(evidence)).withConsumersBehind(behind);
    }

    /**
     * Writes the JSON and HTML reports, timestamped and latest, and returns the report that names them. latest.json
     * goes last: a sweep that fails to write any of the others (and then fails) never moves what latest.json claims.
     */
    DatasetReport write(DatasetReport report) {
        String base = REPORTS_PREFIX + report.dataset() + "/";
        String name = AS_OF_NAME.format(report.asOf());
        DatasetReport named = report.withReports(new DatasetReport.ReportKeys(base + name + ".json", base + name + ".html",
                base + "latest.json", base + "latest.html"));
        byte[] json;
        try {
            json = PRETTY.asBytes(named.toMap());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the sweep report of " + report.dataset() + " as JSON", e);
        }
        byte[] html = SweepHtml.render(named).getBytes(StandardCharsets.UTF_8);
        store.put(lakeBucket, named.reports().json(), json, "application/json");
        store.put(lakeBucket, named.reports().html(), html, "text/html; charset=utf-8");
        UnitStatusExport.write(store, lakeBucket, named); // _status/<dataset>/status.jsonl, before latest.json
        store.put(lakeBucket, named.reports().latestHtml(), html, "text/html; charset=utf-8");
        store.put(lakeBucket, named.reports().latestJson(), json, "application/json");
        return named;
    }

    /** The longest common prefix of two unit names: narrows the published/ listing to the range's keys. */
    static String commonPrefix(String a, String b) {
        if (a == null || b == null) {
            return "";
        }
        int n = 0;
        while (n < a.length() && n < b.length() && a.charAt(n) == b.charAt(n)) {
            n++;
        }
        return a.substring(0, n);
    }
}
