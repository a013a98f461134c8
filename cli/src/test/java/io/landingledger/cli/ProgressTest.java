package io.landingledger.cli;

import io.landingledger.cli.testing.ProgressEventsFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code landing validate}'s progress on stderr in pipe mode (with a short interval), and {@code --quiet}. */
class ProgressTest {
    private static final Pattern TICK = Pattern.compile(
            "landing validate: \\d+\\.\\d MB of \\d+\\.\\d MB \\(\\d{1,3}%\\), \\d+\\.\\d MB/s(, \\d+ s left)?");
    private static final Pattern DONE = Pattern.compile(
            "landing validate: done, (\\d+\\.\\d) MB of (\\d+\\.\\d) MB \\(100%\\), 400000 lines, \\d+\\.\\d MB/s in \\d+\\.\\d s");

    record Run(int exit, byte[] stdout, String stderr) {
    }

    private static Run validate(Path input, Duration interval, String... extra) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ValidateCommand command = new ValidateCommand(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        command.progressInterval = interval;
        List<String> args = new java.util.ArrayList<>(List.of("--contract", "progress_events"));
        args.addAll(Arrays.asList(extra));
        args.add(input.toString());
        int exit = new CommandLine(command).execute(args.toArray(String[]::new));
        return new Run(exit, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    /** 400,000 valid lines, about 70 MB: long enough for several ticks of a 10 ms interval. */
    private static Path bigFile(Path dir) throws Exception {
        return ProgressEventsFile.write(dir.resolve("progress-2026-03-01.jsonl"), 400_000);
    }

    @Test
    void onAPipe_progressLinesGoToStderr_andStdoutIsByteIdenticalWithoutThem(@TempDir Path dir) throws Exception {
        Path input = bigFile(dir);
        Run withProgress = validate(input, Duration.ofMillis(10));
        Run quiet = validate(input, Duration.ofMillis(10), "--quiet");
        assertEquals(0, withProgress.exit(), withProgress.stderr());
        assertEquals(0, quiet.exit(), quiet.stderr());

        List<String> lines = withProgress.stderr().lines().toList();
        List<String> progress = lines.stream().filter(l -> l.contains(" MB")).toList();
        assertTrue(progress.size() >= 2, "ticks and the final line: " + withProgress.stderr());
        for (String tick : progress.subList(0, progress.size() - 1)) {
            assertTrue(TICK.matcher(tick).matches(), "tick shape: " + tick);
        }
        var done = DONE.matcher(progress.get(progress.size() - 1));
        assertTrue(done.matches(), "final line: " + progress.get(progress.size() - 1));
        assertEquals(String.format(java.util.Locale.ROOT, "%.1f", Files.size(input) / 1e6), done.group(2));
        assertFalse(withProgress.stderr().contains("\r"), "no carriage returns on a pipe");

        assertArrayEquals(quiet.stdout(), withProgress.stdout(), "stdout is the same with and without progress");
        assertFalse(quiet.stderr().contains(" MB"), "--quiet prints no progress: " + quiet.stderr());
        assertEquals(1, quiet.stderr().lines().count(), "only the key=value log line: " + quiet.stderr());
    }

    @Test
    void theTerminalLine_isRewrittenInPlace() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (Progress progress = new Progress(new PrintStream(err, true, StandardCharsets.UTF_8), "landing validate", 100, Progress.Mode.TERMINAL,
                Duration.ofHours(1))) {
            progress.finish(3);
        }
        String text = err.toString(StandardCharsets.UTF_8);
        assertTrue(text.startsWith("\rlanding validate: done, 0.0 MB of 0.0 MB (0%), 3 lines"), text);
        assertTrue(text.endsWith("\n"), text);
    }
}
