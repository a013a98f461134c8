package io.landingledger.cli.ops;

import io.landingledger.core.contract.Cadence;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.TableState;
import io.landingledger.core.sweep.UnitClassifier;
import io.landingledger.core.table.TableSnapshot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code landing explain} and {@code landing history} say about a unit's table (docs/readers.md, "The table"):
 * the snapshot the table writer recorded on the ledger item, whether it holds the standing publish, the writer's last
 * error, the unit's snapshots as the table lists them, and the analyst's queries for "the rows as published by run
 * R". Pure: the ledger item and the snapshots are read by the command.
 */
final class TableView {
    private TableView() {
    }

    /**
     * The unit's table state from its ledger item, and the queries that read the standing snapshot.
     *
     * @param names how the analyst names the dataset's table in Athena and Spark
     * @return null when the unit has no publish (nothing for a table to hold)
     */
    static Map<String, Object> explain(DatasetContract contract, LedgerItem item, TableCatalogs.Names names) {
        if (item == null || item.published() == null) {
            return null;
        }
        TableState table = item.table();
        Map<String, Object> view = new LinkedHashMap<>();
        String reason = UnitClassifier.tableReason(item);
        view.put("state", reason == null ? "in_step" : "behind");
        view.put("reason", reason);
        view.put("snapshot_id", table == null ? null : table.snapshotId());
        view.put("committed_at", table == null || table.committedAt() == null ? null : table.committedAt().toString());
        view.put("run_id", table == null ? null : table.runId());
        view.put("content_sha256", table == null ? null : table.contentSha256());
        view.put("last_error", table == null ? null : table.lastError());
        view.put("failed_at", table == null || table.failedAt() == null ? null : table.failedAt().toString());
        view.put("ledger_run_id", item.runId());
        if (table != null && table.snapshotId() != null) {
            view.put("queries", queries(contract, item.unit(), table.snapshotId(), names));
        }
        return view;
    }

    /** The analyst's queries for the unit's rows as of {@code snapshotId}: Athena and Spark. */
    static Map<String, String> queries(DatasetContract contract, String unit, long snapshotId, TableCatalogs.Names names) {
        Map<String, String> queries = new LinkedHashMap<>();
        queries.put("athena", "SELECT * FROM " + names.athena(contract.dataset()) + " FOR VERSION AS OF " + snapshotId
                + " WHERE unit = " + unitLiteral(contract, unit));
        queries.put("spark", "SELECT * FROM " + names.spark(contract.dataset()) + " VERSION AS OF " + snapshotId
                + " WHERE unit = " + unitLiteral(contract, unit));
        return queries;
    }

    /**
     * The unit as a SQL literal of the table's partition column: a date for a daily cadence, the hour's UTC instant
     * for an hourly one, the name for a list.
     */
    static String unitLiteral(DatasetContract contract, String unit) {
        Cadence cadence = contract.unit().cadence();
        if (cadence == Cadence.DAILY) {
            return "DATE '" + unit + "'";
        }
        if (cadence == Cadence.HOURLY) {
            return "TIMESTAMP '" + unit.replace('T', ' ') + ":00:00 UTC'";
        }
        return "'" + unit.replace("'", "''") + "'";
    }

    /**
     * The unit's table snapshots, newest first, each with the publish it holds and whether it is the one the ledger's
     * standing publish names ({@code standing}).
     */
    static List<Map<String, Object>> snapshots(List<TableSnapshot> snapshots, LedgerItem item) {
        List<Map<String, Object>> rows = new ArrayList<>();
        String sha256 = item == null || item.published() == null ? null : item.published().contentSha256();
        for (TableSnapshot snapshot : snapshots) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("snapshot_id", snapshot.snapshotId());
            row.put("committed_at", snapshot.committedAt() == null ? null : snapshot.committedAt().toString());
            row.put("run_id", snapshot.runId());
            row.put("content_sha256", snapshot.contentSha256());
            row.put("input_version", snapshot.inputVersion());
            row.put("contract_version", snapshot.contractVersion());
            row.put("rows", snapshot.rows());
            row.put("standing", item != null && snapshot.runId() != null && snapshot.runId().equals(item.runId())
                    && snapshot.contentSha256() != null && snapshot.contentSha256().equals(sha256));
            rows.add(row);
        }
        return rows;
    }

    /** The explain section as lines for a terminal. */
    @SuppressWarnings("unchecked")
    static List<String> lines(Map<String, Object> view) {
        List<String> lines = new ArrayList<>();
        if (view == null) {
            lines.add("Table: nothing published, nothing for the table to hold");
            return lines;
        }
        boolean inStep = "in_step".equals(view.get("state"));
        lines.add("Table: " + (inStep ? "in step with the ledger" : "behind the ledger (" + view.get("reason") + ")"));
        if (view.get("snapshot_id") == null) {
            lines.add("  no snapshot recorded for the unit; the ledger's publish is run " + view.get("ledger_run_id"));
        } else {
            lines.add("  snapshot " + view.get("snapshot_id") + " committed " + view.get("committed_at") + " holds run "
                    + view.get("run_id") + (inStep ? "" : "; the ledger's publish is run " + view.get("ledger_run_id")));
        }
        if (view.get("last_error") != null) {
            lines.add("  the table writer last failed at " + view.get("failed_at") + ": " + view.get("last_error"));
        }
        Map<String, String> queries = (Map<String, String>) view.get("queries");
        if (queries != null) {
            lines.add("  Athena: " + queries.get("athena"));
            lines.add("  Spark:  " + queries.get("spark"));
        }
        return lines;
    }
}
