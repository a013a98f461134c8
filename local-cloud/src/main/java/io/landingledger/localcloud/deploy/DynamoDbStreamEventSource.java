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
    private final List<Map<String, Object>> filters;
    private final boolean reportItemFailures;
    private final StackParts stack;
    private final MotoApi moto;
    /** Shard id to its next iterator. */
    private final Map<String, String> iterators = new LinkedHashMap<>();

    DynamoDbStreamEventSource(String logicalId, String streamArn, String function, int batchSize, int maximumRetryAttempts,
                              List<Map<String, Object>> filters, boolean reportItemFailures, boolean latest, StackParts stack,
                              MotoApi moto) {
        this.logicalId = logicalId;
        this.filters = List.copyOf(filters);
        this.reportItemFailures = reportItemFailures;
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
                    List<Object> event = new ArrayList<>();
                    for (Object r : records) {
                        Map<String, Object> record = new LinkedHashMap<>((Map<String, Object>) r);
                        record.put("eventSourceARN", streamArn);
                        if (filters.isEmpty() || filters.stream().anyMatch(f -> EventPatterns.matches(f, record))) {
                            event.add(record);
                        }
                    }
                    if (!event.isEmpty()) {
                        ran = true;
                        deliver(event);
                    }
                    shard.setValue(next == null ? null : String.valueOf(next));
                }
            }
        } catch (IOException | RuntimeException e) {
            stack.undeliverable(logicalId + " (" + streamArn + " -> " + function + "): " + e.getMessage());
        }
        return ran;
    }

    /** One batch: invoked until it succeeds (from its first failed record on, when the function reports one) or retries run out. */
    @SuppressWarnings("unchecked")
    private void deliver(List<Object> batch) throws IOException {
        List<Object> pending = batch;
        for (int attempt = 0; attempt <= maximumRetryAttempts; attempt++) {
            InvokeResult result = stack.lambda.invoke(function, null, JSON.std.asString(Map.of("Records", pending)));
            if (result.failed()) {
                continue;
            }
            String failed = reportItemFailures ? firstFailure(result) : null;
            if (failed == null) {
                return;
            }
            int from = 0;
            while (from < pending.size() && !failed.equals(sequenceNumber((Map<String, Object>) pending.get(from)))) {
                from++;
            }
            if (from == pending.size()) {
                // Lambda treats an identifier that is not in the batch as the whole batch failing
                continue;
            }
            pending = pending.subList(from, pending.size());
        }
        stack.undeliverable(logicalId + ": a batch of " + pending.size() + " stream records failed "
                + (maximumRetryAttempts + 1) + " times and was skipped");
    }

    private static String sequenceNumber(Map<String, Object> record) {
        return record.get("dynamodb") instanceof Map<?, ?> stream ? String.valueOf(stream.get("SequenceNumber")) : null;
    }

    /** The first record the answer names as failed ({@code batchItemFailures[].itemIdentifier}), or null. */
    private static String firstFailure(InvokeResult result) {
        try {
            Object answer = JSON.std.anyFrom(result.payloadText());
            if (answer instanceof Map<?, ?> map && map.get("batchItemFailures") instanceof List<?> failures && !failures.isEmpty()
                    && failures.get(0) instanceof Map<?, ?> first) {
                return String.valueOf(first.get("itemIdentifier"));
            }
        } catch (IOException e) {
            // not a partial-batch answer: the whole batch succeeded
        }
        return null;
    }
}
