package io.landingledger.lambda.adapters;

import io.landingledger.core.table.TableMessage;
import io.landingledger.core.table.TableQueue;

import software.amazon.awssdk.services.sqs.SqsClient;

import java.util.Objects;

/**
 * The table queue on AWS: the stack's SQS FIFO queue (TableCommitQueue, {@value #QUEUE_URL}). Each message's group is
 * its dataset, so one table has one committer at a time, and its deduplication id is the message's identity (the
 * queue's content-based deduplication is off): a replayed ledger stream record within SQS's five-minute window is
 * dropped by the queue, a later one is a no-op in the writer. Used by the ledger stream's enqueue function, the
 * sweep's re-drive of a TABLE_BEHIND unit and {@code landing repair}.
 */
public final class SqsTableQueue implements TableQueue {
    /** The variable that names the queue's URL in a function's environment (infra/template.yaml). */
    public static final String QUEUE_URL = "TABLE_QUEUE_URL";

    private final SqsClient sqs;
    private final String queueUrl;

    public SqsTableQueue(SqsClient sqs, String queueUrl) {
        this.sqs = Objects.requireNonNull(sqs, "sqs");
        this.queueUrl = Objects.requireNonNull(queueUrl, QUEUE_URL + " is not set (infra/template.yaml)");
    }

    /** An SQS error (throttling after the SDK's retries, access denied) is thrown: the caller's batch is retried. */
    @Override
    public void submit(TableMessage message) {
        sqs.sendMessage(r -> r.queueUrl(queueUrl).messageBody(message.toJson()).messageGroupId(message.groupId())
                .messageDeduplicationId(message.deduplicationId()));
    }
}
