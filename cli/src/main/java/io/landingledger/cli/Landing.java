package io.landingledger.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import io.landingledger.cli.local.LocalCommand;
import io.landingledger.cli.ops.AckCommand;
import io.landingledger.cli.ops.ExplainCommand;
import io.landingledger.cli.ops.HistoryCommand;
import io.landingledger.cli.ops.RepairCommand;
import io.landingledger.cli.ops.StatusCommand;
import io.landingledger.cli.ops.SweepCommand;
import io.landingledger.cli.perf.BenchCommand;
import io.landingledger.cli.perf.GenerateCommand;

import java.io.PrintWriter;

/** The {@code landing} command. Each subcommand is one class; this one only wires them. */
@Command(name = "landing", mixinStandardHelpOptions = true, version = "landing 0.1.0",
        description = "Landing Ledger: validate inbox files, run the pipeline locally, operate a stack (status, explain, repair, sweep, history), measure it.",
        subcommands = {ValidateCommand.class, GenerateCommand.class, BenchCommand.class, LocalCommand.class, StatusCommand.class,
                ExplainCommand.class, RepairCommand.class, SweepCommand.class, HistoryCommand.class, AckCommand.class,
                CommandLine.HelpCommand.class})
public final class Landing {

    public static void main(String[] args) {
        // The functions log JSON to stdout (Lambda's log stream); a command's stdout is its result, so its logs go to
        // stderr in the same layout. Set before anything touches log4j.
        if (System.getProperty("log4j2.configurationFile") == null) {
            System.setProperty("log4j2.configurationFile", "classpath:landing-cli-log4j2.properties");
        }
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code (tests call this instead of main). */
    public static int run(String... args) {
        return new CommandLine(new Landing()).execute(args);
    }

    /** Runs the command line with the operator commands' stdout and stderr going to these writers (tests). */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        return new CommandLine(new Landing()).setOut(out).setErr(err).execute(args);
    }
}
