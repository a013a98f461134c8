package io.landingledger.lambda.adapters;


import io.landingledger.core.json.JsonCodec;
import io.landingledger.core.sweep.ShardTask;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;

/**
 * Hands a sweep's shards to the sweep-worker function: one SendMessageBatch per ten shards on the shard queue, each
 * message a {@link ShardTask} of a few KB (dataset names; SQS takes 256 KB). A batch entry SQS refused fails the
 * planner (its invocation is retried; a shard handed out twice is swept twice, and the second result replaces the
 * first with the same figures).
 */
public final class SqsShardQueue {
    private final SqsClient sqs;
    private final String queueUrl;

    public SqsShardQueue(SqsClient sqs, String queueUrl) {
        this.sqs = Objects.requireNonNull(sqs, "sqs");
        this.queueUrl = Objects.requireNonNull(queueUrl, "queueUrl");
    }

    public void submit(List<ShardTask> tasks) {
        for (int from = 0; from < tasks.size(); from += 10) {
            List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
            for (ShardTask task : tasks.subList(from, Math.min(tasks.size(), from + 10))) {
                entries.add(SendMessageBatchRequestEntry.builder().id("shard-" + task.shard().index())
                        .messageBody(JsonCodec.writeString(task)).build());
            }
            SendMessageBatchResponse response = sqs.sendMessageBatch(r -> r.queueUrl(queueUrl).entries(entries));
            if (!response.failed().isEmpty()) {
                throw new IllegalStateException("SQS refused " + response.failed().size() + " shard message(s): "
                        + response.failed().get(0).code() + " " + response.failed().get(0).message());
            }
        }
    }
}
