package io.landingledger.tools.bench;

import io.landingledger.cli.testing.LandingRun;
import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.validate.ValidationLimits;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code landing bench --workers-sweep}: the validator core per worker count and its scaling curve (figures not asserted). */
class BenchWorkersTest {
    private static final String CONTRACT = PerfTesting.contract().toString();

    @Test
    void workerCounts_alwaysIncludeOne_deduplicated_fewestFirst() {
        assertEquals(List.of(1, 2), BenchCommand.workerCounts(List.of(), 2), "the default: 1, 2 and the processors");
        assertEquals(List.of(1, 2, 6), BenchCommand.workerCounts(List.of(), 6));
        assertEquals(List.of(1, 2), BenchCommand.workerCounts(List.of(), 1));
        assertEquals(List.of(1, 3, 4), BenchCommand.workerCounts(List.of(4, 3, 4), 2));
        assertThrows(IllegalArgumentException.class, () -> BenchCommand.workerCounts(List.of(0), 2));
        assertThrows(IllegalArgumentException.class, () -> BenchCommand.workerCounts(List.of(ValidationLimits.MAX_WORKERS + 1), 2));
    }

    @Test
    @SuppressWarnings("unchecked")
    void sweep_json_hasAStagePerCount_andTheCurveOverOneWorker() throws IOException {
        LandingRun run = PerfTesting.bench("--lines", "6000", "--repeat", "1", "--json", "--contract", CONTRACT,
                "--no-file-output", "--workers-sweep", "2,3");
        assertEquals(0, run.exit(), run.stderr());
        Map<String, Object> report = JSON.std.mapFrom(run.stdout());
        List<Map<String, Object>> stages = (List<Map<String, Object>>) report.get("stages");
        assertEquals(List.of("scan", "validator w1", "validator w2", "validator w3"), stages.stream().map(s -> s.get("name")).toList());

        Map<String, Object> workers = (Map<String, Object>) report.get("workers");
        assertEquals(ValidationLimits.DEFAULT_WORKERS, ((Number) workers.get("default")).intValue());
        List<Map<String, Object>> curve = (List<Map<String, Object>>) workers.get("byWorkers");
        assertEquals(List.of(1, 2, 3), curve.stream().map(c -> ((Number) c.get("workers")).intValue()).toList());
        assertEquals(1.0, ((Number) curve.getFirst().get("speedUp")).doubleValue(), "1 worker is the baseline");
        for (Map<String, Object> c : curve) {
            double speedUp = ((Number) c.get("speedUp")).doubleValue();
            int n = ((Number) c.get("workers")).intValue();
            assertEquals(speedUp / n, ((Number) c.get("efficiency")).doubleValue(), 0.002, c::toString);
            assertTrue(((Number) c.get("medianLinesPerSecond")).longValue() > 0, c::toString);
            assertTrue(((Number) c.get("keyIndexBytesPerKey")).doubleValue() > 0, c::toString);
            assertTrue(((Number) c.get("heapAtEndOfInputBytes")).longValue() > 0, c::toString);
            if (new java.io.File("/proc/self/status").exists()) {
                assertTrue(((Number) c.get("peakRssBytes")).longValue() > 0, c::toString);
            }
            // the in-order thread is one of the process's threads: its CPU time is part of the process's
            double inOrder = ((Number) c.get("medianInOrderCpuSeconds")).doubleValue();
            assertTrue(inOrder > 0 && inOrder <= ((Number) c.get("medianCpuSeconds")).doubleValue() + 0.01, c::toString);
            assertTrue(((Number) c.get("inOrderCeilingMBps")).doubleValue() > 0, c::toString);
        }
        Map<String, Object> inputs = (Map<String, Object>) ((Map<String, Object>) report.get("onPaper")).get("inputs");
        double scanMBps = ((Number) stages.getFirst().get("medianMBps")).doubleValue();
        double ceilingAtThree = ((Number) curve.getLast().get("inOrderCeilingMBps")).doubleValue();
        assertEquals(Math.min(scanMBps, ceilingAtThree), ((Number) inputs.get("inOrderMBps")).doubleValue(), 0.11,
                "the estimate's in-order bound is the thread's ceiling at the most workers timed: " + inputs);
        assertEquals(Map.of("ok", true, "problems", List.of()), report.get("checks"), "every count reached the same result");
    }

    @Test
    void sweep_table_listsEachCountWithASpeedUpColumn() {
        LandingRun run = PerfTesting.bench("--lines", "3000", "--repeat", "1", "--contract", CONTRACT, "--no-file-output",
                "--no-retained-heap", "--workers-sweep", "1,2,4");
        assertEquals(0, run.exit(), run.stderr());
        List<String> lines = run.stdout().lines().toList();
        String header = lines.stream().filter(l -> l.contains("speed-up") && l.contains("efficiency") && l.contains("peak RSS MB"))
                .findFirst().orElseThrow(() -> new AssertionError(run.stdout()));
        assertTrue(header.contains("workers"), header);
        for (int n : new int[] {1, 2, 4}) {
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("validator w" + n + " ")), "a stage row for " + n + ": " + run.stdout());
            assertTrue(lines.stream().anyMatch(l -> l.matches("\\s+" + n + "\\s+\\d.*x\\s.*")), "a curve row for " + n + ": " + run.stdout());
        }
    }

    @Test
    void sweep_outOfRange_exitsTwo() {
        LandingRun run = PerfTesting.bench("--lines", "10", "--contract", CONTRACT, "--workers-sweep", "0");
        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains("--workers-sweep"), run.stderr());
    }
}
