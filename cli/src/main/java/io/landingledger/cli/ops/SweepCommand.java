package io.landingledger.cli.ops;

import io.landingledger.core.sweep.SweepRequest;
import io.landingledger.core.sweep.SweepResult;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.sweep.CompletenessSweep;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code landing sweep}: the scheduled sweep run now, through the same handler class (re-drives, reports under
 * {@code _reports/completeness/}).
 */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = {"Run the completeness sweep now, as the schedule runs it: classify, re-drive unprocessed and drifted units",
                "(autoRedrive), and write the JSON and HTML reports under _reports/completeness/<dataset>/.",
                "Range: --from/--to, by default the first to the last unit the stack knows (as `landing local` sweeps)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every dataset swept is complete",
                "1:some dataset is not complete (a unit fails completeness,"
                        + " or the ledger holds an INVALID_UNIT not yet omitted)",
                "2:usage error, no stack found, or an internal error"})
public final class SweepCommand extends OpsCommand {
    @Parameters(index = "0", arity = "0..1", paramLabel = "DATASET", description = "One dataset (default: every contract).")
    String dataset;

    @Mixin
    UnitRangeOptions unitRange;

    @Option(names = "--json", description = "The sweep handler's result as one JSON document on stdout.")
    boolean json;

    @Override
    @SuppressWarnings("unchecked")
    int run() throws Exception {
        List<Object> results = new ArrayList<>();
        boolean complete = true;
        for (DatasetContract contract : datasets(dataset)) {
            CompletenessSweep.Range range = knownRange(contract, unitRange.from, unitRange.to);
            if (range == null) {
                continue;
            }
            SweepResult result = sweepJob(new SweepRequest.Payload(List.of(contract.dataset()), range.from(),
                    range.from() == null ? null : range.to()));
            complete &= result.complete();
            results.addAll(result.datasets());
        }
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("complete", complete);
            doc.put("datasets", results);
            printJson(doc);
            return complete ? 0 : 1;
        }
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"DATASET", "UNIT", "STATUS", "REASON", "REDRIVE"});
        List<String> reports = new ArrayList<>();
        for (Object d : results) {
            Map<String, Object> summary = (Map<String, Object>) d;
            Map<String, String> redriven = new LinkedHashMap<>();
            for (Object r : (List<Object>) summary.getOrDefault("redrives", List.of())) {
                Map<String, Object> redrive = (Map<String, Object>) r;
                String to = redrive.get("target") == null ? "" : " to " + redrive.get("target"); // the table queue
                redriven.put(String.valueOf(redrive.get("unit")), redrive.get("action") + to + " -> " + redrive.get("status_after"));
            }
            for (Object u : (List<Object>) summary.getOrDefault("not_ok", List.of())) {
                Map<String, Object> unit = (Map<String, Object>) u;
                lines.add(new String[] {text(summary.get("dataset")), text(unit.get("unit")), text(unit.get("status")), text(unit.get("reason")),
                        text(redriven.remove(String.valueOf(unit.get("unit"))))});
            }
            redriven.forEach((unit, what) -> lines.add(new String[] {text(summary.get("dataset")), unit, "OK", "-", what}));
            // ledger items that are not units (INVALID_UNIT until omitted): listed apart from the expected units
            for (Object u : (List<Object>) summary.getOrDefault("invalid_units", List.of())) {
                Map<String, Object> unit = (Map<String, Object>) u;
                lines.add(new String[] {text(summary.get("dataset")), text(unit.get("unit")), text(unit.get("status")),
                    text(unit.get("reason")), "-"});
            }
            Object keys = summary.get("reports");
            if (keys instanceof Map<?, ?> map) {
                reports.add(summary.get("dataset") + ": s3://" + resources.lakeBucket() + "/" + map.get("latest_html"));
            }
        }
        out.print(table(lines));
        out.println(complete ? "Complete: no unit fails completeness." : "Not complete: the units above need a look.");
        reports.forEach(r -> out.println("Report " + r));
        return complete ? 0 : 1;
    }
}
