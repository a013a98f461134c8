package io.landingledger.cli;

import io.landingledger.cli.testing.CommandLineContract;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.util.Map;

/** The operator's command line ({@code cli/target/landing.jar}). */
class LandingTest extends CommandLineContract {
    @Override
    protected Map<String, Class<?>> subcommands() {
        return Landing.SUBCOMMANDS;
    }

    @Override
    protected CommandLine commandLine(String... args) {
        return Landing.commandLine(Landing.SUBCOMMANDS, args);
    }

    @Override
    protected int run(PrintWriter out, PrintWriter err, String... args) {
        return Landing.run(out, err, args);
    }
}
