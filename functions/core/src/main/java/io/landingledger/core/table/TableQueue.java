package io.landingledger.core.table;

/**
 * Where units whose table partition may be behind the ledger are sent for the table writer: the ledger stream's
 * enqueue function, the sweep's re-drive and {@code landing repair} all submit through it (an SQS FIFO queue on AWS).
 */
public interface TableQueue {

    /** Queues {@code message}; a duplicate of a message sent within the queue's deduplication window is dropped. */
    void submit(TableMessage message);
}
