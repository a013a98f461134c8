package io.landingledger.core.consumers;

import java.util.List;

/**
 * The Consumers port (DynamoDB {@code Consumers} table in production, see {@code DynamoDbConsumerReceipts}): the
 * newest receipt per (dataset, unit, consumer). Infrastructure faults are runtime exceptions.
 */
public interface ConsumerReceipts {

    /** No receipts recorded anywhere (a sweep without a Consumers table). */
    ConsumerReceipts NONE = new ConsumerReceipts() {
        @Override
        public boolean record(ConsumerReceipt receipt) {
            throw new UnsupportedOperationException("no Consumers table");
        }

        @Override
        public List<ConsumerReceipt> forUnits(String dataset, String fromUnit, String toUnit) {
            return List.of();
        }
    };

    /**
     * Stores the receipt unless one of the same (dataset, unit, consumer) with a later or equal {@code consumedAt} is
     * stored: a late older receipt never replaces a newer one.
     *
     * @return false when a newer (or as new) receipt stands and nothing was written
     */
    boolean record(ConsumerReceipt receipt);

    /** Every receipt of a dataset whose unit is within [fromUnit, toUnit] (inclusive; null for open), unit order. */
    List<ConsumerReceipt> forUnits(String dataset, String fromUnit, String toUnit);
}
