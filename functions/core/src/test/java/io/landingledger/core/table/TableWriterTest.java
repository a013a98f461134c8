package io.landingledger.core.table;

import io.landingledger.core.contract.ContractEntry;
import io.landingledger.core.contract.ContractState;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.InputIdentity;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.PublishedRef;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.ledger.TableState;
import io.landingledger.core.testing.InMemoryContractStore;
import io.landingledger.core.testing.InMemoryLedger;
import io.landingledger.core.testing.InMemoryObjectStore;
import io.landingledger.core.testing.InMemoryTablePort;
import io.landingledger.core.testing.ManualClock;
import io.landingledger.core.testing.TestContracts;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TableWriterTest {
    private static final String LAKE = "lake";
    private static final String DATASET = "transactions";
    private static final String UNIT = "2026-10-01";
    private static final String KEY = "published/transactions/unit=" + UNIT + "/part-00000.jsonl";

    private final ManualClock clock = new ManualClock(Instant.parse("2026-10-02T01:00:00Z"));
    private final InMemoryLedger ledger = new InMemoryLedger();
    private final InMemoryObjectStore store = new InMemoryObjectStore(clock).createBucket(LAKE, false);
    private final InMemoryContractStore contracts = new InMemoryContractStore();
    private final InMemoryTablePort table = new InMemoryTablePort(clock);
    private final TableWriter writer = new TableWriter(ledger, store, LAKE, contracts, table, clock);

    TableWriterTest() throws IOException {
        String json = Files.readString(TestContracts.DATASETS.resolve("transactions.json"));
        contracts.create(new ContractEntry(DATASET, 1, ContractState.ACTIVE, json, "test", clock.instant()));
    }

    /** Publishes {@code rows} as run {@code runId}: the object, then the ledger, as the ingest does. */
    private LedgerItem publish(String runId, String rows) throws Exception {
        byte[] body = rows.getBytes(StandardCharsets.UTF_8);
        store.put(LAKE, KEY, body, "application/x-ndjson");
        String etag = store.head(LAKE, KEY).orElseThrow().etag();
        LedgerItem before = ledger.get(DATASET, UNIT).orElse(null);
        LedgerItem item = LedgerItem.builder(DATASET, UNIT)
                .status(LedgerStatus.PUBLISHED)
                .input(InputIdentity.builder().bucket("inbox").key("transactions/t.csv").versionId("v-" + runId)
                        .etag("e").sha256("s").size(1).build())
                .published(new PublishedRef(KEY, etag, rows.lines().count(), 0, 0, null, sha(body)))
                .run(runId, RunKind.INGEST)
                .contractVersion(1)
                .publishCount(1)
                .publishedAt(clock.instant(), clock.instant())
                .build();
        ledger.write(item, before == null ? 0 : before.revision(), null);
        clock.advance(java.time.Duration.ofSeconds(1));
        return ledger.get(DATASET, UNIT).orElseThrow();
    }

    private static String sha(byte[] body) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(body));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final String DAY1 = "{\"amount\":20.00,\"txn_id\":\"t1\"}\n{\"amount\":1.5,\"txn_id\":\"t2\"}\n";
    private static final String DAY1_RESTATED = "{\"amount\":20.01,\"txn_id\":\"t1\"}\n";

    @Test
    void aPublish_isOneCommitOfTheUnit_namingThePublish_andTheLedgerRecordsItsSnapshot() throws Exception {
        LedgerItem item = publish("run-1", DAY1);

        TableWriteResult result = writer.write(DATASET, UNIT);

        assertEquals(TableWriteResult.Outcome.COMMITTED, result.outcome());
        TableSnapshot snapshot = table.unitSnapshots(DATASET, UNIT).getFirst();
        assertEquals(result.snapshotId(), snapshot.snapshotId());
        assertEquals(List.of("run-1", item.published().contentSha256(), "v-run-1", 1, 2L),
                List.of(snapshot.runId(), snapshot.contentSha256(), snapshot.inputVersion(), snapshot.contractVersion(),
                        snapshot.rows()));
        assertEquals(DAY1, table.partition(DATASET, UNIT).orElseThrow().text());
        TableState state = ledger.get(DATASET, UNIT).orElseThrow().table();
        assertTrue(state.holds("run-1", item.published().contentSha256()));
        assertEquals(snapshot.snapshotId(), state.snapshotId());
        HistoryEntry entry = ledger.history(DATASET, UNIT).getLast();
        assertEquals(List.of(TableWriter.TABLE_COMMITTED, "run-1", "snapshot " + snapshot.snapshotId()),
                List.of(entry.action(), entry.runId(), entry.reason()));
    }

    @Test
    void aDuplicateMessage_isInStep_andWritesNothing() throws Exception {
        publish("run-1", DAY1);
        writer.write(DATASET, UNIT);
        long writes = ledger.writes();
        int historyBefore = ledger.history(DATASET, UNIT).size();

        TableWriteResult again = writer.write(DATASET, UNIT);

        assertEquals(TableWriteResult.Outcome.IN_STEP, again.outcome());
        assertEquals(1, table.commits(DATASET));
        assertEquals(writes, ledger.writes());
        assertEquals(historyBefore, ledger.history(DATASET, UNIT).size());
    }

    @Test
    void aRestatement_isANewSnapshot_andTheOldSnapshotStillHoldsTheOldRows() throws Exception {
        publish("run-1", DAY1);
        long first = writer.write(DATASET, UNIT).snapshotId();
        publish("run-2", DAY1_RESTATED);
        assertFalse(ledger.get(DATASET, UNIT).orElseThrow().table().holds("run-2",
                ledger.get(DATASET, UNIT).orElseThrow().published().contentSha256()), "behind until the writer runs");

        TableWriteResult second = writer.write(DATASET, UNIT);

        assertEquals(TableWriteResult.Outcome.COMMITTED, second.outcome());
        assertEquals(DAY1_RESTATED, table.partition(DATASET, UNIT).orElseThrow().text());
        InMemoryTablePort.Snapshot old = table.snapshots(DATASET).stream().filter(s -> s.id() == first).findFirst()
                .orElseThrow();
        assertEquals(DAY1, old.partitions().get(UNIT).text());
        assertEquals(List.of("run-2", "run-1"), table.unitSnapshots(DATASET, UNIT).stream()
                .map(TableSnapshot::runId).toList());
    }

    @Test
    void aCrashBetweenCommitAndLedger_isFoundByTheSnapshotSummary_andRecordedWithoutASecondCommit() throws Exception {
        publish("run-1", DAY1);
        table.loseNextCommitResponse(new IllegalStateException("CommitStateUnknown"));

        TableWriteResult result = writer.write(DATASET, UNIT);

        assertEquals(TableWriteResult.Outcome.RECOVERED, result.outcome(), "the retry within write finds it");
        assertEquals(1, table.commits(DATASET));
        assertEquals(result.snapshotId(), ledger.get(DATASET, UNIT).orElseThrow().table().snapshotId());
    }

    @Test
    void aRepublishOfTheSameRows_byAnotherRun_isRecordedWithoutACommit() throws Exception {
        publish("run-1", DAY1);
        long snapshot = writer.write(DATASET, UNIT).snapshotId();
        LedgerItem repaired = publish("run-2", DAY1);

        TableWriteResult result = writer.write(DATASET, UNIT);

        assertEquals(TableWriteResult.Outcome.RECOVERED, result.outcome());
        assertEquals(snapshot, result.snapshotId());
        assertEquals(1, table.commits(DATASET));
        assertTrue(ledger.get(DATASET, UNIT).orElseThrow().table().holds("run-2",
                repaired.published().contentSha256()));
    }

    @Test
    void aConcurrentCommitOfTheUnit_isAConflict_andTheWriterReadsAgainAndCommits() throws Exception {
        publish("run-1", DAY1);
        table.ensureTable(TestContracts.transactions());
        InMemoryTablePort raced = table;
        // a commit lands between the writer's read of the table and its commit: the first replace conflicts
        table.failNext(InMemoryTablePort.Operation.REPLACE_UNIT, new TableConflictException("raced"));

        TableWriteResult result = writer.write(DATASET, UNIT);

        assertEquals(TableWriteResult.Outcome.COMMITTED, result.outcome());
        assertEquals(1, raced.commits(DATASET));
    }

    @Test
    void aConflictFromAForeignCommit_isDetectedFromTheSnapshotRead() {
        table.ensureTable(TestContracts.transactions());
        long foreign = table.foreignWrite(DATASET, UNIT, "{}\n");
        TableCommit stale = new TableCommit(DATASET, UNIT, "run-1", "sha", null, 1, null);
        assertThrows(TableConflictException.class, () -> table.replaceUnit(TestContracts.transactions(), stale,
                new java.io.ByteArrayInputStream(new byte[0])));
        TableCommit fresh = new TableCommit(DATASET, UNIT, "run-1", "sha", null, 1, foreign);
        table.replaceUnit(TestContracts.transactions(), fresh, new java.io.ByteArrayInputStream(new byte[0]));
        table.compact(DATASET, UNIT);
        TableCommit afterCompaction = new TableCommit(DATASET, "2026-10-02", "run-2", "sha", null, 1, foreign);
        table.replaceUnit(TestContracts.transactions(), afterCompaction, new java.io.ByteArrayInputStream(new byte[0]));
    }

    @Test
    void faultsThatLast_recordTheReasonOnTheStandingPublish_andTheTableKeepsItsPreviousSnapshot() throws Exception {
        publish("run-1", DAY1);
        long first = writer.write(DATASET, UNIT).snapshotId();
        LedgerItem item = publish("run-2", DAY1_RESTATED);
        for (int i = 0; i < TableWriter.MAX_ATTEMPTS; i++) {
            table.failNext(InMemoryTablePort.Operation.REPLACE_UNIT, new IllegalStateException("catalog 503 <row>"));
        }

        TableWriteResult result = writer.write(DATASET, UNIT);

        assertEquals(TableWriteResult.Outcome.FAILED, result.outcome());
        assertEquals(TableWriter.TABLE_COMMIT_FAILED, result.reason());
        TableState state = ledger.get(DATASET, UNIT).orElseThrow().table();
        assertEquals(TableWriter.TABLE_COMMIT_FAILED, state.lastError(), "a code, never the fault's text");
        assertEquals(clock.instant(), state.failedAt());
        assertEquals(first, state.snapshotId(), "the snapshot the table still shows stays named");
        assertFalse(state.holds("run-2", item.published().contentSha256()));
        assertEquals(DAY1, table.partition(DATASET, UNIT).orElseThrow().text());

        TableWriteResult retried = writer.write(DATASET, UNIT);
        assertEquals(TableWriteResult.Outcome.COMMITTED, retried.outcome());
        assertNull(ledger.get(DATASET, UNIT).orElseThrow().table().lastError());
    }

    @Test
    void aFaultThatLasts_isRecordedOnce_soItsRetriesWriteNothingThatWouldQueueTheUnitAgain() throws Exception {
        publish("run-1", DAY1);
        for (int i = 0; i < 2 * TableWriter.MAX_ATTEMPTS; i++) {
            table.failNext(InMemoryTablePort.Operation.REPLACE_UNIT, new IllegalStateException("catalog 503"));
        }
        assertEquals(TableWriteResult.Outcome.FAILED, writer.write(DATASET, UNIT).outcome());
        LedgerItem recorded = ledger.get(DATASET, UNIT).orElseThrow();
        assertEquals(TableWriter.TABLE_COMMIT_FAILED, recorded.table().lastError());
        clock.advance(java.time.Duration.ofMinutes(30)); // the queue's next delivery

        TableWriteResult again = writer.write(DATASET, UNIT);

        assertEquals(TableWriteResult.Outcome.FAILED, again.outcome());
        assertEquals(TableWriter.TABLE_COMMIT_FAILED, again.reason());
        LedgerItem after = ledger.get(DATASET, UNIT).orElseThrow();
        assertEquals(recorded.revision(), after.revision(), "the ledger's stream has nothing new to queue");
        assertEquals(recorded.table(), after.table(), "the first failure's time stands");
    }

    @Test
    void aPublishedObjectThatIsNotTheLedgers_isNeverCommitted() throws Exception {
        publish("run-1", DAY1);
        store.put(LAKE, KEY, DAY1_RESTATED.getBytes(StandardCharsets.UTF_8), "application/x-ndjson"); // drifted

        TableWriteResult result = writer.write(DATASET, UNIT);

        assertEquals(TableWriteResult.Outcome.SKIPPED, result.outcome());
        assertEquals(TableWriter.LEDGER_MOVED, result.reason());
        assertEquals(0, table.commits(DATASET));
    }

    @Test
    void aUnitWithoutAStandingPublish_isSkipped() throws Exception {
        assertEquals(TableWriter.NOT_PUBLISHED, writer.write(DATASET, UNIT).reason());
        ledger.write(LedgerItem.builder(DATASET, UNIT).status(LedgerStatus.REFUSED).run("run-1", RunKind.INGEST)
                .build(), 0, null);
        assertEquals(TableWriteResult.Outcome.SKIPPED, writer.write(DATASET, UNIT).outcome());
        assertEquals(List.of(), table.datasets());
    }

    @Test
    void aPublishWhoseContractVersionIsGone_failsWithItsReason() throws Exception {
        LedgerItem item = publish("run-1", DAY1);
        ledger.write(item.toBuilder().contractVersion(9).build(), item.revision(), null);

        TableWriteResult result = writer.write(DATASET, UNIT);

        assertEquals(TableWriter.CONTRACT_VERSION_MISSING, result.reason());
        assertEquals(TableWriter.CONTRACT_VERSION_MISSING, ledger.get(DATASET, UNIT).orElseThrow().table().lastError());
    }
}
