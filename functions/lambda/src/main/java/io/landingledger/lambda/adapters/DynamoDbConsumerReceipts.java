package io.landingledger.lambda.adapters;

import io.landingledger.core.consumers.ConsumerReceipt;
import io.landingledger.core.consumers.ConsumerReceipts;
import io.landingledger.core.store.KeyOrder;
import io.landingledger.lambda.ConsumersTable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@link ConsumerReceipts} on the {@code Consumers} table ({@link ConsumersTable}). {@link #record} is one conditional
 * PutItem: written only when no receipt of the (dataset, unit, consumer) is stored or the stored one was consumed
 * earlier ({@code consumed_at_ms}), so a late older receipt never replaces a newer one. {@link #forUnits} is one
 * strongly consistent Query (paged) of the dataset's partition over {@code <from>#} .. {@code <to>#\uffff}.
 */
public final class DynamoDbConsumerReceipts implements ConsumerReceipts {
    private final DynamoDbClient dynamo;
    private final String table;
    private final UnitRangeQuery units;

    public DynamoDbConsumerReceipts(DynamoDbClient dynamo, String table) {
        this.dynamo = Objects.requireNonNull(dynamo);
        this.table = Objects.requireNonNull(table);
        // sort keys <unit>#<consumer>: a unit's receipts lie between <unit># and <unit>#\uffff
        this.units = new UnitRangeQuery(dynamo, table, ConsumersTable.PARTITION_KEY, ConsumersTable.SORT_KEY)
                .withBoundSuffixes("#", "#\uffff");
    }

    @Override
    public boolean record(ConsumerReceipt receipt) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put(ConsumersTable.PARTITION_KEY, s(receipt.dataset()));
        item.put(ConsumersTable.SORT_KEY, s(receipt.unit() + "#" + receipt.consumer()));
        item.put("unit", s(receipt.unit()));
        item.put("consumer", s(receipt.consumer()));
        item.put("publish", s(receipt.publish()));
        item.put("consumed_at", s(receipt.consumedAt().toString()));
        item.put("consumed_at_ms", AttributeValue.fromN(Long.toString(receipt.consumedAt().toEpochMilli())));
        if (receipt.snapshot() != null) {
            item.put("snapshot", AttributeValue.fromN(Long.toString(receipt.snapshot())));
        }
        try {
            dynamo.putItem(PutItemRequest.builder().tableName(table).item(item)
                    .conditionExpression("attribute_not_exists(#sk) OR #ms < :ms")
                    .expressionAttributeNames(Map.of("#sk", ConsumersTable.SORT_KEY, "#ms", "consumed_at_ms"))
                    .expressionAttributeValues(Map.of(":ms", item.get("consumed_at_ms")))
                    .build());
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false; // a receipt consumed as late or later stands
        }
    }

    @Override
    public List<ConsumerReceipt> forUnits(String dataset, String fromUnit, String toUnit) {
        List<ConsumerReceipt> receipts = new ArrayList<>();
        for (Map<String, AttributeValue> item : units.items(dataset, fromUnit, toUnit)) {
            String unit = item.get("unit").s();
            // <unit>#... bounds also take in longer unit names that share the prefix: keep the range's own
            if ((fromUnit == null || KeyOrder.compare(unit, fromUnit) >= 0) && (toUnit == null || KeyOrder.compare(unit, toUnit) <= 0)) {
                AttributeValue snapshot = item.get("snapshot");
                receipts.add(new ConsumerReceipt(dataset, unit, item.get("consumer").s(), item.get("publish").s(),
                        Instant.parse(item.get("consumed_at").s()), snapshot == null ? null : Long.valueOf(snapshot.n())));
            }
        }
        return receipts;
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}
