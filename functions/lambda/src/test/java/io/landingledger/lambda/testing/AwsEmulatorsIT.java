package io.landingledger.lambda.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.landingledger.lambda.LedgerTables;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The emulator semantics the publish protocol relies on (docs/design.md section 2, docs/emulators.md), called through the
 * SDK the way the product calls it. If an emulator upgrade breaks one of these, every protocol test on top of it
 * would prove nothing: this class says which guarantee went.
 */
class AwsEmulatorsIT {
    @RegisterExtension
    static final AwsEmulators aws = new AwsEmulators();

    @BeforeAll
    static void printStartupTime() {
        System.out.println("AwsEmulatorsIT: emulator start: " + aws.startupTimes());
    }

    @Test
    void getObject_byVersionId_returnsTheOverwrittenBytes() {
        TestResources resources = aws.freshResources();
        S3Client s3 = aws.s3();
        String key = "progress_events/progress-2026-03-02.jsonl";

        PutObjectResponse first = s3.putObject(r -> r.bucket(resources.inboxBucket()).key(key), body("v1\n"));
        PutObjectResponse second = s3.putObject(r -> r.bucket(resources.inboxBucket()).key(key), body("v2 longer\n"));

        assertNotNull(first.versionId(), "a versioned bucket returns a versionId");
        assertNotNull(second.versionId());
        assertNotEquals(first.versionId(), second.versionId());
        assertEquals("v1\n", read(s3, resources.inboxBucket(), key, first.versionId()));
        assertEquals("v2 longer\n", read(s3, resources.inboxBucket(), key, second.versionId()));
        assertEquals("v2 longer\n", read(s3, resources.inboxBucket(), key, null));
        var head = s3.headObject(r -> r.bucket(resources.inboxBucket()).key(key).versionId(first.versionId()));
        assertEquals(first.eTag(), head.eTag(), "the old version keeps its ETag");
        assertEquals(3L, head.contentLength());
    }

    @Test
    void completeMultipartUpload_ifNoneMatch_publishesOnceAndRefusesTheSecond() {
        TestResources resources = aws.freshResources();
        String lake = resources.lakeBucket();
        String staging = "_staging/progress_events/unit=2026-03-02/run-1.jsonl";
        String published = "published/progress_events/unit=2026-03-02/part-00000.jsonl";
        aws.s3().putObject(r -> r.bucket(lake).key(staging), body("{\"a\":1}\n{\"a\":2}\n"));
        Map<String, String> metadata = Map.of("input-sha256", "ab12", "run-id", "run-1", "accepted", "2");

        CompleteMultipartUploadResponse winner = promote(lake, staging, published, metadata, "*", null);

        assertNotNull(winner.eTag());
        assertEquals("{\"a\":1}\n{\"a\":2}\n", read(aws.s3(), lake, published, null));

        PendingCopy loser = startCopy(lake, staging, published, Map.of("run-id", "run-2"));
        S3Exception refused = assertThrows(S3Exception.class, () -> complete(lake, published, loser, "*", null));
        assertEquals(412, refused.statusCode(), refused.getMessage());
        aws.s3().abortMultipartUpload(r -> r.bucket(lake).key(published).uploadId(loser.uploadId()));

        assertTrue(aws.s3().listMultipartUploads(r -> r.bucket(lake)).uploads().isEmpty(),
                "no upload left open after aborting the loser");
        HeadObjectResponse head = aws.s3().headObject(r -> r.bucket(lake).key(published));
        assertEquals(winner.eTag(), head.eTag(), "the loser changed nothing");
        assertEquals("run-1", head.metadata().get("run-id"));
    }

    @Test
    void completeMultipartUpload_ifMatch_refusesAWrongETagAndAcceptsTheRightOne() {
        TestResources resources = aws.freshResources();
        String lake = resources.lakeBucket();
        String published = "published/progress_events/unit=2026-03-02/part-00000.jsonl";
        aws.s3().putObject(r -> r.bucket(lake).key("_staging/run-1.jsonl"), body("old\n"));
        aws.s3().putObject(r -> r.bucket(lake).key("_staging/run-2.jsonl"), body("new\n"));
        String oldEtag = promote(lake, "_staging/run-1.jsonl", published, Map.of("run-id", "run-1"), "*", null)
                .eTag();

        PendingCopy wrong = startCopy(lake, "_staging/run-2.jsonl", published, Map.of("run-id", "run-2"));
        S3Exception refused = assertThrows(S3Exception.class,
                () -> complete(lake, published, wrong, null, "\"0123456789abcdef0123456789abcdef-1\""));
        assertEquals(412, refused.statusCode(), refused.getMessage());
        assertEquals("old\n", read(aws.s3(), lake, published, null), "a refused complete changes nothing");

        // S3 lets an upload be completed after a refused complete; the protocol aborts and restarts instead,
        // which is what every emulator and AWS agree on.
        aws.s3().abortMultipartUpload(r -> r.bucket(lake).key(published).uploadId(wrong.uploadId()));
        CompleteMultipartUploadResponse replaced = promote(lake, "_staging/run-2.jsonl", published,
                Map.of("run-id", "run-2"), null, oldEtag);

        assertNotEquals(oldEtag, replaced.eTag());
        assertEquals("new\n", read(aws.s3(), lake, published, null));
        assertEquals("run-2", aws.s3().headObject(r -> r.bucket(lake).key(published)).metadata().get("run-id"));
    }

    @Test
    void multipartCopy_keepsTheMetadataSetOnCreate() {
        TestResources resources = aws.freshResources();
        String lake = resources.lakeBucket();
        String published = "published/transactions/unit=2026-10-02/part-00000.jsonl";
        aws.s3().putObject(r -> r.bucket(lake).key("_staging/s.jsonl").metadata(Map.of("staging-only", "x")),
                body("x\n"));
        Map<String, String> metadata = Map.of(
                "input-sha256", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                "input-version-id", "3HL4kqtJvjVBH40Nrjfkd",
                "run-id", "0b4c7c58-1f5e-4d0c-9a54-8d0b2f7d5a11",
                "contract-version", "1",
                "accepted", "1",
                "rejected", "0");

        promote(lake, "_staging/s.jsonl", published, metadata, "*", null);

        HeadObjectResponse head = aws.s3().headObject(r -> r.bucket(lake).key(published));
        assertEquals(metadata, head.metadata(), "exactly the metadata of CreateMultipartUpload, not the source's");
        assertEquals("application/x-ndjson", head.contentType());
    }

    @Test
    void transactWriteItems_whenAConditionFails_cancelsWithReasonsAndTheOldItem() {
        TestResources resources = aws.freshResources();
        DynamoDbClient dynamoDb = aws.dynamoDb();
        String ledger = resources.ledgerTable();
        String history = resources.ledgerHistoryTable();

        // First publish: no item yet. Then a replacement that names the right old ETag.
        dynamoDb.transactWriteItems(r -> r.transactItems(
                ledgerUpdate(ledger, "etag-1", "etag-0"), historyPut(history, "2026-03-02T10:00:00.000Z#run-1")));
        dynamoDb.transactWriteItems(r -> r.transactItems(
                ledgerUpdate(ledger, "etag-2", "etag-1"), historyPut(history, "2026-03-02T11:00:00.000Z#run-2")));

        // A run that still believes etag-1 is published loses, and learns what won.
        TransactionCanceledException stale = assertThrows(TransactionCanceledException.class,
                () -> dynamoDb.transactWriteItems(r -> r.transactItems(
                        ledgerUpdate(ledger, "etag-3", "etag-1"),
                        historyPut(history, "2026-03-02T12:00:00.000Z#run-3"))));
        assertTrue(stale.hasCancellationReasons(), stale.getMessage());
        List<CancellationReason> reasons = stale.cancellationReasons();
        assertEquals(2, reasons.size());
        assertEquals("ConditionalCheckFailed", reasons.get(0).code());
        assertEquals("etag-2", reasons.get(0).item().get("published_etag").s(), "ALL_OLD returns the winner");
        assertEquals("2", reasons.get(0).item().get("publish_count").n());
        assertEquals("None", reasons.get(1).code());
        assertEquals(2, dynamoDb.query(r -> r.tableName(history).keyConditionExpression("#pk = :pk")
                .expressionAttributeNames(Map.of("#pk", LedgerTables.HISTORY_PARTITION_KEY))
                .expressionAttributeValues(Map.of(":pk", s("progress_events#2026-03-02")))).count(),
                "a cancelled transaction writes neither item");

        // The history item is immutable: a second put of the same key fails on the put alone.
        TransactionCanceledException duplicate = assertThrows(TransactionCanceledException.class,
                () -> dynamoDb.transactWriteItems(r -> r.transactItems(
                        ledgerUpdate(ledger, "etag-3", "etag-2"),
                        historyPut(history, "2026-03-02T11:00:00.000Z#run-2"))));
        assertEquals("None", duplicate.cancellationReasons().get(0).code());
        assertEquals("ConditionalCheckFailed", duplicate.cancellationReasons().get(1).code());
        assertEquals("run-2", duplicate.cancellationReasons().get(1).item().get("run_id").s());
    }

    @Test
    void query_readsBothTablesByKeyWithoutScan() {
        TestResources resources = aws.freshResources();
        DynamoDbClient dynamoDb = aws.dynamoDb();
        for (String unit : List.of("2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04")) {
            dynamoDb.putItem(r -> r.tableName(resources.ledgerTable()).item(Map.of(
                    LedgerTables.LEDGER_PARTITION_KEY, s("progress_events"),
                    LedgerTables.LEDGER_SORT_KEY, s(unit),
                    "status", s("PUBLISHED"))));
        }
        dynamoDb.putItem(r -> r.tableName(resources.ledgerTable()).item(Map.of(
                LedgerTables.LEDGER_PARTITION_KEY, s("transactions"),
                LedgerTables.LEDGER_SORT_KEY, s("2026-03-02"))));
        for (String at : List.of("2026-03-02T10:00:00.000Z#run-a", "2026-03-02T10:00:00.500Z#run-b",
                "2026-03-03T09:00:00.000Z#run-c")) {
            dynamoDb.putItem(r -> r.tableName(resources.ledgerHistoryTable()).item(Map.of(
                    LedgerTables.HISTORY_PARTITION_KEY, s("progress_events#2026-03-02"),
                    LedgerTables.HISTORY_SORT_KEY, s(at))));
        }

        QueryResponse range = dynamoDb.query(r -> r.tableName(resources.ledgerTable()).consistentRead(true)
                .keyConditionExpression("#pk = :dataset AND #sk BETWEEN :from AND :to")
                .expressionAttributeNames(Map.of("#pk", LedgerTables.LEDGER_PARTITION_KEY,
                        "#sk", LedgerTables.LEDGER_SORT_KEY))
                .expressionAttributeValues(Map.of(":dataset", s("progress_events"),
                        ":from", s("2026-03-02"), ":to", s("2026-03-03"))));
        QueryResponse latest = dynamoDb.query(r -> r.tableName(resources.ledgerHistoryTable())
                .keyConditionExpression("#pk = :pk")
                .expressionAttributeNames(Map.of("#pk", LedgerTables.HISTORY_PARTITION_KEY))
                .expressionAttributeValues(Map.of(":pk", s("progress_events#2026-03-02")))
                .scanIndexForward(false).limit(1));

        List<String> units = new ArrayList<>();
        range.items().forEach(item -> units.add(item.get(LedgerTables.LEDGER_SORT_KEY).s()));
        assertEquals(List.of("2026-03-02", "2026-03-03"), units);
        assertEquals(1, latest.count());
        assertEquals("2026-03-03T09:00:00.000Z#run-c", latest.items().get(0).get(LedgerTables.HISTORY_SORT_KEY).s());
        assertFalse(latest.lastEvaluatedKey().isEmpty(), "limit 1 leaves more to page through");
    }

    // --- the promote, as docs/design.md section 2 step 6 calls it ---

    private static CompleteMultipartUploadResponse promote(String bucket, String source, String target,
                                                           Map<String, String> metadata, String ifNoneMatch,
                                                           String ifMatch) {
        return complete(bucket, target, startCopy(bucket, source, target, metadata), ifNoneMatch, ifMatch);
    }

    /** An open multipart upload holding one part copied from the staging object. */
    private record PendingCopy(String uploadId, String partEtag) {
    }

    private static PendingCopy startCopy(String bucket, String source, String target, Map<String, String> metadata) {
        String uploadId = aws.s3().createMultipartUpload(r -> r.bucket(bucket).key(target).metadata(metadata)
                .contentType("application/x-ndjson")).uploadId();
        String partEtag = aws.s3().uploadPartCopy(r -> r.sourceBucket(bucket).sourceKey(source)
                .destinationBucket(bucket).destinationKey(target).uploadId(uploadId).partNumber(1))
                .copyPartResult().eTag();
        return new PendingCopy(uploadId, partEtag);
    }

    private static CompleteMultipartUploadResponse complete(String bucket, String key, PendingCopy copy,
                                                            String ifNoneMatch, String ifMatch) {
        return aws.s3().completeMultipartUpload(CompleteMultipartUploadRequest.builder()
                .bucket(bucket).key(key).uploadId(copy.uploadId())
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(copy.partEtag()).build()))
                .ifNoneMatch(ifNoneMatch)
                .ifMatch(ifMatch)
                .build());
    }

    // --- the ledger write, as docs/design.md section 2 step 7 describes it ---

    private static TransactWriteItem ledgerUpdate(String table, String newEtag, String expectedEtag) {
        return TransactWriteItem.builder().update(u -> u.tableName(table)
                .key(Map.of(LedgerTables.LEDGER_PARTITION_KEY, s("progress_events"),
                        LedgerTables.LEDGER_SORT_KEY, s("2026-03-02")))
                .updateExpression("SET published_etag = :new, publish_count = if_not_exists(publish_count, :zero) "
                        + "+ :one")
                .conditionExpression("attribute_not_exists(#pk) OR published_etag = :expected")
                .expressionAttributeNames(Map.of("#pk", LedgerTables.LEDGER_PARTITION_KEY))
                .expressionAttributeValues(Map.of(":new", s(newEtag), ":expected", s(expectedEtag),
                        ":zero", n(0), ":one", n(1)))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD))
                .build();
    }

    private static TransactWriteItem historyPut(String table, String atRun) {
        return TransactWriteItem.builder().put(p -> p.tableName(table)
                .item(Map.of(LedgerTables.HISTORY_PARTITION_KEY, s("progress_events#2026-03-02"),
                        LedgerTables.HISTORY_SORT_KEY, s(atRun),
                        "run_id", s(atRun.substring(atRun.indexOf('#') + 1))))
                .conditionExpression("attribute_not_exists(#pk)")
                .expressionAttributeNames(Map.of("#pk", LedgerTables.HISTORY_PARTITION_KEY))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD))
                .build();
    }

    private static RequestBody body(String text) {
        return RequestBody.fromString(text, StandardCharsets.UTF_8);
    }

    private static String read(S3Client s3, String bucket, String key, String versionId) {
        return s3.getObjectAsBytes(r -> r.bucket(bucket).key(key).versionId(versionId))
                .asString(StandardCharsets.UTF_8);
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }
}
