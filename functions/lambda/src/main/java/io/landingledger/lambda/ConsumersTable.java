package io.landingledger.lambda;

import java.util.List;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The one definition of the {@code Consumers} table's keys (docs/readers.md, "Consumer receipts"): partition key
 * {@value #PARTITION_KEY} (S), sort key {@value #SORT_KEY} (S) holding {@code <unit>#<consumer>}; one item per
 * (dataset, unit, consumer), its newest receipt. The local stack and the template test build from here; the functions
 * find its name in {@link FunctionConfig#CONSUMERS_TABLE}.
 */
public final class ConsumersTable {
    public static final String PARTITION_KEY = "dataset";
    public static final String SORT_KEY = "unit_consumer";

    private ConsumersTable() {
    }

    /** CreateTable for the table named {@code tableName}, on demand. */
    public static CreateTableRequest.Builder definition(String tableName) {
        return CreateTableRequest.builder()
                .tableName(tableName)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(List.of(
                        KeySchemaElement.builder().attributeName(PARTITION_KEY).keyType(KeyType.HASH).build(),
                        KeySchemaElement.builder().attributeName(SORT_KEY).keyType(KeyType.RANGE).build()))
                .attributeDefinitions(List.of(
                        AttributeDefinition.builder().attributeName(PARTITION_KEY).attributeType(ScalarAttributeType.S).build(),
                        AttributeDefinition.builder().attributeName(SORT_KEY).attributeType(ScalarAttributeType.S).build()));
    }

    /** Creates the table and waits until it is ACTIVE. Fails if it exists. */
    public static void create(DynamoDbClient dynamoDb, String tableName) {
        dynamoDb.createTable(definition(tableName).build());
        try (var waiter = dynamoDb.waiter()) {
            waiter.waitUntilTableExists(request -> request.tableName(tableName));
        }
    }
}
