package io.landingledger.cli.ops;

import io.landingledger.cli.stack.LocalStackRecord;
import io.landingledger.cli.testing.LandingRun;
import io.landingledger.tools.testing.WatchedLocalStack;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import software.amazon.awssdk.core.sync.RequestBody;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The operator's command line reads the datasets' Iceberg tables of the stack {@code landing local} deployed from the
 * template, as on AWS: the table catalog, warehouse and namespace from the stack's outputs (DescribeStacks), the
 * catalog signed with the operator's own keys (SigV4, s3tables) and the table bucket's policy deciding. After the
 * examples are published and the writer committed them, a restatement is a second snapshot: {@code landing history}
 * lists both newest first with their run ids, {@code landing explain} gives the standing snapshot and Athena's
 * {@code FOR VERSION AS OF} query, and {@code landing status} names the consumer whose receipt names the older one.
 */
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class TableHistoryIT {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final String DATASET = "transactions";
    static final String UNIT = "2026-10-01";
    static WatchedLocalStack stack;

    @BeforeAll
    static void start() throws Exception {
        Path work = Files.createTempDirectory("table-history-");
        System.setProperty(LocalStackRecord.PROPERTY, work.resolve("state/local.json").toString());
        Path inbox = Files.createDirectories(work.resolve("inbox/" + DATASET));
        Files.copy(ROOT.resolve("examples/inbox/transactions/transactions-" + UNIT + ".csv"),
                inbox.resolve("transactions-" + UNIT + ".csv"));
        stack = WatchedLocalStack.startIn(work);
        System.setProperty("aws.endpointUrl", stack.record.s3Endpoint().toString());
        System.setProperty("aws.accessKeyId", stack.record.accessKeyId());
        System.setProperty("aws.secretAccessKey", stack.record.secretAccessKey());
        TargetOptions.stackApis = null;
    }

    @AfterAll
    static void stop() throws Exception {
        System.clearProperty("aws.endpointUrl");
        System.clearProperty("aws.accessKeyId");
        System.clearProperty("aws.secretAccessKey");
        TargetOptions.stackApis = null;
        if (stack != null) {
            stack.close();
        }
        System.clearProperty(LocalStackRecord.PROPERTY);
    }

    private static LandingRun landing(String... args) {
        return LocalStackTargetIT.landing(args);
    }

    /** The unit's table snapshots once the writer has committed {@code count} of them (it runs behind the ledger). */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> snapshots(int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (true) {
            LandingRun history = landing("history", DATASET, UNIT, "--json");
            assertEquals(0, history.exit(), history.stdout() + history.stderr());
            List<Map<String, Object>> snapshots = (List<Map<String, Object>>) history.json().get("table_snapshots");
            assertTrue(snapshots != null, "history lists the table's snapshots: " + history.stdout());
            if (snapshots.size() >= count) {
                return snapshots;
            }
            assertTrue(System.nanoTime() < deadline, "the writer committed " + snapshots.size() + " of " + count + " snapshots");
            Thread.sleep(1000);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void historyExplainAndStatus_readTheTable_asTheOperatorSigns() throws Exception {
        Map<String, Object> first = snapshots(1).get(0);
        long firstId = ((Number) first.get("snapshot_id")).longValue();
        assertEquals(Boolean.TRUE, first.get("standing"), first.toString());
        String mart = "mart";
        LandingRun ack = landing("ack", DATASET, UNIT, "--consumer", mart, "--snapshot", Long.toString(firstId));
        assertEquals(0, ack.exit(), ack.stdout() + ack.stderr());

        // a restatement: the producer sends the day again with one amount corrected, the operator re-runs the unit
        String restated = Files.readString(ROOT.resolve("examples/inbox/transactions/transactions-" + UNIT + ".csv"))
                .replace("120.00", "121.00");
        stack.s3.putObject(r -> r.bucket(stack.record.inboxBucket()).key(DATASET + "/transactions-" + UNIT + ".csv"),
                RequestBody.fromString(restated));
        LandingRun repair = landing("repair", DATASET, UNIT, "--input-version", "latest", "--reason", "INC-7 restated", "--yes");
        assertEquals(0, repair.exit(), repair.stdout() + repair.stderr());

        List<Map<String, Object>> both = snapshots(2);
        long newestId = ((Number) both.get(0).get("snapshot_id")).longValue();
        assertNotEquals(firstId, newestId);
        assertEquals(firstId, ((Number) both.get(1).get("snapshot_id")).longValue(), "newest first: " + both);
        assertEquals(first.get("run_id"), both.get(1).get("run_id"));
        assertNotEquals(both.get(0).get("run_id"), both.get(1).get("run_id"), both.toString());
        assertEquals(Boolean.TRUE, both.get(0).get("standing"), both.toString());
        assertEquals(Boolean.FALSE, both.get(1).get("standing"), both.toString());
        LandingRun historyText = landing("history", DATASET, UNIT);
        String text = historyText.stdout();
        System.out.println("[table-history] landing history:\n" + text + historyText.stderr());
        System.out.println("[table-history] landing explain:\n" + landing("explain", DATASET, UNIT).stdout());
        assertTrue(text.contains(Long.toString(newestId)) && text.contains(Long.toString(firstId)), text);
        assertTrue(text.contains("\"s3tablescatalog/landing-local-tables\""), text);

        LandingRun explain = landing("explain", DATASET, UNIT, "--json");
        assertEquals(0, explain.exit(), explain.stdout() + explain.stderr());
        Map<String, Object> table = (Map<String, Object>) explain.json().get("table");
        assertEquals(newestId, ((Number) table.get("snapshot_id")).longValue(), table.toString());
        assertEquals(both.get(0).get("run_id"), table.get("run_id"));
        String athena = ((Map<String, String>) table.get("queries")).get("athena");
        assertTrue(athena.startsWith("SELECT * FROM \"s3tablescatalog/landing-local-tables\"."), athena);
        assertTrue(athena.contains(".\"transactions\" FOR VERSION AS OF " + newestId + " WHERE unit = DATE '" + UNIT + "'"),
                athena);

        LandingRun status = landing("status", DATASET, "--from", UNIT, "--to", UNIT, "--json");
        Map<String, Object> older = (Map<String, Object>) status.json().get("consumers_on_older_snapshot");
        assertEquals(Map.of(DATASET, Map.of(mart, List.of(UNIT))), older, status.stdout());

        // the record of `landing local --watch` (no flags) finds the same tables through the stack's gateway
        LandingRun flagless = LandingRun.inProcess("history", DATASET, UNIT, "--json");
        List<Map<String, Object>> listed = (List<Map<String, Object>>) flagless.json().get("table_snapshots");
        assertFalse(listed == null || listed.isEmpty(), flagless.stdout() + flagless.stderr());
    }
}
