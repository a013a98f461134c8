package io.landingledger.cli.ops;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.cli.stack.RemoteRepair;
import io.landingledger.cli.stack.RemoteSweep;
import io.landingledger.core.contract.Cadence;
import io.landingledger.core.contract.ContractLookup;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnitCalendar;
import io.landingledger.core.ingest.Deadline;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.repair.RepairRequest;
import io.landingledger.core.repair.RepairResult;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.SweepRequest;
import io.landingledger.core.sweep.SweepResult;
import io.landingledger.lambda.DatasetMetrics;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.OutcomeReporter;
import io.landingledger.lambda.handlers.CompletenessSweepHandler;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import software.amazon.awssdk.services.lambda.LambdaClient;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.Callable;

/**
 * What the operator commands share: the target (a {@link TargetOptions} mixin), the SDK clients and services built
 * exactly as the functions build theirs ({@link DependencyFactory}), stdout for the result and stderr for the rest,
 * and one error rule: a usage, target or infrastructure problem prints one line and exits 2.
 */
abstract class OpsCommand implements Callable<Integer> {
    static final int USAGE = 2;

    @Mixin
    TargetOptions target;

    @Spec
    CommandSpec spec;

    PrintWriter out;
    PrintWriter err;
    Resources resources;
    DependencyFactory dependencies;

    @Override
    public final Integer call() {
        out = spec.commandLine().getOut();
        err = spec.commandLine().getErr();
        try {
            resources = target.resolve();
            try (DependencyFactory built = DependencyFactory.create(resources.config())) {
                dependencies = built;
                return run();
            }
        } catch (TargetOptions.TargetException | IllegalArgumentException e) {
            err.println("landing " + spec.name() + ": " + e.getMessage());
            return USAGE;
        } catch (Exception e) {
            // names and classes only: an SDK message can quote a request, never a row, but stay short
            err.println("landing " + spec.name() + ": " + e.getClass().getSimpleName() + ": " + e.getMessage() + " (target: "
                    + (resources == null ? "unresolved" : resources.source()) + ")");
            return USAGE;
        } finally {
            out.flush();
            err.flush();
        }
    }

    abstract int run() throws Exception;

    /**
     * True when the target publishes into tables: its stack names a table catalog (Resources#tables, from its outputs),
     * or its sweep judges the tables (a function built with the table queue).
     */
    boolean targetHasTables() {
        return resources.tables().isPresent() || dependencies.sweep().tables() != null;
    }

    DatasetContract contract(String dataset) {
        return dependencies.contracts().get(dataset).orElseThrow(() -> new IllegalArgumentException(
                dependencies.contracts().lookup(dataset) instanceof ContractLookup.Retired retired ? retired.detail()
                        : "unknown dataset \"" + dataset + "\" (landing dataset list names the registered ones)"));
    }

    List<DatasetContract> datasets(String dataset) {
        return dataset == null ? List.copyOf(dependencies.contracts().all().values()) : List.of(contract(dataset));
    }

    /**
     * The range a command looks at when none is given: the first to the last unit the stack knows (a ledger item, an
     * inbox input or a published object), as {@code landing local} sweeps it, so a gap shows as MISSING; an end given
     * replaces its side. Without an end given, the range stops at the unit that contains now: a unit named further
     * ahead ({@code progress-9999-12-31.jsonl} is a real date) would stretch it over millions of units that have not
     * begun ({@link #unitsAhead} lists those the stack holds). Null when the stack knows no unit of the dataset and no
     * end is given.
     */
    CompletenessSweep.Range knownRange(DatasetContract contract, String from, String to) {
        if (contract.unit().cadence() == Cadence.LIST) {
            return CompletenessSweep.range(contract, from, to, Instant.now());
        }
        TreeSet<String> known = knownUnits(contract);
        String begun = UnitCalendar.of(contract).unitAt(Instant.now());
        if (to == null) {
            known.removeIf(unit -> unit.compareTo(begun) > 0);
        }
        if (known.isEmpty() && (from == null || to == null)) {
            return null;
        }
        String start = from != null ? from : known.first();
        String end = to != null ? to : known.last();
        if (start.compareTo(end) > 0) {
            end = start;
        }
        return CompletenessSweep.range(contract, start, end, Instant.now());
    }

    /**
     * The units the stack knows after the unit that contains now, from {@code from} on, when no end is given (none
     * otherwise): {@link #knownRange} stops before them, and status answers for each on its own.
     */
    List<String> unitsAhead(DatasetContract contract, String from, String to) {
        if (contract.unit().cadence() == Cadence.LIST || to != null) {
            return List.of();
        }
        String begun = UnitCalendar.of(contract).unitAt(Instant.now());
        String after = from != null && from.compareTo(begun) > 0 ? from : begun; // a from ahead is the range's one unit
        return knownUnits(contract).stream().filter(unit -> unit.compareTo(after) > 0).toList();
    }

    /** Every unit of the dataset the stack knows (ledger, inbox, published) that its cadence can name. */
    private TreeSet<String> knownUnits(DatasetContract contract) {
        TreeSet<String> known = new TreeSet<>();
        for (LedgerItem item : dependencies.ledger().items(contract.dataset(), null, null)) {
            known.add(item.unit());
        }
        known.addAll(dependencies.router().newestInputs(dependencies.objectStore().versions(resources.inboxBucket(), contract.dataset() + "/"),
                contract.dataset(), (version, reason) -> { }).keySet());
        String prefix = LakeLayout.publishedDatasetPrefix(contract.dataset());
        for (var object : dependencies.objectStore().list(resources.lakeBucket(), prefix)) {
            int slash = object.key().indexOf('/', prefix.length());
            if (slash > 0) {
                known.add(object.key().substring(prefix.length(), slash));
            }
        }
        // a unit the cadence cannot name (2026-02-30, recorded before routing refused it as UNIT_INVALID) bounds no
        // range: status lists it apart (CompletenessSweep#invalidUnits), and every other unit is still answered for
        known.removeIf(unit -> !UnitCalendar.of(contract).canName(unit));
        return known;
    }

    /**
     * The repair job (docs/design.md section 6), run as the repair function runs it: the {@link RepairRequest},
     * {@code RepairService}, and its continuation followed until done. Locally in process; on a deployed stack
     * ({@link Resources#repairFunction()} set) the repair function runs it: {@link RemoteRepair}, one invocation per
     * page at the live alias, no retries.
     */
    RepairPages repairJob(RepairRequest request) {
        if (resources.repairFunction().isPresent()) {
            try (LambdaClient lambda = TargetOptions.lambdaClient(resources.region(), RemoteRepair.FUNCTION_TIMEOUT);
                 RemoteRepair repair = new RemoteRepair(lambda, resources.repairFunction().get())) {
                return RepairPages.remote(repair.run(request));
            }
        }
        List<RepairResult> results = new ArrayList<>();
        RepairRequest next = request;
        while (next != null) {
            RepairResult result = dependencies.repairService().run(next, Deadline.NONE, () -> UUID.randomUUID().toString());
            results.add(result);
            next = result.continuation();
        }
        return new RepairPages(results);
    }

    /**
     * The sweep job, as the scheduled sweep runs it (CompletenessSweepHandler over the payload): re-drives in process,
     * reports written under {@code _reports/}. On a deployed stack the sweep function runs it ({@link RemoteSweep}:
     * one invocation at the live alias, no retries).
     */
    SweepResult sweepJob(SweepRequest.Payload payload) {
        if (resources.sweepFunction().isPresent()) {
            try (LambdaClient lambda = TargetOptions.lambdaClient(resources.region(), RemoteSweep.FUNCTION_TIMEOUT);
                 RemoteSweep sweep = new RemoteSweep(lambda, resources.sweepFunction().get())) {
                return sweep.run(payload);
            }
        }
        CompletenessSweepHandler handler = new CompletenessSweepHandler(dependencies.contracts(), dependencies.sweep(),
                DatasetMetrics.to(new PrintStream(OutputStream.nullOutputStream())), progressReporter());
        return handler.handle(payload, null);
    }

    /** Each re-drive's or repair's outcome as one line on stderr: names, counts and codes only. */
    OutcomeReporter progressReporter() {
        return new OutcomeReporter() {
            @Override
            public void outcome(IngestOutcome outcome) {
                err.printf("  %-9s %s/%s  %s%n", outcome.action().name().toLowerCase(Locale.ROOT), outcome.dataset(), outcome.unit(),
                        outcome.refusalCode() != null ? outcome.refusalCode()
                                : outcome.accepted() + " rows, " + outcome.rejected() + " rejected");
            }

            @Override
            public void unroutable(String bucket, String key, String versionId, String reason, String detail) {
                err.printf("  unroutable %s  %s%n", key, reason);
            }

            @Override
            public void failed(String bucket, String key, String versionId, String runId, RuntimeException fault) {
                err.printf("  failed %s  %s%n", key, fault.getClass().getSimpleName());
            }
        };
    }

    void printJson(Object value) throws IOException {
        out.println(JSON.std.with(JSON.Feature.PRETTY_PRINT_OUTPUT).asString(Plain.of(value)));
    }

    static String table(List<String[]> lines) {
        int columns = lines.get(0).length;
        int[] widths = new int[columns];
        for (String[] line : lines) {
            for (int i = 0; i < columns; i++) {
                widths[i] = Math.max(widths[i], line[i].length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (String[] line : lines) {
            for (int i = 0; i < columns; i++) {
                text.append(line[i]);
                if (i < columns - 1) {
                    text.append(" ".repeat(widths[i] - line[i].length() + 2));
                }
            }
            text.append('\n');
        }
        return text.toString();
    }

    static String text(Object value) {
        return value == null ? "-" : value.toString();
    }

    /** Seconds as 3d4h, 5h12m, 7m, 42s. */
    static String duration(Long seconds) {
        if (seconds == null) {
            return "-";
        }
        long s = Math.abs(seconds);
        String sign = seconds < 0 ? "-" : "";
        if (s >= 86400) {
            return sign + s / 86400 + "d" + (s % 86400) / 3600 + "h";
        }
        if (s >= 3600) {
            return sign + s / 3600 + "h" + (s % 3600) / 60 + "m";
        }
        if (s >= 60) {
            return sign + s / 60 + "m";
        }
        return sign + s + "s";
    }
}
