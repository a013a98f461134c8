package io.landingledger.cli.perf;

import picocli.CommandLine;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

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
}
