package io.landingledger.tools;

import io.landingledger.cli.Landing;
import io.landingledger.tools.bench.BenchCommand;
import io.landingledger.tools.bench.GenerateCommand;
import io.landingledger.tools.bench.fleet.FleetSimCommand;
import io.landingledger.tools.local.LocalCommand;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code landing} command of a checkout: the operator's commands and the developer's (local, gen, bench,
 * fleet-sim) on one command line. {@code ./landing} runs this jar for the developer's commands and for help, and the
 * operator's own, smaller jar for the rest.
 */
@Command(name = "landing", mixinStandardHelpOptions = true, version = "landing 0.1.0",
        description = "Landing Ledger: validate inbox files, run the pipeline locally, operate a stack (status, explain, repair, sweep, history), measure it.")
public final class LandingTools {
    /** Every subcommand, in the order help lists them. */
    public static final Map<String, Class<?>> SUBCOMMANDS = subcommands();

    private LandingTools() {
    }

    private static Map<String, Class<?>> subcommands() {
        Map<String, Class<?>> all = new LinkedHashMap<>();
        all.put("validate", Landing.SUBCOMMANDS.get("validate"));
        all.put("gen", GenerateCommand.class);
        all.put("bench", BenchCommand.class);
        all.put("fleet-sim", FleetSimCommand.class);
        all.put("local", LocalCommand.class);
        Landing.SUBCOMMANDS.forEach(all::putIfAbsent);
        return all;
    }

    public static void main(String[] args) {
        System.exit(Landing.main(new LandingTools(), SUBCOMMANDS, args));
    }

    /** Runs the command line and returns its exit code (tests call this instead of main). */
    public static int run(String... args) {
        return Landing.commandLine(new LandingTools(), SUBCOMMANDS, args).execute(args);
    }

    /** Runs the command line with stdout and stderr going to these writers (tests). */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        return Landing.commandLine(new LandingTools(), SUBCOMMANDS, args).setOut(out).setErr(err).execute(args);
    }

    /** The command line for {@code args} (tests). */
    static CommandLine commandLine(String... args) {
        return Landing.commandLine(new LandingTools(), SUBCOMMANDS, args);
    }
}
