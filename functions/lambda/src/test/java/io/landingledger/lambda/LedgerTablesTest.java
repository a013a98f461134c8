package io.landingledger.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** Pins docs/design.md section 4's keys: changing one is a migration, not a refactoring. */
class LedgerTablesTest {

    @Test
    void ledger_isKeyedByDatasetAndUnit_onDemand() {
        CreateTableRequest request = LedgerTables.ledger("Ledger").build();

        assertEquals("Ledger", request.tableName());
        assertEquals(BillingMode.PAY_PER_REQUEST, request.billingMode());
        assertEquals(List.of(key("dataset", KeyType.HASH), key("unit", KeyType.RANGE)), request.keySchema());
        assertEquals(List.of(string("dataset"), string("unit")), request.attributeDefinitions());
    }

    @Test
    void ledgerHistory_isKeyedByDatasetUnitAndAtRun_onDemand() {
        CreateTableRequest request = LedgerTables.ledgerHistory("LedgerHistory").build();

        assertEquals("LedgerHistory", request.tableName());
        assertEquals(BillingMode.PAY_PER_REQUEST, request.billingMode());
        assertEquals(List.of(key("dataset_unit", KeyType.HASH), key("at_run", KeyType.RANGE)), request.keySchema());
        assertEquals(List.of(string("dataset_unit"), string("at_run")), request.attributeDefinitions());
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }

    private static AttributeDefinition string(String name) {
        return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
    }
}
