package io.landingledger.cli.ops;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnitCalendar;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.repair.RepairRequest;
import io.landingledger.core.repair.RepairResult;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.Console;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * {@code landing repair}: the repair job (docs/design.md section 6), the payload the repair function takes, run by
 * the same {@code RepairService} the RepairHandler runs, continuation followed. It always plans first (the dry run)
 * and shows the blast radius; it goes ahead only with {@code --yes} or a "yes" typed on a terminal.
 */
@Command(name = "repair", mixinStandardHelpOptions = true,
        description = {"Repair units (or record their omission, or accept their empty publish or suspect row count) with the same",
                "job the repair function",
                "runs: each unit through the",
                "ingest path with run_kind=REPAIR, ordering kept (an older version than the standing publish is `stale`).",
                "It first shows the plan (the dry run) with its blast radius: per unit what it reads, what it may write and,",
                "for a unit whose input changed, how many rows a republish would add, remove and change. Without --yes it asks",
                "on the terminal, and refuses when there is none.",
                "Over many datasets (--datasets a,b,c or --all-datasets): the same units (UNIT... or --from/--to) or, with --status,",
                "every unit the last sweep's _status/ table gives that status; one repair job per dataset, --parallel at once,",
                "one plan and one confirmation for all."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every unit was restored (or, with --dry-run, planned)", "1:some unit was not restored, or the operator said no",
                "2:usage error, no terminal to confirm on without --yes, no stack found, or an internal error"})
public final class RepairCommand extends OpsCommand {
    @Parameters(index = "0", arity = "0..1", paramLabel = "DATASET",
            description = "The dataset (with --datasets or --all-datasets, give no DATASET: every argument is a unit).")
    String dataset;

    @Option(names = "--datasets", split = ",", paramLabel = "NAME,...", description = "Repair these datasets, one repair job each.")
    List<String> datasets = new ArrayList<>();

    @Option(names = "--all-datasets", description = "Repair every active dataset, one repair job each.")
    boolean allDatasets;

    @Option(names = "--status", split = ",", paramLabel = "STATUS,...",
            description = "Over many datasets: every unit the last sweep's _status/ table gives one of these statuses (e.g. LEDGER_DRIFT,UNPROCESSED).")
    List<String> statuses = new ArrayList<>();

    @Option(names = "--parallel", paramLabel = "N", description = "Over many datasets: datasets repaired at once (default 4, at most 64).")
    int parallel = FleetRepair.DEFAULT_PARALLELISM;

    @Parameters(index = "1..*", arity = "0..*", paramLabel = "UNIT", description = "Units to repair (or give --from/--to).")
    List<String> units = new ArrayList<>();

    @Option(names = "--from", paramLabel = "UNIT", description = "First unit of a range.")
    String from;

    @Option(names = "--to", paramLabel = "UNIT", description = "Last unit of a range (default: the latest known).")
    String to;

    @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "Why (an incident or ticket): recorded in the history.")
    String reason;

    @Option(names = "--dry-run", description = "Show the plan and its blast radius; write nothing.")
    boolean dryRun;

    @Option(names = "--yes", description = "Go ahead without asking.")
    boolean yes;

    @Option(names = "--force", description = "Republish under the current contract even when the input is unchanged.")
    boolean force;

    @Option(names = "--forward", description = "Repair from the first unit named to the latest, in order, stopping at the first failure.")
    boolean forward;

    @Option(names = "--input-version", paramLabel = "recorded|latest", description = "The version the ledger recorded (default) or the inbox's newest.")
    String inputVersion = "recorded";

    @Option(names = "--omit", description = {"Record that the units are intentionally absent (only units with no",
            "publish; a unit the cadence cannot name, such as 2026-02-30, that an older build published: its object",
            "under published/ is removed first, with your credentials)."})
    boolean omit;

    @Option(names = "--accept-empty", description = {"Accept the units' empty publishes (0 rows) as legitimately empty days: EMPTY",
            "becomes EMPTY_ACCEPTED, which is complete. Recorded in the history with the reason; reversible with --revoke."})
    boolean acceptEmpty;

    @Option(names = "--accept-volume", description = {"Accept the units' row counts that the sweep found outside the expected band",
            "(SUSPECT_VOLUME) as what the units really held: they are complete while these rows stand (a republish of other",
            "rows is judged afresh). Recorded in the history with the reason; reversible with --revoke."})
    boolean acceptVolume;

    @Option(names = "--revoke", description = "With --accept-empty or --accept-volume: take the acceptance back (EMPTY or SUSPECT_VOLUME again).")
    boolean revoke;

    @Option(names = "--json", description = "The plan, blast radius and result as one JSON document on stdout.")
    boolean json;

    @Override
    int run() throws Exception {
        refuseContradictoryActions();
        if (allDatasets || !datasets.isEmpty()) {
            return runFleet();
        }
        if (dataset == null) {
            throw new IllegalArgumentException("name a DATASET, or give --datasets NAME,... or --all-datasets");
        }
        if (!statuses.isEmpty()) {
            throw new IllegalArgumentException("--status selects units over many datasets: give --datasets or --all-datasets");
        }
        DatasetContract contract = contract(dataset);
        if (!units.isEmpty() && (from != null || to != null)) {
            throw new IllegalArgumentException("give units or --from/--to, not both");
        }
        if (units.isEmpty() && from == null) {
            throw new IllegalArgumentException("name the units (landing repair DATASET UNIT...) or a range (--from UNIT [--to UNIT])");
        }
        RepairPages plan = repairJob(payload(true));
        List<Map<String, Object>> radius = blastRadius(contract, plan);
        boolean planned = plan.succeeded();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("target", resources.source());
        doc.put("command", commandLine());
        doc.put("plan", plan.documents());
        doc.put("blast_radius", radius);
        if (!json) {
            out.println("Plan (dry run, nothing written yet): " + commandLine());
            out.print(plan.table());
            out.println();
            out.print(radiusText(radius));
        }
        if (dryRun) {
            if (json) {
                printJson(doc);
            } else {
                out.println("Dry run: nothing was written. To go ahead: " + commandLine().replace(" --dry-run", "") + " --yes");
            }
            return planned ? 0 : 1;
        }
        if (!yes) {
            Console console = System.console();
            if (console == null) {
                err.println("landing repair: no terminal to confirm on; read the plan (add --dry-run) and rerun with --yes");
                return USAGE;
            }
            out.flush();
            String answer = console.readLine("Repair %d unit(s) of %s as planned above? Type yes to go ahead: ", radius.size(), dataset);
            if (answer == null || !answer.strip().equals("yes")) {
                err.println("landing repair: not confirmed; nothing was written");
                return 1;
            }
        }
        List<String> removed = removeInvalidUnitsPublishes(plan);
        RepairPages results = repairJob(payload(false));
        boolean succeeded = results.succeeded();
        if (json) {
            doc.put("removed", removed);
            doc.put("result", results.documents());
            doc.put("succeeded", succeeded);
            printJson(doc);
        } else {
            out.println();
            out.println("Result:");
            out.print(results.table());
            out.println(succeeded ? "Repaired: every unit listed was restored. `landing history " + dataset + " UNIT` shows the reason."
                    : "Not every unit was restored: see ACTION and REASON above.");
        }
        return succeeded ? 0 : 1;
    }

    /**
     * The action options that contradict each other, refused before anything is read, for one dataset and for many
     * alike (the fleet path once sent {@code --omit --force} on as an omission and dropped a lone {@code --revoke}).
     */
    private void refuseContradictoryActions() {
        if (revoke && !acceptEmpty && !acceptVolume) {
            throw new IllegalArgumentException("--revoke takes back an acceptance: use it with --accept-empty or --accept-volume");
        }
        int decisions = (omit ? 1 : 0) + (acceptEmpty ? 1 : 0) + (acceptVolume ? 1 : 0);
        if (decisions > 0 && (decisions > 1 || force || forward || !"recorded".equals(inputVersion))) {
            throw new IllegalArgumentException("--omit, --accept-empty and --accept-volume record an operator's decision and read no "
                    + "input: use one, without --force, --forward or --input-version");
        }
    }

    /**
     * Before an omission: the objects under {@code published/} of the planned units the dataset's cadence cannot name
     * (an older build published {@code 2026-02-30}), deleted with the operator's credentials, since no function may
     * delete from {@code published/} and an omitted unit, like any, has nothing there. The plan names each one (its
     * output); the repair function then records the omission. Returns the keys removed.
     */
    private List<String> removeInvalidUnitsPublishes(RepairPages plan) {
        List<String> removed = new ArrayList<>();
        if (!omit) {
            return removed;
        }
        UnitCalendar calendar = UnitCalendar.of(contract(dataset));
        for (RepairResult.UnitResult unit : plan.units()) {
            if ("planned".equals(unit.action()) && unit.output() != null && !calendar.canName(unit.unit())
                    && unit.output().equals(LakeLayout.publishedKey(dataset, unit.unit()))) {
                dependencies.objectStore().delete(resources.lakeBucket(), unit.output());
                removed.add(unit.output());
                if (!json) {
                    out.println("Removed s3://" + resources.lakeBucket() + "/" + unit.output() + " (" + unit.unit()
                            + " is not a unit of " + dataset + "; an omitted unit has nothing in published/)");
                }
            }
        }
        return removed;
    }

    private RepairRequest payload(boolean dry) {
        return payload(dataset, units, dry);
    }

    /** The repair function's payload: the same record the function reads, sent through the same codec. */
    private RepairRequest payload(String dataset, List<String> units, boolean dry) {
        return new RepairRequest(dataset, units, units.isEmpty() ? from : null, units.isEmpty() ? to : null,
                forward ? RepairRequest.Mode.FORWARD : RepairRequest.Mode.TARGETED, dry, force, reason,
                RepairRequest.InputVersion.of(inputVersion), RepairRequest.Action.of(action()));
    }

    /** Per planned unit: what it reads, what it may write and, for a changed input, the rows a republish changes. */
    private List<Map<String, Object>> blastRadius(DatasetContract contract, RepairPages plan) {
        BlastRadius blast = new BlastRadius(dependencies.objectStore(), resources.lakeBucket(), dependencies.config().validationLimits());
        List<Map<String, Object>> radius = new ArrayList<>();
        for (RepairResult.UnitResult unit : plan.units()) {
            LedgerItem item = dependencies.ledger().get(contract.dataset(), unit.unit()).orElse(null);
            try {
                radius.add(blast.of(contract, unit, item, force));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return radius;
    }

    // ---- over many datasets ---------------------------------------------------------------------------------------

    /** One dataset's plan: its units, the dry run and its blast radius. */
    private record DatasetPlan(String dataset, List<String> units, RepairPages plan, List<Map<String, Object>> radius) {
    }

    /**
     * {@code --datasets} / {@code --all-datasets}: the same plan, blast radius and confirmation as one dataset's
     * repair, fanned out: one repair job per dataset (on a deployed stack, the repair function's invocations for that
     * dataset, in order), at most {@code --parallel} datasets at once; one confirmation for the whole fleet.
     */
    private int runFleet() throws Exception {
        if (allDatasets && !datasets.isEmpty()) {
            throw new IllegalArgumentException("give --datasets or --all-datasets, not both");
        }
        List<String> named = new ArrayList<>(units);
        if (dataset != null) {
            named.add(0, dataset); // with --datasets every argument is a unit
        }
        int selections = (named.isEmpty() ? 0 : 1) + (from != null ? 1 : 0) + (statuses.isEmpty() ? 0 : 1);
        if (selections != 1) {
            throw new IllegalArgumentException("over many datasets, select the units one way: UNIT..., --from UNIT [--to UNIT], or --status STATUS,...");
        }
        List<String> chosen = allDatasets ? List.copyOf(dependencies.contracts().all().keySet()) : List.copyOf(datasets);
        Map<String, DatasetContract> contracts = new LinkedHashMap<>();
        chosen.forEach(name -> contracts.put(name, contract(name)));
        Map<String, List<String>> selected = new LinkedHashMap<>();
        for (String name : chosen) {
            List<String> picked = statuses.isEmpty() ? named : unitsWithStatus(name);
            if (!statuses.isEmpty() && picked.isEmpty()) {
                continue; // nothing of that status: no job for this dataset
            }
            selected.put(name, picked);
        }
        String command = fleetCommandLine();
        if (selected.isEmpty()) {
            out.println("Nothing to repair: no unit of " + chosen.size() + " dataset(s) has status " + String.join(" or ", statuses)
                    + " in the last sweep's _status/ tables.");
            return 0;
        }
        Map<String, FleetRepair.Outcome<DatasetPlan>> plans = FleetRepair.fanOut(List.copyOf(selected.keySet()), parallel, name -> {
            RepairPages plan = repairJob(payload(name, selected.get(name), true));
            return new DatasetPlan(name, selected.get(name), plan, blastRadius(contracts.get(name), plan));
        });
        boolean planned = true;
        boolean planFailed = false;
        int unitCount = 0;
        List<Map<String, Object>> planDocs = new ArrayList<>();
        if (!json) {
            out.println("Plan (dry run, nothing written yet): " + command);
        }
        for (Map.Entry<String, FleetRepair.Outcome<DatasetPlan>> entry : plans.entrySet()) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("dataset", entry.getKey());
            if (entry.getValue().failed()) {
                planned = false;
                planFailed = true;
                doc.put("error", failure(entry.getValue().failure()));
                if (!json) {
                    out.println();
                    out.println("== " + entry.getKey() + ": the plan failed: " + failure(entry.getValue().failure()));
                }
            } else {
                DatasetPlan plan = entry.getValue().value();
                planned &= plan.plan().succeeded();
                unitCount += plan.radius().size();
                doc.put("units", plan.units());
                doc.put("plan", plan.plan().documents());
                doc.put("blast_radius", plan.radius());
                if (!json) {
                    out.println();
                    out.println("== " + entry.getKey() + " (" + plan.radius().size() + " unit(s))");
                    out.print(plan.plan().table());
                    out.print(radiusText(plan.radius()));
                }
            }
            planDocs.add(doc);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("target", resources.source());
        doc.put("command", command);
        doc.put("datasets", planDocs);
        if (!json) {
            out.println();
            out.println("Fleet: " + unitCount + " unit(s) across " + plans.size() + " dataset(s), at most " + parallel + " dataset(s) at once.");
        }
        if (dryRun) {
            if (json) {
                printJson(doc);
            } else {
                out.println("Dry run: nothing was written. To go ahead: " + command.replace(" --dry-run", "") + " --yes");
            }
            return planned ? 0 : 1;
        }
        if (planFailed) {
            err.println("landing repair: a dataset's plan failed (above); nothing was written. Repair the others with --datasets,"
                    + " or read the plan with --dry-run");
            if (json) {
                printJson(doc);
            }
            return 1;
        }
        if (!yes) {
            Console console = System.console();
            if (console == null) {
                err.println("landing repair: no terminal to confirm on; read the plan (add --dry-run) and rerun with --yes");
                return USAGE;
            }
            out.flush();
            String answer = console.readLine("Repair %d unit(s) across %d dataset(s) as planned above? Type yes to go ahead: ", unitCount, plans.size());
            if (answer == null || !answer.strip().equals("yes")) {
                err.println("landing repair: not confirmed; nothing was written");
                return 1;
            }
        }
        Map<String, FleetRepair.Outcome<RepairPages>> results = FleetRepair.fanOut(List.copyOf(selected.keySet()), parallel,
                name -> repairJob(payload(name, selected.get(name), false)));
        boolean succeeded = true;
        List<Map<String, Object>> resultDocs = new ArrayList<>();
        if (!json) {
            out.println();
            out.println("Result:");
        }
        for (Map.Entry<String, FleetRepair.Outcome<RepairPages>> entry : results.entrySet()) {
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("dataset", entry.getKey());
            if (entry.getValue().failed()) {
                succeeded = false;
                result.put("error", failure(entry.getValue().failure()));
                if (!json) {
                    out.println("== " + entry.getKey() + ": failed: " + failure(entry.getValue().failure()));
                }
            } else {
                RepairPages pages = entry.getValue().value();
                succeeded &= pages.succeeded();
                result.put("result", pages.documents());
                result.put("succeeded", pages.succeeded());
                if (!json) {
                    out.println("== " + entry.getKey());
                    out.print(pages.table());
                }
            }
            resultDocs.add(result);
        }
        if (json) {
            doc.put("results", resultDocs);
            doc.put("succeeded", succeeded);
            printJson(doc);
        } else {
            out.println(succeeded ? "Repaired: every unit listed was restored, in every dataset."
                    : "Not every unit was restored: see the datasets above (ACTION and REASON, or the failure).");
        }
        return succeeded ? 0 : 1;
    }

    /** The units the last sweep's status table of {@code name} gives one of {@link #statuses} (none without a table). */
    private List<String> unitsWithStatus(String name) {
        try {
            byte[] table = dependencies.s3().getObjectAsBytes(r -> r.bucket(resources.lakeBucket()).key(LakeLayout.statusKey(name))).asByteArray();
            return FleetRepair.unitsWithStatus(table, Set.copyOf(statuses));
        } catch (NoSuchKeyException e) {
            err.println("landing repair: " + name + " has no status table yet (" + LakeLayout.statusKey(name) + "): no sweep has run; skipped");
            return List.of();
        }
    }

    private static String failure(Exception e) {
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private String fleetCommandLine() {
        StringBuilder text = new StringBuilder("landing repair");
        if (allDatasets) {
            text.append(" --all-datasets");
        } else {
            text.append(" --datasets ").append(String.join(",", datasets));
        }
        if (dataset != null) {
            text.append(' ').append(dataset);
        }
        units.forEach(u -> text.append(' ').append(u));
        if (from != null) {
            text.append(" --from ").append(from);
        }
        if (to != null) {
            text.append(" --to ").append(to);
        }
        if (!statuses.isEmpty()) {
            text.append(" --status ").append(String.join(",", statuses));
        }
        if (!"recorded".equals(inputVersion)) {
            text.append(" --input-version ").append(inputVersion);
        }
        if (force) {
            text.append(" --force");
        }
        if (forward) {
            text.append(" --forward");
        }
        // the action as the one-dataset command line spells it: the "to go ahead" hint must run what was planned
        switch (action()) {
            case "omit" -> text.append(" --omit");
            case "accept-empty" -> text.append(" --accept-empty");
            case "revoke-accept-empty" -> text.append(" --accept-empty --revoke");
            case "accept-volume" -> text.append(" --accept-volume");
            case "revoke-accept-volume" -> text.append(" --accept-volume --revoke");
            default -> {
            }
        }
        if (parallel != FleetRepair.DEFAULT_PARALLELISM) {
            text.append(" --parallel ").append(parallel);
        }
        text.append(" --reason ").append(quote(reason));
        if (dryRun) {
            text.append(" --dry-run");
        }
        return text.toString();
    }

    /** The payload's action for the options given. */
    private String action() {
        if (omit) {
            return "omit";
        }
        if (acceptEmpty) {
            return revoke ? "revoke-accept-empty" : "accept-empty";
        }
        if (acceptVolume) {
            return revoke ? "revoke-accept-volume" : "accept-volume";
        }
        return "repair";
    }

    /** The command as typed (normalised), for the plan's header and the "go ahead" hint. */
    String commandLine() {
        return repairCommand(dataset, units, from, to, reason, dryRun, force, forward, inputVersion, action());
    }

    /** @param action the payload's action: repair, omit, accept-empty, accept-volume or their revoke- forms */
    static String repairCommand(String dataset, List<String> units, String from, String to, String reason, boolean dryRun, boolean force,
                                boolean forward, String inputVersion, String action) {
        StringBuilder text = new StringBuilder("landing repair ").append(dataset);
        units.forEach(u -> text.append(' ').append(u));
        if (from != null) {
            text.append(" --from ").append(from);
        }
        if (to != null) {
            text.append(" --to ").append(to);
        }
        if (!"recorded".equals(inputVersion)) {
            text.append(" --input-version ").append(inputVersion);
        }
        if (force) {
            text.append(" --force");
        }
        if (forward) {
            text.append(" --forward");
        }
        switch (action) {
            case "omit" -> text.append(" --omit");
            case "accept-empty" -> text.append(" --accept-empty");
            case "revoke-accept-empty" -> text.append(" --accept-empty --revoke");
            case "accept-volume" -> text.append(" --accept-volume");
            case "revoke-accept-volume" -> text.append(" --accept-volume --revoke");
            default -> {
            }
        }
        text.append(" --reason ").append(quote(reason));
        if (dryRun) {
            text.append(" --dry-run");
        }
        return text.toString();
    }

    static String quote(String value) {
        return value.matches("[A-Za-z0-9_./:-]+") ? value : "'" + value.replace("'", "'\\''") + "'";
    }

    @SuppressWarnings("unchecked")
    static String radiusText(List<Map<String, Object>> radius) {
        StringBuilder text = new StringBuilder("Blast radius:\n");
        for (Map<String, Object> unit : radius) {
            text.append("  ").append(unit.get("unit")).append(": ").append(unit.get("expect")).append('\n');
            for (Object read : (List<Object>) unit.get("reads")) {
                text.append("    reads      ").append(read).append('\n');
            }
            for (Object write : (List<Object>) unit.get("may_write")) {
                text.append("    may write  ").append(write).append('\n');
            }
            Object rows = unit.get("rows");
            if (rows instanceof Map<?, ?> counts) {
                text.append("    rows       +").append(counts.get("add")).append(" added, -").append(counts.get("remove"))
                        .append(" removed, ~").append(counts.get("change")).append(" changed, ").append(counts.get("unchanged"))
                        .append(" unchanged (current ").append(counts.get("current_rows")).append(", republish ")
                        .append(counts.get("candidate_rows")).append(")").append(counts.containsKey("note") ? "; " + counts.get("note") : "")
                        .append('\n');
            } else if (rows != null) {
                text.append("    rows       ").append(rows).append('\n');
            }
        }
        return text.toString();
    }
}
