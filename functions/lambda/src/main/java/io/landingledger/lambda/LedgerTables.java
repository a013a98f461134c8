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
 * The one definition of the two ledger tables' keys (docs/design.md section 4). The embedded emulators, the local run
 * and the template test all build from here, so the tables the tests run against cannot drift from the ones
 * infra/template.yaml deploys.
 *
 * <ul>
 *   <li>{@code Ledger}: partition key {@value #LEDGER_PARTITION_KEY} (S), sort key {@value #LEDGER_SORT_KEY} (S);
 *       one item per (dataset, unit).</li>
 *   <li>{@code LedgerHistory}: partition key {@value #HISTORY_PARTITION_KEY} (S), sort key
 *       {@value #HISTORY_SORT_KEY} (S) holding {@code <iso-instant>#<run_id>}; one immutable item per publish,
 *       refusal, skip after repair and omission.</li>
 * </ul>
 * Both are on-demand (PAY_PER_REQUEST).
 */
public final class LedgerTables {
    public static final String LEDGER_PARTITION_KEY = "dataset";
    public static final String LEDGER_SORT_KEY = "unit";
    public static final String HISTORY_PARTITION_KEY = "dataset_unit";
    public static final String HISTORY_SORT_KEY = "at_run";

    private LedgerTables() {
    }

    /** CreateTable for the {@code Ledger} table named {@code tableName}; add nothing that changes its keys. */
    public static CreateTableRequest.Builder ledger(String tableName) {
        return table(tableName, LEDGER_PARTITION_KEY, LEDGER_SORT_KEY);
    }

    /** CreateTable for the {@code LedgerHistory} table named {@code tableName}. */
    public static CreateTableRequest.Builder ledgerHistory(String tableName) {
        return table(tableName, HISTORY_PARTITION_KEY, HISTORY_SORT_KEY);
    }

    /**
     * Creates both tables and waits until DynamoDB reports them ACTIVE (emulators and LocalStack: at once; AWS:
     * seconds). Fails if either exists already.
     */
    public static void create(DynamoDbClient dynamoDb, String ledgerTable, String ledgerHistoryTable) {
        dynamoDb.createTable(ledger(ledgerTable).build());
        dynamoDb.createTable(ledgerHistory(ledgerHistoryTable).build());
        try (var waiter = dynamoDb.waiter()) {
            waiter.waitUntilTableExists(request -> request.tableName(ledgerTable));
            waiter.waitUntilTableExists(request -> request.tableName(ledgerHistoryTable));
        }
    }

    private static CreateTableRequest.Builder table(String tableName, String partitionKey, String sortKey) {
        return CreateTableRequest.builder()
                .tableName(tableName)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(List.of(
                        KeySchemaElement.builder().attributeName(partitionKey).keyType(KeyType.HASH).build(),
                        KeySchemaElement.builder().attributeName(sortKey).keyType(KeyType.RANGE).build()))
                .attributeDefinitions(List.of(
                        AttributeDefinition.builder().attributeName(partitionKey)
                                .attributeType(ScalarAttributeType.S).build(),
                        AttributeDefinition.builder().attributeName(sortKey)
                                .attributeType(ScalarAttributeType.S).build()));
    }
}
