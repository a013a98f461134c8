package io.landingledger.localcloud.deploy;

import com.fasterxml.jackson.jr.ob.JSON;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An AWS::Lambda::EventSourceMapping from a DynamoDB stream (the Ledger table's): Lambda's poller reads each shard in
 * order and invokes the function synchronously with batches of at most BatchSize records, in the DynamoDB event's
 * shape; a batch whose run fails is retried up to MaximumRetryAttempts times and then skipped (on AWS, its description
 * goes to the OnFailure destination). Here the stream is read from moto directly, when the stack would otherwise be
 * idle: the function role's stream permissions are enforced only on AWS (docs/emulators.md).
 */
final class DynamoDbStreamEventSource {
    private final String logicalId;
    private final String streamArn;
    private final String function;
    private final int batchSize;
    private final int maximumRetryAttempts;
    private final StackParts stack;
    private final MotoApi moto;
    /** Shard id to its next iterator. */
    private final Map<String, String> iterators = new LinkedHashMap<>();

    DynamoDbStreamEventSource(String logicalId, String streamArn, String function, int batchSize, int maximumRetryAttempts,
                              boolean latest, StackParts stack, MotoApi moto) {
        this.logicalId = logicalId;
        this.streamArn = streamArn;
        this.function = function;
        this.batchSize = batchSize;
        this.maximumRetryAttempts = maximumRetryAttempts;
        this.stack = stack;
        this.moto = moto;
        openShards(latest ? "LATEST" : "TRIM_HORIZON");
    }

    @SuppressWarnings("unchecked")
    private void openShards(String position) {
        Map<String, Object> description = (Map<String, Object>) moto.call("dynamodb", "DynamoDBStreams_20120810.DescribeStream",
                Map.of("StreamArn", streamArn)).get("StreamDescription");
        for (Object s : (List<Object>) description.getOrDefault("Shards", List.of())) {
            String shard = String.valueOf(((Map<String, Object>) s).get("ShardId"));
            if (!iterators.containsKey(shard)) {
                Map<String, Object> answer = moto.call("dynamodb", "DynamoDBStreams_20120810.GetShardIterator",
                        Map.of("StreamArn", streamArn, "ShardId", shard, "ShardIteratorType", position));
                iterators.put(shard, String.valueOf(answer.get("ShardIterator")));
            }
        }
    }

    /** Reads every shard to its end, invoking the function per batch; true when it ran any. */
    @SuppressWarnings("unchecked")
    synchronized boolean drain() {
        boolean ran = false;
        try {
            openShards("TRIM_HORIZON");
            for (Map.Entry<String, String> shard : iterators.entrySet()) {
                while (shard.getValue() != null) {
                    Map<String, Object> answer = moto.call("dynamodb", "DynamoDBStreams_20120810.GetRecords",
                            Map.of("ShardIterator", shard.getValue(), "Limit", batchSize));
                    List<Object> records = (List<Object>) answer.getOrDefault("Records", List.of());
                    Object next = answer.get("NextShardIterator");
                    if (records.isEmpty()) {
                        shard.setValue(next == null ? null : String.valueOf(next));
                        break;
                    }
                    ran = true;
                    List<Object> event = new ArrayList<>();
                    for (Object r : records) {
                        Map<String, Object> record = new LinkedHashMap<>((Map<String, Object>) r);
                        record.put("eventSourceARN", streamArn);
                        event.add(record);
                    }
                    String payload = JSON.std.asString(Map.of("Records", event));
                    boolean delivered = false;
                    for (int attempt = 0; attempt <= maximumRetryAttempts && !delivered; attempt++) {
                        delivered = !stack.lambda.invoke(function, null, payload).failed();
                    }
                    if (!delivered) {
                        stack.undeliverable(logicalId + ": a batch of " + records.size() + " stream records failed "
                                + (maximumRetryAttempts + 1) + " times and was skipped");
                    }
                    shard.setValue(next == null ? null : String.valueOf(next));
                }
            }
        } catch (IOException | RuntimeException e) {
            stack.undeliverable(logicalId + " (" + streamArn + " -> " + function + "): " + e.getMessage());
        }
        return ran;
    }
}
