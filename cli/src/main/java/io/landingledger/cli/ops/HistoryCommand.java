package io.landingledger.cli.ops;

import io.landingledger.core.ledger.HistoryEntry;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code landing history DATASET UNIT}: the unit's LedgerHistory items, oldest first (one Query). */
@Command(name = "history", mixinStandardHelpOptions = true,
        description = "A unit's history items, oldest first: publishes, refusals, repairs (with their reasons), omissions and run kinds.",
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:printed (possibly no items)", "2:usage error, no stack found, or an internal error"})
public final class HistoryCommand extends UnitCommand {
    @Mixin
    JsonOption output;

    @Override
    int run() throws Exception {
        contract(dataset);
        List<Map<String, Object>> items = items(dependencies.ledger().history(dataset, unit));
        if (output.json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("dataset", dataset);
            doc.put("unit", unit);
            doc.put("history", items);
            printJson(doc);
            return 0;
        }
        if (items.isEmpty()) {
            out.println("No history for " + dataset + "/" + unit + ".");
            return 0;
        }
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"AT", "ACTION", "RUN_KIND", "RUN_ID", "INPUT", "ROWS", "CONTRACT", "REASON"});
        for (Map<String, Object> item : items) {
            lines.add(new String[] {text(item.get("at")), text(item.get("action")), text(item.get("run_kind")),
                    StatusCommand.shortVersion((String) item.get("run_id")), text(item.get("input")), text(item.get("rows")),
                    text(item.get("contract_version")), text(item.get("reason"))});
        }
        out.print(table(lines));
        return 0;
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
