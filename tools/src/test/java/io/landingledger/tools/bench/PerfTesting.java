package io.landingledger.tools.bench;

import io.landingledger.cli.testing.LandingRun;

import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Shared helpers of the perf tests. */
final class PerfTesting {
    private PerfTesting() {
    }

    /** The real progress_events contract: tests run in cli/, the contracts live in the repository's datasets/. */
    static Path contract() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("datasets/progress_events.json");
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("datasets/progress_events.json not found above " + Path.of("").toAbsolutePath());
    }

    /** Runs a command as picocli would from the command line; usage errors print nowhere. */
    static int execute(Object command, String... args) {
        CommandLine commandLine = new CommandLine(command);
        PrintWriter quiet = new PrintWriter(OutputStream.nullOutputStream());
        commandLine.setErr(quiet);
        commandLine.setOut(quiet);
        return commandLine.execute(args);
    }

    /** {@code landing bench} without its end-to-end stage (which starts the emulators). */
    static LandingRun bench(String... args) {
        return benchWith(Stream.concat(Stream.of("--no-end-to-end"), Stream.of(args)).toArray(String[]::new));
    }

    /** The command as given, the end-to-end stage included unless skipped. */
    static LandingRun benchWith(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = execute(new BenchCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)), args);
        return new LandingRun(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
