package io.landingledger.lambda.handlers;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SweepChangeHandlerTest {
    @Test
    void aLedgerStreamBatch_namesEachDatasetOnce() {
        Map<String, Object> batch = Map.of("Records", List.of(
                Map.of("eventSource", "aws:dynamodb", "dynamodb", Map.of("Keys", Map.of("dataset", Map.of("S", "progress_events"), "unit", Map.of("S", "2026-03-01")))),
                Map.of("eventSource", "aws:dynamodb", "dynamodb", Map.of("Keys", Map.of("dataset", Map.of("S", "progress_events"), "unit", Map.of("S", "2026-03-02")))),
                Map.of("eventSource", "aws:dynamodb", "dynamodb", Map.of("Keys", Map.of("dataset", Map.of("S", "transactions"), "unit", Map.of("S", "2026-10-01"))))));
        assertEquals(Set.of("progress_events", "transactions"), datasets(batch));
    }

    @Test
    void anS3NotificationThroughEventBridge_namesTheInboxDatasetOrThePublishedOne() {
        assertEquals(Set.of("progress_events"), datasets(Map.of("detail-type", "Object Created",
                "detail", Map.of("bucket", Map.of("name", "inbox"), "object", Map.of("key", "progress_events/progress-2026-03-01.jsonl")))));
        assertEquals(Set.of("transactions"), datasets(Map.of("detail-type", "Object Deleted",
                "detail", Map.of("bucket", Map.of("name", "lake"), "object", Map.of("key", "published/transactions/unit%3D2026-10-01/part-00000.jsonl")))));
        // a key under no dataset prefix, and the lake's own prefixes, name nothing
        assertEquals(Set.of(), datasets(Map.of("detail", Map.of("object", Map.of("key", "notes.txt")))));
        assertEquals(Set.of(), datasets(Map.of("detail", Map.of("object", Map.of("key", "_reports/x.json")))));
    }

    /** The event as the function reads it: its JSON through the codec. */
    private static java.util.Set<String> datasets(Map<String, ?> event) {
        return SweepChangeHandler.datasets(io.landingledger.core.json.JsonCodec.convert(event, SweepChangeHandler.ChangeEvent.class));
    }
}
