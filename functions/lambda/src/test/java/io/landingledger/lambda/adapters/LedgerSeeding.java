package io.landingledger.lambda.adapters;

import io.landingledger.core.ledger.LedgerItem;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Test seeding: many ledger items at once, in {@link DynamoDbLedger}'s own attribute layout, with BatchWriteItem
 * (25 a request). For tests that need a large, consistent ledger quickly; the code under test never writes this way.
 */
public final class LedgerSeeding {
    private LedgerSeeding() {
    }

    public static void putAll(DynamoDbClient dynamo, String ledgerTable, List<LedgerItem> items) {
        for (int start = 0; start < items.size(); start += 25) {
            List<WriteRequest> batch = new ArrayList<>();
            for (LedgerItem item : items.subList(start, Math.min(items.size(), start + 25))) {
                Map<String, AttributeValue> attributes = DynamoDbLedger.ledgerAttributes(item);
                batch.add(WriteRequest.builder().putRequest(PutRequest.builder().item(attributes).build()).build());
            }
            Map<String, List<WriteRequest>> pending = Map.of(ledgerTable, batch);
            while (!pending.isEmpty()) {
                Map<String, List<WriteRequest>> request = pending;
                BatchWriteItemResponse response = dynamo.batchWriteItem(r -> r.requestItems(request));
                pending = response.hasUnprocessedItems() ? response.unprocessedItems() : Map.of();
            }
        }
    }
}
