package io.landingledger.tools;

import io.landingledger.cli.testing.CommandLineContract;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The checkout's command line ({@code tools/target/landing-tools.jar}): the operator's commands and the developer's. */
class LandingToolsTest extends CommandLineContract {
    @Override
    protected Map<String, Class<?>> subcommands() {
        return LandingTools.SUBCOMMANDS;
    }

    @Override
    protected CommandLine commandLine(String... args) {
        return LandingTools.commandLine(args);
    }

    @Override
    protected int run(PrintWriter out, PrintWriter err, String... args) {
        return LandingTools.run(out, err, args);
    }

    @Test
    void theToolsLine_holdsEveryOperatorCommand_andTheDevelopersOwn_inHelpsOrder() {
        assertEquals(java.util.List.of("validate", "gen", "bench", "fleet-sim", "local", "status", "explain", "repair", "sweep",
                "history", "ack", "dataset", "help"), java.util.List.copyOf(LandingTools.SUBCOMMANDS.keySet()));
        for (Map.Entry<String, Class<?>> operator : io.landingledger.cli.Landing.SUBCOMMANDS.entrySet()) {
            assertEquals(operator.getValue(), LandingTools.SUBCOMMANDS.get(operator.getKey()), operator.getKey());
        }
    }
}
