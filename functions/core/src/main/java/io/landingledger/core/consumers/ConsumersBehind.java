package io.landingledger.core.consumers;

import io.landingledger.core.ledger.LedgerItem;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which consumers have not read a unit's current rows: a consumer is behind on a unit when its receipt names neither
 * the publish the ledger holds now (run id or ETag) nor the publish that first held these rows, and it was recorded
 * before these rows were first published, e.g. a mart built before a restatement landed. Rows, not publishes: a repair
 * that republishes the same rows (same content hash) moves nobody behind, because published/ has served those rows
 * since they first appeared, and a receipt recorded since then read them whichever of their publishes it names. A
 * consumer with no receipt for a unit is not behind on it (nothing says it reads the unit); a unit with no current
 * publish (never published) has nobody behind.
 */
public final class ConsumersBehind {
    private ConsumersBehind() {
    }

    /** Per unit (unit order), the consumers behind on it (name order); units nobody is behind on are absent. */
    public static Map<String, List<String>> byUnit(Collection<LedgerItem> items, Collection<ConsumerReceipt> receipts) {
        Map<String, LedgerItem> current = new TreeMap<>();
        for (LedgerItem item : items) {
            current.put(item.unit(), item);
        }
        Map<String, TreeSet<String>> behind = new TreeMap<>();
        for (ConsumerReceipt receipt : receipts) {
            LedgerItem item = current.get(receipt.unit());
            if (item == null || item.published() == null) {
                continue;
            }
            if (!readsCurrentRows(receipt, item)) {
                behind.computeIfAbsent(receipt.unit(), u -> new TreeSet<>()).add(receipt.consumer());
            }
        }
        Map<String, List<String>> result = new TreeMap<>();
        behind.forEach((unit, consumers) -> result.put(unit, List.copyOf(consumers)));
        return result;
    }

    /** True when {@code receipt} names the current publish, or read the unit after its current rows appeared. */
    static boolean readsCurrentRows(ConsumerReceipt receipt, LedgerItem item) {
        if (receipt.reads(item.runId(), item.publishedEtag())) {
            return true;
        }
        if (item.contentRunId() == null || item.contentPublishedAt() == null) {
            return false; // recorded before the ledger knew when its rows appeared: only the current publish counts
        }
        return receipt.reads(item.contentRunId(), null) || !receipt.consumedAt().isBefore(item.contentPublishedAt());
    }

    /**
     * Per unit (unit order), the consumers whose receipt names a table snapshot older than the one the table writer
     * recorded for the unit's current rows (name order): the receipt names another snapshot and was recorded before
     * that snapshot was committed, so it read the table as it was before (a later snapshot, committed for another
     * unit, holds the same rows of this one and is not older). Receipts without a snapshot, and units without a
     * recorded snapshot, name nobody.
     */
    public static Map<String, List<String>> onOlderSnapshot(Collection<LedgerItem> items, Collection<ConsumerReceipt> receipts) {
        Map<String, LedgerItem> current = new TreeMap<>();
        for (LedgerItem item : items) {
            current.put(item.unit(), item);
        }
        Map<String, TreeSet<String>> older = new TreeMap<>();
        for (ConsumerReceipt receipt : receipts) {
            LedgerItem item = current.get(receipt.unit());
            if (receipt.snapshot() == null || item == null || item.table() == null || item.table().snapshotId() == null
                    || item.table().committedAt() == null) {
                continue;
            }
            if (!receipt.snapshot().equals(item.table().snapshotId()) && receipt.consumedAt().isBefore(item.table().committedAt())) {
                older.computeIfAbsent(receipt.unit(), u -> new TreeSet<>()).add(receipt.consumer());
            }
        }
        Map<String, List<String>> result = new TreeMap<>();
        older.forEach((unit, consumers) -> result.put(unit, List.copyOf(consumers)));
        return result;
    }

    /** Per consumer (name order), the units it is behind on (unit order). */
    public static Map<String, List<String>> byConsumer(Map<String, List<String>> byUnit) {
        Map<String, List<String>> result = new TreeMap<>();
        byUnit.forEach((unit, consumers) -> consumers.forEach(c -> result.computeIfAbsent(c, k -> new ArrayList<>()).add(unit)));
        result.replaceAll((c, units) -> List.copyOf(units));
        return result;
    }
}
