package io.landingledger.tools.bench;

import io.landingledger.cli.testing.LandingRun;
import com.fasterxml.jackson.jr.ob.JSON;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code landing bench --peers} on a small generated file: four whole programs run, the validator and the seed
 * rules (both shapes) accept the same rows, and the report has each program's figures and the goals (figures not asserted). Needs
 * python3 and Maven's duckdb_jdbc jar (the test dependency, so present after the build).
 */
class BenchPeersIT {
    private static final String CONTRACT = PerfTesting.contract().toString();

    @Test
    @SuppressWarnings("unchecked")
    void peers_runFourPrograms_andTheValidatorAndBothSeedShapesAgree(@TempDir Path dir) throws IOException {
        assumeTrue(Files.isRegularFile(Peers.defaultDuckDbJar()), "duckdb_jdbc in ~/.m2");
        Path file = dir.resolve("progress-2026-03-02.jsonl");
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        assertEquals(0, PerfTesting.execute(new GenerateCommand(quiet, quiet), "--lines", "5000", "--contract", CONTRACT,
                "--out", file.toString()));

        LandingRun run = PerfTesting.bench("--peers", "--file", file.toString(), "--repeat", "1", "--json",
                "--contract", CONTRACT, "--peer-workers", "2", "--duckdb-threads", "1");
        assertEquals(0, run.exit(), run.stderr());
        Map<String, Object> report = JSON.std.mapFrom(run.stdout());
        List<Map<String, Object>> programs = (List<Map<String, Object>>) report.get("programs");
        assertEquals(List.of("landing validate", "duckdb", "seed rules", "seed as written"), programs.stream().map(p -> p.get("name")).toList());
        for (Map<String, Object> p : programs) {
            assertEquals(List.of(0), p.get("exits"), p::toString);
            assertEquals("accept", p.get("decision"), p::toString);
            assertTrue(((Number) p.get("medianMBps")).doubleValue() > 0, p::toString);
            assertTrue(((Number) p.get("peakRssBytes")).longValue() > 1_000_000, p::toString);
        }
        long landing = ((Number) programs.get(0).get("accepted")).longValue();
        assertEquals(landing, ((Number) programs.get(2).get("accepted")).longValue(), "the seed rules accept what the validator accepts");
        assertEquals(landing, ((Number) programs.get(3).get("accepted")).longValue(), "and so does the seed as written");
        assertTrue(((List<String>) programs.get(3).get("command")).containsAll(List.of("--shape", "as-written")));
        // the generator's one unknown-field line of its ten malformed ones: DuckDB's typed reader does not see the field
        assertEquals(1L, ((Number) report.get("duckDbAcceptedMinusLanding")).longValue());
        assertTrue(((List<String>) programs.get(0).get("command")).contains("--workers"));
        Map<String, Object> goals = (Map<String, Object>) report.get("goals");
        assertEquals(3.0, ((Number) goals.get("overDuckDbGoal")).doubleValue());
        assertEquals(20.0, ((Number) goals.get("overSeedRulesGoal")).doubleValue());
        assertTrue(((Number) goals.get("overSeedAsWritten")).doubleValue() > 0, goals::toString);
        assertEquals(Map.of("ok", true, "problems", List.of()), report.get("checks"));
        assertFalse(Files.list(dir).anyMatch(p -> p.getFileName().toString().contains("accepted")), "outputs are deleted");
    }

    @Test
    void peersTable_namesThePrograms_theGoals_andNoRowContent(@TempDir Path dir) throws IOException {
        assumeTrue(Files.isRegularFile(Peers.defaultDuckDbJar()), "duckdb_jdbc in ~/.m2");
        String secret = "learner.1007@example.com";
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            lines.append("{\"event_id\":\"e").append(i).append("\",\"learner_id\":\"").append(secret)
                    .append("\",\"lesson_id\":\"s\",\"event_type\":\"completed\",\"attempt_number\":1,\"event_time\":\"2026-03-02T10:00:00+01:00\"}\n");
        }
        Path file = Files.writeString(dir.resolve("progress-2026-03-02.jsonl"), lines, StandardCharsets.UTF_8);
        LandingRun run = PerfTesting.bench("--peers", "--file", file.toString(), "--repeat", "1", "--contract", CONTRACT);
        assertEquals(0, run.exit(), run.stderr());
        for (String name : List.of("landing validate", "duckdb", "seed rules", "seed as written")) {
            assertTrue(run.stdout().lines().anyMatch(l -> l.startsWith(name + " ")), name + ": " + run.stdout());
        }
        assertTrue(run.stdout().contains("(goal: at least 3x"), run.stdout());
        assertTrue(run.stdout().contains("(goal: at least 20x"), run.stdout());
        assertTrue(run.stdout().contains("DuckDB agrees too"), run.stdout());
        assertFalse(run.stdout().contains(secret) || run.stderr().contains(secret), "no row content in any output");

        LandingRun without = PerfTesting.bench("--peers", "--file", file.toString(), "--repeat", "1", "--contract", CONTRACT,
                "--no-seed-as-written");
        assertEquals(0, without.exit(), without.stderr());
        assertTrue(without.stdout().lines().anyMatch(l -> l.startsWith("seed rules ")), without.stdout());
        assertFalse(without.stdout().contains("seed as written"), "left out: " + without.stdout());
    }

    @Test
    void theSeedRulesTwoShapes_writeTheSameRows_andBothHashTheStoredBytes(@TempDir Path dir) throws Exception {
        Path plain = dir.resolve("progress-2026-03-02.jsonl");
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        assertEquals(0, PerfTesting.execute(new GenerateCommand(quiet, quiet), "--lines", "3000", "--contract", CONTRACT,
                "--out", plain.toString()));
        Path gzip = dir.resolve("progress-2026-03-03.jsonl.gz");
        try (OutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gzip))) {
            Files.copy(plain, out);
        }
        for (Path input : List.of(plain, gzip)) {
            Map<String, Object> streamed = seedRules(input, dir.resolve("streamed.jsonl"), "streamed");
            Map<String, Object> asWritten = seedRules(input, dir.resolve("as-written.jsonl"), "as-written");
            String sha256 = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(input)));
            assertEquals(sha256, streamed.get("sha256"), "the stored bytes' SHA-256, gzip or not");
            streamed.remove("seconds");
            asWritten.remove("seconds");
            assertEquals(streamed, asWritten);
            assertEquals("accept", streamed.get("decision"));
            assertEquals(-1L, Files.mismatch(dir.resolve("streamed.jsonl"), dir.resolve("as-written.jsonl")), "the same rows, byte for byte");
        }
    }

    private static Map<String, Object> seedRules(Path input, Path accepted, String shape) throws Exception {
        Process p = new ProcessBuilder("python3", Peers.findSeedRules().toString(), input.toString(), "--accepted", accepted.toString(),
                "--shape", shape).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        return new java.util.HashMap<>(JSON.std.mapFrom(out));
    }
}
