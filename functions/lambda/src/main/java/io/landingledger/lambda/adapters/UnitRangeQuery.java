package io.landingledger.lambda.adapters;

import io.landingledger.core.store.KeyOrder;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A dataset's items whose sort key falls in a range of units: one strongly consistent Query of the dataset's
 * partition, every page. The Ledger table's sort key is the unit itself; the Consumers table's is
 * {@code <unit>#<consumer>}, whose bounds are the units with a suffix ({@link #withBoundSuffixes}).
 */
final class UnitRangeQuery {
    private final DynamoDbClient dynamo;
    private final String table;
    private final String partitionKey;
    private final String sortKey;
    private final String fromSuffix;
    private final String toSuffix;

    UnitRangeQuery(DynamoDbClient dynamo, String table, String partitionKey, String sortKey) {
        this(dynamo, table, partitionKey, sortKey, "", "");
    }

    private UnitRangeQuery(DynamoDbClient dynamo, String table, String partitionKey, String sortKey, String fromSuffix,
                           String toSuffix) {
        this.dynamo = dynamo;
        this.table = table;
        this.partitionKey = partitionKey;
        this.sortKey = sortKey;
        this.fromSuffix = fromSuffix;
        this.toSuffix = toSuffix;
    }

    /** The same query with the lower bound {@code <from><fromSuffix>} and the upper {@code <to><toSuffix>}. */
    UnitRangeQuery withBoundSuffixes(String from, String to) {
        return new UnitRangeQuery(dynamo, table, partitionKey, sortKey, from, to);
    }

    /** The items of {@code dataset} from {@code fromUnit} to {@code toUnit} (inclusive; null for open), key order. */
    List<Map<String, AttributeValue>> items(String dataset, String fromUnit, String toUnit) {
        if (fromUnit != null && toUnit != null && KeyOrder.compare(fromUnit, toUnit) > 0) {
            // nothing is within a reversed range, and DynamoDB answers BETWEEN with a reversed range with a
            // ValidationException (moto returns no items)
            return List.of();
        }
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        values.put(":d", AttributeValue.fromS(dataset));
        String condition = "#d = :d";
        if (fromUnit != null && toUnit != null) {
            condition += " AND #k BETWEEN :from AND :to";
            values.put(":from", AttributeValue.fromS(fromUnit + fromSuffix));
            values.put(":to", AttributeValue.fromS(toUnit + toSuffix));
        } else if (fromUnit != null) {
            condition += " AND #k >= :from";
            values.put(":from", AttributeValue.fromS(fromUnit + fromSuffix));
        } else if (toUnit != null) {
            condition += " AND #k <= :to";
            values.put(":to", AttributeValue.fromS(toUnit + toSuffix));
        }
        Map<String, String> names = condition.contains("#k")
                ? Map.of("#d", partitionKey, "#k", sortKey) : Map.of("#d", partitionKey);
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            QueryRequest.Builder query = QueryRequest.builder().tableName(table).consistentRead(true)
                    .keyConditionExpression(condition).expressionAttributeNames(names).expressionAttributeValues(values);
            if (start != null) {
                query.exclusiveStartKey(start);
            }
            QueryResponse page = dynamo.query(query.build());
            items.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return items;
    }
}
