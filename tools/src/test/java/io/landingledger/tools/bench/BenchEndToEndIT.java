package io.landingledger.tools.bench;

import io.landingledger.cli.testing.LandingRun;

import com.fasterxml.jackson.jr.ob.JSON;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code landing bench}'s end-to-end stage on the embedded emulators, on a small generated file: every pass
 * publishes (none is skipped as a replay), the published object holds exactly the validator core's rows, and the
 * staging upload went out in parts while the validator was still parsing. Figures are not asserted (not timed).
 */
class BenchEndToEndIT {

    @Test
    @SuppressWarnings("unchecked")
    void endToEnd_publishesOnEveryPass_theCoresRows_withPartsUploadedWhileParsing(@TempDir Path dir) throws IOException {
        // 80,000 lines are ~20 MB of accepted rows: four 5 MiB parts, the first of which must be done before the last row
        LandingRun run = PerfTesting.benchWith("--lines", "80000", "--repeat", "2", "--json", "--part-mib", "5",
                "--parts-in-flight", "2", "--no-file-output", "--no-retained-heap", "--contract", PerfTesting.contract().toString(),
                "--work-dir", dir.toString(), "--s3-read-range-mib", "1", "--s3-read-ranges", "4", "--workers-sweep", "1");
        assertEquals(0, run.exit(), run.stderr());
        Map<String, Object> report = JSON.std.mapFrom(run.stdout());
        assertEquals(Map.of("ok", true, "problems", List.of()), report.get("checks"), "the handler published what the core found");

        List<Map<String, Object>> stages = (List<Map<String, Object>>) report.get("stages");
        assertEquals(List.of("scan", "validator w1", "end-to-end", "end-to-end k1"), stages.stream().map(s -> s.get("name")).toList());
        Map<String, Object> stage = stages.get(2);
        assertEquals(2, ((List<?>) stage.get("passes")).size());
        assertTrue(((Number) stage.get("medianMBps")).doubleValue() > 0, stage::toString);
        assertTrue(((Number) stage.get("ratioToValidatorMedian")).doubleValue() > 0, stage::toString);

        // through the throttling proxy (85 MB/s a connection by default): K=4 ranges of 1 MiB, then one GetObject
        Map<String, Object> ranged = (Map<String, Object>) report.get("rangedReads");
        assertEquals(85.0, ((Number) ranged.get("connectionMBps")).doubleValue());
        assertEquals(1L << 20, ((Number) ranged.get("rangeBytes")).longValue());
        List<Map<String, Object>> byRanges = (List<Map<String, Object>>) ranged.get("byRanges");
        assertEquals(List.of(1, 4), byRanges.stream().map(k -> ((Number) k.get("ranges")).intValue()).toList());
        assertEquals(1, ((Number) byRanges.get(0).get("maxS3ConnectionsSending")).intValue(), "one GetObject: " + byRanges);
        // (the staging parts go the other way: their small responses fit in the burst and are never held)
        assertTrue(((Number) byRanges.get(1).get("maxS3ConnectionsSending")).intValue() >= 2, "ranges in parallel: " + byRanges);

        Map<String, Object> validation = (Map<String, Object>) report.get("validation");
        Map<String, Object> endToEnd = (Map<String, Object>) report.get("endToEnd");
        assertEquals("PUBLISHED", endToEnd.get("action"));
        assertEquals(validation.get("accepted"), endToEnd.get("accepted"));
        assertEquals(validation.get("acceptedBytes"), endToEnd.get("publishedBytes"));
        for (Map<String, Object> pass : (List<Map<String, Object>>) endToEnd.get("passes")) {
            double parsed = ((Number) pass.get("lastRowParsedSeconds")).doubleValue();
            double staged = ((Number) pass.get("stagedSeconds")).doubleValue();
            double promoted = ((Number) pass.get("promotedSeconds")).doubleValue();
            double ledger = ((Number) pass.get("ledgerWrittenSeconds")).doubleValue();
            assertTrue(parsed > 0 && parsed <= staged && staged <= promoted && promoted <= ledger, "steps in order: " + pass);
            assertTrue(((Number) pass.get("parts")).intValue() >= 4, "a multipart staging upload: " + pass);
            assertTrue(((Number) pass.get("partsDoneBeforeLastRowParsed")).intValue() >= 1, "the upload overlaps the parsing: " + pass);
            int inFlight = ((Number) pass.get("maxPartsInFlight")).intValue();
            assertTrue(inFlight >= 1 && inFlight <= 2, "at most --parts-in-flight parts at once: " + pass);
            Map<String, Object> cpu = (Map<String, Object>) pass.get("cpuByThreadsSeconds");
            List<String> groups = new java.util.ArrayList<>(List.of("handler thread"));
            groups.addAll(ThreadCpuGauge.GROUPS.keySet());
            groups.addAll(List.of(ThreadCpuGauge.OTHER, ThreadCpuGauge.UNATTRIBUTED));
            assertEquals(groups, List.copyOf(cpu.keySet()), "every group, in order: " + cpu);
            for (String busy : List.of("S3 emulator", "handler thread", "part uploads and copies")) {
                assertTrue(((Number) cpu.get(busy)).doubleValue() > 0, busy + " used CPU: " + cpu);
            }
        }
    }

    @Test
    void endToEnd_onAFileNamedForNoUnit_saysSoAndExitsTwo(@TempDir Path dir) {
        Path file = dir.resolve("day.jsonl");
        java.io.PrintStream quiet = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
        assertEquals(0, PerfTesting.execute(new GenerateCommand(quiet, quiet), "--lines", "100", "--contract",
                PerfTesting.contract().toString(), "--out", file.toString()));
        LandingRun run = PerfTesting.benchWith("--file", file.toString(), "--repeat", "1", "--contract",
                PerfTesting.contract().toString(), "--no-file-output", "--no-retained-heap");
        assertEquals(2, run.exit(), run.stderr());
        assertTrue(run.stderr().contains("--no-end-to-end"), run.stderr());
    }
}
