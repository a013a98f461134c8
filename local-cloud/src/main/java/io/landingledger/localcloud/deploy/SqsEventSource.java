package io.landingledger.localcloud.deploy;

import com.fasterxml.jackson.jr.ob.JSON;

import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An AWS::Lambda::EventSourceMapping from an SQS queue: Lambda's poller, with the function's role (which must allow
 * sqs:ReceiveMessage and sqs:DeleteMessage on the queue), batches of at most BatchSize messages invoked synchronously
 * in the SQS event's shape; a batch whose run succeeds is deleted (with ReportBatchItemFailures, all but the failures it
 * names); a failed message becomes visible again and is retried until the queue's redrive policy moves it to its dead
 * letter queue. Here the queue is polled whenever the stack would otherwise be idle, and a failed message is made
 * visible at once instead of after the queue's visibility timeout.
 */
final class SqsEventSource {
    private final String logicalId;
    private final String queueArn;
    private final String queueUrl;
    private final String function;
    private final int batchSize;
    private final boolean reportItemFailures;
    private final StackParts stack;

    SqsEventSource(String logicalId, String queueArn, String queueUrl, String function, int batchSize, boolean reportItemFailures,
                   StackParts stack) {
        this.logicalId = logicalId;
        this.queueArn = queueArn;
        this.queueUrl = queueUrl;
        this.function = function;
        this.batchSize = batchSize;
        this.reportItemFailures = reportItemFailures;
        this.stack = stack;
    }

    /** Receives and runs batches until the queue has no visible message; true when it ran any. */
    boolean drain() {
        boolean ran = false;
        try (SqsClient sqs = SqsClient.builder().region(Region.of(stack.region)).endpointOverride(stack.endpoint)
                .credentialsProvider(StaticCredentialsProvider.create(stack.functionConnection(stack.logicalIdOf(function))
                        .credentials()))
                .httpClientBuilder(UrlConnectionHttpClient.builder()).build()) {
            while (true) {
                List<Message> messages = sqs.receiveMessage(r -> r.queueUrl(queueUrl).maxNumberOfMessages(Math.min(10, batchSize))
                        .messageSystemAttributeNames(MessageSystemAttributeName.ALL)).messages();
                if (messages.isEmpty()) {
                    return ran;
                }
                ran = true;
                InvokeResult result = stack.lambda.invoke(function, null, event(messages));
                Set<String> failed = new HashSet<>();
                if (result.failed()) {
                    messages.forEach(m -> failed.add(m.messageId()));
                } else if (reportItemFailures) {
                    failed.addAll(itemFailures(result));
                }
                for (Message message : messages) {
                    if (failed.contains(message.messageId())) {
                        visibleAgain(message);
                    } else {
                        sqs.deleteMessage(r -> r.queueUrl(queueUrl).receiptHandle(message.receiptHandle()));
                    }
                }
            }
        } catch (RuntimeException e) {
            stack.undeliverable(logicalId + " (" + queueArn + " -> " + function + "): " + e.getMessage());
            return ran;
        }
    }

    /**
     * The visibility timeout elapsing, at once: done on the emulator itself, not through the gateway with the
     * function's role. Lambda's poller never calls ChangeMessageVisibility for a failed message (it lets the timeout
     * run out), so AWS asks the role for sqs:ReceiveMessage, DeleteMessage and GetQueueAttributes only; asking it for
     * more here was refused, left the message in flight and held its FIFO group.
     */
    private void visibleAgain(Message message) {
        new MotoApi(stack.motoEndpoint, stack.region).call("sqs", "AmazonSQS.ChangeMessageVisibility",
                Map.of("QueueUrl", queueUrl, "ReceiptHandle", message.receiptHandle(), "VisibilityTimeout", 0));
    }

    private String event(List<Message> messages) {
        List<Map<String, Object>> records = new ArrayList<>();
        for (Message message : messages) {
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("messageId", message.messageId());
            record.put("receiptHandle", message.receiptHandle());
            record.put("body", message.body());
            Map<String, Object> attributes = new LinkedHashMap<>();
            message.attributes().forEach((k, v) -> attributes.put(k.toString(), v));
            record.put("attributes", attributes);
            record.put("messageAttributes", Map.of());
            record.put("md5OfBody", message.md5OfBody());
            record.put("eventSource", "aws:sqs");
            record.put("eventSourceARN", queueArn);
            record.put("awsRegion", stack.region);
            records.add(record);
        }
        try {
            return JSON.std.asString(Map.of("Records", records));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Set<String> itemFailures(InvokeResult result) {
        Set<String> ids = new HashSet<>();
        try {
            Object answer = JSON.std.anyFrom(result.payloadText());
            if (answer instanceof Map<?, ?> map && map.get("batchItemFailures") instanceof List<?> failures) {
                for (Object failure : failures) {
                    ids.add(String.valueOf(((Map<String, Object>) failure).get("itemIdentifier")));
                }
            }
        } catch (IOException e) {
            // not a partial-batch answer: the whole batch succeeded
        }
        return ids;
    }
}
