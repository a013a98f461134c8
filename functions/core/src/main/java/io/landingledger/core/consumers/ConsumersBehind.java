package io.landingledger.core.consumers;

import io.landingledger.core.ledger.LedgerItem;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which consumers have not read a unit's latest publish: a consumer is behind on a unit when its receipt for the unit
 * names another publish (run id or ETag) than the one the ledger holds now, e.g. a mart built before a repair or a
 * restatement landed. A consumer with no receipt for a unit is not behind on it (nothing says it reads the unit); a
 * unit with no current publish (never published) has nobody behind.
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
            if (!receipt.reads(item.runId(), item.publishedEtag())) {
                behind.computeIfAbsent(receipt.unit(), u -> new TreeSet<>()).add(receipt.consumer());
            }
        }
        Map<String, List<String>> result = new TreeMap<>();
        behind.forEach((unit, consumers) -> result.put(unit, List.copyOf(consumers)));
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
