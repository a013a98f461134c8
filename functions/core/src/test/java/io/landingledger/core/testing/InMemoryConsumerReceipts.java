package io.landingledger.core.testing;

import io.landingledger.core.consumers.ConsumerReceipt;
import io.landingledger.core.consumers.ConsumerReceipts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@link ConsumerReceipts} in memory, as {@code DynamoDbConsumerReceipts} behaves: one receipt per (dataset, unit,
 * consumer), replaced only by one with a later {@code consumedAt}; units in string order.
 */
public final class InMemoryConsumerReceipts implements ConsumerReceipts {
    private final Map<String, ConsumerReceipt> receipts = new TreeMap<>();

    private static String key(ConsumerReceipt r) {
        return r.dataset() + "\u0000" + r.unit() + "\u0000" + r.consumer();
    }

    @Override
    public synchronized boolean record(ConsumerReceipt receipt) {
        ConsumerReceipt stored = receipts.get(key(receipt));
        if (stored != null && !stored.consumedAt().isBefore(receipt.consumedAt())) {
            return false;
        }
        receipts.put(key(receipt), receipt);
        return true;
    }

    @Override
    public synchronized List<ConsumerReceipt> forUnits(String dataset, String fromUnit, String toUnit) {
        List<ConsumerReceipt> result = new ArrayList<>();
        for (ConsumerReceipt r : receipts.values()) {
            if (r.dataset().equals(dataset) && (fromUnit == null || r.unit().compareTo(fromUnit) >= 0)
                    && (toUnit == null || r.unit().compareTo(toUnit) <= 0)) {
                result.add(r);
            }
        }
        return result;
    }
}
