package io.landingledger.lambda.testing;

import io.landingledger.core.validate.Events;

import java.nio.charset.StandardCharsets;

/** progress_events lines the function-level tests upload, built with core's {@link Events}; each ends in LF. */
public final class ProgressEventLines {
    private ProgressEventLines() {
    }

    /** A checkpoint event of learner lrn_1 at {@code time}. */
    public static String checkpoint(String id, String time) {
        return Events.event(id).text("learner_id", "lrn_1").text("lesson_id", "les_1").text("event_time", time)
                .raw("checkpoint", "2").line() + "\n";
    }

    /** A completed event at 10:00 UTC of {@code unit}'s day. */
    public static String completed(String id, String unit) {
        return Events.event(id).text("learner_id", "l").text("lesson_id", "s").text("event_type", "completed")
                .text("event_time", unit + "T10:00:00Z").without("checkpoint").line() + "\n";
    }

    /**
     * About 17 MiB of distinct canonical rows of 2026-03-04 (keys sorted, compact, UTC): what the function publishes of
     * them is the input byte for byte.
     */
    public static byte[] largeCanonicalDay() {
        StringBuilder day = new StringBuilder();
        for (int i = 0; day.length() < 17 << 20; i++) {
            day.append(new Events.Event()
                    .raw("attempt_number", "1")
                    .raw("checkpoint", Integer.toString(i % 90))
                    .text("event_id", "evt_" + i)
                    // never .000: a zero fraction is published without one
                    .text("event_time", String.format("2026-03-04T10:%02d:%02d.%03dZ", i / 60 % 60, i % 60, 1 + i % 999))
                    .text("event_type", "checkpoint")
                    .text("learner_id", "lrn_" + i % 5000)
                    .text("lesson_id", "les_" + i % 40)
                    .line()).append('\n');
        }
        return day.toString().getBytes(StandardCharsets.UTF_8);
    }
}
