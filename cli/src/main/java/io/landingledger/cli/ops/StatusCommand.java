package io.landingledger.cli.ops;

import io.landingledger.core.consumers.ConsumerReceipts;
import io.landingledger.core.consumers.ConsumersBehind;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.InvalidUnit;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.UnitReport;
import io.landingledger.core.sweep.UnitStatus;

import io.landingledger.lambda.adapters.DynamoDbConsumerReceipts;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code landing status}: every unit classified live by the sweep's own classification ({@link CompletenessSweep#classify}),
 * read-only: no re-drive, no report written.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Every unit's status, classified live and read-only (the sweep's classification: no re-drive, no report written),",
                "with reason, publish count, input, age and lateness.",
                "Range: --from/--to, by default the first to the last unit the stack knows (ledger, inbox or published/).",
                "Filters answer seed 000's questions: --missing (no input after the deadline), --restated (the published rows changed),",
                "--drift (present but EMPTY, SUSPECT_VOLUME, LEDGER_DRIFT, TABLE_BEHIND or UNPROCESSED, or built under another contract",
                "version than the dataset's other units). EXPECTED is the band of rows the unit's history and contract expect (! outside it)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:no unit fails completeness (OK, PENDING, OMITTED, RESTATED, EMPTY_ACCEPTED)",
                "1:some unit does (MISSING, UNPROCESSED, REFUSED, SUSPECT_VOLUME, EMPTY, LEDGER_DRIFT, TABLE_BEHIND), or the ledger holds "
                        + "an INVALID_UNIT (an impossible date) not yet omitted",
                "2:usage error, no stack found, or an internal error"})
public final class StatusCommand extends OpsCommand {
    /** A ledger item whose unit the dataset's cadence cannot name: not a {@link UnitStatus}, never classified. */
    static final String INVALID_UNIT = InvalidUnit.INVALID_UNIT;

    @Parameters(index = "0", arity = "0..1", paramLabel = "DATASET", description = "One dataset (default: every contract).")
    String dataset;

    @Mixin
    UnitRangeOptions unitRange;

    @Mixin
    JsonOption output;

    @Option(names = "--missing", description = "Only units with no input after their deadline (MISSING).")
    boolean missing;

    @Option(names = "--restated", description = "Only units whose published rows changed (a republish of the same rows is not one).")
    boolean restated;

    @Option(names = "--drift", description = "Only units present but empty, drifted from the ledger, with a table behind the ledger, "
            + "unprocessed, or built under another contract version than their neighbours.")
    boolean drift;

    @Override
    int run() throws Exception {
        List<Map<String, Object>> rows = new ArrayList<>();
        Map<String, Map<String, List<String>>> behind = new LinkedHashMap<>(); // dataset -> consumer -> units
        Map<String, Map<String, List<String>>> olderSnapshot = new LinkedHashMap<>(); // dataset -> consumer -> units
        // who read the table at a snapshot older than the unit's current one: on a stack with tables and receipts
        ConsumerReceipts receipts = !targetHasTables() || resources.consumersTable() == null ? null
                : new DynamoDbConsumerReceipts(dependencies.dynamoDb(), resources.consumersTable());
        boolean complete = true;
        Instant now = Instant.now();
        for (DatasetContract contract : datasets(dataset)) {
            // units its cadence cannot name (UNIT_INVALID) are listed apart, never a range's bound: the rest is answered for
            for (LedgerItem invalid : dependencies.sweep().invalidUnits(contract)) {
                Map<String, Object> row = invalidRow(contract, invalid);
                complete &= !INVALID_UNIT.equals(row.get("status"));
                if ((!missing && !restated) || drift) {
                    rows.add(row);
                }
            }
            List<CompletenessSweep.Range> ranges = new ArrayList<>();
            CompletenessSweep.Range range = knownRange(contract, unitRange.from, unitRange.to);
            if (range != null) {
                ranges.add(range);
            }
            // units the stack holds ahead of now, each on its own: never one range over the years between
            unitsAhead(contract, unitRange.from, unitRange.to).forEach(unit -> ranges.add(new CompletenessSweep.Range(unit, unit)));
            for (CompletenessSweep.Range each : ranges) {
                DatasetReport report = dependencies.sweep().classify(contract, each, now);
                complete &= report.complete();
                if (!report.consumersBehind().isEmpty()) {
                    report.consumersBehind().forEach((consumer, units) -> behind.computeIfAbsent(contract.dataset(), d -> new LinkedHashMap<>())
                            .computeIfAbsent(consumer, c -> new ArrayList<>()).addAll(units));
                }
                if (receipts != null) {
                    List<LedgerItem> items = report.units().stream().map(UnitReport::item).filter(i -> i != null).toList();
                    ConsumersBehind.byConsumer(ConsumersBehind.onOlderSnapshot(items, receipts.forUnits(contract.dataset(), each.from(),
                            each.to()))).forEach((consumer, units) -> olderSnapshot.computeIfAbsent(contract.dataset(),
                            d -> new LinkedHashMap<>()).computeIfAbsent(consumer, c -> new ArrayList<>()).addAll(units));
                }
                int modal = modalContractVersion(report);
                for (UnitReport unit : report.units()) {
                    Map<String, Object> row = row(contract.dataset(), unit, modal);
                    if (selected(unit, row)) {
                        rows.add(row);
                    }
                }
            }
        }
        if (output.json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("target", resources.source());
            doc.put("as_of", now.toString());
            doc.put("complete", complete);
            doc.put("units", rows);
            doc.put("consumers_behind", behind);
            doc.put("consumers_on_older_snapshot", olderSnapshot);
            printJson(doc);
        } else {
            List<String[]> lines = new ArrayList<>();
            lines.add(new String[] {"DATASET", "UNIT", "STATUS", "REASON", "PUBLISHES", "ROWS", "EXPECTED", "INPUT", "AGE", "LATE"});
            for (Map<String, Object> row : rows) {
                lines.add(new String[] {text(row.get("dataset")), text(row.get("unit")), text(row.get("status")), text(row.get("reason")),
                        text(row.get("publish_count")), text(row.get("rows")), expected(row), text(row.get("input")),
                        duration((Long) row.get("age_seconds")), duration((Long) row.get("late_seconds"))});
            }
            out.print(table(lines));
            if (!behind.isEmpty()) {
                out.println("Consumers behind (their receipt names an earlier publish: rerun, then `landing ack`):");
                List<String[]> consumers = new ArrayList<>();
                consumers.add(new String[] {"CONSUMER", "DATASET", "UNITS"});
                behind.forEach((name, byConsumer) -> byConsumer.forEach((consumer, units) ->
                        consumers.add(new String[] {consumer, name, String.join(" ", units)})));
                out.print(table(consumers));
            }
            if (!olderSnapshot.isEmpty()) {
                out.print(olderSnapshotTable(olderSnapshot));
            }
            out.println(complete ? "Complete: no unit fails completeness." : "Not complete: `landing explain DATASET UNIT` says why and how to repair.");
        }
        return complete ? 0 : 1;
    }

    /**
     * A ledger item whose unit the dataset's cadence cannot name (an impossible date such as 2026-02-30, recorded
     * before routing refused such files as UNIT_INVALID): INVALID_UNIT, which fails completeness, with the omission
     * that takes it out of the picture; OMITTED once an operator has omitted it.
     */
    static Map<String, Object> invalidRow(DatasetContract contract, LedgerItem item) {
        InvalidUnit invalid = InvalidUnit.of(contract, item);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("dataset", contract.dataset());
        row.put("unit", item.unit());
        row.put("status", invalid.status());
        row.put("flags", List.of(INVALID_UNIT));
        row.put("reason", invalid.reason());
        row.put("detail", invalid.detail());
        row.put("publish_count", item.publishCount());
        row.put("rows", item.published() == null ? null : item.published().accepted());
        row.put("rejected", item.published() == null ? null : item.published().rejected());
        row.put("input", item.input() == null ? null : fileName(item.input().key()) + "@" + item.input().versionId());
        row.put("ledger_input_version", item.input() == null ? null : item.input().versionId());
        row.put("inbox_version", null);
        row.put("contract_version", item.contractVersion());
        row.put("contract_version_differs", false);
        row.put("age_seconds", null);
        row.put("late_seconds", null);
        row.put("unpublished_age_seconds", null);
        row.put("deadline", null);
        row.put("consumers_behind", List.of());
        return row;
    }

    /** The command that omits a unit its cadence cannot name ({@link InvalidUnit#omitCommand}). */
    static String omitCommand(String dataset, String unit) {
        return InvalidUnit.omitCommand(dataset, unit);
    }

    private boolean selected(UnitReport unit, Map<String, Object> row) {
        if (!missing && !restated && !drift) {
            return true;
        }
        boolean isMissing = unit.status() == UnitStatus.MISSING;
        boolean isRestated = unit.item() != null && unit.item().restated();
        boolean isDrift = unit.flags().contains(UnitStatus.EMPTY) || unit.flags().contains(UnitStatus.SUSPECT_VOLUME)
                || unit.flags().contains(UnitStatus.LEDGER_DRIFT)
                || unit.flags().contains(UnitStatus.UNPROCESSED) || unit.status() == UnitStatus.TABLE_BEHIND
                || Boolean.TRUE.equals(row.get("contract_version_differs"));
        return (missing && isMissing) || (restated && isRestated) || (drift && isDrift);
    }

    /** The contract version most of the dataset's published units were built under (0 when none is published). */
    static int modalContractVersion(DatasetReport report) {
        Map<Integer, Integer> counts = new HashMap<>();
        for (UnitReport unit : report.units()) {
            if (unit.item() != null && unit.item().published() != null) {
                counts.merge(unit.item().contractVersion(), 1, Integer::sum);
            }
        }
        return counts.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(0);
    }

    static Map<String, Object> row(String dataset, UnitReport unit, int modalContractVersion) {
        Map<String, Object> row = new LinkedHashMap<>();
        LedgerItem item = unit.item();
        row.put("dataset", dataset);
        row.put("unit", unit.unit());
        row.put("status", unit.status().name());
        row.put("flags", unit.flags().stream().map(Enum::name).toList());
        row.put("reason", unit.reason());
        row.put("detail", unit.detail());
        row.put("publish_count", item == null ? null : item.publishCount());
        row.put("rows", item == null || item.published() == null ? null : item.published().accepted());
        row.put("rejected", item == null || item.published() == null ? null : item.published().rejected());
        String input = null;
        if (unit.inbox() != null) {
            input = fileName(unit.inbox().key()) + "@" + unit.inbox().versionId();
        } else if (item != null && item.input() != null) {
            input = fileName(item.input().key()) + "@" + item.input().versionId();
        }
        row.put("input", input);
        row.put("ledger_input_version", item == null || item.input() == null ? null : item.input().versionId());
        row.put("inbox_version", unit.inbox() == null ? null : unit.inbox().versionId());
        row.put("contract_version", item == null ? null : item.contractVersion());
        row.put("contract_version_differs", item != null && item.published() != null && modalContractVersion != 0
                && item.contractVersion() != modalContractVersion);
        row.put("age_seconds", unit.ageSeconds());
        row.put("late_seconds", unit.publishedAfterDeadlineSeconds());
        row.put("unpublished_age_seconds", unit.unpublishedAgeSeconds());
        row.put("deadline", unit.deadline() == null ? null : unit.deadline().toString());
        row.put("consumers_behind", unit.consumersBehind());
        row.put("volume", unit.volumeMap());
        return row;
    }

    /** Consumers whose receipt names a table snapshot older than the one holding the unit's current rows. */
    static String olderSnapshotTable(Map<String, Map<String, List<String>>> olderSnapshot) {
        List<String[]> consumers = new ArrayList<>();
        consumers.add(new String[] {"CONSUMER", "DATASET", "UNITS"});
        olderSnapshot.forEach((name, byConsumer) -> byConsumer.forEach((consumer, units) ->
                consumers.add(new String[] {consumer, name, String.join(" ", units)})));
        return "Consumers on an older table snapshot (their receipt names a snapshot committed before the unit's current "
                + "one: `landing history DATASET UNIT` lists the snapshots; read again, then ack with --snapshot):\n"
                + table(consumers);
    }

    /** The band of rows expected of the unit ("150..260", "! 150..260" outside it), "-" without one. */
    @SuppressWarnings("unchecked")
    private static String expected(Map<String, Object> row) {
        Map<String, Object> volume = (Map<String, Object>) row.get("volume");
        if (volume == null) {
            return "-";
        }
        return (Boolean.TRUE.equals(volume.get("suspect")) ? "! " : "") + volume.get("low") + ".."
                + (volume.get("high") == null ? "" : volume.get("high"));
    }

    /** The inbox key without its dataset prefix. */
    static String fileName(String key) {
        return key == null ? "-" : key.substring(key.lastIndexOf('/') + 1);
    }

    static String shortVersion(String version) {
        if (version == null) {
            return "-";
        }
        return version.length() > 12 ? version.substring(0, 12) : version;
    }
}
