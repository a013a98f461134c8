package io.landingledger.lambda.handlers;

import io.landingledger.lambda.testing.Invocations;
import com.amazonaws.services.lambda.runtime.events.S3Event;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;

import io.landingledger.core.ingest.IngestAction;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ledger.AttemptOutcome;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.lambda.testing.AwsEmulators;
import io.landingledger.lambda.testing.PipelineFixture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.landingledger.lambda.testing.ProgressEventLines.largeCanonicalDay;
import static io.landingledger.lambda.testing.ProgressEventLines.checkpoint;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The publish protocol end to end, through the handler Lambda runs, on S3Proxy and moto_server: idempotency,
 * the late row, the crash table, concurrency, refusals and the exact conditional requests (docs/design.md section 2).
 */
@ExtendWith(AwsEmulators.class)
class ValidateObjectHandlerIT {
    private final PipelineFixture pipeline;

    ValidateObjectHandlerIT(PipelineFixture pipeline) {
        this.pipeline = pipeline;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> records(Map<String, Object> response) {
        return (List<Map<String, Object>>) response.get("records");
    }

    @Test
    void handleRequest_replayedFiveTimes_leavesTheSnapshotOfOneRunAndWritesNothing() throws Exception {
        var upload = pipeline.putExample("progress_events", "progress-2026-03-02.jsonl");
        S3Event event = pipeline.eventFor(upload);

        assertEquals("published", records(pipeline.deliver(event)).get(0).get("action"));
        String afterOne = pipeline.snapshot();
        pipeline.requests.clear();
        for (int i = 0; i < 5; i++) {
            assertEquals("skipped", records(pipeline.deliver(event)).get(0).get("action"));
        }
        assertEquals(List.of(), pipeline.requests.writes(), "a pure skip writes nothing at all");
        assertEquals(afterOne, pipeline.snapshot());

        LedgerItem item = pipeline.ledgerItem("progress_events", "2026-03-02");
        assertEquals(LedgerStatus.PUBLISHED, item.status());
        assertEquals(1, item.publishCount());
        assertEquals(11, item.published().accepted());
        assertEquals(1, item.published().duplicates());
        assertEquals(upload.versionId(), item.input().versionId());
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX), "staging is cleaned up");
        assertEquals(0, pipeline.openMultipartUploads());
        String published = new String(pipeline.published("progress_events", "2026-03-02"), StandardCharsets.UTF_8);
        assertEquals(11, published.lines().count());
        assertTrue(published.contains("\"event_id\":\"evt_20260302_late_0001\""), "the late row stays with the file that delivered it");
    }

    @Test
    void handleRequest_publishedObject_carriesTheProtocolMetadata() throws Exception {
        var upload = pipeline.putExample("progress_events", "progress-2026-03-03.jsonl");
        pipeline.deliver(pipeline.eventFor(upload));
        var head = pipeline.s3.headObject(r -> r.bucket(pipeline.lake()).key(LakeLayout.publishedKey("progress_events", "2026-03-03")));
        Map<String, String> metadata = head.metadata();
        LedgerItem item = pipeline.ledgerItem("progress_events", "2026-03-03");
        assertEquals(item.input().sha256(), metadata.get("input-sha256"));
        assertEquals(upload.versionId(), metadata.get("input-version-id"));
        assertEquals(item.runId(), metadata.get("run-id"));
        assertEquals("1", metadata.get("contract-version"));
        assertEquals("8", metadata.get("accepted"));
        assertEquals("3", metadata.get("rejected"));
        assertEquals(PipelineFixture.unquote(head.eTag()), item.publishedEtag());
        String quarantine = new String(pipeline.s3.getObjectAsBytes(r -> r.bucket(pipeline.lake()).key(item.published().quarantineKey())).asByteArray(),
                StandardCharsets.UTF_8);
        assertEquals(3, quarantine.lines().count());
        assertTrue(quarantine.contains("\"reason\":\"TIMESTAMP_NO_OFFSET\""));
    }

    @Test
    void handleRequest_lateRowOfSeed001_staysInTheBatchThatDeliveredItAcrossReruns() throws Exception {
        var first = pipeline.putExample("transactions", "transactions-2026-10-01.csv");
        var second = pipeline.putExample("transactions", "transactions-2026-10-02.csv");
        pipeline.deliver(pipeline.eventFor(first, second));
        String before = pipeline.snapshot();
        // rerun either day, in either order
        pipeline.deliver(pipeline.eventFor(second));
        pipeline.deliver(pipeline.eventFor(first));
        pipeline.deliver(pipeline.eventFor(second, first));
        assertEquals(before, pipeline.snapshot());
        String day1 = new String(pipeline.published("transactions", "2026-10-01"), StandardCharsets.UTF_8);
        String day2 = new String(pipeline.published("transactions", "2026-10-02"), StandardCharsets.UTF_8);
        assertEquals(4, day1.lines().count());
        assertEquals(5, day2.lines().count());
        assertTrue(!day1.contains("T-0105") && day2.contains("{\"account_id\":\"A-004\",\"amount\":52.75,\"batch_date\":\"2026-10-02\","
                + "\"business_date\":\"2026-10-01\",\"txn_id\":\"T-0105\"}"), day2);
    }

    @ParameterizedTest
    @EnumSource(IngestService.Step.class)
    void handleRequest_crashAfterEachStep_thenRedelivery_endsInExactlyOnePublish(IngestService.Step crashAfter) throws Exception {
        var upload = pipeline.putExample("progress_events", "progress-2026-03-01.jsonl");
        S3Event event = pipeline.eventFor(upload);
        AtomicBoolean crashed = new AtomicBoolean();
        ValidateObjectHandler crashing = pipeline.handler((step, unit) -> {
            if (step == crashAfter && crashed.compareAndSet(false, true)) {
                throw new IllegalStateException("simulated crash after " + step);
            }
        });
        assertThrows(IllegalStateException.class, () -> Invocations.invoke(crashing, event, null));

        Map<String, Object> retry = records(pipeline.deliver(event)).get(0);
        String expected = switch (crashAfter) {
            case STAGED -> "published";        // orphan staging only: the retry does the work with a new run id
            case PROMOTED -> "finished";       // published object carries our input: the retry writes the ledger
            case LEDGER_WRITTEN -> "skipped";  // done: the retry skips
        };
        assertEquals(expected, retry.get("action"));
        LedgerItem item = pipeline.ledgerItem("progress_events", "2026-03-01");
        var head = pipeline.s3.headObject(r -> r.bucket(pipeline.lake()).key(LakeLayout.publishedKey("progress_events", "2026-03-01")));
        assertEquals(PipelineFixture.unquote(head.eTag()), item.publishedEtag(), "the ledger vouches for what S3 holds");
        assertEquals(1, item.publishCount());
        assertEquals(1, pipeline.history("progress_events", "2026-03-01").size());
        assertEquals(12, item.published().accepted());
        assertEquals(0, pipeline.openMultipartUploads());
    }

    @Test
    void handleRequest_eightConcurrentDeliveries_promoteOnce() throws Exception {
        var upload = pipeline.putExample("progress_events", "progress-2026-03-01.jsonl");
        S3Event event = pipeline.eventFor(upload);
        ExecutorService threads = Executors.newFixedThreadPool(8);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Map<String, Object>>> results = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                ValidateObjectHandler handler = pipeline.handler();
                results.add(threads.submit(() -> {
                    start.await();
                    return records(Invocations.invoke(handler, event, null)).get(0);
                }));
            }
            start.countDown();
            List<String> actions = new ArrayList<>();
            for (Future<Map<String, Object>> result : results) {
                actions.add((String) result.get().get("action"));
            }
            assertEquals(1, actions.stream().filter("published"::equals).count(), actions.toString());
            assertTrue(actions.stream().allMatch(a -> a.equals("published") || a.equals("skipped") || a.equals("finished")), actions.toString());
        } finally {
            threads.shutdownNow();
        }
        LedgerItem item = pipeline.ledgerItem("progress_events", "2026-03-01");
        var head = pipeline.s3.headObject(r -> r.bucket(pipeline.lake()).key(LakeLayout.publishedKey("progress_events", "2026-03-01")));
        assertEquals(item.runId(), head.metadata().get("run-id"), "the ledger records the run whose promote won");
        assertEquals(1, item.publishCount());
        assertEquals(1, pipeline.history("progress_events", "2026-03-01").size());
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX));
        assertEquals(0, pipeline.openMultipartUploads());
    }

    @Test
    void handleRequest_twoVersionsConcurrentlyAndInReverse_publishesTheNewerAndCallsTheOlderStale() throws Exception {
        var older = pipeline.put("progress_events/progress-2026-03-09.jsonl", bytes(checkpoint("e1", "2026-03-09T01:00:00Z")));
        var newer = pipeline.put("progress_events/progress-2026-03-09.jsonl", bytes(checkpoint("e1", "2026-03-09T02:00:00Z") + checkpoint("e2", "2026-03-09T03:00:00Z")));
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch start = new CountDownLatch(1);
            Callable<Map<String, Object>> deliverOlder = () -> {
                start.await();
                return records(Invocations.invoke(pipeline.handler(), pipeline.eventFor(older), null)).get(0);
            };
            Callable<Map<String, Object>> deliverNewer = () -> {
                start.await();
                return records(Invocations.invoke(pipeline.handler(), pipeline.eventFor(newer), null)).get(0);
            };
            Future<Map<String, Object>> a = threads.submit(deliverNewer);
            Future<Map<String, Object>> b = threads.submit(deliverOlder);
            start.countDown();
            a.get();
            b.get();
        } finally {
            threads.shutdownNow();
        }
        // and once more in reverse order, after the fact
        assertEquals("stale", records(pipeline.deliver(pipeline.eventFor(older))).get(0).get("action"));
        assertEquals("skipped", records(pipeline.deliver(pipeline.eventFor(newer))).get(0).get("action"));
        LedgerItem item = pipeline.ledgerItem("progress_events", "2026-03-09");
        assertEquals(newer.versionId(), item.input().versionId());
        assertEquals(2, new String(pipeline.published("progress_events", "2026-03-09"), StandardCharsets.UTF_8).lines().count());
    }

    @Test
    void handleRequest_refusedFile_keepsThePreviousPublishAndARepairedFileRepublishesWithIfMatch() throws Exception {
        String key = "progress_events/progress-2026-03-05.jsonl";
        var good = pipeline.put(key, bytes(checkpoint("e1", "2026-03-05T01:00:00Z")));
        pipeline.deliver(pipeline.eventFor(good));
        byte[] before = pipeline.published("progress_events", "2026-03-05");
        String etagBefore = pipeline.ledgerItem("progress_events", "2026-03-05").publishedEtag();

        var leaked = pipeline.put(key, pipeline.putExampleBytes("progress_events", "progress-2026-03-05.jsonl"));
        Map<String, Object> refused = records(pipeline.deliver(pipeline.eventFor(leaked))).get(0);
        assertEquals("refused", refused.get("action"));
        assertEquals("PROHIBITED_FIELD", refused.get("refusal"));
        assertArrayEquals(before, pipeline.published("progress_events", "2026-03-05"), "a refusal never changes published/");
        LedgerItem afterRefusal = pipeline.ledgerItem("progress_events", "2026-03-05");
        assertEquals(LedgerStatus.PUBLISHED, afterRefusal.status());
        assertEquals(etagBefore, afterRefusal.publishedEtag());
        assertEquals(AttemptOutcome.REFUSED, afterRefusal.lastAttempt().outcome());
        assertEquals(leaked.versionId(), afterRefusal.lastAttempt().inputVersionId());
        assertTrue(!pipeline.snapshot().contains("learner.1007@example.com"), "the prohibited value reached the lake or the ledger");
        // replaying the refused event changes nothing
        pipeline.requests.clear();
        assertEquals("skipped", records(pipeline.deliver(pipeline.eventFor(leaked))).get(0).get("action"));
        assertEquals(List.of(), pipeline.requests.writes());

        pipeline.requests.clear();
        var repaired = pipeline.put(key, bytes(checkpoint("e1", "2026-03-05T01:00:00Z") + checkpoint("e2", "2026-03-05T02:00:00Z")));
        assertEquals("published", records(pipeline.deliver(pipeline.eventFor(repaired))).get(0).get("action"));
        LedgerItem after = pipeline.ledgerItem("progress_events", "2026-03-05");
        assertEquals(2, after.publishCount());
        assertEquals(repaired.versionId(), after.input().versionId());
        List<CompleteMultipartUploadRequest> promotes = pipeline.requests.of(CompleteMultipartUploadRequest.class).stream()
                .filter(r -> r.key().startsWith(LakeLayout.PUBLISHED_PREFIX)).toList();
        assertEquals(1, promotes.size());
        assertEquals("\"" + etagBefore + "\"", promotes.get(0).ifMatch());
        assertNull(promotes.get(0).ifNoneMatch());
        List<String> actions = pipeline.history("progress_events", "2026-03-05").stream().map(HistoryEntry::action).toList();
        assertEquals(List.of("PUBLISHED", "REFUSED", "PUBLISHED"), actions);
    }

    @Test
    void handleRequest_firstPublish_sendsIfNoneMatchAndTheLedgerConditionsOfDesign() throws Exception {
        var upload = pipeline.putExample("progress_events", "progress-2026-03-01.jsonl");
        pipeline.deliver(pipeline.eventFor(upload));
        List<CompleteMultipartUploadRequest> promotes = pipeline.requests.of(CompleteMultipartUploadRequest.class).stream()
                .filter(r -> r.key().startsWith(LakeLayout.PUBLISHED_PREFIX)).toList();
        assertEquals(1, promotes.size());
        assertEquals("*", promotes.get(0).ifNoneMatch());
        assertNull(promotes.get(0).ifMatch());
        List<TransactWriteItemsRequest> transactions = pipeline.requests.of(TransactWriteItemsRequest.class);
        assertEquals(1, transactions.size());
        var items = transactions.get(0).transactItems();
        assertEquals(2, items.size());
        assertEquals("attribute_not_exists(revision)", items.get(0).update().conditionExpression());
        assertEquals(pipeline.resources.ledgerTable(), items.get(0).update().tableName());
        assertEquals("attribute_not_exists(dataset_unit) AND attribute_not_exists(at_run)",
                items.get(1).put().conditionExpression());
        assertEquals(pipeline.resources.ledgerHistoryTable(), items.get(1).put().tableName());

        // a second input for the unit: the promote is conditioned on the ETag just read, the ledger write on the
        // revision read (whatever the item's status), never on an ETag, which two publishes of the same rows share
        String etag = pipeline.ledgerItem("progress_events", "2026-03-01").publishedEtag();
        long revision = pipeline.ledgerItem("progress_events", "2026-03-01").revision();
        pipeline.requests.clear();
        var second = pipeline.put(upload.key(), bytes(checkpoint("e1", "2026-03-01T01:00:00Z")));
        pipeline.deliver(pipeline.eventFor(second));
        var update = pipeline.requests.of(TransactWriteItemsRequest.class).get(0).transactItems().get(0).update();
        assertEquals("revision = :expected_revision", update.conditionExpression());
        assertEquals(Long.toString(revision), update.expressionAttributeValues().get(":expected_revision").n());
        List<CompleteMultipartUploadRequest> second2 = pipeline.requests.of(CompleteMultipartUploadRequest.class).stream()
                .filter(r -> r.key().startsWith(LakeLayout.PUBLISHED_PREFIX)).toList();
        assertEquals("\"" + etag + "\"", second2.get(0).ifMatch());
    }

    @Test
    void handleRequest_ledgerPointingAtAMissingObject_republishes() throws Exception {
        var upload = pipeline.putExample("progress_events", "progress-2026-03-01.jsonl");
        S3Event event = pipeline.eventFor(upload);
        pipeline.deliver(event);
        pipeline.s3.deleteObject(r -> r.bucket(pipeline.lake()).key(LakeLayout.publishedKey("progress_events", "2026-03-01")));
        Map<String, Object> again = records(pipeline.deliver(event)).get(0);
        assertTrue(List.of("published", "finished").contains(again.get("action")), again.toString());
        var head = pipeline.s3.headObject(r -> r.bucket(pipeline.lake()).key(LakeLayout.publishedKey("progress_events", "2026-03-01")));
        assertEquals(PipelineFixture.unquote(head.eTag()), pipeline.ledgerItem("progress_events", "2026-03-01").publishedEtag());
    }

    @Test
    void handleRequest_eventsShapedAsS3SendsThem_decodeKeysOnceAndReportUnroutableRecords() throws Exception {
        S3Event encoded = EventLoader.loadS3Event(PipelineFixture.REPOSITORY.resolve("events/s3-put-encoded-key.json").toString());
        Map<String, Object> result = records(pipeline.deliver(encoded)).get(0);
        assertEquals("unroutable", result.get("action"));
        assertEquals("progress_events/progress-2026-03-02.jsonl?copy=1 (retry)", result.get("key"));
        assertEquals("PATTERN_MISMATCH", result.get("reason"));

        S3Event unknown = EventLoader.loadS3Event(PipelineFixture.REPOSITORY.resolve("events/s3-put-unroutable.json").toString());
        Map<String, Object> other = records(pipeline.deliver(unknown)).get(0);
        assertEquals("unroutable", other.get("action"));
        assertEquals("UNKNOWN_DATASET", other.get("reason"));
        assertEquals(List.of("PATTERN_MISMATCH", "UNKNOWN_DATASET"), pipeline.unroutable);
        assertEquals(List.of(), pipeline.keys(LakeLayout.PUBLISHED_PREFIX));
    }

    @Test
    void handleRequest_gzippedMultipartDay_publishesItsRows() throws Exception {
        var upload = pipeline.putExample("progress_events", "progress-2026-03-06.jsonl.gz");
        Map<String, Object> result = records(pipeline.deliver(pipeline.eventFor(upload))).get(0);
        assertEquals("published", result.get("action"));
        assertEquals(15L, ((Number) result.get("accepted")).longValue());
        assertEquals(List.of(IngestAction.PUBLISHED), pipeline.outcomes.stream().map(IngestOutcome::action).toList());
        assertEquals(Files.size(PipelineFixture.REPOSITORY.resolve("examples/inbox/progress_events/progress-2026-03-06.jsonl.gz")),
                pipeline.ledgerItem("progress_events", "2026-03-06").input().size());
    }

    @Test
    void handleRequest_unitOfSeveralMinimumParts_promotesByParallelRangesThatCopyItByteForByte() throws Exception {
        // canonical rows (keys sorted, compact, UTC): the published object must be the input byte for byte
        byte[] body = largeCanonicalDay();
        Map<String, Object> result = records(pipeline.deliver(pipeline.eventFor(pipeline.put("progress_events/progress-2026-03-04.jsonl", body)))).get(0);
        assertEquals("published", result.get("action"), result.toString());
        assertArrayEquals(body, pipeline.published("progress_events", "2026-03-04"));

        // 17 MiB is three 5 MiB minimum parts: three ranges, in flight together, covering the object exactly once
        List<String> ranges = pipeline.requests.of(UploadPartCopyRequest.class).stream()
                .sorted(java.util.Comparator.comparing(UploadPartCopyRequest::partNumber)).map(UploadPartCopyRequest::copySourceRange).toList();
        long third = (body.length + 2) / 3;
        assertEquals(List.of("bytes=0-" + (third - 1), "bytes=" + third + "-" + (2 * third - 1), "bytes=" + 2 * third + "-" + (body.length - 1)),
                ranges);
        assertTrue(third >= 5 << 20, "every range but the last is at least S3's minimum part");
        assertEquals(0, pipeline.openMultipartUploads());
    }
}
