package io.landingledger.tables;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;

import io.landingledger.core.table.TableMessage;
import io.landingledger.core.table.TableWriteResult;
import io.landingledger.core.table.TableWriteResult.Outcome;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The handler over a scripted writer: the core's TableWriter decides; the handler maps messages and failures. */
class TableWriterHandlerTest {

    private static SQSEvent.SQSMessage message(String id, String body) {
        SQSEvent.SQSMessage message = new SQSEvent.SQSMessage();
        message.setMessageId(id);
        message.setBody(body);
        return message;
    }

    private static SQSEvent event(SQSEvent.SQSMessage... messages) {
        SQSEvent event = new SQSEvent();
        event.setRecords(List.of(messages));
        return event;
    }

    private static String body(String unit) {
        return new TableMessage("payments", unit, "run-1", "sha-1").toJson();
    }

    @Test
    void writesEachUnitAndReportsNoFailureWhenEveryWriteSettles() {
        List<String> written = new ArrayList<>();
        TableWriterHandler handler = new TableWriterHandler((dataset, unit) -> {
            written.add(dataset + "/" + unit);
            return switch (unit) {
                case "2026-10-01" -> new TableWriteResult(Outcome.COMMITTED, 7L, null);
                case "2026-10-02" -> new TableWriteResult(Outcome.IN_STEP, 5L, null);
                case "2026-10-03" -> new TableWriteResult(Outcome.RECOVERED, 6L, null);
                default -> new TableWriteResult(Outcome.SKIPPED, null, "NOT_PUBLISHED");
            };
        });

        TableWriterHandler.BatchResponse response = handler.handle(event(message("m1", body("2026-10-01")),
                message("m2", body("2026-10-02")), message("m3", body("2026-10-03")),
                message("m4", body("2026-10-04"))),
                null);

        assertEquals(List.of(), response.batchItemFailures());
        assertEquals(List.of("payments/2026-10-01", "payments/2026-10-02", "payments/2026-10-03",
                "payments/2026-10-04"), written);
    }

    @Test
    void aFailedUnitAndEveryMessageAfterItAreDeliveredAgain() {
        List<String> written = new ArrayList<>();
        TableWriterHandler handler = new TableWriterHandler((dataset, unit) -> {
            written.add(unit);
            return unit.equals("2026-10-02") ? new TableWriteResult(Outcome.FAILED, null, "CATALOG_UNAVAILABLE")
                    : new TableWriteResult(Outcome.COMMITTED, 1L, null);
        });

        TableWriterHandler.BatchResponse response = handler.handle(event(message("m1", body("2026-10-01")),
                message("m2", body("2026-10-02")), message("m3", body("2026-10-03"))), null);

        assertEquals(List.of("m2", "m3"), ids(response));
        assertEquals(List.of("2026-10-01", "2026-10-02"), written, "a FIFO batch stops at its first failure");
    }

    @Test
    void aWriterThatThrowsOrAnUnreadableMessageIsABatchItemFailure() {
        TableWriterHandler throwing = new TableWriterHandler((dataset, unit) -> {
            throw new IllegalStateException("catalog down");
        });
        assertEquals(List.of("m1"), ids(throwing.handle(event(message("m1", body("2026-10-01"))), null)));

        TableWriterHandler fine = new TableWriterHandler((dataset, unit) ->
                new TableWriteResult(Outcome.COMMITTED, 1L, null));
        assertEquals(List.of("m1", "m2"), ids(fine.handle(event(message("m1", "{\"unit\":\"2026-10-01\"}"),
                message("m2", body("2026-10-02"))), null)));
        assertEquals(List.of(), ids(fine.handle(new SQSEvent(), null)));
    }

    @Test
    void answersLambdaInThePartialBatchShape() throws IOException {
        TableWriterHandler handler = new TableWriterHandler((dataset, unit) ->
                new TableWriteResult(Outcome.FAILED, null, "X"));
        String event = """
                {"Records":[{"messageId":"m-9","receiptHandle":"r","body":%s,
                "attributes":{"ApproximateReceiveCount":"1"},"messageAttributes":{},"md5OfBody":"x",
                "eventSource":"aws:sqs","eventSourceARN":"arn:aws:sqs:us-east-1:1:q.fifo",
                "awsRegion":"us-east-1"}]}
                """.formatted(io.landingledger.core.json.JsonCodec.writeString(body("2026-10-01")));
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        handler.handleRequest(new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)), out, null);

        assertEquals(Map.of("batchItemFailures", List.of(Map.of("itemIdentifier", "m-9"))),
                com.fasterxml.jackson.jr.ob.JSON.std.mapFrom(out.toString(StandardCharsets.UTF_8)));
    }

    @Test
    void theFunctionsInitNamesTheCatalogVariableItLacks() {
        Map<String, String> environment = Map.of("INBOX_BUCKET", "inbox", "LAKE_BUCKET", "lake",
                "LEDGER_TABLE", "ledger",
                "LEDGER_HISTORY_TABLE", "history", "AWS_REGION", "us-east-1");

        IllegalStateException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> new TableWriterHandler(environment, System.out));

        assertEquals("TABLE_CATALOG_URI is not set; infra/template.yaml sets it on the table writer function",
                refused.getMessage());
    }

    private static List<String> ids(TableWriterHandler.BatchResponse response) {
        return response.batchItemFailures().stream()
                .map(TableWriterHandler.BatchResponse.ItemFailure::itemIdentifier).toList();
    }
}
