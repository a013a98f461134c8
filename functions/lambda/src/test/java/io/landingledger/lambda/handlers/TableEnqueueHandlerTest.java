package io.landingledger.lambda.handlers;

import io.landingledger.core.table.TableMessage;
import io.landingledger.lambda.testing.Invocations;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class TableEnqueueHandlerTest {
    private static Map<String, Object> record(String sequence, String status, String dataset, String unit, String runId) {
        return Map.of("eventName", "MODIFY", "eventSource", "aws:dynamodb", "dynamodb", Map.of("SequenceNumber", sequence,
                "Keys", Map.of("dataset", Map.of("S", dataset), "unit", Map.of("S", unit)),
                "NewImage", Map.of("dataset", Map.of("S", dataset), "unit", Map.of("S", unit), "status", Map.of("S", status),
                        "run_id", Map.of("S", runId), "content_sha256", Map.of("S", "sha-" + runId),
                        "accepted", Map.of("N", "10"))));
    }

    @Test
    void eachPublishedUnitOfTheBatchIsQueuedInStreamOrderWithItsPublishIdentity() {
        List<TableMessage> sent = new ArrayList<>();
        TableEnqueueHandler handler = new TableEnqueueHandler(sent::add);
        Map<String, Object> answer = Invocations.invoke(handler, Map.of("Records", List.of(
                record("100", "PUBLISHED", "transactions", "2026-10-01", "run-1"),
                record("101", "REFUSED", "transactions", "2026-10-02", "run-2"),
                record("102", "PUBLISHED", "progress_events", "2026-03-01", "run-3"))), null);
        assertEquals(List.of(new TableMessage("transactions", "2026-10-01", "run-1", "sha-run-1"),
                new TableMessage("progress_events", "2026-03-01", "run-3", "sha-run-3")), sent);
        assertEquals(List.of("transactions/2026-10-01", "progress_events/2026-03-01"), answer.get("queued"));
        assertEquals(1, answer.get("skipped"));
        assertEquals(List.of(), answer.get("batchItemFailures"));
    }

    @Test
    void aRecordTheQueueRefusesIsTheBatchsFirstFailureAndNothingAfterItIsSent() {
        List<TableMessage> sent = new ArrayList<>();
        TableEnqueueHandler handler = new TableEnqueueHandler(message -> {
            if (message.unit().equals("2026-10-02")) {
                throw new IllegalStateException("throttled");
            }
            sent.add(message);
        });
        Map<String, Object> answer = Invocations.invoke(handler, Map.of("Records", List.of(
                record("100", "PUBLISHED", "transactions", "2026-10-01", "run-1"),
                record("101", "PUBLISHED", "transactions", "2026-10-02", "run-2"),
                record("102", "PUBLISHED", "transactions", "2026-10-03", "run-3"))), null);
        assertEquals(1, sent.size());
        assertEquals(List.of(Map.of("itemIdentifier", "101")), answer.get("batchItemFailures"));
    }

    @Test
    void aRepublishOfTheSameUnitIsANewMessageAndARepeatedRecordTheSameOne() {
        TableMessage first = new TableMessage("transactions", "2026-10-01", "run-1", "sha-1");
        assertEquals(first.deduplicationId(), new TableMessage("transactions", "2026-10-01", "run-1", "sha-1").deduplicationId());
        assertNotEquals(first.deduplicationId(), new TableMessage("transactions", "2026-10-01", "run-2", "sha-2").deduplicationId());
        assertEquals("transactions", first.groupId());
    }

    @Test
    void theWritersOwnRecordOfItsCommit_isNotQueuedAgain_butATableHoldingAnOlderPublishIs() {
        List<TableMessage> sent = new ArrayList<>();
        TableEnqueueHandler handler = new TableEnqueueHandler(sent::add);
        Map<String, Object> answer = Invocations.invoke(handler, Map.of("Records", List.of(
                withTable(record("100", "PUBLISHED", "transactions", "2026-10-01", "run-1"), "run-1"),
                withTable(record("101", "PUBLISHED", "transactions", "2026-10-02", "run-2"), "run-0"))), null);
        assertEquals(List.of(new TableMessage("transactions", "2026-10-02", "run-2", "sha-run-2")), sent);
        assertEquals(1, answer.get("skipped"));
    }

    /** {@code record} as the ledger holds it after the table writer recorded the publish of {@code tableRun}. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> withTable(Map<String, Object> record, String tableRun) {
        Map<String, Object> dynamodb = new java.util.HashMap<>((Map<String, Object>) record.get("dynamodb"));
        Map<String, Object> image = new java.util.HashMap<>((Map<String, Object>) dynamodb.get("NewImage"));
        image.put("table_run_id", Map.of("S", tableRun));
        image.put("table_content_sha256", Map.of("S", "sha-" + tableRun));
        image.put("table_snapshot_id", Map.of("N", "42"));
        dynamodb.put("NewImage", image);
        Map<String, Object> copy = new java.util.HashMap<>(record);
        copy.put("dynamodb", dynamodb);
        return copy;
    }
}
