package io.landingledger.cli;

import io.landingledger.cli.testing.LandingRun;
import io.landingledger.core.validate.ValidationLimits;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code landing validate --workers N}: the count reaches the validator's limits, and the rows do not depend on it. */
class ValidateWorkersTest {
    private static final String CONTRACT = "../datasets/progress_events.json";

    private static ValidateCommand parsed(String... args) {
        ValidateCommand command = new ValidateCommand(new PrintStream(OutputStream.nullOutputStream()),
                new PrintStream(OutputStream.nullOutputStream()));
        new CommandLine(command).parseArgs(args);
        return command;
    }

    @Test
    void workers_reachTheValidationLimits() {
        assertEquals(3, parsed("--contract", CONTRACT, "--workers", "3", "in.jsonl").limits().workers());
    }

    @Test
    void workers_defaultToTheLimitsDefault_theProcessors() {
        assertEquals(ValidationLimits.DEFAULT_WORKERS, parsed("--contract", CONTRACT, "in.jsonl").limits().workers());
    }

    /** The command with its own output streams: its log line goes to the one given as stderr. */
    private static LandingRun validate(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CommandLine command = new CommandLine(new ValidateCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        command.setErr(new PrintWriter(OutputStream.nullOutputStream()));
        int exit = command.execute(args);
        return new LandingRun(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void workersOutOfRange_exitTwoNamingTheLimit(@TempDir Path dir) throws IOException {
        Path input = Files.writeString(dir.resolve("progress-2026-03-02.jsonl"), "");
        for (String bad : new String[] {"0", String.valueOf(ValidationLimits.MAX_WORKERS + 1)}) {
            LandingRun run = validate("--contract", CONTRACT, "--quiet", "--workers", bad, input.toString());
            assertEquals(ValidateCommand.ERROR, run.exit(), run.stderr());
            assertTrue(run.stderr().contains("workers must be between 1 and " + ValidationLimits.MAX_WORKERS), run.stderr());
        }
    }

    @Test
    void everyWorkerCount_writesTheSameAcceptedRows_andTheLogSaysWhichRan(@TempDir Path dir) throws IOException {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 2_000; i++) {
            int id = i % 1_900; // the last 100 lines repeat earlier ones exactly: duplicates, not conflicts
            lines.append("{\"event_id\":\"e").append(id).append("\",\"learner_id\":\"l").append(id % 37)
                    .append("\",\"lesson_id\":\"s1\",\"event_type\":\"checkpoint\",\"attempt_number\":1,")
                    .append("\"event_time\":\"2026-03-02T10:00:00Z\",\"checkpoint\":").append(id).append("}\n");
        }
        Path input = Files.writeString(dir.resolve("progress-2026-03-02.jsonl"), lines);
        byte[] first = null;
        for (int workers : new int[] {1, 2, 4}) {
            Path accepted = dir.resolve("accepted-" + workers + ".jsonl");
            LandingRun run = validate("--contract", CONTRACT, "--quiet", "--workers", String.valueOf(workers), "--accepted", accepted.toString(),
                    input.toString());
            assertEquals(ValidateCommand.PUBLISHABLE, run.exit(), run.stderr());
            assertTrue(run.stderr().contains(" workers=" + workers), run.stderr());
            byte[] rows = Files.readAllBytes(accepted);
            if (first == null) {
                first = rows;
            } else {
                assertArrayEquals(first, rows, "accepted rows at " + workers + " workers");
            }
        }
    }
}
