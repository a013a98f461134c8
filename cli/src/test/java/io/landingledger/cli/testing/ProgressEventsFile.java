package io.landingledger.cli.testing;

import io.landingledger.core.validate.Events;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A large valid progress_events file of 2026-03-01, for the progress meters: {@code lines} distinct events. */
public final class ProgressEventsFile {
    private ProgressEventsFile() {
    }

    public static Path write(Path file, int lines) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file)) {
            for (int i = 0; i < lines; i++) {
                w.write(Events.event("evt_20260301_" + i).text("learner_id", "lrn_1001").text("lesson_id", "les_02")
                        .raw("attempt_number", "2").text("event_time", "2026-03-01T07:07:13.120Z").raw("checkpoint", "2").line());
                w.write('\n');
            }
        }
        return file;
    }
}
