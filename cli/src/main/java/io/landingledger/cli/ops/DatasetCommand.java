package io.landingledger.cli.ops;

import io.landingledger.cli.odcs.ImportedContract;
import io.landingledger.cli.odcs.OdcsExport;
import io.landingledger.cli.odcs.OdcsImport;
import io.landingledger.cli.odcs.OdcsYaml;
import io.landingledger.core.contract.ContractEntry;
import io.landingledger.core.contract.ContractRefusedException;
import io.landingledger.core.contract.ContractRegistrar;
import io.landingledger.core.contract.ContractState;
import io.landingledger.core.contract.ContractTamperedException;
import io.landingledger.core.contract.ContractStore;
import io.landingledger.core.contract.ContractVersionExistsException;
import io.landingledger.core.contract.InvalidContractException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.glue.GlueClient;

/**
 * {@code landing dataset add|update|retire|list|show}: the datasets a stack serves, registered at run time in its
 * contract store (the lake's {@code _contracts/}, docs/contracts.md), with the operator's credentials. The functions
 * pick a change up within their contract cache's TTL, without a deploy. Every change is checked first (the loader's
 * errors, the next version, breaking changes) and then written as one conditional create: a refused change writes
 * nothing.
 */
@Command(name = "dataset", mixinStandardHelpOptions = true,
        description = {"Register, change, retire and read the datasets a stack serves (docs/contracts.md, Registering a dataset)."},
        subcommands = {DatasetCommand.Add.class, DatasetCommand.Update.class, DatasetCommand.Retire.class, DatasetCommand.ListDatasets.class,
                DatasetCommand.Show.class, DatasetCommand.Seal.class, DatasetCommand.Tables.class})
public final class DatasetCommand implements Runnable {
    static final int REFUSED = 1;
    static final String EXIT_CODES_CHANGE = "0:registered";

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
    }

    /** What the three changes share: the reason, the refusal rule (exit 1, one line per problem, nothing written). */
    abstract static class Change extends OpsCommand {
        @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "Why (recorded with the version).")
        String reason;

        @Mixin
        JsonOption output;

        @Override
        final int run() throws Exception {
            ContractRegistrar registrar = new ContractRegistrar(dependencies.contractStore(), Clock.systemUTC());
            ContractRegistrar.Registration registration;
            try {
                registration = change(registrar);
            } catch (InvalidContractException e) {
                err.println("landing dataset " + spec.name() + ": refused, nothing written: " + e.getMessage());
                return REFUSED;
            } catch (ContractRefusedException e) {
                err.println("landing dataset " + spec.name() + ": refused, nothing written: " + e.getMessage());
                e.changes().forEach(change -> err.println("  " + change));
                return REFUSED;
            } catch (ContractVersionExistsException e) {
                err.println("landing dataset " + spec.name() + ": refused, nothing written: " + e.getMessage());
                return REFUSED;
            }
            ContractEntry entry = registration.entry();
            List<String> tables = List.of();
            String tablesError = null;
            if (entry.state() == ContractState.ACTIVE) {
                try {
                    tables = readerTables(entry);
                } catch (RuntimeException e) {
                    // the registration stands (it is what the functions read); only the readers' catalog lags
                    tablesError = e.getClass().getSimpleName() + ": " + e.getMessage();
                }
            }
            if (output.json) {
                Map<String, Object> doc = entryDocument(entry, resources.source());
                doc.put("previous_version", registration.previous().map(ContractEntry::version).orElse(null));
                doc.put("breaking_changes", registration.breaking());
                doc.put("in_force_within_seconds", resources.config().contractCache().ttl().toSeconds());
                doc.put("reader_tables", tables);
                doc.put("reader_tables_error", tablesError);
                printJson(doc);
            } else {
                out.println(entry.dataset() + ": version " + entry.version() + " " + entry.state().wireName() + " (" + entry.reason() + ")"
                        + registration.previous().map(p -> ", after version " + p.version()).orElse("") + ".");
                registration.breaking().forEach(change -> out.println("  breaking, allowed: " + change));
                out.println("In force in every function within " + resources.config().contractCache().ttl().toSeconds()
                        + " s (their contract cache's time to live); target: " + resources.source() + ".");
                tables.forEach(table -> out.println("Reader table " + table + "."));
            }
            if (tablesError != null) {
                err.println("landing dataset " + spec.name() + ": registered, but the reader tables were not made (" + tablesError
                        + "); make them with: landing dataset tables " + entry.dataset() + " --stack ...");
                return USAGE;
            }
            return 0;
        }

        abstract ContractRegistrar.Registration change(ContractRegistrar registrar) throws IOException;

        private List<String> readerTables(ContractEntry entry) {
            return DatasetCommand.readerTables(this, entry);
        }

        /**
         * Registers FILE through {@code registration}: as it is, or, with --odcs, the contract its ODCS document maps
         * to (an error in the mapped contract then names the document's element).
         */
        static ContractRegistrar.Registration register(Path file, boolean odcs, ContractFunction registration)
                throws IOException {
            if (!odcs) {
                return registration.apply(read(file));
            }
            ImportedContract imported = OdcsImport.read(file.toString(), read(file));
            try {
                return registration.apply(imported.contractJson());
            } catch (InvalidContractException e) {
                throw imported.locate(e);
            }
        }

        /** One registrar call on a contract's bytes. */
        @FunctionalInterface
        interface ContractFunction {
            ContractRegistrar.Registration apply(byte[] contractJson);
        }

        static byte[] read(Path file) throws IOException {
            try {
                return Files.readAllBytes(file);
            } catch (NoSuchFileException e) {
                throw new IllegalArgumentException("no such file: " + file);
            }
        }
    }

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = {"Register a new dataset (or make a retired one active again) from a contract FILE whose \"version\" is",
                    "the dataset's next (1 for a new one). Its files are taken within the functions' contract cache TTL."},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:registered", "1:refused, nothing written (invalid contract, wrong version, registered already, breaking"
                    + " change without --allow-breaking, another operator's change won)", "2:usage or target error, or an internal error"})
    public static final class Add extends Change {
        @Parameters(index = "0", paramLabel = "FILE", description = "The contract (docs/contracts.md).")
        Path file;

        @Option(names = "--allow-breaking", description = "Re-adding a retired dataset: allow a change to what its published units are.")
        boolean allowBreaking;

        @Option(names = "--odcs", description = {
            "FILE is an Open Data Contract Standard v3 document (YAML), checked against the",
            "standard's JSON Schema and mapped to a contract (docs/contracts.md, Open Data Contract Standard)."})
        boolean odcs;

        @Override
        ContractRegistrar.Registration change(ContractRegistrar registrar) throws IOException {
            return register(file, odcs, json -> registrar.add(file.toString(), json, reason, allowBreaking));
        }
    }

    @Command(name = "update", mixinStandardHelpOptions = true,
            description = {"Change an active dataset's contract: FILE's \"version\" must be the dataset's next. A change to what",
                    "published units are (format, key, unit pattern, cadence or first unit, a listed unit, a field dropped or",
                    "retyped) is refused unless --allow-breaking (then repair the published units with --force)."},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:registered", "1:refused, nothing written (invalid contract, wrong version, not registered or retired,"
                    + " breaking change without --allow-breaking, another operator's change won)", "2:usage or target error, or an internal error"})
    public static final class Update extends Change {
        @Parameters(index = "0", paramLabel = "FILE", description = "The contract (docs/contracts.md).")
        Path file;

        @Option(names = "--allow-breaking", description = "Allow a change to what the published units are (listed on the output).")
        boolean allowBreaking;

        @Option(names = "--odcs", description = "FILE is an ODCS v3 document (YAML), as for add.")
        boolean odcs;

        @Override
        ContractRegistrar.Registration change(ContractRegistrar registrar) throws IOException {
            return register(file, odcs, json -> registrar.update(file.toString(), json, reason, allowBreaking));
        }
    }

    @Command(name = "retire", mixinStandardHelpOptions = true,
            description = {"Retire a dataset: its new files are unroutable (RETIRED_DATASET) and the sweep leaves it out; its",
                    "ledger, history and publishes stay. `landing dataset add` makes it active again."},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:retired", "1:refused, nothing written (not registered, retired already, another change won)",
                    "2:usage or target error, or an internal error"})
    public static final class Retire extends Change {
        @Parameters(index = "0", paramLabel = "DATASET")
        String dataset;

        @Override
        ContractRegistrar.Registration change(ContractRegistrar registrar) {
            return registrar.retire(dataset, reason);
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = {"Every registered dataset: its newest version, state, since when and why."},
            exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:listed", "2:usage or target error, or an internal error"})
    public static final class ListDatasets extends OpsCommand {
        @Option(names = "--all", description = "Retired datasets too.")
        boolean all;

        @Mixin
        JsonOption output;

        @Override
        int run() throws IOException {
            ContractStore store = dependencies.contractStore();
            List<ContractEntry> latest = new ArrayList<>();
            for (String dataset : store.datasets()) {
                store.latest(dataset).filter(e -> all || e.state() == ContractState.ACTIVE).ifPresent(latest::add);
            }
            if (output.json) {
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("target", resources.source());
                doc.put("datasets", latest.stream().map(e -> entryDocument(e, null)).toList());
                printJson(doc);
                return 0;
            }
            List<String[]> lines = new ArrayList<>();
            lines.add(new String[] {"DATASET", "VERSION", "STATE", "SINCE", "REASON"});
            latest.forEach(e -> lines.add(new String[] {e.dataset(), Integer.toString(e.version()), e.state().wireName(), e.at().toString(), e.reason()}));
            out.print(table(lines));
            return 0;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = {"A dataset's contract in force (or --version N), as registered, and its history of",
                    "versions. A version whose bytes do not match its registration record is listed with",
                    "CONTRACT_TAMPERED (CONTRACT_UNSEALED without one), never shown as a contract: the functions",
                    "refuse it too."},
            exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:shown",
                    "1:no such dataset or version, or a version refused (CONTRACT_TAMPERED, CONTRACT_UNSEALED)",
                    "2:usage or target error, or an internal error"})
    public static final class Show extends OpsCommand {
        @Parameters(index = "0", paramLabel = "DATASET")
        String dataset;

        @Option(names = "--version", paramLabel = "N", description = "One version instead of the newest.")
        Integer version;

        @Option(names = "--odcs", description = {
            "Print only the version as an Open Data Contract Standard v3.1.0 document (YAML),",
            "which landing dataset add --odcs reads back to the same contract."})
        boolean odcs;

        @Mixin
        JsonOption output;

        @Override
        int run() throws IOException {
            if (odcs && output.json) {
                throw new IllegalArgumentException("give --odcs or --json, not both");
            }
            ContractStore store = dependencies.contractStore();
            // version by version (they count 1, 2, ...), so one refused version is shown as such among the others
            List<ContractEntry> history = new ArrayList<>();
            List<ContractTamperedException> refused = new ArrayList<>();
            for (int v = 1; ; v++) {
                try {
                    Optional<ContractEntry> entry = store.version(dataset, v);
                    if (entry.isEmpty()) {
                        break;
                    }
                    history.add(entry.get());
                } catch (ContractTamperedException e) {
                    refused.add(e);
                }
            }
            int newest = history.size() + refused.size();
            int wanted = version == null ? newest : version;
            Optional<ContractTamperedException> wantedRefused = refused.stream()
                    .filter(e -> e.version() == wanted).findFirst();
            Optional<ContractEntry> shown = history.stream().filter(e -> e.version() == wanted).findFirst();
            if (shown.isEmpty() && wantedRefused.isEmpty()) {
                err.println("landing dataset show: " + (newest == 0
                        ? dataset + " is not registered (landing dataset list)"
                        : dataset + " has no version " + version + " (versions 1-" + newest + ")"));
                return REFUSED;
            }
            refused.forEach(e -> err.println("landing dataset show: " + e.getMessage()));
            if (odcs) {
                if (shown.isEmpty()) {
                    err.println("landing dataset show: " + dataset + " version " + wanted + " is "
                            + wantedRefused.get().code()
                            + ": not exported (it is not what was registered; the functions refuse it)");
                    return REFUSED;
                }
                out.print(OdcsYaml.write(OdcsExport.of(shown.get())));
                return refused.isEmpty() ? 0 : REFUSED;
            }
            if (output.json) {
                Map<String, Object> doc = shown.map(entry -> {
                    Map<String, Object> d = entryDocument(entry, resources.source());
                    d.put("contract", entry.contractJson());
                    return d;
                }).orElseGet(() -> refusedDocument(wantedRefused.orElseThrow(), resources.source()));
                List<Map<String, Object>> versions = new ArrayList<>();
                history.forEach(e -> versions.add(entryDocument(e, null)));
                refused.forEach(e -> versions.add(refusedDocument(e, null)));
                versions.sort(java.util.Comparator.comparingInt(d -> ((Number) d.get("version")).intValue()));
                doc.put("history", versions);
                printJson(doc);
                return refused.isEmpty() ? 0 : REFUSED;
            }
            if (shown.isPresent()) {
                ContractEntry entry = shown.get();
                out.println(entry.dataset() + " version " + entry.version() + " (" + entry.state().wireName()
                        + " since " + entry.at() + "): " + entry.reason());
                out.println(entry.state() == ContractState.RETIRED
                        ? "The contract in force before the retirement:" : "Contract:");
                out.println(entry.contractJson().stripTrailing());
            } else {
                out.println(dataset + " version " + wanted + ": " + wantedRefused.get().code()
                        + " (not shown: it is not what was registered; the functions refuse it)");
            }
            out.println("History:");
            for (int v = 1; v <= newest; v++) {
                int at = v;
                history.stream().filter(e -> e.version() == at).findFirst().ifPresentOrElse(
                        e -> out.println("  v" + e.version() + "  " + e.state().wireName() + "  " + e.at()
                                + "  " + e.reason()),
                        () -> refused.stream().filter(e -> e.version() == at).findFirst()
                                .ifPresent(e -> out.println("  v" + at + "  " + e.code())));
            }
            return refused.isEmpty() ? 0 : REFUSED;
        }

        private static Map<String, Object> refusedDocument(ContractTamperedException e, String target) {
            Map<String, Object> doc = new LinkedHashMap<>();
            if (target != null) {
                doc.put("target", target);
            }
            doc.put("dataset", e.dataset());
            doc.put("version", e.version());
            doc.put("state", "refused");
            doc.put("code", e.code());
            return doc;
        }
    }

    @Command(name = "seal", mixinStandardHelpOptions = true,
            description = {"Create the registration record of a version shown CONTRACT_UNSEALED (a registration cut short, or",
                    "one made before versions had records), after you checked its content: only when its stored bytes",
                    "hash to --sha256 (e.g. `aws s3 cp` the version, read it, `sha256sum` it). A record is never",
                    "replaced, so a CONTRACT_TAMPERED version stays refused (docs/operations.md, A contract version",
                    "refused)."},
            exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:sealed: the version reads again",
                    "1:refused, nothing written (no such version, sealed already, the content hashes otherwise)",
                    "2:usage or target error, or an internal error"})
    public static final class Seal extends OpsCommand {
        @Parameters(index = "0", paramLabel = "DATASET")
        String dataset;

        @Option(names = "--version", required = true, paramLabel = "N", description = "The version to seal.")
        int version;

        @Option(names = "--sha256", required = true, paramLabel = "HEX",
                description = "The SHA-256 of the version's bytes as you checked them (64 hex digits).")
        String sha256;

        @Override
        int run() {
            if (!sha256.strip().matches("[0-9a-fA-F]{64}")) {
                throw new IllegalArgumentException("--sha256 takes 64 hex digits (sha256sum's first column)");
            }
            ContractStore.SealOutcome outcome = dependencies.contractStore().seal(dataset, version, sha256);
            String what = dataset + " version " + version;
            switch (outcome) {
                case SEALED -> out.println(what + ": sealed; the functions read it again within "
                        + resources.config().contractCache().ttl().toSeconds() + " s (target: " + resources.source() + ").");
                case ALREADY_SEALED -> err.println("landing dataset seal: refused, nothing written: " + what
                        + " has a registration record already (a record is never replaced; landing dataset show " + dataset + ")");
                case NO_SUCH_VERSION -> err.println("landing dataset seal: refused, nothing written: " + what + " does not exist");
                case CONTENT_DIFFERS -> err.println("landing dataset seal: refused, nothing written: " + what
                        + " is not the content you checked (its bytes hash otherwise)");
                default -> throw new IllegalStateException(outcome.name());
            }
            return outcome == ContractStore.SealOutcome.SEALED ? 0 : REFUSED;
        }
    }

    @Command(name = "tables", mixinStandardHelpOptions = true,
            description = {"Create or update a dataset's reader tables (<dataset>, <dataset>_status) in the stack's Glue database from",
                    "the contract in force, as add and update do (docs/readers.md). Only a --stack target has a catalog."},
            exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:made", "1:the dataset is not active",
                    "2:usage or target error, no catalog on this target, or an internal error"})
    public static final class Tables extends OpsCommand {
        @Parameters(index = "0", paramLabel = "DATASET")
        String dataset;

        @Override
        int run() {
            Optional<ContractEntry> latest = dependencies.contractStore().latest(dataset);
            if (latest.isEmpty() || latest.get().state() != ContractState.ACTIVE) {
                err.println("landing dataset tables: " + dataset + " is not active (landing dataset list)");
                return REFUSED;
            }
            List<String> tables = readerTables(this, latest.get());
            if (tables.isEmpty()) {
                throw new IllegalArgumentException("no Glue catalog on this target (" + resources.source() + "): give --stack NAME");
            }
            tables.forEach(table -> out.println("Reader table " + table + "."));
            return 0;
        }
    }

    /** The entry's reader tables made in the stack's Glue database; none (empty) on a target without a catalog. */
    static List<String> readerTables(OpsCommand command, ContractEntry entry) {
        Optional<String> database = command.target.readerDatabase(command.resources.region());
        if (database.isEmpty()) {
            return List.of();
        }
        try (GlueClient glue = GlueClient.builder().region(command.resources.region())
                .httpClientBuilder(UrlConnectionHttpClient.builder()).build()) {
            return GlueReaderTables.apply(glue, database.get(), command.resources.lakeBucket(), entry.contract().orElseThrow());
        }
    }

    static Map<String, Object> entryDocument(ContractEntry entry, String target) {
        Map<String, Object> doc = new LinkedHashMap<>();
        if (target != null) {
            doc.put("target", target);
        }
        doc.put("dataset", entry.dataset());
        doc.put("version", entry.version());
        doc.put("state", entry.state().wireName());
        doc.put("at", entry.at().toString());
        doc.put("reason", entry.reason());
        return doc;
    }
}
