package io.landingledger.lambda.handlers;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.lambda.OutcomeReporter;
import io.landingledger.lambda.testing.Invocations;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Event payloads S3 never sends, found by tools' KeyFuzzIT delivering generated payloads to the deployed validator:
 * each malformed record is answered (unroutable, MALFORMED_RECORD, never retried) without hiding the records beside
 * it, and a payload Lambda's serializer cannot read fails with a message that says what is wrong, not the
 * serializer's ClassNotFoundException. No record here reaches the ingest path (there is none).
 */
class MalformedS3EventTest {
    private final List<String> reported = new ArrayList<>();
    private final ValidateObjectHandler handler = new ValidateObjectHandler(
            new UnitRouter(ContractRegistry.fromDirectory(Path.of("../../datasets"))), null, new OutcomeReporter() {
                @Override
                public void outcome(IngestOutcome outcome) {
                    reported.add("outcome");
                }

                @Override
                public void unroutable(String bucket, String key, String versionId, String reason, String detail) {
                    reported.add(reason);
                }

                @Override
                public void failed(String bucket, String key, String versionId, String runId, RuntimeException fault) {
                    reported.add("failed");
                }
            }, () -> "run-1");

    private static String record(String key, String bucket) {
        return "{\"eventVersion\":\"2.1\",\"eventSource\":\"aws:s3\",\"awsRegion\":\"us-east-1\",\"eventTime\":\"2026-03-02T10:00:00.000Z\","
                + "\"eventName\":\"ObjectCreated:Put\",\"s3\":{\"s3SchemaVersion\":\"1.0\""
                + (bucket == null ? "" : ",\"bucket\":{\"name\":\"" + bucket + "\"}")
                + ",\"object\":{" + (key == null ? "" : "\"key\":\"" + key + "\",") + "\"size\":1,\"versionId\":\"v1\",\"sequencer\":\"0A\"}}}";
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> answers(String... records) {
        return (List<Map<String, Object>>) Invocations.invoke(handler, "{\"Records\":[" + String.join(",", records) + "]}", null).get("records");
    }

    @Test
    void aKeyThatIsNotUrlEncoded_isMalformedRecord_andTheOtherRecordsAreStillAnswered() {
        List<Map<String, Object>> answers = answers(record("progress_events/progress-2026-03-02.jsonl%zz", "inbox"),
                record("elsewhere/file%2B1.jsonl", "inbox"));
        assertEquals(2, answers.size(), answers.toString());
        assertEquals("MALFORMED_RECORD", answers.get(0).get("reason"));
        assertEquals("progress_events/progress-2026-03-02.jsonl%zz", answers.get(0).get("key"), "the key as it came: it cannot be decoded");
        assertTrue(((String) answers.get(0).get("detail")).contains("not URL-encoded"), answers.get(0).toString());
        assertEquals("UNKNOWN_DATASET", answers.get(1).get("reason"));
        assertEquals("elsewhere/file+1.jsonl", answers.get(1).get("key"));
        assertEquals(List.of("MALFORMED_RECORD", "UNKNOWN_DATASET"), reported, "each is logged and counted as unroutable");
    }

    @Test
    void aRecordWithNoKeyOrNoBucket_isMalformedRecord_notAFolderMarker() {
        List<Map<String, Object>> answers = answers(record(null, "inbox"), record("progress_events/progress-2026-03-02.jsonl", null));
        assertEquals(List.of("MALFORMED_RECORD", "MALFORMED_RECORD"), answers.stream().map(a -> a.get("reason")).toList(), answers.toString());
        assertTrue(((String) answers.get(0).get("detail")).contains("s3.object.key"), answers.get(0).toString());
    }

    @Test
    void aNullPayload_isAnsweredWithNoRecords_asAnEmptyOne() {
        // found by KeyFuzzIT (seed 7): the event serializer threw on JSON null, which the handler reads as no event
        for (String payload : List.of("null", " null\n", "")) {
            assertEquals(List.of(), Invocations.invoke(handler, payload, null).get("records"), "'" + payload + "'");
        }
    }

    @Test
    void aPayloadTheSerializerCannotRead_failsSayingItIsNoS3Event() {
        for (String payload : List.of("{\"Records\":[{}]}", "{\"Records\":[1]}", "[]", "not json",
                "{\"Records\":[" + record("k", "inbox").replace("\"eventTime\":\"2026-03-02T10:00:00.000Z\",", "") + "]}")) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Invocations.invoke(handler, payload, null),
                    payload);
            assertTrue(refused.getMessage().startsWith("the payload is not S3Event JSON as Lambda delivers it"), refused.getMessage());
        }
        assertEquals(List.of(), reported);
    }
}
