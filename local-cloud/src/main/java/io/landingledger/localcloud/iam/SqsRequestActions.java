package io.landingledger.localcloud.iam;

import com.fasterxml.jackson.databind.JsonNode;

import java.net.URI;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * SQS requests to IAM actions on queue ARNs ({@code arn:aws:sqs:REGION:ACCOUNT:NAME}), in either protocol: the query
 * protocol (form-encoded {@code Action=SendMessage&QueueUrl=...}, decoded into a map by the gateway) or the JSON
 * protocol ({@code X-Amz-Target: AmazonSQS.SendMessage} and a JSON body with QueueUrl). The action is
 * sqs:&lt;Action&gt;,
 * but for the batch forms, which IAM authorizes as their single forms (SendMessageBatch is sqs:SendMessage,
 * DeleteMessageBatch sqs:DeleteMessage, ChangeMessageVisibilityBatch sqs:ChangeMessageVisibility). The queue is the
 * QueueUrl's last two path segments (account, name); CreateQueue and GetQueueUrl name it by QueueName (GetQueueUrl's
 * QueueOwnerAWSAccountId overrides the account); ListQueues is on "*". Other actions are unmapped.
 */
public final class SqsRequestActions {
    private static final String JSON_PREFIX = "AmazonSQS.";
    private static final Set<String> ON_QUEUE = Set.of("SendMessage", "ReceiveMessage", "DeleteMessage",
            "ChangeMessageVisibility", "GetQueueAttributes", "SetQueueAttributes", "PurgeQueue", "DeleteQueue",
            "ListQueueTags", "TagQueue", "UntagQueue", "ListDeadLetterSourceQueues", "AddPermission",
            "RemovePermission");
    private static final Map<String, String> BATCHES = Map.of("SendMessageBatch", "SendMessage", "DeleteMessageBatch",
            "DeleteMessage", "ChangeMessageVisibilityBatch",
            "ChangeMessageVisibility");

    private final String region;
    private final String account;

    public SqsRequestActions(String region, String account) {
        this.region = region;
        this.account = account;
    }

    /** A query-protocol request: its decoded form (or query-string) parameters. */
    public RequestMapping mapQuery(Map<String, String> parameters) {
        return map(parameters.get("Action"), parameters::get);
    }

    /** A JSON-protocol request: the X-Amz-Target header and the body. */
    public RequestMapping mapJson(String target, byte[] body) {
        if (target == null || !target.startsWith(JSON_PREFIX)) {
            return RequestMapping.unmapped(String.valueOf(target), "not an AmazonSQS. target");
        }
        JsonNode request = JsonBodies.object(body);
        if (request == null) {
            return RequestMapping.unmapped(target, "the body is not a JSON object");
        }
        return map(target.substring(JSON_PREFIX.length()), field -> JsonBodies.text(request, field));
    }

    private RequestMapping map(String operation, Function<String, String> parameter) {
        if (operation == null) {
            return RequestMapping.unmapped("(no Action)", "an SQS request names its Action");
        }
        if (operation.equals("ListQueues")) {
            return RequestMapping.of(operation, AuthorizationRequest.of("sqs:ListQueues", "*"));
        }
        if (operation.equals("CreateQueue") || operation.equals("GetQueueUrl")) {
            String name = parameter.apply("QueueName");
            String owner = operation.equals("GetQueueUrl") && parameter.apply("QueueOwnerAWSAccountId") != null
                    ? parameter.apply("QueueOwnerAWSAccountId") : account;
            return name == null ? RequestMapping.unmapped(operation, "no QueueName")
                    : RequestMapping.of(operation, AuthorizationRequest.of("sqs:" + operation, queue(owner, name)));
        }
        String action = BATCHES.getOrDefault(operation, operation);
        if (!ON_QUEUE.contains(action)) {
            return RequestMapping.unmapped(operation, "SQS action " + operation + " is not mapped");
        }
        String url = parameter.apply("QueueUrl");
        String arn = url == null ? null : queueArn(url);
        return arn == null ? RequestMapping.unmapped(operation, "no QueueUrl of the form .../ACCOUNT/NAME: " + url)
                : RequestMapping.of(operation, AuthorizationRequest.of("sqs:" + action, arn));
    }

    /**
     * {@code https://sqs.us-east-1.amazonaws.com/123456789012/name} -> {@code arn:aws:sqs:REGION:123456789012:name},
     * or null.
     */
    public String queueArn(String queueUrl) {
        String path;
        try {
            path = URI.create(queueUrl).getPath();
        } catch (IllegalArgumentException e) {
            return null;
        }
        String[] segments = path == null ? new String[0] : path.replaceAll("^/+|/+$", "").split("/");
        if (segments.length != 2 || !segments[0].matches("\\d{12}") || segments[1].isEmpty()) {
            return null;
        }
        return queue(segments[0], segments[1]);
    }

    private String queue(String owner, String name) {
        return "arn:aws:sqs:" + region + ":" + owner + ":" + name;
    }
}
