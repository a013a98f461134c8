package io.landingledger.cli.ops;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.table.TablePort;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code landing history DATASET UNIT}: the unit's LedgerHistory items, oldest first (one Query), and beside them the
 * unit's table snapshots, newest first, each with the run whose publish it holds ({@link TablePort#unitSnapshots}),
 * when the target's tables can be read ({@link TableCatalogs}).
 */
@Command(name = "history", mixinStandardHelpOptions = true,
        description = {"A unit's history items, oldest first: publishes, refusals, repairs (with their reasons), omissions and run kinds;",
                "and its table snapshots, newest first, with the run each holds (the snapshot id an analyst's query names)."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:printed (possibly no items)", "2:usage error, no stack found, or an internal error"})
public final class HistoryCommand extends UnitCommand {
    @Mixin
    JsonOption output;

    @Override
    int run() throws Exception {
        DatasetContract contract = contract(dataset);
        List<Map<String, Object>> items = items(dependencies.ledger().history(dataset, unit));
        boolean tables = targetHasTables();
        List<Map<String, Object>> snapshots = null;
        String unreadable = null;
        try {
            Optional<TablePort> port = tables ? TableCatalogs.open(resources) : Optional.empty();
            LedgerItem item = port.isPresent() ? dependencies.ledger().get(dataset, unit).orElse(null) : null;
            snapshots = port.map(p -> TableView.snapshots(p.unitSnapshots(dataset, unit), item)).orElse(null);
        } catch (RuntimeException e) {
            // the catalog unreachable or refusing the operator's reads: the ledger's history still answers
            unreadable = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        if (output.json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("dataset", dataset);
            doc.put("unit", unit);
            doc.put("history", items);
            doc.put("table_snapshots", snapshots);
            if (unreadable != null) {
                doc.put("table_snapshots_error", unreadable);
            }
            printJson(doc);
            return 0;
        }
        if (items.isEmpty()) {
            out.println("No history for " + dataset + "/" + unit + ".");
        } else {
            printHistory(items);
        }
        if (snapshots != null) {
            out.println();
            out.print(snapshotTable(contract, unit, snapshots, TableCatalogs.names(resources)));
        } else if (unreadable != null) {
            out.println("Table snapshots could not be read from the table catalog (" + unreadable + ").");
        } else if (tables) {
            out.println("Table snapshots are not listed here: the target names no table catalog (a stack's outputs "
                    + "TableCatalogUri, TableBucketArn and TableNamespace, read with cloudformation:DescribeStacks; "
                    + "`landing explain " + dataset + " " + unit + "` shows the snapshot the ledger records).");
        }
        return 0;
    }

    private void printHistory(List<Map<String, Object>> items) {
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"AT", "ACTION", "RUN_KIND", "RUN_ID", "INPUT", "ROWS", "CONTRACT", "REASON"});
        for (Map<String, Object> item : items) {
            lines.add(new String[] {text(item.get("at")), text(item.get("action")), text(item.get("run_kind")),
                    StatusCommand.shortVersion((String) item.get("run_id")), text(item.get("input")), text(item.get("rows")),
                    text(item.get("contract_version")), text(item.get("reason"))});
        }
        out.print(table(lines));
    }

    /** The unit's table snapshots, newest first, and the query that reads the unit as the newest one holds it. */
    static String snapshotTable(DatasetContract contract, String unit, List<Map<String, Object>> snapshots,
                                TableCatalogs.Names names) {
        if (snapshots.isEmpty()) {
            return "Table snapshots: none holds " + contract.dataset() + "/" + unit + ".\n";
        }
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"SNAPSHOT", "COMMITTED", "RUN_ID", "ROWS", "CONTRACT", "STANDING"});
        for (Map<String, Object> s : snapshots) {
            lines.add(new String[] {text(s.get("snapshot_id")), text(s.get("committed_at")), text(s.get("run_id")),
                    text(s.get("rows")), text(s.get("contract_version")), Boolean.TRUE.equals(s.get("standing")) ? "yes" : ""});
        }
        long newest = ((Number) snapshots.get(0).get("snapshot_id")).longValue();
        return "Table snapshots (newest first; the rows as published by run R: the snapshot whose RUN_ID is R):\n"
                + table(lines) + "  Athena: " + TableView.queries(contract, unit, newest, names).get("athena") + "\n";
    }

    static List<Map<String, Object>> items(List<HistoryEntry> history) {
        List<Map<String, Object>> items = new ArrayList<>();
        for (HistoryEntry entry : history) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("at", entry.at() == null ? null : entry.at().toString());
            item.put("action", entry.action());
            item.put("run_kind", entry.runKind() == null ? null : entry.runKind().name());
            item.put("run_id", entry.runId());
            item.put("reason", entry.reason());
            item.put("input", entry.input() == null ? null : StatusCommand.fileName(entry.input().key()) + "@" + entry.input().versionId());
            item.put("input_version", entry.input() == null ? null : entry.input().versionId());
            item.put("input_sha256", entry.input() == null ? null : entry.input().sha256());
            item.put("published_etag", entry.published() == null ? null : entry.published().etag());
            item.put("rows", entry.published() == null ? null : entry.published().accepted());
            item.put("contract_version", entry.contractVersion());
            items.add(item);
        }
        return items;
    }
}
