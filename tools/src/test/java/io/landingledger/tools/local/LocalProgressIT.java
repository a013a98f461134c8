package io.landingledger.tools.local;

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
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code landing local}'s per-file progress on stderr, in pipe mode with a short interval: the inbox object's read
 * counted as the validator reads it, one meter per file (ticks, then one final line with the file's rows), nothing
 * on stdout; {@code --quiet} silences it.
 */
class LocalProgressIT {
    private static final String BIG = "progress_events/progress-2026-03-01.jsonl";
    private static final String SMALL = "progress_events/progress-2026-03-02.jsonl";
    private static final int LINES = 150_000;
    private static final Pattern TICK = Pattern.compile(
            "landing local (\\S+): \\d+\\.\\d MB of \\d+\\.\\d MB \\(\\d{1,3}%\\), \\d+\\.\\d MB/s(, \\d+ s left)?");
    private static final Pattern DONE = Pattern.compile(
            "landing local (\\S+): done, (\\d+\\.\\d) MB of (\\d+\\.\\d) MB \\(100%\\), (\\d+) lines, \\d+\\.\\d MB/s in \\d+\\.\\d s");

    record Run(int exit, String stdout, String stderr) {
    }

    private static Run local(Path dir, String... extra) {
        LocalCommand command = new LocalCommand();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        command.out = new PrintStream(out, true, StandardCharsets.UTF_8);
        command.err = new PrintStream(err, true, StandardCharsets.UTF_8);
        command.progressInterval = Duration.ofMillis(5);
        List<String> args = new java.util.ArrayList<>(List.of("--inbox", dir.resolve("inbox").toString(), "--export", dir.resolve("out").toString()));
        args.addAll(List.of(extra));
        int exit = new CommandLine(command).execute(args.toArray(String[]::new));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void eachFileHasItsMeterOnStderr_inPipeMode_andQuietSilencesIt(@TempDir Path dir) throws Exception {
        Path dataset = Files.createDirectories(dir.resolve("inbox/progress_events"));
        Path big = dir.resolve("inbox/" + BIG);
        ProgressEventsFile.write(big, LINES);
        Files.copy(Path.of("../examples/inbox/" + SMALL).toAbsolutePath().normalize(), dataset.resolve("progress-2026-03-02.jsonl"));

        Run run = local(dir);
        assertEquals(0, run.exit(), run.stderr());
        List<String> ticks = run.stderr().lines().filter(l -> TICK.matcher(l).matches()).toList();
        List<Matcher> done = run.stderr().lines().map(DONE::matcher).filter(Matcher::matches).toList();
        assertTrue(ticks.stream().anyMatch(t -> t.startsWith("landing local " + BIG + ": ")), "the big file ticks: " + run.stderr());
        assertEquals(List.of(BIG, SMALL), done.stream().map(m -> m.group(1)).toList(), "one final line per file, in order: " + run.stderr());
        assertEquals(String.valueOf(LINES), done.get(0).group(4), "the big file's rows");
        assertEquals(String.format(java.util.Locale.ROOT, "%.1f", Files.size(big) / 1e6), done.get(0).group(3));
        assertEquals(done.get(0).group(3), done.get(0).group(2), "the whole object was read through the meter");
        assertFalse(run.stderr().contains("\r"), "no carriage returns on a pipe");
        assertFalse(run.stdout().contains("MB/s"), "stdout carries no progress: " + run.stdout());

        Run quiet = local(dir, "--quiet", "--json");
        assertEquals(0, quiet.exit(), quiet.stderr());
        assertFalse(quiet.stderr().contains("MB/s"), "--quiet prints no progress: " + quiet.stderr());
        assertFalse(quiet.stdout().contains("MB/s"));
        assertTrue(quiet.stdout().strip().startsWith("{"), quiet.stdout());
    }
}
