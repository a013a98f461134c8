package io.landingledger.tools.local;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.localcloud.deploy.AwsGateway;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A record that keeps failing in {@code landing local} (here: the stack's endpoint answers the validator's requests for
 * one unit with S3's InternalError, as when the lake stops answering) is retried by Lambda as the validator's
 * EventInvokeConfig says, then reported {@code failed} with a one-line reason; the run goes on with the other files, and
 * the summary and the exit status say so. No stack trace unless --debug.
 */
class LocalFailedRecordIT {
    private static final String UNIT = "2026-03-03";

    record Run(int exit, String stdout, String stderr) {
    }

    private static Run run(Path inbox, boolean debug, String... args) {
        LocalCommand command = new LocalCommand();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        command.out = new PrintStream(out, true, StandardCharsets.UTF_8);
        command.err = new PrintStream(err, true, StandardCharsets.UTF_8);
        // the lake stops answering the validator for one unit: every attempt Lambda makes fails, then its retries run out
        command.deployed = stack -> stack.injectFaults((principal, request) -> !principal.operator() && request.service().equals("s3")
                && (request.rawPath().contains("unit%3D" + UNIT) || request.rawPath().contains("unit=" + UNIT))
                ? AwsGateway.s3Error(500, "InternalError", "injected: the lake stopped answering") : null);
        List<String> all = new java.util.ArrayList<>(List.of("--inbox", inbox.toString()));
        if (debug) {
            all.add("--debug");
        }
        all.addAll(List.of(args));
        int exit = new CommandLine(command).execute(all.toArray(String[]::new));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Path inbox(Path dir) throws Exception {
        Path examples = Path.of("../examples/inbox/progress_events").toAbsolutePath().normalize();
        Path dataset = Files.createDirectories(dir.resolve("inbox/progress_events"));
        for (String day : List.of("2026-03-01", "2026-03-02", "2026-03-03")) {
            Files.copy(examples.resolve("progress-" + day + ".jsonl"), dataset.resolve("progress-" + day + ".jsonl"));
        }
        return dir.resolve("inbox");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aFailingRecord_isReportedFailed_theOthersPublish_andTheExitStatusSaysSo(@TempDir Path dir) throws Exception {
        Run run = run(inbox(dir), false, "--json", "--export", dir.resolve("out").toString());
        assertEquals(1, run.exit(), run.stderr());
        Map<String, Object> summary = JSON.std.mapFrom(run.stdout());
        List<Map<String, Object>> failed = (List<Map<String, Object>>) summary.get("failed");
        assertEquals(1, failed.size(), failed.toString());
        assertEquals("progress_events/progress-2026-03-03.jsonl", failed.get(0).get("key"));
        // the first request the fault meets is a HEAD, whose error S3 sends without a body: no message, the status
        assertTrue(String.valueOf(failed.get(0).get("reason")).startsWith("S3Exception:")
                && String.valueOf(failed.get(0).get("reason")).contains("Status Code: 500"), failed.toString());
        List<Map<String, Object>> outcomes = (List<Map<String, Object>>) summary.get("outcomes");
        assertEquals(2, outcomes.stream().filter(o -> "published".equals(o.get("action"))).count(), outcomes.toString());
        assertTrue(run.stderr().contains("  failed    progress_events/progress-2026-03-03.jsonl  S3Exception: "), run.stderr());
        assertTrue(run.stderr().contains("(attempt 2; Lambda retries it)"), "the validator's EventInvokeConfig retries: " + run.stderr());
        assertFalse(run.stderr().contains("\tat "), "no stack trace without --debug: " + run.stderr());
    }

    @Test
    void theTable_namesTheFailedRecord_andDebugAddsTheStackTrace(@TempDir Path dir) throws Exception {
        Run run = run(inbox(dir), true, "--export", dir.resolve("out").toString());
        assertEquals(1, run.exit(), run.stderr());
        assertTrue(run.stdout().contains("FAILED progress_events/progress-2026-03-03.jsonl (version "), run.stdout());
        assertTrue(run.stdout().contains("1 record(s) failed; the run went on with the others (exit status 1)."), run.stdout());
        assertTrue(run.stdout().contains("DATASET"), run.stdout());
        assertTrue(run.stderr().contains("\tat "), "--debug prints the stack trace: " + run.stderr());
    }
}
