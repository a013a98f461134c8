package io.landingledger.core.sweep;

import io.landingledger.core.contract.Cadence;

import java.time.Instant;
import java.util.List;

/** Builds reports for tests outside this package (UnitReport's factories are package-private). */
public final class SweepTesting {
    private SweepTesting() {
    }

    /** A one-unit daily report whose unit has {@code consumers} behind on it. */
    public static DatasetReport reportWithBehind(String unit, List<String> consumers) {
        Instant now = Instant.parse("2026-03-10T00:00:00Z");
        UnitClassifier.Evidence evidence = new UnitClassifier.Evidence(unit, null, now, null, null, null);
        UnitReport report = UnitReport.of(evidence, UnitClassifier.classify(evidence)).withConsumersBehind(consumers);
        return new DatasetReport("progress_events", Cadence.DAILY, unit, unit, now, false, List.of(report), List.of(), 0, null);
    }
}
