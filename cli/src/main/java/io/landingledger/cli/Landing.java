package io.landingledger.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import io.landingledger.cli.local.LocalCommand;
import io.landingledger.cli.ops.AckCommand;
import io.landingledger.cli.ops.DatasetCommand;
import io.landingledger.cli.ops.ExplainCommand;
import io.landingledger.cli.ops.HistoryCommand;
import io.landingledger.cli.ops.RepairCommand;
import io.landingledger.cli.ops.StatusCommand;
import io.landingledger.cli.ops.SweepCommand;
import io.landingledger.cli.perf.BenchCommand;
import io.landingledger.cli.perf.GenerateCommand;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code landing} command. Each subcommand is one class; this one only wires them.
 *
 * <p>Only the subcommand a command line names is given to picocli. Picocli builds its model of a command by reflecting
 * on every option of every command it holds, in classes compiled for Java 5 that no class-data or ahead-of-time cache
 * can keep: the model of all eleven was about 0.06 s of every command's start ({@code landing status --help} 0.38 s
 * against 0.32). {@code --version} needs none of them. A line naming no subcommand of ours (help, a typo, no
 * arguments) gets all of them, so help lists them and a typo is answered with the names.
 */
@Command(name = "landing", mixinStandardHelpOptions = true, version = "landing 0.1.0",
        description = "Landing Ledger: validate inbox files, run the pipeline locally, operate a stack (status, explain, repair, sweep, history), measure it.")
public final class Landing {
    /** The subcommands by the name each one's {@code @Command} gives it, in the order help lists them. */
    static final Map<String, Class<?>> SUBCOMMANDS = subcommands();

    private static Map<String, Class<?>> subcommands() {
        Map<String, Class<?>> all = new LinkedHashMap<>();
        all.put("validate", ValidateCommand.class);
        all.put("gen", GenerateCommand.class);
        all.put("bench", BenchCommand.class);
        all.put("fleet-sim", io.landingledger.cli.perf.fleet.FleetSimCommand.class);
        all.put("local", LocalCommand.class);
        all.put("status", StatusCommand.class);
        all.put("explain", ExplainCommand.class);
        all.put("repair", RepairCommand.class);
        all.put("sweep", SweepCommand.class);
        all.put("history", HistoryCommand.class);
        all.put("ack", AckCommand.class);
        all.put("dataset", DatasetCommand.class);
        all.put("help", CommandLine.HelpCommand.class);
        return all;
    }

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
        return commandLine(args).execute(args);
    }

    /** Runs the command line with the operator commands' stdout and stderr going to these writers (tests). */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        return commandLine(args).setOut(out).setErr(err).execute(args);
    }

    /** The command line for {@code args}: the subcommand its first argument names, or all of them ({@code help} is one). */
    static CommandLine commandLine(String... args) {
        CommandLine line = new CommandLine(new Landing());
        if (args.length == 1 && ("--version".equals(args[0]) || "-V".equals(args[0]))) {
            return line;
        }
        Class<?> named = args.length == 0 || "help".equals(args[0]) ? null : SUBCOMMANDS.get(args[0]);
        if (named != null) {
            line.addSubcommand(named);
        } else {
            SUBCOMMANDS.values().forEach(line::addSubcommand);
        }
        return line;
    }
}
