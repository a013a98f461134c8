package io.landingledger.tools;

import io.landingledger.cli.testing.LandingRun;
import io.landingledger.cli.testing.LandingScript;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the README's {@code ./landing local} as a user would: the whole pipeline on the embedded emulators over the
 * example inbox (and its re-delivery round), each day as the README's table and docs/local.md's examples say.
 */
class LandingLocalIT {

    @SuppressWarnings("unchecked")
    private static Map<String, String> statuses(Map<String, Object> summary) {
        return ((List<Map<String, Object>>) summary.get("units")).stream()
                .collect(Collectors.toMap(u -> u.get("dataset") + "/" + u.get("unit"), u -> (String) u.get("status")));
    }

    @Test
    void local_onTheExamples_publishesRefusesAndSweepsEachDayAsDocumented(@TempDir Path export) throws Exception {
        LandingRun run = LandingScript.landing("local", "--json", "--replay", "2", "--export", export.toString());
        assertEquals(0, run.exit(), run.stderr());
        Map<String, Object> summary = run.json();
        Map<String, String> statuses = statuses(summary);
        // round 2 re-sends 03-01's rows gzipped (the unit's other key), 03-02's rows in another line order with another
        // key order, and 03-06's again gzipped with one rejected line: each is a new input, so a new publish, and the
        // ledger names it (the ledger-truth issue's user report: it used to keep the old input, UNPROCESSED for ever).
        // Only 03-02's published bytes differ (its rows come in another order): RESTATED, and complete
        assertEquals("OK", statuses.get("progress_events/2026-03-01"), "the same rows republished: counted, not a restatement");
        assertEquals("RESTATED", statuses.get("progress_events/2026-03-02"), "the late row and the retried event publish, twice");
        assertEquals("OK", statuses.get("progress_events/2026-03-03"), "bad lines under the cap are quarantined");
        assertEquals("MISSING", statuses.get("progress_events/2026-03-04"), "a gap in the files shows as MISSING");
        assertEquals("OK", statuses.get("progress_events/2026-03-05"), "the producer's repaired re-delivery publishes");
        assertEquals("OK", statuses.get("progress_events/2026-03-06"), "the gzipped day publishes, then its re-send with a bad line: "
                + "the same accepted rows");
        assertEquals("REFUSED", statuses.get("progress_events/2026-03-07"));
        assertEquals("OK", statuses.get("transactions/2026-10-02"));
        assertEquals(false, summary.get("complete"));

        // every notification was delivered twice: the replays changed nothing
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> outcomes = (List<Map<String, Object>>) summary.get("outcomes");
        assertEquals(13, outcomes.stream().filter(o -> List.of("published", "refused").contains(o.get("action"))).count(), outcomes.toString());
        assertEquals(13, outcomes.stream().filter(o -> "skipped".equals(o.get("action"))).count());
        String ledger = Files.readString(export.resolve("ledger.json"));
        for (String newest : List.of("progress-2026-03-01.jsonl.gz", "progress-2026-03-02.jsonl", "progress-2026-03-06.jsonl.gz")) {
            assertTrue(ledger.contains("progress_events/" + newest), "the ledger names the re-sent input " + newest);
        }
        assertTrue(ledger.contains("\"rejected\" : 1"), "03-06's ledger counts the re-send's bad line");

        assertTrue(run.stderr().contains("PROHIBITED_FIELD"), "round 1 refuses 03-05 for its email field");
        assertFalse(run.stdout().contains("learner.1007@example.com") || run.stderr().contains("learner.1007@example.com"),
                "the refused file's email must not reach any output");
        assertTrue(Files.isRegularFile(export.resolve("_reports/completeness/progress_events/latest.html")));
        assertTrue(Files.isRegularFile(export.resolve("published/transactions/unit=2026-10-02/part-00000.jsonl")));
        String day2 = Files.readString(export.resolve("published/transactions/unit=2026-10-02/part-00000.jsonl"));
        assertTrue(day2.contains("\"txn_id\":\"T-0105\""), "the late row stays in the batch that delivered it");
        assertTrue(Files.readString(export.resolve("ledger.json")).contains("\"publishCount\" : 1"));
        assertTrue(Files.isRegularFile(export.resolve("ledger-history.json")));
        assertTrue(Files.readString(export.resolve("_status/progress_events/status.jsonl")).contains("\"unit\":\"2026-03-04\""),
                "--export copies _status/ (the sweep's unit status, a reader's table)");
    }

    @Test
    void local_withoutJson_fromAnotherFolder_printsTheTableAndWhereTheReportWent(@TempDir Path export, @TempDir Path elsewhere)
            throws Exception {
        // run from a folder that is not the checkout: the launcher and the examples come from the installation
        LandingRun run = LandingScript.landingIn(elsewhere, Map.of(), "local", "--export", export.toString());
        assertEquals(0, run.exit(), run.stderr());
        assertTrue(run.stdout().contains("DATASET"), run.stdout());
        assertTrue(run.stdout().matches("(?s).*progress_events\\s+2026-03-07\\s+REFUSED.*KEY_CONFLICT.*"), run.stdout());
        assertTrue(run.stdout().contains("HTML report (progress_events): " + export.resolve("_reports/completeness/progress_events/latest.html")));
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void local_watch_processesAFileDroppedIntoTheInboxFolderAfterStart(@TempDir Path work) throws Exception {
        Path inbox = work.resolve("inbox/transactions");
        Files.createDirectories(inbox);
        Path examples = Path.of("..").toAbsolutePath().normalize().resolve("examples/inbox/transactions");
        Files.copy(examples.resolve("transactions-2026-10-01.csv"), inbox.resolve("transactions-2026-10-01.csv"));
        Process process = new ProcessBuilder(Path.of("..").toAbsolutePath().normalize().resolve("landing").toString(),
                "local", "--watch", "--inbox", work.resolve("inbox").toString(), "--export", work.resolve("out").toString())
                .directory(Path.of("..").toAbsolutePath().normalize().toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line = err.readLine(); line != null; line = err.readLine()) {
                    lines.add(line);
                }
            } catch (java.io.IOException ignored) {
                // the process ended
            }
        });
        reader.start();
        try {
            awaitLine(lines, "Ctrl-C stops");
            Files.copy(examples.resolve("transactions-2026-10-02.csv"), inbox.resolve("transactions-2026-10-02.csv"));
            String published = awaitLine(lines, "transactions/2026-10-02");
            assertTrue(published.contains("published") && published.contains("5 rows"), published);
        } finally {
            process.destroy(); // SIGTERM: the command's shutdown hooks stop the emulators
            process.waitFor(30, TimeUnit.SECONDS);
            process.destroyForcibly();
        }
    }

    private static String awaitLine(LinkedBlockingQueue<String> lines, String needle) throws InterruptedException {
        StringBuilder seen = new StringBuilder();
        while (true) {
            String line = lines.poll(90, TimeUnit.SECONDS);
            if (line == null) {
                throw new AssertionError("no line containing \"" + needle + "\" on stderr; saw:\n" + seen);
            }
            seen.append(line).append('\n');
            if (line.contains(needle)) {
                return line;
            }
        }
    }
}
