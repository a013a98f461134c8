package io.landingledger.core.testing;

import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.LedgerConflictException;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.testing.InMemoryLedger.Call;
import io.landingledger.core.testing.InMemoryLedger.Operation;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The fault hooks and the inspection methods; the port's behaviour is LedgerContract's. */
class InMemoryLedgerTest {
    private final InMemoryLedger ledger = new InMemoryLedger();

    private static LedgerItem item(String dataset, String unit) {
        return LedgerItem.builder(dataset, unit).status(LedgerStatus.REFUSED).run("run", RunKind.INGEST).contractVersion(1).reason("SCHEMA").build();
    }

    private static HistoryEntry entry(String dataset, String unit, String at) {
        return HistoryEntry.builder().dataset(dataset).unit(unit).at(Instant.parse(at)).runId("run").runKind(RunKind.INGEST)
                .action("REFUSED").reason("SCHEMA").contractVersion(1).build();
    }

    @Test
    void failNext_write_changesNothing_andFiresOnce() throws Exception {
        IllegalStateException throttled = new IllegalStateException("ProvisionedThroughputExceededException");
        ledger.failNext(Operation.WRITE, throttled);

        assertSame(throttled, assertThrows(IllegalStateException.class,
                () -> ledger.write(item("d", "u"), 0, entry("d", "u", "2026-03-02T10:00:00Z"))));
        assertEquals(List.of(), ledger.allItems());
        assertEquals(List.of(), ledger.allHistory());

        ledger.write(item("d", "u"), 0, entry("d", "u", "2026-03-02T10:00:00Z"));
        assertEquals(1, ledger.writes());
    }

    @Test
    void conflictNextWrite_firesOnce_carryingTheStoredItem() throws Exception {
        ledger.write(item("d", "u"), 0, null);
        ledger.conflictNextWrite();

        LedgerConflictException conflict = assertThrows(LedgerConflictException.class, () -> ledger.write(item("d", "u"), 1, null));

        assertEquals(Optional.of(item("d", "u").withRevision(1)), conflict.current());
        ledger.write(item("d", "u"), 1, null);
        assertEquals(2, ledger.get("d", "u").orElseThrow().revision());
    }

    @Test
    void aFaultAfterAWrite_isALostResponse_theWriteTookEffect() {
        ledger.faults(new InMemoryLedger.Faults() {
            @Override
            public void after(Call call) throws Exception {
                if (call.operation() == Operation.WRITE) {
                    // as the SDK's retry of a committed UpdateItem sees it: the condition now fails on its own write
                    throw new LedgerConflictException("retried after a timeout", ledger.get(call.dataset(), call.unit()).orElse(null));
                }
            }
        });

        LedgerConflictException conflict = assertThrows(LedgerConflictException.class, () -> ledger.write(item("d", "u"), 0, null));

        assertEquals(Optional.of(item("d", "u").withRevision(1)), conflict.current());
        assertEquals(Optional.of(item("d", "u").withRevision(1)), ledger.get("d", "u"));
    }

    @Test
    void aCheckedFaultThePortCannotThrow_isATestBug() {
        ledger.faults(new InMemoryLedger.Faults() {
            @Override
            public void before(Call call) throws Exception {
                throw new IOException("not a DynamoDB fault");
            }
        });
        assertThrows(IllegalArgumentException.class, () -> ledger.get("d", "u"));
        assertThrows(IllegalArgumentException.class, () -> ledger.appendHistory(entry("d", "u", "2026-03-02T10:00:00Z")));
    }

    @Test
    void allItems_andAllHistory_areInKeyOrder() throws Exception {
        ledger.write(item("b", "2"), 0, entry("b", "2", "2026-03-02T10:00:00Z"));
        ledger.write(item("a", "2"), 0, entry("a", "2", "2026-03-02T12:00:00Z"));
        ledger.write(item("a", "1"), 0, null);
        ledger.appendHistory(entry("a", "2", "2026-03-02T11:00:00Z"));

        assertEquals(List.of("a/1", "a/2", "b/2"), ledger.allItems().stream().map(i -> i.dataset() + "/" + i.unit()).toList());
        assertEquals(List.of("a#2 11", "a#2 12", "b#2 10"), ledger.allHistory().stream()
                .map(h -> h.partitionKey() + " " + h.sortKey().substring(11, 13)).toList());
        assertEquals(3, ledger.writes());
    }
}
