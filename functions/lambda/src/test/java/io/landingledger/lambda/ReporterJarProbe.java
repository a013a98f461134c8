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
        reporter.outcome(IngestOutcome.builder(IngestAction.PUBLISHED, "progress_events", "2026-03-02")
                .input("progress_events/progress-2026-03-02.jsonl", "v1")
                .sha256("ab".repeat(32))
                .bytes(4096)
                .counts(12, 2, 1)
                .published("published/progress_events/unit=2026-03-02/part-00000.jsonl", "etag-1")
                .run("run-1", "INGEST")
                .duration(Duration.ofMillis(40))
                .build());
        long firstOutcome = System.nanoTime();
        reporter.outcome(IngestOutcome.builder(IngestAction.REFUSED, "progress_events", "2026-03-03")
                .input("progress_events/progress-2026-03-03.jsonl", "v2")
                .sha256("cd".repeat(32))
                .bytes(2048)
                .counts(3, 0, 0)
                .refusal("PROHIBITED_FIELD")
                .detail("line 2 has the prohibited field email")
                .run("run-2", "INGEST")
                .duration(Duration.ofMillis(9))
                .build());
        reporter.unroutable("inbox", "nowhere/file.csv", "v3", "NO_CONTRACT", "no contract for dataset nowhere");
        // what the SDK does: slf4j-api, which log4j-slf4j2-impl routes to the same JSON layout
        LoggerFactory.getLogger("software.amazon.awssdk.probe").info("sdk info, below the configured level");
        LoggerFactory.getLogger("software.amazon.awssdk.probe").warn("sdk warning");
        System.err.printf("probe reporter_ready_ms=%.1f first_outcome_ms=%.1f%n",
                (ready - started) / 1e6, (firstOutcome - ready) / 1e6);
    }
}
