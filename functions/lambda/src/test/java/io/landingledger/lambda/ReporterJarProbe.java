package io.landingledger.lambda;

import io.landingledger.core.ingest.IngestAction;
import io.landingledger.core.ingest.IngestOutcome;

import java.time.Duration;
import org.slf4j.LoggerFactory;

/**
 * Run by {@link LandingFunctionsJarIT} in a child JVM whose classpath is the shaded jar (plus this class): reports
 * what the validator reports and logs as the SDK does, so the jar's log4j configuration, merged plugin cache, SLF4J
 * provider and EMF output are exercised exactly as Lambda would run them. Prints its timings on stderr.
 */
public final class ReporterJarProbe {
    private ReporterJarProbe() {
    }

    public static void main(String[] args) {
        long started = System.nanoTime();
        OutcomeReporter reporter = new LogAndMetricsReporter();
        long ready = System.nanoTime();
        reporter.outcome(new IngestOutcome(IngestAction.PUBLISHED, "progress_events", "2026-03-02",
                "progress_events/progress-2026-03-02.jsonl", "v1", "ab".repeat(32), 4096, 12, 2, 1,
                "published/progress_events/unit=2026-03-02/part-00000.jsonl", "etag-1", null, null, "run-1", "INGEST",
                Duration.ofMillis(40)));
        long firstOutcome = System.nanoTime();
        reporter.outcome(new IngestOutcome(IngestAction.REFUSED, "progress_events", "2026-03-03",
                "progress_events/progress-2026-03-03.jsonl", "v2", "cd".repeat(32), 2048, 3, 0, 0, null, null,
                "PROHIBITED_FIELD", "line 2 has the prohibited field email", "run-2", "INGEST", Duration.ofMillis(9)));
        reporter.unroutable("inbox", "nowhere/file.csv", "v3", "NO_CONTRACT", "no contract for dataset nowhere");
        // what the SDK does: slf4j-api, which log4j-slf4j2-impl routes to the same JSON layout
        LoggerFactory.getLogger("software.amazon.awssdk.probe").info("sdk info, below the configured level");
        LoggerFactory.getLogger("software.amazon.awssdk.probe").warn("sdk warning");
        System.err.printf("probe reporter_ready_ms=%.1f first_outcome_ms=%.1f%n",
                (ready - started) / 1e6, (firstOutcome - ready) / 1e6);
    }
}
