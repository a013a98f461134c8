package io.landingledger.lambda.handlers;

import io.landingledger.lambda.testing.Invocations;
import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.consumers.ConsumerReceipt;
import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.lambda.adapters.DynamoDbConsumerReceipts;
import io.landingledger.lambda.testing.AwsEmulators;
import io.landingledger.lambda.testing.PipelineFixture;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The receipt function on DynamoDB (the embedded emulator): the sample UnitConsumed event as EventBridge delivers it
 * (deserialized into the handler's Map, as the Lambda runtime does), a late older receipt, and the sweep reading the
 * table.
 */
@ExtendWith(AwsEmulators.class)
class ConsumerReceiptHandlerIT {
    private final PipelineFixture pipeline;
    private DynamoDbConsumerReceipts receipts;
    private ConsumerReceiptHandler handler;

    ConsumerReceiptHandlerIT(PipelineFixture pipeline) {
        this.pipeline = pipeline;
    }

    @BeforeEach
    void setUp() {
        receipts = new DynamoDbConsumerReceipts(pipeline.dynamo, pipeline.resources.consumersTable());
        handler = new ConsumerReceiptHandler(ContractRegistry.fromDirectory(PipelineFixture.REPOSITORY.resolve("datasets")), receipts);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> sample() throws Exception {
        return (Map<String, Object>) (Map<?, ?>) JSON.std.mapFrom(Files.readString(PipelineFixture.REPOSITORY.resolve("events/unit-consumed.json")));
    }

    @Test
    @SuppressWarnings("unchecked")
    void aReceiptNamingATableSnapshot_keepsIt_andANonPositiveSnapshotIsRefused() throws Exception {
        Map<String, Object> event = new HashMap<>(sample());
        Map<String, Object> detail = new HashMap<>((Map<String, Object>) event.get("detail"));
        detail.put("snapshot", 3051729675574597004L);
        event.put("detail", detail);
        Map<String, Object> result = Invocations.invoke(handler, event, null);
        assertEquals(true, result.get("recorded"), result.toString());
        assertEquals(3051729675574597004L, ((Number) result.get("snapshot")).longValue());
        assertEquals(3051729675574597004L, receipts.forUnits("progress_events", "2026-03-02", "2026-03-02").get(0).snapshot());

        detail.put("snapshot", 0);
        detail.put("consumed_at", "2026-03-05T00:00:00Z");
        Map<String, Object> refused = Invocations.invoke(handler, event, null);
        assertEquals(false, refused.get("recorded"));
        assertEquals("INVALID_EVENT", refused.get("reason"));
        assertEquals(3051729675574597004L, receipts.forUnits("progress_events", "2026-03-02", "2026-03-02").get(0).snapshot());
    }

    @Test
    void theSampleEvent_isStored_andALateOlderReceiptNeverReplacesIt() throws Exception {
        Map<String, Object> event = sample();
        Map<String, Object> result = Invocations.invoke(handler, event, null);
        assertEquals(true, result.get("recorded"), result.toString());
        assertEquals(List.of(new ConsumerReceipt("progress_events", "2026-03-02", "mart", "5f0c2a9e-7d41-4b8e-8c3a-1e6b9d2f4a70",
                java.time.Instant.parse("2026-03-03T07:02:40.118Z"))), receipts.forUnits("progress_events", "2026-03-01", "2026-03-02"));

        // an older receipt (read the day before) delivered late: refused by the condition, the newer one stands
        Map<String, Object> older = new HashMap<>(event);
        Map<String, Object> detail = new HashMap<>((Map<String, Object>) event.get("detail"));
        detail.put("publish", "an-older-run");
        detail.put("consumed_at", "2026-03-02T07:00:00Z");
        older.put("detail", detail);
        Map<String, Object> late = Invocations.invoke(handler, older, null);
        assertEquals(false, late.get("recorded"));
        assertEquals("OLDER_THAN_STORED", late.get("reason"));
        assertEquals("5f0c2a9e-7d41-4b8e-8c3a-1e6b9d2f4a70", receipts.forUnits("progress_events", null, null).get(0).publish());

        // without consumed_at the event's time is the receipt's; a newer one replaces the stored receipt
        detail.remove("consumed_at");
        detail.put("publish", "a-newer-run");
        older.put("time", "2026-03-04T00:00:00Z");
        assertEquals(true, Invocations.invoke(handler, older, null).get("recorded"));
        assertEquals("a-newer-run", receipts.forUnits("progress_events", "2026-03-02", "2026-03-02").get(0).publish());
        // another dataset's range and another unit's: not returned
        assertEquals(List.of(), receipts.forUnits("progress_events", "2026-03-03", "2026-03-09"));
        assertEquals(List.of(), receipts.forUnits("transactions", null, null));
    }

    @Test
    void invalidEvents_areDroppedWithAReason_notThrown() throws Exception {
        for (String[] change : new String[][] {{"dataset", "nope"}, {"unit", "2026-13-45"}, {"consumer", "has space"}, {"publish", ""}}) {
            Map<String, Object> event = sample();
            @SuppressWarnings("unchecked")
            Map<String, Object> detail = new HashMap<>((Map<String, Object>) event.get("detail"));
            detail.put(change[0], change[1]);
            event.put("detail", detail);
            assertEquals("INVALID_EVENT", Invocations.invoke(handler, event, null).get("reason"), change[0]);
        }
        assertEquals(List.of(), receipts.forUnits("progress_events", null, null));
    }

    @Test
    void theSweep_namesTheConsumerBehindARestatement() throws Exception {
        pipeline.deliver(pipeline.eventFor(pipeline.putExample("progress_events", "progress-2026-03-01.jsonl")));
        String firstRun = pipeline.ledger.get("progress_events", "2026-03-01").orElseThrow().runId();
        receipts.record(new ConsumerReceipt("progress_events", "2026-03-01", "mart", firstRun, java.time.Instant.now()));
        var sweep = new io.landingledger.core.sweep.CompletenessSweep(pipeline.store, pipeline.ledger,
                pipeline.service(io.landingledger.core.ingest.IngestService.StepListener.NONE),
                new io.landingledger.core.ingest.UnitRouter(pipeline.contracts()), pipeline.inbox(), pipeline.lake(),
                java.time.Clock.systemUTC(), () -> java.util.UUID.randomUUID().toString(), receipts);
        assertEquals(Map.of(), sweep.sweep(pipeline.contracts().get("progress_events").orElseThrow(), "2026-03-01", "2026-03-01").consumersBehind());
        // a restatement: a new input of the unit, published anew
        String firstLine = Files.readAllLines(PipelineFixture.REPOSITORY.resolve("examples/inbox/progress_events/progress-2026-03-01.jsonl")).get(0);
        pipeline.deliver(pipeline.eventFor(pipeline.put("progress_events/progress-2026-03-01.jsonl",
                (firstLine + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        DatasetReport report = sweep.sweep(pipeline.contracts().get("progress_events").orElseThrow(), "2026-03-01", "2026-03-01");
        assertEquals(Map.of("mart", List.of("2026-03-01")), report.consumersBehind());
        assertEquals(1, report.metrics().get("UnitsBehindConsumers").value());
    }
}
