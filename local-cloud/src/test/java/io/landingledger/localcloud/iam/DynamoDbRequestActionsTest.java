package io.landingledger.localcloud.iam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DynamoDbRequestActionsTest {
    private static final String T = "arn:aws:dynamodb:us-east-1:123456789012:table/";
    private final DynamoDbRequestActions mapper = new DynamoDbRequestActions("us-east-1", "123456789012");

    private RequestMapping map(String operation, String body) {
        return mapper.map(operation.contains(".") ? operation : "DynamoDB_20120810." + operation,
                body == null ? null : body.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "GetItem|{\"TableName\": \"Ledger\", \"Key\": {}, \"ConsistentRead\": true}|dynamodb:GetItem " + T
                    + "Ledger",
            "PutItem|{\"TableName\": \"LedgerHistory\"}|dynamodb:PutItem " + T + "LedgerHistory",
            "UpdateItem|{\"TableName\": \"Ledger\"}|dynamodb:UpdateItem " + T + "Ledger",
            "DeleteItem|{\"TableName\": \"Ledger\"}|dynamodb:DeleteItem " + T + "Ledger",
            "Query|{\"TableName\": \"Ledger\"}|dynamodb:Query " + T + "Ledger",
            "Query|{\"TableName\": \"Ledger\", \"IndexName\": \"by-status\"}|dynamodb:Query " + T
            + "Ledger/index/by-status",
            "Scan|{\"TableName\": \"Ledger\", \"IndexName\": \"i\"}|dynamodb:Scan " + T + "Ledger/index/i",
            "GetItem|{\"TableName\": \"arn:aws:dynamodb:eu-west-1:999999999999:table/X\"}|dynamodb:GetItem "
            + "arn:aws:dynamodb:eu-west-1:999999999999:table/X",
            "BatchGetItem|{\"RequestItems\": {\"A\": {\"Keys\": []}, \"B\": {\"Keys\": []}}}|dynamodb:BatchGetItem " + T
            + "A, dynamodb:BatchGetItem " + T + "B",
            "BatchWriteItem|{\"RequestItems\": {\"A\": [{\"PutRequest\": {}}, {\"DeleteRequest\": "
            + "{}}]}}|dynamodb:BatchWriteItem " + T + "A",
            "TransactWriteItems|{\"TransactItems\": [{\"Update\": {\"TableName\": \"Ledger\"}}, {\"Put\": "
            + "{\"TableName\": \"LedgerHistory\"}},"
                    + "{\"Delete\": {\"TableName\": \"Ledger\"}}, {\"ConditionCheck\": {\"TableName\": \"C\"}}, "
                    + "{\"Put\": {\"TableName\": \"LedgerHistory\"}}]}"
                    + "|dynamodb:UpdateItem " + T + "Ledger, dynamodb:PutItem " + T
                    + "LedgerHistory, dynamodb:DeleteItem " + T + "Ledger, "
                    + "dynamodb:ConditionCheckItem " + T + "C",
            "TransactGetItems|{\"TransactItems\": [{\"Get\": {\"TableName\": \"A\"}}]}|dynamodb:GetItem " + T + "A",
            "DescribeTable|{\"TableName\": \"Ledger\"}|dynamodb:DescribeTable " + T + "Ledger",
            "CreateTable|{\"TableName\": \"Ledger\"}|dynamodb:CreateTable " + T + "Ledger",
            "ListTables|-|dynamodb:ListTables *",
            "ListTables|{}|dynamodb:ListTables *",
            "DescribeTimeToLive|{\"TableName\": \"Ledger\"}|dynamodb:DescribeTimeToLive " + T + "Ledger",
            "UpdateTimeToLive|{\"TableName\": \"Ledger\"}|dynamodb:UpdateTimeToLive " + T + "Ledger",
            "DescribeContinuousBackups|{\"TableName\": \"Ledger\"}|dynamodb:DescribeContinuousBackups " + T + "Ledger",
            "UpdateContinuousBackups|{\"TableName\": \"Ledger\"}|dynamodb:UpdateContinuousBackups " + T + "Ledger",
            "TagResource|{\"ResourceArn\": \"" + T + "Ledger\", \"Tags\": []}|dynamodb:TagResource " + T + "Ledger",
            "DynamoDBStreams_20120810.DescribeStream|{\"StreamArn\": \"" + T
            + "Ledger/stream/s\"}|dynamodb:DescribeStream " + T + "Ledger/stream/s",
            "DynamoDBStreams_20120810.ListStreams|{}|dynamodb:ListStreams *",
    })
    void operations(String operation, String body, String expected) {
        RequestMapping mapping = map(operation, body);
        assertTrue(mapping.mapped(), () -> "unmapped: " + mapping.unmappedReason());
        assertEquals(expected,
                mapping.requests().stream().map(r -> r.action() + " "
                + r.resource()).collect(Collectors.joining(", ")));
    }

    @ParameterizedTest(name = "{0}: {2}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "ExecuteStatement|{\"Statement\": \"SELECT * FROM Ledger\"}|DynamoDB operation ExecuteStatement is not "
                    + "mapped",
            "GetItem|{}|no TableName",
            "GetItem|not json|the body is not a JSON object",
            "GetItem|-|the body is not a JSON object",
            "BatchWriteItem|{\"RequestItems\": {}}|no RequestItems",
            "TransactWriteItems|{\"TransactItems\": [{\"Get\": {\"TableName\": \"A\"}}]}|Get is not one of",
            "TransactWriteItems|{\"TransactItems\": [{\"Put\": {}}]}|Put has no TableName",
            "DynamoDB_20111205.GetItem|{}|not a DynamoDB_20120810 target",
            "DynamoDBStreams_20120810.GetRecords|{\"ShardIterator\": \"x\"}|GetRecords names a shard iterator",
    })
    void unrecognisedRequestsAreUnmapped(String operation, String body, String reason) {
        RequestMapping mapping = map(operation, body);
        assertFalse(mapping.mapped());
        assertTrue(mapping.unmappedReason().contains(reason), mapping.unmappedReason());
    }
}
