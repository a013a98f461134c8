package io.landingledger.lambda.handlers;

import com.amazonaws.services.lambda.runtime.events.S3Event;
import com.amazonaws.services.lambda.runtime.events.models.s3.S3EventNotification.S3EventNotificationRecord;
import com.amazonaws.services.lambda.runtime.tests.annotations.Event;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.ingest.UnitRouter;

import org.junit.jupiter.params.ParameterizedTest;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The S3 notification shapes in events/, exactly as S3 sends them, deserialized as Lambda does (aws-lambda-java-tests
 * {@code @Event}), decoded once and routed as the handler routes them.
 */
class S3EventShapesTest {
    private static final UnitRouter ROUTER = new UnitRouter(ContractRegistry.fromDirectory(Path.of("../../datasets")));

    private static S3EventNotificationRecord only(S3Event event) {
        assertEquals(1, event.getRecords().size());
        return event.getRecords().get(0);
    }

    @ParameterizedTest
    @Event(value = "../../events/s3-put.json", type = S3Event.class)
    void plainPut_routesToItsDatasetAndUnit(S3Event event) {
        S3EventNotificationRecord record = only(event);
        assertEquals("ObjectCreated:Put", record.getEventName());
        var route = assertInstanceOf(UnitRouter.Routed.class, ROUTER.route(record.getS3().getObject().getUrlDecodedKey()));
        assertEquals("progress_events", route.contract().dataset());
        assertEquals("2026-03-02", route.unit());
        assertNotNull(record.getS3().getObject().getSequencer());
    }

    @ParameterizedTest
    @Event(value = "../../events/s3-put-versioned.json", type = S3Event.class)
    void versionedPut_carriesTheVersionAndETagTheRunReads(S3Event event) {
        var object = only(event).getS3().getObject();
        assertEquals("UIORUnfndfiufdisojhr398493jfdkjFJjkndnqUifhnw89493jJFJ", object.getVersionId());
        assertEquals("fedcba9876543210fedcba9876543210", object.geteTag());
        assertInstanceOf(UnitRouter.Routed.class, ROUTER.route(object.getUrlDecodedKey()));
    }

    @ParameterizedTest
    @Event(value = "../../events/s3-multipart-complete.json", type = S3Event.class)
    void multipartCompletion_isACreateEventForTheGzippedDay(S3Event event) {
        S3EventNotificationRecord record = only(event);
        assertTrue(record.getEventName().startsWith("ObjectCreated:"), "the handler ingests every ObjectCreated event");
        var route = assertInstanceOf(UnitRouter.Routed.class, ROUTER.route(record.getS3().getObject().getUrlDecodedKey()));
        assertEquals("2026-03-06", route.unit());
        assertEquals(26214400L, record.getS3().getObject().getSizeAsLong());
    }

    @ParameterizedTest
    @Event(value = "../../events/s3-put-encoded-key.json", type = S3Event.class)
    void encodedKey_isDecodedOnce(S3Event event) {
        var object = only(event).getS3().getObject();
        assertEquals("progress_events/progress-2026-03-02.jsonl%3Fcopy%3D1+%28retry%29", object.getKey());
        assertEquals("progress_events/progress-2026-03-02.jsonl?copy=1 (retry)", object.getUrlDecodedKey());
        assertEquals("PATTERN_MISMATCH", assertInstanceOf(UnitRouter.Unroutable.class, ROUTER.route(object.getUrlDecodedKey())).reason());
    }

    @ParameterizedTest
    @Event(value = "../../events/s3-put-unroutable.json", type = S3Event.class)
    void keyUnderNoDataset_isUnroutable(S3Event event) {
        var route = ROUTER.route(only(event).getS3().getObject().getUrlDecodedKey());
        assertEquals("UNKNOWN_DATASET", assertInstanceOf(UnitRouter.Unroutable.class, route).reason());
    }
}
