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

    @Test
    void validate_printsInputThenTheResult_prettyPrinted() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CommandLine command = new CommandLine(new ValidateCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        int exit = command.execute("--contract", "../datasets/progress_events.json",
                "../examples/inbox/progress_events/progress-2026-03-03.jsonl");
        String stdout = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        String nl = System.lineSeparator();
        assertTrue(stdout.startsWith("{" + nl + "  \"input\" : \"../examples/inbox/progress_events/progress-2026-03-03.jsonl\"," + nl
                + "  \"dataset\" : \"progress_events\"," + nl + "  \"contractVersion\" : "), stdout);
        // the hash and the index's heap estimate are the figures of this file and this JVM, not of the shape
        assertEquals(PRINTED, stdout.replace(nl, "\n").replaceAll("\"sha256\" : \"[0-9a-f]{64}\"", "\"sha256\" : \"-\"")
                .replaceAll("\"keyIndexBytes\" : [0-9]+", "\"keyIndexBytes\" : -"));
    }

    @Test
    void validate_readsAnOdcsDocumentAsItsContract() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CommandLine command = new CommandLine(new ValidateCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        int exit = command.execute("--contract", "../datasets/odcs/transactions.odcs.yaml", "--quiet",
                "../examples/inbox/transactions/transactions-2026-10-02.csv");
        String stdout = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        assertTrue(stdout.contains("\"dataset\" : \"transactions\"") && stdout.contains("\"accepted\" : 5"), stdout);
    }

    private static final String PRINTED = """
            {
              "input" : "../examples/inbox/progress_events/progress-2026-03-03.jsonl",
              "dataset" : "progress_events",
              "contractVersion" : 1,
              "decision" : "accept",
              "sha256" : "-",
              "storedBytes" : 1958,
              "decodedBytes" : 1958,
              "gzip" : false,
              "records" : 11,
              "lines" : 12,
              "blankLines" : 1,
              "accepted" : 8,
              "duplicates" : 0,
              "rejected" : 3,
              "reasons" : {
                "INVALID_JSON" : 1,
                "TYPE_MISMATCH" : 1,
                "TIMESTAMP_NO_OFFSET" : 1
              },
              "acceptedBytes" : 1428,
              "distinctKeys" : 8,
              "keyIndexBytes" : -,
              "keyIndexRuns" : 0,
              "keyIndexDiskBytes" : 0
            }
            """;
}
