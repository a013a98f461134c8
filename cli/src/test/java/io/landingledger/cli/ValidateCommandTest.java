package io.landingledger.cli;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code landing validate} in-process, for what a file cannot make it do (LandingValidateIT runs the script on real
 * files). The validator decides every input, so no file makes it throw any more; a source whose read throws stands
 * in for the next such bug.
 */
class ValidateCommandTest {
    private static final String SECRET = "learner.1007@example.com";

    @Test
    void validate_whenTheValidatorThrowsUnexpectedly_exitsTwoWithOneLineAndNoContent() {
        InputStream throwing = new InputStream() {
            @Override
            public int read() {
                // an exception message may quote the row it choked on, as NumberFormatException's does
                throw new NumberFormatException("For input string: \"" + SECRET + "\"");
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        InputStream stdin = System.in;
        int exit;
        try {
            System.setIn(throwing);
            CommandLine command = new CommandLine(new ValidateCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8)));
            command.setErr(new PrintWriter(OutputStream.nullOutputStream())); // picocli's own handler would write here
            exit = command.execute("--contract", "../datasets/progress_events.json", "-");
        } finally {
            System.setIn(stdin);
        }
        String stderr = err.toString(StandardCharsets.UTF_8);
        assertEquals(ValidateCommand.ERROR, exit, stderr);
        assertEquals(1, stderr.lines().count(), stderr);
        assertTrue(stderr.startsWith("landing validate: internal error validating -: java.lang.NumberFormatException at "), stderr);
        assertFalse(stderr.contains(SECRET), stderr);
        assertEquals("", out.toString(StandardCharsets.UTF_8), "no result is printed for a file that was not decided");
    }
}
