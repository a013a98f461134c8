package io.landingledger.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import io.landingledger.cli.ops.AckCommand;
import io.landingledger.cli.ops.DatasetCommand;
import io.landingledger.cli.ops.ExplainCommand;
import io.landingledger.cli.ops.HistoryCommand;
import io.landingledger.cli.ops.RepairCommand;
import io.landingledger.cli.ops.StatusCommand;
import io.landingledger.cli.ops.SweepCommand;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code landing} command: the operator's commands. Each subcommand is one class; this one only wires them. The
 * tools module's {@code LandingTools} adds the developer's commands (local, gen, bench, fleet-sim) to the same line.
 *
 * <p>Only the subcommand a command line names is given to picocli. Picocli builds its model of a command by reflecting
 * on every option of every command it holds, in classes compiled for Java 5 that no class-data or ahead-of-time cache
 * can keep: the model of all eleven was about 0.06 s of every command's start ({@code landing status --help} 0.38 s
 * against 0.32). {@code --version} needs none of them. A line naming no subcommand of ours (help, a typo, no
 * arguments) gets all of them, so help lists them and a typo is answered with the names.
 */
@Command(name = "landing", mixinStandardHelpOptions = true, version = "landing 0.1.0",
        description = "Landing Ledger: validate inbox files, operate a stack (status, explain, repair, sweep, history, ack, dataset).")
public final class Landing {
    /** The operator's subcommands by the name each one's {@code @Command} gives it, in the order help lists them. */
    public static final Map<String, Class<?>> SUBCOMMANDS = subcommands();

    private static Map<String, Class<?>> subcommands() {
        Map<String, Class<?>> all = new LinkedHashMap<>();
        all.put("validate", ValidateCommand.class);
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
        System.exit(main(new Landing(), SUBCOMMANDS, args));
    }

    /** What {@code main} does under a top command with its subcommands (the tools' main passes its own). */
    public static int main(Object top, Map<String, Class<?>> subcommands, String... args) {
        // The functions log JSON to stdout (Lambda's log stream); a command's stdout is its result, so its logs go to
        // stderr in the same layout. Set before anything touches log4j.
        if (System.getProperty("log4j2.configurationFile") == null) {
            System.setProperty("log4j2.configurationFile", "classpath:landing-cli-log4j2.properties");
        }
        return commandLine(top, subcommands, args).execute(args);
    }

    /** Runs the command line and returns its exit code (tests call this instead of main). */
    public static int run(String... args) {
        return commandLine(SUBCOMMANDS, args).execute(args);
    }

    /** Runs the command line with the operator commands' stdout and stderr going to these writers (tests). */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        return commandLine(SUBCOMMANDS, args).setOut(out).setErr(err).execute(args);
    }

    /**
     * The command line for {@code args}: of {@code subcommands}, the one its first argument names, or all of them
     * ({@code help} is one).
     */
    public static CommandLine commandLine(Map<String, Class<?>> subcommands, String... args) {
        return commandLine(new Landing(), subcommands, args);
    }

    /** As {@link #commandLine(Map, String...)} under another top command (its name, version and description). */
    public static CommandLine commandLine(Object top, Map<String, Class<?>> subcommands, String... args) {
        CommandLine line = new CommandLine(top);
        if (args.length == 1 && ("--version".equals(args[0]) || "-V".equals(args[0]))) {
            return line;
        }
        Class<?> named = args.length == 0 || "help".equals(args[0]) ? null : subcommands.get(args[0]);
        if (named != null) {
            line.addSubcommand(named);
        } else {
            subcommands.values().forEach(line::addSubcommand);
        }
        return line;
    }
}
