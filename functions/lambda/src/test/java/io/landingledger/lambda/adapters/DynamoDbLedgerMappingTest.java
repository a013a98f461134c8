package io.landingledger.lambda.adapters;

import io.landingledger.core.ledger.LedgerItem;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Items written before publishes carried a content hash still read, and read conservatively. */
class DynamoDbLedgerMappingTest {

    private static Map<String, AttributeValue> legacyItem(long publishCount) {
        return Map.of("dataset", AttributeValue.fromS("progress_events"), "unit", AttributeValue.fromS("2026-03-01"),
                "status", AttributeValue.fromS("PUBLISHED"), "published_key", AttributeValue.fromS("published/x"),
                "published_etag", AttributeValue.fromS("\"e\""), "accepted", AttributeValue.fromN("12"),
                "publish_count", AttributeValue.fromN(Long.toString(publishCount)), "revision", AttributeValue.fromN("4"));
    }

    @Test
    void anItemWithoutRestatements_readsEveryLaterPublishAsARestatement_andNoContentHash() {
        LedgerItem twice = DynamoDbLedger.toItem(legacyItem(2));
        assertEquals(1, twice.restatements(), "whether its second publish changed the rows is not known: it may have");
        assertTrue(twice.restated());
        assertNull(twice.published().contentSha256());
        assertNull(twice.contentRunId());
        assertEquals(0, DynamoDbLedger.toItem(legacyItem(1)).restatements());
    }

    @Test
    void theContentAttributes_areNamedInTheUpdate_soAWriteRemovesWhatIsGone() {
        assertTrue(DynamoDbLedger.LEDGER_ATTRIBUTES.containsAll(java.util.List.of("content_sha256", "restatements", "content_run_id",
                "content_published_at", "empty_accepted", "volume_accepted")));
    }

    @Test
    void theTableAttributes_areNeverNamedByAWrite_soEveryWriteKeepsThem_andAnItemWithoutThemHasNoTableState() {
        for (String table : DynamoDbLedger.TABLE_ATTRIBUTES) {
            assertFalse(DynamoDbLedger.LEDGER_ATTRIBUTES.contains(table), table);
        }
        assertFalse(String.join(" ", DynamoDbLedger.LEDGER_ATTRIBUTES).contains("table_"));
        assertNull(DynamoDbLedger.toItem(legacyItem(1)).table());
    }
}
