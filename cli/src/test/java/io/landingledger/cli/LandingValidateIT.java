package io.landingledger.cli;

import io.landingledger.cli.testing.LandingRun;
import io.landingledger.cli.testing.LandingScript;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.landingledger.cli.testing.LandingScript.landing;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the README's {@code ./landing validate} command as a user would, through the script, on the bundled
 * examples: the command in README cannot rot without this failing.
 */
class LandingValidateIT {
    private static final Path ROOT = LandingScript.ROOT;

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "progress_events, progress_events/progress-2026-03-01.jsonl,    0, accept, 12, 0, 0,",
            "progress_events, progress_events/progress-2026-03-02.jsonl,    0, accept, 11, 1, 0,",
            "progress_events, progress_events/progress-2026-03-03.jsonl,    0, accept, 8,  0, 3,",
            "progress_events, progress_events/progress-2026-03-05.jsonl,    1, refuse, 6,  0, 0, PROHIBITED_FIELD",
            "progress_events, progress_events/progress-2026-03-06.jsonl.gz, 0, accept, 15, 0, 0,",
            "transactions,    transactions/transactions-2026-10-01.csv,     0, accept, 4,  0, 0,",
            "transactions,    transactions/transactions-2026-10-02.csv,     0, accept, 5,  0, 0,",
            "transactions,    transactions/transactions-2026-10-03.csv,     0, accept, 4,  0, 0,",
    })
    void validate_onEachExample_printsTheDecisionAndExitsWithItsCode(String dataset, String file, int exit, String decision,
                                                                    long accepted, long duplicates, long rejected, String refusal) throws Exception {
        LandingRun run = landing("validate", "--contract", "datasets/" + dataset + ".json", "examples/inbox/" + file);
        assertEquals(exit, run.exit(), run.stderr());
        Map<String, Object> result = run.json();
        assertEquals(decision, result.get("decision"));
        assertEquals(accepted, ((Number) result.get("accepted")).longValue());
        assertEquals(duplicates, ((Number) result.get("duplicates")).longValue());
        assertEquals(rejected, ((Number) result.get("rejected")).longValue());
        if (refusal != null) {
            assertEquals(refusal, ((Map<?, ?>) result.get("refusal")).get("code"));
        }
        assertTrue(run.stderr().contains("decision=" + decision), run.stderr());
    }

    @Test
    void validate_whenRefused_neverPrintsTheProhibitedValueAndWritesNoAcceptedFile(@TempDir Path dir) throws Exception {
        Path accepted = dir.resolve("accepted.jsonl");
        Path rejects = dir.resolve("rejects.jsonl");
        LandingRun run = landing("validate", "--contract", "progress_events", "--accepted", accepted.toString(),
                "--rejects", rejects.toString(), "examples/inbox/progress_events/progress-2026-03-05.jsonl");
        assertEquals(1, run.exit());
        assertFalse(Files.exists(accepted), "a refused file must not leave an accepted file");
        String everything = run.stdout() + run.stderr() + Files.readString(rejects);
        assertFalse(everything.contains("learner.1007@example.com"), "the planted email leaked");
        assertTrue(((String) ((Map<?, ?>) run.json().get("refusal")).get("detail")).contains("email"), "the detail names the field");
    }

    @Test
    void validate_anUnknownFieldName_neverReachesTheQuarantineOrTheOutput_onlyItsHash(@TempDir Path dir) throws Exception {
        // issue 30, item 6: a producer that uses identifiers as keys must not see them in the quarantine or the summary
        String marker = "ZQX_LEAKMARKER_ACCT_77311";
        Path input = dir.resolve("progress-2026-03-09.jsonl");
        Files.writeString(input, "{\"event_id\":\"e1\",\"learner_id\":\"L1\",\"lesson_id\":\"lesson-7\",\"event_type\":\"checkpoint\","
                + "\"attempt_number\":1,\"event_time\":\"2026-03-02T14:02:11Z\",\"checkpoint\":3,\"" + marker + "\":1}\n");
        Path rejects = dir.resolve("rejects.jsonl");
        LandingRun run = landing("validate", "--contract", "progress_events", "--rejects", rejects.toString(), input.toString());
        assertEquals(Map.of("UNKNOWN_FIELD", 1), run.json().get("reasons"), run.stdout() + run.stderr());
        assertEquals(List.of("{\"line\":1,\"reason\":\"UNKNOWN_FIELD\",\"field\":\""
                + io.landingledger.core.validate.UnknownFieldName.hash(marker) + "\"}"), Files.readAllLines(rejects));
        String everything = run.stdout() + run.stderr() + Files.readString(rejects);
        assertFalse(everything.contains("LEAKMARKER"), everything);
    }

    @Test
    void validate_runTwice_writesByteIdenticalOutputs(@TempDir Path dir) throws Exception {
        String input = "examples/inbox/progress_events/progress-2026-03-03.jsonl";
        landing("validate", "--contract", "progress_events", "--accepted", dir.resolve("a1").toString(), "--rejects", dir.resolve("r1").toString(), input);
        landing("validate", "--contract", "progress_events", "--accepted", dir.resolve("a2").toString(), "--rejects", dir.resolve("r2").toString(), input);
        assertArrayEquals(Files.readAllBytes(dir.resolve("a1")), Files.readAllBytes(dir.resolve("a2")));
        assertArrayEquals(Files.readAllBytes(dir.resolve("r1")), Files.readAllBytes(dir.resolve("r2")));
        assertEquals(3, Files.readAllLines(dir.resolve("r1")).size());
        assertEquals(8, Files.readAllLines(dir.resolve("a1")).size());
    }

    @Test
    void validate_whenAnAmountHasAnExponentBeyondBigDecimal_refusesWithExitOneAndNamesTheReason(@TempDir Path dir) throws Exception {
        // 1e9999999999 used to throw out of the validator: a stack trace and exit 1, as if the file had been refused
        Path input = dir.resolve("transactions-2026-10-04.csv");
        Files.writeString(input, "txn_id,account_id,business_date,amount,batch_date\n"
                + "T-0401,A-001,2026-10-04,12.50,2026-10-04\n"
                + "T-0402,A-002,2026-10-04,1e9999999999,2026-10-04\n");
        Path rejects = dir.resolve("rejects.jsonl");
        LandingRun run = landing("validate", "--contract", "transactions", "--rejects", rejects.toString(), input.toString());
        assertEquals(1, run.exit(), run.stderr());
        Map<String, Object> result = run.json();
        assertEquals("refuse", result.get("decision"));
        assertEquals("REJECT_CAP", ((Map<?, ?>) result.get("refusal")).get("code")); // the shipped cap is 0 rejected lines
        assertEquals(Map.of("NUMBER_OVERFLOW", 1), result.get("reasons"));
        assertEquals(1, ((Number) result.get("rejected")).intValue());
        assertEquals(List.of("{\"line\":3,\"reason\":\"NUMBER_OVERFLOW\",\"field\":\"amount\"}"), Files.readAllLines(rejects));
        assertFalse(run.stderr().contains("Exception"), run.stderr());
        assertFalse((run.stdout() + run.stderr()).contains("1e9999999999"), "the value leaked");
    }

    @Test
    void validate_withAMalformedContract_exitsTwoNamingTheFileAndPath(@TempDir Path dir) throws Exception {
        Path contract = dir.resolve("broken.json");
        Files.writeString(contract, Files.readString(ROOT.resolve("datasets/progress_events.json"))
                .replace("\"dataset\": \"progress_events\"", "\"dataset\": \"broken\"")
                .replace("\"type\": \"integer\",   \"required\": true, \"min\": 1", "\"type\": \"int\", \"required\": true"));
        LandingRun run = landing("validate", "--contract", contract.toString(), "examples/inbox/progress_events/progress-2026-03-01.jsonl");
        assertEquals(2, run.exit());
        assertTrue(run.stderr().contains("broken.json"), run.stderr());
        assertTrue(run.stderr().contains("$.fields.attempt_number.type"), run.stderr());
        assertTrue(run.stderr().contains("unknown type \"int\""), run.stderr());
    }

    @Test
    void validate_withAMissingInputOrNoArguments_exitsTwo() throws Exception {
        assertEquals(2, landing("validate", "--contract", "progress_events", "examples/no-such-file.jsonl").exit());
        assertEquals(2, landing("validate").exit());
    }
}
