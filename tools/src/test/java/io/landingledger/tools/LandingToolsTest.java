package io.landingledger.tools;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LandingToolsTest {

    @Test
    void eachSubcommandIsFoundByItsCommandAnnotationsName_andIsTheOnlyOneBuilt() {
        for (Map.Entry<String, Class<?>> subcommand : LandingTools.SUBCOMMANDS.entrySet()) {
            assertEquals(subcommand.getKey(), subcommand.getValue().getAnnotation(Command.class).name(), subcommand.getValue().getName());
            if (!"help".equals(subcommand.getKey())) {
                assertEquals(Set.of(subcommand.getKey()), LandingTools.commandLine(subcommand.getKey(), "--help").getSubcommands().keySet());
            }
        }
    }

    @Test
    void helpAndNoSubcommandListEveryOne() {
        for (String[] args : new String[][] {{}, {"--help"}, {"help"}, {"help", "validate"}}) {
            assertEquals(LandingTools.SUBCOMMANDS.keySet(), LandingTools.commandLine(args).getSubcommands().keySet(), String.join(" ", args));
        }
        Output help = run("--help");
        assertEquals(0, help.code);
        for (String name : LandingTools.SUBCOMMANDS.keySet()) {
            assertTrue(help.out.contains("  " + name + " "), name + " missing from:\n" + help.out);
        }
    }

    @Test
    void theToolsLine_holdsEveryOperatorCommand_andTheDevelopersOwn_inHelpsOrder() {
        assertEquals(java.util.List.of("validate", "gen", "bench", "fleet-sim", "local", "status", "explain", "repair", "sweep",
                "history", "ack", "dataset", "help"), java.util.List.copyOf(LandingTools.SUBCOMMANDS.keySet()));
        for (Map.Entry<String, Class<?>> operator : io.landingledger.cli.Landing.SUBCOMMANDS.entrySet()) {
            assertEquals(operator.getValue(), LandingTools.SUBCOMMANDS.get(operator.getKey()), operator.getKey());
        }
    }

    @Test
    void version_needsNoSubcommand_andPrintsTheVersion() {
        assertEquals(Set.of(), LandingTools.commandLine("--version").getSubcommands().keySet());
        for (String flag : new String[] {"--version", "-V"}) {
            Output version = run(flag);
            assertEquals(0, version.code);
            assertEquals("landing 0.1.0", version.out.strip());
        }
    }

    @Test
    void aSubcommandsHelpNamesItUnderLanding() {
        Output help = run("validate", "--help");
        assertEquals(0, help.code);
        assertTrue(help.out.startsWith("Usage: landing validate "), help.out);
        Output viaHelp = run("help", "validate");
        assertEquals(help.out, viaHelp.out);
    }

    @Test
    void aMisspelledSubcommandIsAnsweredWithTheNearestName() {
        Output typo = run("valdate", "--contract", "progress_events");
        assertEquals(2, typo.code);
        assertTrue(typo.err.contains("valdate") && typo.err.contains("validate"), typo.err);
    }

    private record Output(int code, String out, String err) {
    }

    private static Output run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = LandingTools.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Output(code, out.toString(), err.toString());
    }
}
