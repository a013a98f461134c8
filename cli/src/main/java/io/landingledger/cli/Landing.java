package io.landingledger.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code landing} command. Each subcommand is one class; this one only wires them. */
@Command(name = "landing", mixinStandardHelpOptions = true, version = "landing 0.1.0",
        description = "Landing Ledger: validate inbox files, run the pipeline locally, measure it.",
        subcommands = {ValidateCommand.class, CommandLine.HelpCommand.class})
public final class Landing {

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code (tests call this instead of main). */
    public static int run(String... args) {
        return new CommandLine(new Landing()).execute(args);
    }
}
