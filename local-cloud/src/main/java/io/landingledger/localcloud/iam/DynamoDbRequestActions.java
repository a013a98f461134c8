package io.landingledger.localcloud.iam;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * DynamoDB requests (the JSON protocol: {@code X-Amz-Target: DynamoDB_20120810.<Operation>} and a JSON body) to IAM
 * actions on table ARNs, {@code arn:aws:dynamodb:REGION:ACCOUNT:table/NAME} ({@code .../index/INDEX} for a Query or
 * Scan of an index), from the Service Authorization Reference ("Actions, resources, and condition keys for Amazon
 * DynamoDB") and the developer guide's "Using IAM with DynamoDB transactions":
 *
 * <ul>
 *   <li>GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan, DescribeTable, CreateTable, DeleteTable, UpdateTable,
 *       DescribeTimeToLive, UpdateTimeToLive, DescribeContinuousBackups, UpdateContinuousBackups: the action of the
 *       same name on the table its TableName names (a table ARN there is taken as it is).</li>
 *   <li>BatchGetItem, BatchWriteItem: dynamodb:BatchGetItem / dynamodb:BatchWriteItem on each table of RequestItems:
 *       IAM authorizes a batch as its own action, not as the GetItem, PutItem or DeleteItem it contains.</li>
 *   <li>TransactWriteItems: per item, Put -> PutItem, Update -> UpdateItem, Delete -> DeleteItem, ConditionCheck ->
 *       ConditionCheckItem, on that item's table; TransactGetItems: GetItem per item. (Neither is an IAM action.)</li>
 *   <li>TagResource, UntagResource, ListTagsOfResource: on the ResourceArn; ListTables, DescribeLimits,
 *       DescribeEndpoints: on "*".</li>
 *   <li>DynamoDB Streams ({@code DynamoDBStreams_20120810.}): DescribeStream and GetShardIterator on the StreamArn,
 *       ListStreams on "*"; GetRecords is unmapped (its shard iterator does not name the stream).</li>
 * </ul>
 * Condition keys such as dynamodb:LeadingKeys, dynamodb:Attributes, dynamodb:Select and dynamodb:ReturnValues are
 * not set. Any other target, a missing TableName or an unreadable body is unmapped with the reason.
 */
public final class DynamoDbRequestActions {
    private static final String PREFIX = "DynamoDB_20120810.";
    private static final String STREAMS_PREFIX = "DynamoDBStreams_20120810.";
    private static final Set<String> ON_TABLE = Set.of("GetItem", "PutItem", "UpdateItem", "DeleteItem",
            "DescribeTable", "CreateTable", "DeleteTable", "UpdateTable", "DescribeTimeToLive", "UpdateTimeToLive",
            "DescribeContinuousBackups",
            "UpdateContinuousBackups");
    private static final Set<String> ON_RESOURCE_ARN = Set.of("TagResource", "UntagResource", "ListTagsOfResource");
    private static final Set<String> ON_ANY = Set.of("ListTables", "DescribeLimits", "DescribeEndpoints");
    private static final Map<String, String> TRANSACT_WRITE = Map.of("Put", "dynamodb:PutItem", "Update",
            "dynamodb:UpdateItem", "Delete", "dynamodb:DeleteItem", "ConditionCheck",
            "dynamodb:ConditionCheckItem");

    private final String region;
    private final String account;

    /** Table names become ARNs in {@code region} and {@code account}. */
    public DynamoDbRequestActions(String region, String account) {
        this.region = region;
        this.account = account;
    }

    /** The ARN of table {@code name} (a table ARN is returned as it is). */
    public String tableArn(String name) {
        return name.startsWith("arn:") ? name : "arn:aws:dynamodb:" + region + ":" + account + ":table/" + name;
    }

    /** The IAM actions the request with header {@code X-Amz-Target: target} and {@code body} needs, or why unmapped. */
    public RequestMapping map(String target, byte[] body) {
        if (target == null) {
            return RequestMapping.unmapped("(no X-Amz-Target)",
                    "a DynamoDB request names its operation in X-Amz-Target");
        }
        if (target.startsWith(STREAMS_PREFIX)) {
            return streams(target, target.substring(STREAMS_PREFIX.length()), JsonBodies.object(body));
        }
        if (!target.startsWith(PREFIX)) {
            return RequestMapping.unmapped(target, "not a DynamoDB_20120810 target");
        }
        String operation = target.substring(PREFIX.length());
        JsonNode request = JsonBodies.object(body);
        if (request == null && !ON_ANY.contains(operation)) {
            return RequestMapping.unmapped(operation, "the body is not a JSON object");
        }
        if (ON_ANY.contains(operation)) {
            return RequestMapping.of(operation, AuthorizationRequest.of("dynamodb:" + operation, "*"));
        }
        if (ON_TABLE.contains(operation) || operation.equals("Query") || operation.equals("Scan")) {
            String table = JsonBodies.text(request, "TableName");
            if (table == null) {
                return RequestMapping.unmapped(operation, "no TableName");
            }
            String index = JsonBodies.text(request, "IndexName");
            String arn = tableArn(table) + (index != null && !ON_TABLE.contains(operation) ? "/index/" + index : "");
            return RequestMapping.of(operation, AuthorizationRequest.of("dynamodb:" + operation, arn));
        }
        if (ON_RESOURCE_ARN.contains(operation)) {
            String arn = JsonBodies.text(request, "ResourceArn");
            return arn == null ? RequestMapping.unmapped(operation, "no ResourceArn")
                    : RequestMapping.of(operation, AuthorizationRequest.of("dynamodb:" + operation, arn));
        }
        return switch (operation) {
            case "BatchGetItem", "BatchWriteItem" -> batch(operation, request);
            case "TransactWriteItems" -> transact(operation, request, TRANSACT_WRITE);
            case "TransactGetItems" -> transact(operation, request, Map.of("Get", "dynamodb:GetItem"));
            default -> RequestMapping.unmapped(operation, "DynamoDB operation " + operation + " is not mapped");
        };
    }

    private RequestMapping batch(String operation, JsonNode request) {
        JsonNode items = request.get("RequestItems");
        if (items == null || !items.isObject() || items.isEmpty()) {
            return RequestMapping.unmapped(operation, "no RequestItems");
        }
        List<AuthorizationRequest> requests = new ArrayList<>();
        for (Iterator<String> tables = items.fieldNames(); tables.hasNext(); ) {
            requests.add(AuthorizationRequest.of("dynamodb:" + operation, tableArn(tables.next())));
        }
        return RequestMapping.of(operation, requests);
    }

    private RequestMapping transact(String operation, JsonNode request, Map<String, String> actions) {
        JsonNode items = request.get("TransactItems");
        if (items == null || !items.isArray() || items.isEmpty()) {
            return RequestMapping.unmapped(operation, "no TransactItems");
        }
        Set<AuthorizationRequest> requests = new LinkedHashSet<>();
        for (JsonNode item : items) {
            if (!item.isObject() || item.size() != 1) {
                return RequestMapping.unmapped(operation, "a TransactItems entry must hold exactly one of "
                        + actions.keySet());
            }
            String kind = item.fieldNames().next();
            String action = actions.get(kind);
            String table = JsonBodies.text(item.get(kind), "TableName");
            if (action == null || table == null) {
                return RequestMapping.unmapped(operation, "TransactItems entry " + kind
                        + (action == null ? " is not one of " + actions.keySet() : " has no TableName"));
            }
            requests.add(AuthorizationRequest.of(action, tableArn(table)));
        }
        return RequestMapping.of(operation, List.copyOf(requests));
    }

    private static RequestMapping streams(String target, String operation, JsonNode request) {
        return switch (operation) {
            case "ListStreams" -> RequestMapping.of(operation, AuthorizationRequest.of("dynamodb:ListStreams", "*"));
            case "DescribeStream", "GetShardIterator" -> {
                String arn = JsonBodies.text(request, "StreamArn");
                yield arn == null ? RequestMapping.unmapped(operation, "no StreamArn")
                        : RequestMapping.of(operation, AuthorizationRequest.of("dynamodb:" + operation, arn));
            }
            case "GetRecords" -> RequestMapping.unmapped(operation,
                    "GetRecords names a shard iterator, not its stream");
            default -> RequestMapping.unmapped(target, "DynamoDB Streams operation " + operation + " is not mapped");
        };
    }
}
