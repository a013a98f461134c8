package io.landingledger.cli.testing;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a {@code landing} command line promises whatever its subcommands: each found by its {@code @Command} name and
 * the only one built, help listing all, {@code --version} building none, a subcommand's help under {@code landing},
 * a typo answered with the nearest name. The operator's line (cli) and the tools' line each run it.
 */
public abstract class CommandLineContract {
    /** The line's subcommands, by name. */
    protected abstract Map<String, Class<?>> subcommands();

    /** The line for {@code args}. */
    protected abstract CommandLine commandLine(String... args);

    /** Runs the line with its output going to these writers; its exit code. */
    protected abstract int run(PrintWriter out, PrintWriter err, String... args);


    @Test
    public void eachSubcommandIsFoundByItsCommandAnnotationsName_andIsTheOnlyOneBuilt() {
        for (Map.Entry<String, Class<?>> subcommand : subcommands().entrySet()) {
            assertEquals(subcommand.getKey(), subcommand.getValue().getAnnotation(Command.class).name(), subcommand.getValue().getName());
            if (!"help".equals(subcommand.getKey())) {
                assertEquals(Set.of(subcommand.getKey()), commandLine(subcommand.getKey(), "--help").getSubcommands().keySet());
            }
        }
    }

    @Test
    public void helpAndNoSubcommandListEveryOne() {
        for (String[] args : new String[][] {{}, {"--help"}, {"help"}, {"help", "validate"}}) {
            assertEquals(subcommands().keySet(), commandLine(args).getSubcommands().keySet(), String.join(" ", args));
        }
        Output help = run("--help");
        assertEquals(0, help.code);
        for (String name : subcommands().keySet()) {
            assertTrue(help.out.contains("  " + name + " "), name + " missing from:\n" + help.out);
        }
    }

    @Test
    public void version_needsNoSubcommand_andPrintsTheVersion() {
        assertEquals(Set.of(), commandLine("--version").getSubcommands().keySet());
        for (String flag : new String[] {"--version", "-V"}) {
            Output version = run(flag);
            assertEquals(0, version.code);
            assertEquals("landing 0.1.0", version.out.strip());
        }
    }

    @Test
    public void aSubcommandsHelpNamesItUnderLanding() {
        Output help = run("validate", "--help");
        assertEquals(0, help.code);
        assertTrue(help.out.startsWith("Usage: landing validate "), help.out);
        Output viaHelp = run("help", "validate");
        assertEquals(help.out, viaHelp.out);
    }

    @Test
    public void aMisspelledSubcommandIsAnsweredWithTheNearestName() {
        Output typo = run("valdate", "--contract", "progress_events");
        assertEquals(2, typo.code);
        assertTrue(typo.err.contains("valdate") && typo.err.contains("validate"), typo.err);
    }

    protected record Output(int code, String out, String err) {
    }

    protected Output run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Output(code, out.toString(), err.toString());
    }
}
