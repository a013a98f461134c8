package io.landingledger.core.ledger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every {@link Ledger} must do: run against the in-memory ledger (core) and {@code DynamoDbLedger} on moto
 * (lambda, {@code DynamoDbLedgerContractIT}). Most write cases run twice, with a history entry (DynamoDB: one
 * TransactWriteItems) and without (one conditional UpdateItem), since the adapter takes two paths.
 */
public abstract class LedgerContract {

    /** The ledger under test, empty, and the one fault the contract injects. */
    public interface Fixture extends AutoCloseable {
        Ledger ledger();

        /**
         * The next {@link Ledger#write} meets DynamoDB's TransactionConflict (another transaction on the item is in
         * flight): a cancelled TransactWriteItems with reason TransactionConflict, or TransactionConflictException
         * for a write without history.
         */
        void conflictNextWrite();

        @Override
        default void close() {
        }
    }

    protected abstract Fixture fixture();

    protected static final String DATASET = "progress_events";
    protected static final String UNIT = "2026-03-02";

    protected Fixture fx;
    protected Ledger ledger;

    @BeforeEach
    final void openFixture() {
        fx = fixture();
        ledger = fx.ledger();
    }

    @AfterEach
    final void closeFixture() throws Exception {
        fx.close();
    }

    // ---- items and revisions ----

    @Test
    public void get_ofAUnitNeverWritten_isEmpty() {
        assertEquals(Optional.empty(), ledger.get(DATASET, UNIT));
        assertEquals(List.of(), ledger.history(DATASET, UNIT));
        assertEquals(List.of(), ledger.items(DATASET, null, null));
    }

    @Test
    public void write_ofANewItem_atRevisionZero_storesItAtRevisionOne_whateverItsOwnRevisionSays() throws Exception {
        LedgerItem item = published(UNIT, "etag-1", "run-1").withRevision(7);
        HistoryEntry entry = history(UNIT, "2026-03-02T23:10:02Z", "run-1", "PUBLISHED");

        ledger.write(item, 0, entry);

        assertEquals(Optional.of(item.withRevision(1)), ledger.get(DATASET, UNIT));
        assertEquals(List.of(entry), ledger.history(DATASET, UNIT));
    }

    @Test
    public void write_withoutHistory_ofANewItem_storesItAtRevisionOne() throws Exception {
        LedgerItem item = refused(UNIT, "run-1");
        ledger.write(item, 0, null);
        assertEquals(Optional.of(item.withRevision(1)), ledger.get(DATASET, UNIT));
        assertEquals(List.of(), ledger.history(DATASET, UNIT));
    }

    @Test
    public void write_withTheRevisionRead_replacesEveryField_andIncrementsTheRevision() throws Exception {
        LedgerItem first = fullyPopulated(UNIT);
        ledger.write(first, 0, history(UNIT, "2026-03-02T23:10:02Z", "run-1", "PUBLISHED"));
        // every optional field gone: the stored item must lose them, not keep the old values
        LedgerItem second = sparse(UNIT);
        ledger.write(second, 1, null);
        assertEquals(Optional.of(second.withRevision(2)), ledger.get(DATASET, UNIT));

        LedgerItem third = published(UNIT, "etag-3", "run-3");
        ledger.write(third, 2, history(UNIT, "2026-03-03T01:00:00Z", "run-3", "PUBLISHED"));

        assertEquals(Optional.of(third.withRevision(3)), ledger.get(DATASET, UNIT));
        assertEquals(2, ledger.history(DATASET, UNIT).size());
    }

    @Test
    public void write_withAStaleRevision_conflicts_carryingTheCurrentItem_andWritesNothing() throws Exception {
        ledger.write(published(UNIT, "etag-1", "run-1"), 0, history(UNIT, "2026-03-02T23:10:02Z", "run-1", "PUBLISHED"));
        LedgerItem winner = published(UNIT, "etag-2", "run-2");
        ledger.write(winner, 1, history(UNIT, "2026-03-02T23:20:00Z", "run-2", "PUBLISHED"));

        for (HistoryEntry entry : new HistoryEntry[] {history(UNIT, "2026-03-02T23:30:00Z", "run-3", "PUBLISHED"), null}) {
            LedgerConflictException conflict = assertThrows(LedgerConflictException.class,
                    () -> ledger.write(published(UNIT, "etag-3", "run-3"), 1, entry), "history " + entry);
            assertEquals(Optional.of(winner.withRevision(2)), conflict.current(), "the conflict carries the item that won");
        }

        assertEquals(Optional.of(winner.withRevision(2)), ledger.get(DATASET, UNIT));
        assertEquals(List.of("run-1", "run-2"), ledger.history(DATASET, UNIT).stream().map(HistoryEntry::runId).toList(),
                "a refused write appends no history");
    }

    @Test
    public void write_atRevisionZero_whenTheItemExists_conflicts_carryingIt() throws Exception {
        LedgerItem first = refused(UNIT, "run-1");
        ledger.write(first, 0, history(UNIT, "2026-03-02T23:10:02Z", "run-1", "REFUSED"));

        for (HistoryEntry entry : new HistoryEntry[] {history(UNIT, "2026-03-02T23:30:00Z", "run-2", "PUBLISHED"), null}) {
            LedgerConflictException conflict = assertThrows(LedgerConflictException.class,
                    () -> ledger.write(published(UNIT, "etag-2", "run-2"), 0, entry), "history " + entry);
            assertEquals(Optional.of(first.withRevision(1)), conflict.current());
        }
        assertEquals(Optional.of(first.withRevision(1)), ledger.get(DATASET, UNIT));
        assertEquals(1, ledger.history(DATASET, UNIT).size());
    }

    @Test
    public void write_atARevision_whenTheItemIsAbsent_conflicts_withNoCurrentItem() {
        for (HistoryEntry entry : new HistoryEntry[] {history(UNIT, "2026-03-02T23:30:00Z", "run-2", "PUBLISHED"), null}) {
            LedgerConflictException conflict = assertThrows(LedgerConflictException.class,
                    () -> ledger.write(published(UNIT, "etag-2", "run-2"), 3, entry), "history " + entry);
            assertEquals(Optional.empty(), conflict.current());
        }
        assertEquals(Optional.empty(), ledger.get(DATASET, UNIT));
        assertEquals(List.of(), ledger.history(DATASET, UNIT));
    }

    /**
     * Issue 30, finding 5: a history item could be overwritten. A second write of an existing history key is refused
     * whatever its content, and neither the item nor the history changes.
     */
    @Test
    public void historyOverwrite_finding5_aWriteWhoseHistoryKeyExists_isRefused_andWritesNothing() throws Exception {
        LedgerItem first = published(UNIT, "etag-1", "run-1");
        HistoryEntry entry = history(UNIT, "2026-03-02T23:10:02Z", "run-1", "PUBLISHED");
        ledger.write(first, 0, entry);
        HistoryEntry sameKey = entry.toBuilder().runKind(RunKind.REPAIR).action("REFUSED").reason("SCHEMA").contractVersion(2).build();

        for (HistoryEntry attempt : List.of(sameKey, entry)) {
            HistoryKeyTakenException taken = assertThrows(HistoryKeyTakenException.class,
                    () -> ledger.write(refused(UNIT, "run-1"), 1, attempt), "the item is at the revision read");
            assertTrue(taken.getMessage().contains(entry.partitionKey())
                    && taken.getMessage().contains(entry.sortKey()),
                    "the error names the key: " + taken.getMessage());
        }

        assertEquals(Optional.of(first.withRevision(1)), ledger.get(DATASET, UNIT), "the item is not written either");
        assertEquals(List.of(entry), ledger.history(DATASET, UNIT), "history items are never replaced");
    }

    /**
     * The retry of a transaction that committed but whose answer was lost: the revision moved and the history key
     * exists. That is a conflict (the caller re-reads and finds its own write), not a refused history key.
     */
    @Test
    public void write_retriedAfterItCommitted_conflicts_carryingItsOwnWrite() throws Exception {
        LedgerItem first = published(UNIT, "etag-1", "run-1");
        HistoryEntry entry = history(UNIT, "2026-03-02T23:10:02Z", "run-1", "PUBLISHED");
        ledger.write(first, 0, entry);

        LedgerConflictException conflict = assertThrows(LedgerConflictException.class,
                () -> ledger.write(first, 0, entry));

        assertEquals(Optional.of(first.withRevision(1)), conflict.current());
        assertEquals(List.of(entry), ledger.history(DATASET, UNIT));
    }

    @Test
    public void write_thatMeetsATransactionConflict_writesNothing_andConflicts_carryingTheCurrentItem() throws Exception {
        LedgerItem first = published(UNIT, "etag-1", "run-1");
        ledger.write(first, 0, history(UNIT, "2026-03-02T23:10:02Z", "run-1", "PUBLISHED"));

        for (HistoryEntry entry : new HistoryEntry[] {history(UNIT, "2026-03-02T23:30:00Z", "run-2", "PUBLISHED"), null}) {
            fx.conflictNextWrite();
            LedgerConflictException conflict = assertThrows(LedgerConflictException.class,
                    () -> ledger.write(published(UNIT, "etag-2", "run-2"), 1, entry), "history " + entry);
            assertEquals(Optional.of(first.withRevision(1)), conflict.current());
            assertEquals(Optional.of(first.withRevision(1)), ledger.get(DATASET, UNIT));
        }
        assertEquals(1, ledger.history(DATASET, UNIT).size());

        // the caller re-reads and decides again: the same write now succeeds
        LedgerItem second = published(UNIT, "etag-2", "run-2");
        ledger.write(second, ledger.get(DATASET, UNIT).orElseThrow().revision(), history(UNIT, "2026-03-02T23:30:00Z", "run-2", "PUBLISHED"));
        assertEquals(Optional.of(second.withRevision(2)), ledger.get(DATASET, UNIT));
    }

    @Test
    public void write_fencesOnTheExpectedRevision_notOnTheRevisionTheItemCarries() throws Exception {
        LedgerItem item = published(UNIT, "etag-1", "run-1");
        ledger.write(item, 0, null);
        LedgerItem read = ledger.get(DATASET, UNIT).orElseThrow();
        assertEquals(1, read.revision());
        ledger.write(published(UNIT, "etag-2", "run-2").withRevision(99), read.revision(), null);
        assertEquals(2, ledger.get(DATASET, UNIT).orElseThrow().revision());
    }

    // ---- history ----

    @Test
    public void appendHistory_appendsAnEntryOnItsOwn() {
        HistoryEntry entry = history(UNIT, "2026-03-02T23:10:02Z", "run-1", "REPAIR_SKIPPED");
        ledger.appendHistory(entry);
        assertEquals(List.of(entry), ledger.history(DATASET, UNIT));
        assertEquals(Optional.empty(), ledger.get(DATASET, UNIT), "no ledger item");
    }

    /** Issue 30, finding 5: an existing history item is never replaced by appendHistory; other content is an error. */
    @Test
    public void historyOverwrite_finding5_appendHistoryOfAnExistingKeyWithOtherContent_isRefused_andKeepsTheFirst() {
        HistoryEntry entry = history(UNIT, "2026-03-02T23:10:02Z", "run-1", "REPAIR_SKIPPED");
        ledger.appendHistory(entry);

        for (HistoryEntry other : List.of(
                entry.toBuilder().runKind(RunKind.OMIT).action("OMITTED").reason("other").contractVersion(9).build(),
                entry.toBuilder().reason("a different reason").build(),
                entry.toBuilder().published(new PublishedRef("published/x", "etag-9", 1, 0, 0, null)).build())) {
            HistoryKeyTakenException taken = assertThrows(HistoryKeyTakenException.class,
                    () -> ledger.appendHistory(other));
            assertTrue(taken.getMessage().contains(entry.sortKey()), taken.getMessage());
            assertTrue(!taken.getMessage().contains("a different reason"), "names the key, not the content: "
                    + taken.getMessage());
        }

        assertEquals(List.of(entry), ledger.history(DATASET, UNIT));
    }

    /** A PutItem retried after its answer was lost finds its own item: success, nothing written twice. */
    @Test
    public void appendHistory_ofTheSameEntryAgain_succeeds_writingNothingTwice() {
        HistoryEntry entry = fullHistory(UNIT).toBuilder().action("REPAIR_SKIPPED").runKind(RunKind.REPAIR).build();
        ledger.appendHistory(entry);

        ledger.appendHistory(entry);

        assertEquals(List.of(entry), ledger.history(DATASET, UNIT));
    }

    @Test
    public void history_isOldestFirst_andTheUnitsOnly() throws Exception {
        HistoryEntry atWholeSecond = history(UNIT, "2026-03-02T10:00:00Z", "run-b", "REFUSED");
        HistoryEntry halfSecondLater = history(UNIT, "2026-03-02T10:00:00.500Z", "run-a", "PUBLISHED");
        HistoryEntry sameInstantOtherRun = history(UNIT, "2026-03-02T10:00:00Z", "run-c", "REFUSED");
        HistoryEntry nanos = history(UNIT, "2026-03-02T10:00:00.000000001Z", "run-0", "REFUSED");
        HistoryEntry nextDay = history(UNIT, "2026-03-03T09:00:00Z", "run-d", "REPAIR_SKIPPED");
        ledger.appendHistory(nextDay);
        ledger.appendHistory(halfSecondLater);
        ledger.write(refused(UNIT, "run-c"), 0, sameInstantOtherRun);
        ledger.appendHistory(atWholeSecond);
        ledger.appendHistory(nanos);
        ledger.appendHistory(history("2026-03-01", "2026-03-02T09:00:00Z", "run-x", "PUBLISHED"));
        ledger.appendHistory(history(UNIT, "2026-03-02T09:00:00Z", "run-y", "PUBLISHED").toBuilder().dataset("transactions").build());

        assertEquals(List.of(atWholeSecond, sameInstantOtherRun, nanos, halfSecondLater, nextDay), ledger.history(DATASET, UNIT));
    }

    // ---- ranges ----

    @Test
    public void items_rangesAreInclusive_inUnitOrder_andPerDataset() throws Exception {
        for (String unit : List.of("2026-03-04", "2026-03-01", "2026-03-05", "2026-03-03", "2026-03-02")) {
            ledger.write(refused(unit, "run-" + unit), 0, null);
        }
        ledger.write(LedgerItem.builder("transactions", "2026-03-03").status(LedgerStatus.REFUSED).run("run-t", RunKind.INGEST)
                .contractVersion(1).reason("SCHEMA").build(), 0, null);
        ledger.write(LedgerItem.builder("progress_events_v2", "2026-03-03").status(LedgerStatus.REFUSED).run("run-t", RunKind.INGEST)
                .contractVersion(1).reason("SCHEMA").build(), 0, null);

        assertEquals(List.of("2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"), units(null, null));
        assertEquals(List.of("2026-03-02", "2026-03-03", "2026-03-04"), units("2026-03-02", "2026-03-04"));
        assertEquals(List.of("2026-03-04", "2026-03-05"), units("2026-03-04", null));
        assertEquals(List.of("2026-03-01", "2026-03-02", "2026-03-03"), units(null, "2026-03-03"));
        assertEquals(List.of("2026-03-03"), units("2026-03-03", "2026-03-03"));
        assertEquals(List.of(), units("2026-03-06", null));
        assertEquals(List.of("2026-03-01"), units("2026-02-01", "2026-03-01T"), "string bounds, not dates");
        LedgerItem item = ledger.items(DATASET, "2026-03-02", "2026-03-02").get(0);
        assertEquals(refused("2026-03-02", "run-2026-03-02").withRevision(1), item, "items read whole, with revisions");
    }

    @Test
    public void items_ordersUnitsByTheirUtf8Bytes() throws Exception {
        String privateUse = "u\uE000";      // UTF-8 EE 80 80
        String emoji = "u\uD83D\uDE00";     // U+1F600, UTF-8 F0 9F 98 80: first in UTF-16 order
        for (String unit : List.of(emoji, privateUse, "u\u00E9", "uz")) {
            ledger.write(refused(unit, "run"), 0, null);
        }
        assertEquals(List.of("uz", "u\u00E9", privateUse, emoji), units(null, null));
    }

    @Test
    public void items_ofAReversedRange_isEmpty() throws Exception {
        ledger.write(refused("2026-03-03", "run"), 0, null);
        // nothing is within it (DynamoDB would answer such a BETWEEN with a ValidationException: the adapter must not ask)
        assertEquals(List.of(), units("2026-03-05", "2026-03-01"));
        assertEquals(List.of(), units("2026-03-03T", "2026-03-03"));
    }

    private List<String> units(String from, String to) {
        return ledger.items(DATASET, from, to).stream().map(LedgerItem::unit).toList();
    }

    // ---- round trips ----

    @Test
    public void aFullyPopulatedItem_andHistoryEntry_roundTripEveryField() throws Exception {
        LedgerItem item = fullyPopulated(UNIT);
        HistoryEntry entry = fullHistory(UNIT);

        ledger.write(item, 0, entry);

        LedgerItem read = ledger.get(DATASET, UNIT).orElseThrow();
        assertEquals(item.withRevision(1), read);
        assertEquals(item.input(), read.input());
        assertEquals(item.published(), read.published());
        assertEquals(item.lastAttempt(), read.lastAttempt());
        assertEquals(List.of(entry), ledger.history(DATASET, UNIT));
        assertEquals(List.of(item.withRevision(1)), ledger.items(DATASET, null, null));
    }

    @Test
    public void aSparseItem_roundTripsItsNulls() throws Exception {
        LedgerItem item = sparse(UNIT);
        HistoryEntry entry = HistoryEntry.builder().dataset(DATASET).unit(UNIT).at(Instant.parse("2026-03-02T23:10:02Z")).runId("run-1")
                .runKind(RunKind.OMIT).action("OMITTED").build();

        ledger.write(item, 0, entry);

        assertEquals(Optional.of(item.withRevision(1)), ledger.get(DATASET, UNIT));
        assertEquals(List.of(entry), ledger.history(DATASET, UNIT));
    }

    @Test
    public void anEmptyAcceptance_isWrittenAndRemoved_underTheRevisionRead() throws Exception {
        LedgerItem item = published(UNIT, "etag-1", "run-1");
        ledger.write(item, 0, null);
        LedgerItem accepted = item.toBuilder().emptyAccepted(new EmptyAcceptance(Instant.parse("2026-03-03T08:00:00Z"), "run-2", "why"))
                .build();
        ledger.write(accepted, 1, history(UNIT, "2026-03-03T08:00:00Z", "run-2", "EMPTY_ACCEPTED"));
        assertEquals(accepted.withRevision(2), ledger.get(DATASET, UNIT).orElseThrow());
        ledger.write(accepted.toBuilder().emptyAccepted(null).build(), 2, history(UNIT, "2026-03-03T09:00:00Z", "run-3",
                "EMPTY_ACCEPTANCE_REVOKED"));
        assertNull(ledger.get(DATASET, UNIT).orElseThrow().emptyAccepted());
        assertEquals(List.of("EMPTY_ACCEPTED", "EMPTY_ACCEPTANCE_REVOKED"), ledger.history(DATASET, UNIT).stream()
                .map(HistoryEntry::action).toList());
    }

    @Test
    public void aVolumeAcceptance_isWrittenAndRemoved_underTheRevisionRead() throws Exception {
        LedgerItem item = published(UNIT, "etag-1", "run-1");
        ledger.write(item, 0, null);
        LedgerItem accepted = item.toBuilder()
                .volumeAccepted(new VolumeAcceptance(Instant.parse("2026-03-03T08:00:00.000000003Z"), "run-2", "INC-7 a holiday"))
                .build();
        ledger.write(accepted, 1, history(UNIT, "2026-03-03T08:00:00Z", "run-2", "VOLUME_ACCEPTED"));
        assertEquals(accepted.withRevision(2), ledger.get(DATASET, UNIT).orElseThrow());
        assertEquals(List.of(accepted.withRevision(2)), ledger.items(DATASET, UNIT, UNIT), "the sweep's Query reads it too");
        ledger.write(accepted.toBuilder().volumeAccepted(null).build(), 2, history(UNIT, "2026-03-03T09:00:00Z", "run-3",
                "VOLUME_ACCEPTANCE_REVOKED"));
        assertNull(ledger.get(DATASET, UNIT).orElseThrow().volumeAccepted());
        assertEquals(List.of("VOLUME_ACCEPTED", "VOLUME_ACCEPTANCE_REVOKED"), ledger.history(DATASET, UNIT).stream()
                .map(HistoryEntry::action).toList());
    }

    @Test
    public void aRefusedItem_withoutInputOrPublish_roundTrips() throws Exception {
        LedgerItem item = LedgerItem.builder(DATASET, UNIT)
                .status(LedgerStatus.REFUSED)
                .run("run-1", RunKind.INGEST)
                .contractVersion(1)
                .lastAttempt(LastAttempt.builder().at(Instant.parse("2026-03-02T23:10:02Z")).runId("run-1").runKind(RunKind.INGEST)
                        .outcome(AttemptOutcome.REFUSED).reason("ENCODING").build())
                .reason("ENCODING")
                .build();
        ledger.write(item, 0, null);
        assertEquals(Optional.of(item.withRevision(1)), ledger.get(DATASET, UNIT));
        assertNull(ledger.get(DATASET, UNIT).orElseThrow().publishedEtag());
    }

    // ---- the table writer's record ----

    /** A publish with a content hash, as the table writer describes it. */
    protected static LedgerItem publishedWithContent(String unit, String runId, String sha) {
        LedgerItem item = published(unit, "etag-" + runId, runId);
        PublishedRef p = item.published();
        return item.toBuilder().published(new PublishedRef(p.key(), p.etag(), p.accepted(), p.rejected(),
                p.duplicates(), p.quarantineKey(), sha)).build();
    }

    protected static TableState committed(long snapshotId, String runId, String sha) {
        return new TableState(snapshotId, runId, sha, Instant.parse("2026-03-03T00:00:00.000000003Z"), null, null);
    }

    @Test
    public void recordTable_onTheStandingPublish_recordsTheState_andAppendsHistory_withoutMovingTheRevision()
            throws Exception {
        ledger.write(publishedWithContent(UNIT, "run-1", "sha-a"), 0, null);
        HistoryEntry entry = history(UNIT, "2026-03-03T00:00:00Z", "run-1", "TABLE_COMMITTED");

        assertTrue(ledger.recordTable(DATASET, UNIT, "run-1", "sha-a", committed(42, "run-1", "sha-a"), entry));

        LedgerItem stored = ledger.get(DATASET, UNIT).orElseThrow();
        assertEquals(committed(42, "run-1", "sha-a"), stored.table());
        assertTrue(stored.table().holds("run-1", "sha-a"));
        assertEquals(1, stored.revision(), "the record is the publish's annotation: a run's write still fences on 1");
        assertEquals(List.of(entry), ledger.history(DATASET, UNIT));
    }

    @Test
    public void recordTable_ofAnotherPublish_orOfAnAbsentItem_writesNothing() throws Exception {
        assertFalse(ledger.recordTable(DATASET, UNIT, "run-1", "sha-a", committed(1, "run-1", "sha-a"), null));
        assertEquals(Optional.empty(), ledger.get(DATASET, UNIT));

        ledger.write(publishedWithContent(UNIT, "run-2", "sha-b"), 0, null);
        HistoryEntry entry = history(UNIT, "2026-03-03T00:00:00Z", "run-1", "TABLE_COMMITTED");
        assertFalse(ledger.recordTable(DATASET, UNIT, "run-1", "sha-b", committed(1, "run-1", "sha-b"), entry),
                "same rows, another run: not the standing publish");
        assertFalse(ledger.recordTable(DATASET, UNIT, "run-2", "sha-a", committed(1, "run-2", "sha-a"), null),
                "the standing run, other rows");
        assertNull(ledger.get(DATASET, UNIT).orElseThrow().table());
        assertEquals(List.of(), ledger.history(DATASET, UNIT), "a refused record appends no history");

        ledger.write(refused("2026-03-03", "run-3"), 0, null);
        assertFalse(ledger.recordTable(DATASET, "2026-03-03", "run-3", null, committed(1, "run-3", null), null),
                "a refused unit has no publish to describe");
    }

    @Test
    public void recordTable_replacesTheStateWhole_aFailureThenASuccessClearsTheError() throws Exception {
        ledger.write(publishedWithContent(UNIT, "run-1", "sha-a"), 0, null);
        TableState failed = new TableState(null, null, null, null, "TABLE_COMMIT_FAILED",
                Instant.parse("2026-03-03T00:00:01Z"));
        assertTrue(ledger.recordTable(DATASET, UNIT, "run-1", "sha-a", failed, null));
        assertEquals(failed, ledger.get(DATASET, UNIT).orElseThrow().table());
        assertFalse(failed.holds("run-1", "sha-a"));

        assertTrue(ledger.recordTable(DATASET, UNIT, "run-1", "sha-a", committed(7, "run-1", "sha-a"), null));
        assertEquals(committed(7, "run-1", "sha-a"), ledger.get(DATASET, UNIT).orElseThrow().table());
    }

    @Test
    public void write_keepsTheRecordedTableState_whateverTheWrittenItemSays() throws Exception {
        ledger.write(publishedWithContent(UNIT, "run-1", "sha-a"), 0, null);
        ledger.recordTable(DATASET, UNIT, "run-1", "sha-a", committed(42, "run-1", "sha-a"), null);

        // a run read the item before the record, and publishes new rows: the old state stays, and no longer holds
        LedgerItem next = publishedWithContent(UNIT, "run-2", "sha-b").toBuilder().table(null).build();
        ledger.write(next, 1, history(UNIT, "2026-03-03T01:00:00Z", "run-2", "PUBLISHED"));

        LedgerItem stored = ledger.get(DATASET, UNIT).orElseThrow();
        assertEquals(2, stored.revision());
        assertEquals(committed(42, "run-1", "sha-a"), stored.table());
        assertFalse(stored.table().holds(stored.runId(), stored.published().contentSha256()));
        assertFalse(ledger.recordTable(DATASET, UNIT, "run-1", "sha-a", committed(43, "run-1", "sha-a"), null),
                "an older publish's record never lands on a newer publish");
        assertEquals(List.of(stored), ledger.items(DATASET, null, null));
    }

    @Test
    public void recordTable_whoseHistoryKeyExists_isRefused_andWritesNothing() throws Exception {
        HistoryEntry entry = history(UNIT, "2026-03-03T00:00:00Z", "run-1", "TABLE_COMMITTED");
        ledger.write(publishedWithContent(UNIT, "run-1", "sha-a"), 0, null);
        ledger.appendHistory(entry.toBuilder().action("REPAIR_SKIPPED").build());

        assertThrows(HistoryKeyTakenException.class,
                () -> ledger.recordTable(DATASET, UNIT, "run-1", "sha-a", committed(1, "run-1", "sha-a"), entry));
        assertNull(ledger.get(DATASET, UNIT).orElseThrow().table());
    }

    // ---- sample items ----

    /** Every field set, the instants with nanoseconds. */
    protected static LedgerItem fullyPopulated(String unit) {
        InputIdentity input = InputIdentity.builder()
                .bucket("inbox-bucket")
                .key("progress_events/progress-" + unit + ".jsonl")
                .versionId("3HL4kqtJvjVBH40Nrjfkd")
                .etag("5d41402abc4b2a76b9719d911017c592-2")
                .sha256("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
                .size(12_345_678_901L)
                .sequencer("0066A1B2C3D4E5F6")
                .lastModified(Instant.parse("2026-03-02T23:10:00Z"))
                .build();
        PublishedRef published = new PublishedRef("published/progress_events/unit=" + unit + "/part-00000.jsonl",
                "0cc175b9c0f1b6a831c399e269772661-1", 1_000_000L, 12L, 3L, "_quarantine/progress_events/unit=" + unit + "/run-1.jsonl",
                "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
        LastAttempt last = LastAttempt.builder()
                .at(Instant.parse("2026-03-03T01:02:03.123456789Z"))
                .runId("run-2")
                .runKind(RunKind.REPAIR)
                .outcome(AttemptOutcome.REFUSED)
                .reason("TOO_MANY_REJECTS")
                .inputVersionId("version-2")
                .inputSha256("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
                .build();
        return LedgerItem.builder(DATASET, unit)
                .status(LedgerStatus.PUBLISHED)
                .input(input)
                .published(published)
                .run("run-1", RunKind.INGEST)
                .contractVersion(3)
                .publishCount(2)
                .publishedAt(Instant.parse("2026-03-02T23:10:02.000000001Z"), Instant.parse("2026-03-02T23:59:59.999Z"))
                .lastAttempt(last)
                .reason("operator said so")
                .restatements(1)
                .contentSince("run-0", Instant.parse("2026-03-02T23:30:00.5Z"))
                .emptyAccepted(new EmptyAcceptance(Instant.parse("2026-03-03T08:00:00.000000002Z"), "run-9", "INC-9 a holiday"))
                .volumeAccepted(new VolumeAcceptance(Instant.parse("2026-03-03T09:00:00.000000004Z"), "run-10",
                        "INC-10 a sale day"))
                .build();
    }

    protected static HistoryEntry fullHistory(String unit) {
        LedgerItem item = fullyPopulated(unit);
        return HistoryEntry.builder()
                .dataset(DATASET)
                .unit(unit)
                .at(Instant.parse("2026-03-02T23:10:02.000000001Z"))
                .runId("run-1")
                .runKind(RunKind.INGEST)
                .action("PUBLISHED")
                .reason("a reason")
                .input(item.input())
                .published(item.published())
                .contractVersion(3)
                .build();
    }

    /** Only the fields every item has. */
    protected static LedgerItem sparse(String unit) {
        return LedgerItem.builder(DATASET, unit).status(LedgerStatus.OMITTED).build();
    }

    protected static LedgerItem published(String unit, String etag, String runId) {
        Instant at = Instant.parse("2026-03-02T23:10:02Z");
        InputIdentity input = InputIdentity.builder()
                .bucket("inbox")
                .key("progress_events/progress-" + unit + ".jsonl")
                .versionId("v-" + runId)
                .etag("e-" + runId)
                .sha256("sha-" + runId)
                .size(100)
                .sequencer("0A")
                .lastModified(Instant.parse("2026-03-02T23:10:00Z"))
                .build();
        return LedgerItem.builder(DATASET, unit)
                .status(LedgerStatus.PUBLISHED)
                .input(input)
                .published(new PublishedRef("published/progress_events/unit=" + unit + "/part-00000.jsonl", etag, 10, 0, 0, null))
                .run(runId, RunKind.INGEST)
                .contractVersion(1)
                .publishCount(1)
                .publishedAt(at, at)
                .lastAttempt(LastAttempt.builder().at(at).runId(runId).runKind(RunKind.INGEST).outcome(AttemptOutcome.PUBLISHED)
                        .inputVersionId("v-" + runId).inputSha256("sha-" + runId).build())
                .build();
    }

    protected static LedgerItem refused(String unit, String runId) {
        Instant at = Instant.parse("2026-03-02T23:10:02Z");
        return LedgerItem.builder(DATASET, unit)
                .status(LedgerStatus.REFUSED)
                .run(runId, RunKind.INGEST)
                .contractVersion(1)
                .lastAttempt(LastAttempt.builder().at(at).runId(runId).runKind(RunKind.INGEST).outcome(AttemptOutcome.REFUSED)
                        .reason("SCHEMA").inputVersionId("v-" + runId).inputSha256("sha-" + runId).build())
                .reason("SCHEMA")
                .build();
    }

    protected static HistoryEntry history(String unit, String at, String runId, String action) {
        return HistoryEntry.builder().dataset(DATASET).unit(unit).at(Instant.parse(at)).runId(runId).runKind(RunKind.INGEST)
                .action(action).contractVersion(1).build();
    }
}
