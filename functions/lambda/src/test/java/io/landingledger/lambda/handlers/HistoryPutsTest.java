package io.landingledger.lambda.handlers;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The wire check of issue 30's finding 5 finds a history put that could replace an item, and only such a put. */
class HistoryPutsTest {
    private static final String HISTORY = "LedgerHistory";

    @Test
    void aPutUnderBothKeysAttributeNotExists_passes_asWrittenOrWithNames() {
        assertEquals(new HistoryPuts.Checked(2, List.of()), HistoryPuts.check(List.of(
                put("{\"TableName\":\"LedgerHistory\",\"ConditionExpression\":\"" + HistoryPuts.CREATE_ONLY + "\"}"),
                put("{\"TableName\":\"LedgerHistory\","
                        + "\"ConditionExpression\":\"attribute_not_exists(#p) AND attribute_not_exists(#s)\","
                        + "\"ExpressionAttributeNames\":{\"#p\":\"dataset_unit\",\"#s\":\"at_run\"}}")), HISTORY));
    }

    @Test
    void anUnconditionalOrWeakerPut_isAFinding_inATransactionToo() {
        HistoryPuts.Checked checked = HistoryPuts.check(List.of(
                put("{\"TableName\":\"LedgerHistory\"}"),
                put("{\"TableName\":\"LedgerHistory\",\"ConditionExpression\":\"" + HistoryPuts.CREATE_ONLY
                        + " OR attribute_exists(x)\"}"),
                call(TransactWriteItemsRequest.builder().build(),
                        "{\"TransactItems\":[{\"Update\":{\"TableName\":\"Ledger\"}},"
                        + "{\"Put\":{\"TableName\":\"LedgerHistory\","
                        + "\"ConditionExpression\":\"attribute_not_exists(at_run) OR size(x) > 0\"}}]}")),
                HISTORY);
        assertEquals(3, checked.puts());
        assertEquals(3, checked.findings().size(), checked.findings().toString());
        assertTrue(checked.findings().get(2).startsWith("TransactWriteItems at "), checked.findings().get(2));
    }

    @Test
    void putsOnOtherTables_areNotHistoryPuts() {
        assertEquals(new HistoryPuts.Checked(0, List.of()),
                HistoryPuts.check(List.of(put("{\"TableName\":\"Consumers\"}")), HISTORY));
    }

    private static RecordedCalls.Call put(String body) {
        return call(PutItemRequest.builder().build(), body);
    }

    private static RecordedCalls.Call call(SdkRequest request, String body) {
        return new RecordedCalls.Call(request, "Adapter.method", 200, new RecordedCalls.Http("dynamodb", "POST", "/",
                Map.of(), Map.of(), body.getBytes(StandardCharsets.UTF_8)));
    }
}
