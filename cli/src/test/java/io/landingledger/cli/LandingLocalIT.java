package io.landingledger.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the README's {@code ./landing local} as a user would: the whole pipeline on the embedded emulators over the
 * example inbox (and its re-delivery round).
 */
class LandingLocalIT {

    @SuppressWarnings("unchecked")
    private static Map<String, String> statuses(Map<String, Object> summary) {
        return ((List<Map<String, Object>>) summary.get("units")).stream()
                .collect(Collectors.toMap(u -> u.get("dataset") + "/" + u.get("unit"), u -> (String) u.get("status")));
    }

    @Test
    void local_onTheExamples_publishesRefusesAndSweepsEachDayAsDocumented(@TempDir Path export) throws Exception {
        LandingValidateIT.Run run = LandingValidateIT.landing("local", "--json", "--replay", "2", "--export", export.toString());
        assertEquals(0, run.exit(), run.stderr());
        Map<String, Object> summary = run.json();
        Map<String, String> statuses = statuses(summary);
        assertEquals("OK", statuses.get("progress_events/2026-03-01"));
        assertEquals("OK", statuses.get("progress_events/2026-03-02"), "the late row and the retried event publish");
        assertEquals("OK", statuses.get("progress_events/2026-03-03"), "bad lines under the cap are quarantined");
        assertEquals("MISSING", statuses.get("progress_events/2026-03-04"), "a gap in the files shows as MISSING");
        assertEquals("OK", statuses.get("progress_events/2026-03-05"), "the producer's repaired re-delivery publishes");
        assertEquals("OK", statuses.get("progress_events/2026-03-06"), "the gzipped day publishes");
        assertEquals("REFUSED", statuses.get("progress_events/2026-03-07"));
        assertEquals("OK", statuses.get("transactions/2026-10-02"));
        assertEquals(false, summary.get("complete"));

        // every notification was delivered twice: the replays changed nothing
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> outcomes = (List<Map<String, Object>>) summary.get("outcomes");
        assertEquals(10, outcomes.stream().filter(o -> List.of("published", "refused").contains(o.get("action"))).count(), outcomes.toString());
        assertEquals(10, outcomes.stream().filter(o -> "skipped".equals(o.get("action"))).count());

        assertTrue(run.stderr().contains("PROHIBITED_FIELD"), "round 1 refuses 03-05 for its email field");
        assertFalse(run.stdout().contains("learner.1007@example.com") || run.stderr().contains("learner.1007@example.com"),
                "the refused file's email must not reach any output");
        assertTrue(Files.isRegularFile(export.resolve("_reports/completeness/progress_events/latest.html")));
        assertTrue(Files.isRegularFile(export.resolve("published/transactions/unit=2026-10-02/part-00000.jsonl")));
        String day2 = Files.readString(export.resolve("published/transactions/unit=2026-10-02/part-00000.jsonl"));
        assertTrue(day2.contains("\"txn_id\":\"T-0105\""), "the late row stays in the batch that delivered it");
        assertTrue(Files.readString(export.resolve("ledger.json")).contains("\"publishCount\" : 1"));
        assertTrue(Files.isRegularFile(export.resolve("ledger-history.json")));
    }

    @Test
    void local_withoutJson_printsTheTableAndWhereTheReportWent(@TempDir Path export) throws Exception {
        LandingValidateIT.Run run = LandingValidateIT.landing("local", "--export", export.toString());
        assertEquals(0, run.exit(), run.stderr());
        assertTrue(run.stdout().contains("DATASET"), run.stdout());
        assertTrue(run.stdout().matches("(?s).*progress_events\\s+2026-03-07\\s+REFUSED.*KEY_CONFLICT.*"), run.stdout());
        assertTrue(run.stdout().contains("HTML report (progress_events): " + export.resolve("_reports/completeness/progress_events/latest.html")));
    }
}
