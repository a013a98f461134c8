package io.landingledger.tools.bench;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.cli.testing.LandingRun;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.landingledger.tools.bench.PerfTesting.bench;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The benchmark's plumbing on a small file; its figures are not asserted (not a timed test). The end-to-end stage
 * starts the emulators, so it has its own integration test, {@link BenchEndToEndIT}.
 */
class BenchCommandTest {
    private static final String CONTRACT = PerfTesting.contract().toString();

    @Test
    @SuppressWarnings("unchecked")
    void bench_json_reportsEveryStageAgainstTheScan_andTheGeneratedCounts(@TempDir Path dir) throws IOException {
        LandingRun run = bench("--lines", "20000", "--repeat", "2", "--json", "--contract", CONTRACT, "--work-dir", dir.toString(),
                "--workers-sweep", "1");
        assertEquals(0, run.exit(), run.stderr());
        Map<String, Object> report = JSON.std.mapFrom(run.stdout());

        List<Map<String, Object>> stages = (List<Map<String, Object>>) report.get("stages");
        assertEquals(List.of("scan", "validator w1", "validator+file"), stages.stream().map(s -> s.get("name")).toList());
        assertEquals(2, ((List<?>) stages.get(1).get("passes")).size());
        assertEquals(1, ((List<?>) stages.get(2).get("passes")).size(), "the file-output pass runs once");
        assertEquals(1.0, ((Number) stages.get(0).get("ratioToScanMedian")).doubleValue());
        for (Map<String, Object> stage : stages) {
            assertTrue(((Number) stage.get("medianMBps")).doubleValue() > 0, stage::toString);
            assertTrue(((Number) stage.get("bestLinesPerSecond")).longValue() > 0, stage::toString);
        }
        assertEquals(20_000L, ((Number) report.get("lines")).longValue());

        Map<String, Object> generated = (Map<String, Object>) report.get("generated");
        Map<String, Object> validation = (Map<String, Object>) report.get("validation");
        assertEquals("accept", validation.get("decision"));
        assertEquals(generated.get("distinct"), validation.get("accepted"));
        assertEquals(generated.get("duplicates"), validation.get("duplicates"));
        assertEquals(10, ((Number) validation.get("rejected")).intValue());
        double perKey = ((Number) validation.get("keyIndexBytesPerKey")).doubleValue();
        assertTrue(perKey > 0 && perKey <= 64, "bytes per key: " + perKey);

        Map<String, Object> heap = (Map<String, Object>) report.get("heap");
        assertTrue(((Number) heap.get("usedAfterGcAtEndOfInputBytes")).longValue() > 0);
        assertEquals(Map.of("ok", true, "problems", List.of()), report.get("checks"));

        // --work-dir keeps the generated file; the accepted output is removed
        assertTrue(Files.exists(dir.resolve("progress-2026-03-02.jsonl")));
        assertFalse(Files.exists(dir.resolve("accepted.jsonl")));
    }

    @Test
    void bench_onAGzipFile_printsTheTable(@TempDir Path dir) {
        Path file = dir.resolve("day.jsonl.gz");
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        assertEquals(0, PerfTesting.execute(new GenerateCommand(quiet, quiet), "--lines", "3000", "--gzip", "--contract", CONTRACT,
                "--out", file.toString()));
        LandingRun run = bench("--file", file.toString(), "--repeat", "1", "--contract", CONTRACT, "--no-file-output", "--no-retained-heap");
        assertEquals(0, run.exit(), run.stderr());
        assertTrue(run.stdout().contains("(gzip)"), run.stdout());
        assertTrue(run.stdout().lines().anyMatch(l -> l.startsWith("scan ") && l.contains(" 1.000 ")), "the scan is 1.000 of itself: " + run.stdout());
        assertTrue(run.stdout().contains("machine     load average"), run.stdout());
        assertTrue(run.stdout().lines().anyMatch(l -> l.startsWith("validator ")), run.stdout());
        assertFalse(run.stdout().contains("validator+file"), run.stdout());
        assertTrue(run.stdout().contains("bytes per key"), run.stdout());
        assertTrue(run.stdout().contains("checks      ok"), run.stdout());
    }

    @Test
    @SuppressWarnings("unchecked")
    void bench_onARefusedFile_measuresItAndReportsTheRefusal(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("refused.jsonl");
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        assertEquals(0, PerfTesting.execute(new GenerateCommand(quiet, quiet), "--lines", "3000", "--malformed", "30", "--contract", CONTRACT,
                "--out", file.toString()));
        LandingRun run = bench("--file", file.toString(), "--repeat", "1", "--json", "--contract", CONTRACT);
        assertEquals(0, run.exit(), run.stderr());
        Map<String, Object> validation = (Map<String, Object>) JSON.std.mapFrom(run.stdout()).get("validation");
        assertEquals("refuse", validation.get("decision"));
        assertEquals("REJECT_CAP", validation.get("refusal"));
    }

    @Test
    void bench_withBothFileAndLines_orAMissingFile_exitsTwo(@TempDir Path dir) {
        assertEquals(2, bench("--file", "x.jsonl", "--lines", "10").exit());
        assertEquals(2, bench("--file", dir.resolve("missing.jsonl").toString(), "--contract", CONTRACT).exit());
        assertEquals(2, bench("--lines", "10", "--repeat", "0", "--contract", CONTRACT).exit());
        String transactions = PerfTesting.contract().resolveSibling("transactions.json").toString();
        LandingRun csv = bench("--lines", "10", "--contract", transactions);
        assertEquals(2, csv.exit());
        assertTrue(csv.stderr().contains("measure one of its files with --file"), csv.stderr());
    }
}
