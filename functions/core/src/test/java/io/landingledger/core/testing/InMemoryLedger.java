package io.landingledger.core.testing;

import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.HistoryKeyTakenException;
import io.landingledger.core.ledger.Ledger;
import io.landingledger.core.ledger.LedgerConflictException;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.TableState;
import io.landingledger.core.store.KeyOrder;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.TreeMap;

/**
 * {@link Ledger} in memory, as {@code DynamoDbLedger} behaves on DynamoDB ({@code LedgerContract} runs against both),
 * for a deterministic simulator: no threads, no clock, every method synchronized on the ledger.
 *
 * <ul>
 *   <li>Items by (dataset, unit), units in DynamoDB's string order (UTF-8 bytes). {@link #write} stores
 *       {@code item.withRevision(expectedRevision + 1)} only if the stored item's revision is
 *       {@code expectedRevision} (0: absent), and only if the history entry's key (partition key, sort key) is new;
 *       if either fails nothing at all is written (TransactWriteItems is cancelled): a stale revision throws
 *       {@link LedgerConflictException} carrying the stored item (empty when absent), an existing history key with the
 *       revision as read {@link HistoryKeyTakenException}, as {@code DynamoDbLedger} reads the cancellation reasons.
 *   <li>{@link #recordTable} replaces the item's table state, conditioned on the standing publish (status, run id,
 *       content hash), without moving the revision; {@link #write} keeps the stored table state whatever the written
 *       item says (DynamoDbLedger's update names no {@code table_*} attribute).
 *   <li>History entries are created once: {@link #appendHistory} of an existing key writes nothing; it returns when
 *       the stored entry is this one (a retried put) and throws {@link HistoryKeyTakenException} when it is not.
 *   <li>Faults: {@link #conflictNextWrite()} is DynamoDB's TransactionConflict (another transaction on the item was in
 *       flight): the next write fails with {@link LedgerConflictException} carrying the stored item, writing nothing.
 *       {@link #faults(Faults)} installs a callback consulted before and after every call; it may throw any runtime
 *       exception (an infrastructure fault), and {@link LedgerConflictException} from {@link Operation#WRITE}; any
 *       other checked exception fails with {@link IllegalArgumentException}. A fault before a call changes nothing;
 *       one after it is a lost response (the write took effect). {@link #failNext} queues one-shot faults.
 * </ul>
 */
public final class InMemoryLedger implements Ledger {

    public enum Operation { GET, WRITE, APPEND_HISTORY, RECORD_TABLE, HISTORY, ITEMS }

    /** One port call: {@code unit} is null for ITEMS. */
    public record Call(Operation operation, String dataset, String unit) {
    }

    /** Consulted before and after every port call; see the class comment for what it may throw. */
    public interface Faults {
        Faults NONE = new Faults() {
        };

        default void before(Call call) throws Exception {
        }

        default void after(Call call) throws Exception {
        }
    }

    private final Map<String, TreeMap<String, LedgerItem>> items = new HashMap<>();
    private final Map<String, TreeMap<String, HistoryEntry>> history = new HashMap<>();
    private final Map<Operation, Queue<Exception>> oneShot = new EnumMap<>(Operation.class);
    private Faults faults = Faults.NONE;
    private int conflicts;
    private long writes;

    // ---- fault injection and inspection ----

    public synchronized void faults(Faults faults) {
        this.faults = Objects.requireNonNull(faults, "faults");
    }

    /** The next call of {@code operation} fails with {@code fault} before it changes anything (queued, in order). */
    public synchronized void failNext(Operation operation, Exception fault) {
        oneShot.computeIfAbsent(operation, o -> new ArrayDeque<>()).add(Objects.requireNonNull(fault, "fault"));
    }

    /** The next write meets a TransactionConflict: nothing is written and it throws LedgerConflictException. */
    public synchronized void conflictNextWrite() {
        conflicts++;
    }

    /** Every item, datasets in name order, units in unit order (for invariant checks). */
    public synchronized List<LedgerItem> allItems() {
        TreeMap<String, TreeMap<String, LedgerItem>> sorted = new TreeMap<>(KeyOrder.UTF8);
        sorted.putAll(items);
        List<LedgerItem> all = new ArrayList<>();
        sorted.values().forEach(units -> all.addAll(units.values()));
        return all;
    }

    /** Every history entry, by partition key then oldest first. */
    public synchronized List<HistoryEntry> allHistory() {
        TreeMap<String, TreeMap<String, HistoryEntry>> sorted = new TreeMap<>(KeyOrder.UTF8);
        sorted.putAll(history);
        List<HistoryEntry> all = new ArrayList<>();
        sorted.values().forEach(entries -> all.addAll(entries.values()));
        return all;
    }

    /** Successful {@link #write} calls so far. */
    public synchronized long writes() {
        return writes;
    }

    // ---- the port ----

    @Override
    public synchronized Optional<LedgerItem> get(String dataset, String unit) {
        Call call = new Call(Operation.GET, dataset, unit);
        before(call);
        Optional<LedgerItem> item = Optional.ofNullable(stored(dataset, unit));
        after(call);
        return item;
    }

    @Override
    public synchronized void write(LedgerItem item, long expectedRevision, HistoryEntry entry) throws LedgerConflictException {
        Call call = new Call(Operation.WRITE, item.dataset(), item.unit());
        before(call, LedgerConflictException.class);
        LedgerItem current = stored(item.dataset(), item.unit());
        if (conflicts > 0) {
            conflicts--;
            throw conflict(item, current, "another transaction on the item was in flight (TransactionConflict)");
        }
        long revision = current == null ? 0 : current.revision();
        if (revision != expectedRevision) {
            throw conflict(item, current, "is at revision " + revision + ", not " + expectedRevision);
        }
        if (entry != null && historyOf(entry.partitionKey()).containsKey(entry.sortKey())) {
            // the item is at the revision read, so no transaction of this item wrote that key (the transaction is
            // cancelled on the history put's attribute_not_exists alone)
            throw new HistoryKeyTakenException(entry, "the ledger item is still at revision " + revision);
        }
        // a ledger write never changes the table state: only recordTable does (as DynamoDbLedger leaves table_* alone)
        LedgerItem stored = item.toBuilder().revision(expectedRevision + 1)
                .table(current == null ? null : current.table()).build();
        items.computeIfAbsent(item.dataset(), d -> new TreeMap<>(KeyOrder.UTF8)).put(item.unit(), stored);
        if (entry != null) {
            historyOf(entry.partitionKey()).put(entry.sortKey(), entry);
        }
        writes++;
        after(call, LedgerConflictException.class);
    }

    @Override
    public synchronized void appendHistory(HistoryEntry entry) {
        Call call = new Call(Operation.APPEND_HISTORY, entry.dataset(), entry.unit());
        before(call);
        HistoryEntry stored = historyOf(entry.partitionKey()).putIfAbsent(entry.sortKey(), entry);
        if (stored != null && !stored.equals(entry)) {
            throw new HistoryKeyTakenException(entry, "with other content");
        }
        after(call);
    }

    @Override
    public synchronized boolean recordTable(String dataset, String unit, String expectedRunId, String expectedSha256,
                                            TableState state, HistoryEntry entry) {
        Call call = new Call(Operation.RECORD_TABLE, dataset, unit);
        before(call);
        LedgerItem current = stored(dataset, unit);
        boolean standing = current != null && current.status() == LedgerStatus.PUBLISHED && current.published() != null
                && Objects.equals(current.runId(), expectedRunId)
                && Objects.equals(current.published().contentSha256(), expectedSha256);
        if (!standing) {
            after(call);
            return false;
        }
        if (entry != null && historyOf(entry.partitionKey()).containsKey(entry.sortKey())) {
            throw new HistoryKeyTakenException(entry, "the ledger item still stands on the publish");
        }
        items.get(dataset).put(unit, current.toBuilder().table(state).build());
        if (entry != null) {
            historyOf(entry.partitionKey()).put(entry.sortKey(), entry);
        }
        after(call);
        return true;
    }

    @Override
    public synchronized List<HistoryEntry> history(String dataset, String unit) {
        Call call = new Call(Operation.HISTORY, dataset, unit);
        before(call);
        TreeMap<String, HistoryEntry> entries = history.get(dataset + "#" + unit);
        List<HistoryEntry> list = entries == null ? List.of() : List.copyOf(entries.values());
        after(call);
        return list;
    }

    @Override
    public synchronized List<LedgerItem> items(String dataset, String fromUnit, String toUnit) {
        Call call = new Call(Operation.ITEMS, dataset, null);
        before(call);
        NavigableMap<String, LedgerItem> units = items.getOrDefault(dataset, new TreeMap<>(KeyOrder.UTF8));
        if (fromUnit != null && toUnit != null && KeyOrder.compare(fromUnit, toUnit) > 0) {
            after(call);
            return List.of(); // nothing is within a reversed range (DynamoDbLedger does not send such a BETWEEN)
        }
        if (fromUnit != null) {
            units = units.tailMap(fromUnit, true);
        }
        if (toUnit != null) {
            units = units.headMap(toUnit, true);
        }
        List<LedgerItem> list = List.copyOf(units.values());
        after(call);
        return list;
    }

    // ---- internals ----

    private LedgerItem stored(String dataset, String unit) {
        TreeMap<String, LedgerItem> units = items.get(dataset);
        return units == null ? null : units.get(unit);
    }

    private TreeMap<String, HistoryEntry> historyOf(String partitionKey) {
        return history.computeIfAbsent(partitionKey, k -> new TreeMap<>(KeyOrder.UTF8));
    }

    private static LedgerConflictException conflict(LedgerItem attempted, LedgerItem current, String why) {
        return new LedgerConflictException("the ledger item " + attempted.dataset() + "/" + attempted.unit() + " " + why, current);
    }

    private void before(Call call, Class<?>... allowed) {
        Queue<Exception> queued = oneShot.get(call.operation());
        Exception fault = queued == null ? null : queued.poll();
        if (fault == null) {
            try {
                faults.before(call);
            } catch (Exception e) {
                fault = e;
            }
        }
        InMemoryObjectStore.raise(fault, call, allowed);
    }

    private void after(Call call, Class<?>... allowed) {
        try {
            faults.after(call);
        } catch (Exception e) {
            InMemoryObjectStore.raise(e, call, allowed);
        }
    }
}
