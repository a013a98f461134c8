package io.landingledger.lambda.handlers;

import com.amazonaws.services.lambda.runtime.events.S3Event;

import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ingest.OutOfTimeException;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.validate.Events;
import io.landingledger.lambda.testing.AwsEmulators;
import io.landingledger.lambda.testing.FakeContext;
import io.landingledger.lambda.testing.FastRetries;
import io.landingledger.lambda.testing.FaultInjector;
import io.landingledger.lambda.testing.PipelineFixture;
import io.landingledger.localcloud.template.StackScope;
import io.landingledger.localcloud.template.TransformedTemplate;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;


import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.landingledger.lambda.testing.FastRetries.MAX_ATTEMPTS;
import static io.landingledger.lambda.testing.FastRetries.TRANSIENT_FAULTS;
import static io.landingledger.lambda.testing.InjectedErrors.dynamoError;
import static io.landingledger.lambda.testing.InjectedErrors.dynamoThroughputExceeded;
import static io.landingledger.lambda.testing.InjectedErrors.s3Error;
import static io.landingledger.lambda.testing.InjectedErrors.transactionCanceled;
import static io.landingledger.lambda.testing.NormalisedSnapshot.normalised;
import static io.landingledger.lambda.testing.PipelineFixture.action;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Faults injected at the SDK layer (issue 7, "Hostile events and faults"; docs/design.md section 2): an
 * {@link ExecutionInterceptor} on the function's own S3 and DynamoDB clients fails chosen attempts before they are
 * transmitted (so the SDK's retry strategy sees them exactly as it would see a real 5xx or throttle, and the emulator
 * never executes them), or breaks a GetObject body mid-stream. For each fault the event is delivered, then redelivered
 * without the fault, and the end state must equal a clean run of the same file in a fresh pipeline (all but
 * wall-clock fields, run ids and the names of the fresh buckets, tables, version ids and sequencers), with exactly one
 * publish and nothing left open.
 *
 * <p>The clients here make at most 5 attempts with a 5 ms backoff (production keeps the SDK defaults), so "retried,
 * then surfaced" is observable as exactly 5 injected attempts. Faults are thrown from {@code beforeTransmission},
 * which runs inside the SDK's retry loop. A separate test loses the response of a call that did take effect.
 *
 * <p>Two more kinds of fault: the invocation's remaining time (a {@link FakeContext}) dropping below the step margin
 * while the step before runs, and AbortMultipartUpload failing, where what is left open must be only what the lake's
 * lifecycle rule in infra/template.yaml aborts. The sweep's and repair's own calls are in SweepAndRepairFaultsIT.
 */
class InjectedFaultsIT {
    @RegisterExtension
    static final AwsEmulators EMULATORS = new AwsEmulators();

    private static final String DATASET = "progress_events";

    /** Clean-run snapshots per example file, computed once in a fresh pipeline. */
    private static final Map<String, String> CLEAN = new ConcurrentHashMap<>();

    private final List<PipelineFixture> fixtures = new ArrayList<>();
    private final FaultInjector faults = new FaultInjector();

    @AfterEach
    void tearDown() {
        fixtures.forEach(PipelineFixture::close);
    }

    private PipelineFixture faulty() {
        PipelineFixture pipeline = new PipelineFixture(EMULATORS, List.of(faults), FastRetries.strategy());
        fixtures.add(pipeline);
        return pipeline;
    }

    private static String unit(String file) {
        Matcher m = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})").matcher(file);
        assertTrue(m.find());
        return m.group(1);
    }

    // ---- the comparison with a run without the fault ----

    private static String clean(String file) {
        return clean(file, pipeline -> pipeline.putExample(DATASET, file), "published");
    }

    /** How a test's input reaches a pipeline's inbox. */
    @FunctionalInterface
    interface Producer {
        PipelineFixture.Uploaded put(PipelineFixture pipeline) throws IOException;
    }

    /** The normalised snapshot of one clean delivery of {@code name}'s input, which ends in {@code expectedAction}. */
    private static String clean(String name, Producer producer, String expectedAction) {
        return CLEAN.computeIfAbsent(name, f -> {
            try (PipelineFixture pipeline = new PipelineFixture(EMULATORS)) {
                var upload = producer.put(pipeline);
                assertEquals(expectedAction, action(pipeline.deliver(pipeline.eventFor(upload))));
                return normalised(pipeline, upload);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    /** The end state equals a clean run's, one publish, nothing open; staging is checked by the caller. */
    private static void assertConverged(PipelineFixture pipeline, PipelineFixture.Uploaded upload, String file) {
        String unit = unit(file);
        LedgerItem item = pipeline.ledgerItem(DATASET, unit);
        assertEquals(LedgerStatus.PUBLISHED, item.status());
        assertEquals(1, item.publishCount(), "exactly one publish");
        assertEquals(1, pipeline.history(DATASET, unit).size(), "one history item: the publish");
        var head = pipeline.s3.headObject(r -> r.bucket(pipeline.lake()).key(LakeLayout.publishedKey(DATASET, unit)));
        assertEquals(PipelineFixture.unquote(head.eTag()), item.publishedEtag(), "the ledger vouches for what S3 holds");
        assertEquals(item.runId(), head.metadata().get("run-id"), "the ledger names the run whose promote made the object");
        assertEquals(0, pipeline.openMultipartUploads(), "no open multipart upload");
        assertEquals(clean(file), normalised(pipeline, upload), "the end state equals a run without the fault");
    }

    private static void assertNothingWritten(PipelineFixture pipeline, String unit) {
        assertTrue(pipeline.ledger.get(DATASET, unit).isEmpty(), "no ledger item (no refusal recorded for a fault)");
        assertEquals(List.of(), pipeline.history(DATASET, unit));
        assertEquals(List.of(), pipeline.keys(LakeLayout.PUBLISHED_PREFIX));
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX));
        assertEquals(0, pipeline.openMultipartUploads());
    }

    // ---- throttling and 5xx on every call type the ingest path makes ----

    /** Each SDK call of the ingest path, with the fault S3 or DynamoDB answers when it is overloaded or broken. */
    enum Call {
        HEAD_OBJECT(HeadObjectRequest.class, () -> s3Error(503, "SlowDown")),
        GET_OBJECT(GetObjectRequest.class, () -> s3Error(500, "InternalError")),
        PUT_OBJECT(PutObjectRequest.class, () -> s3Error(503, "SlowDown")),
        CREATE_MULTIPART_UPLOAD(CreateMultipartUploadRequest.class, () -> s3Error(500, "InternalError")),
        UPLOAD_PART_COPY(UploadPartCopyRequest.class, () -> s3Error(503, "SlowDown")),
        COMPLETE_MULTIPART_UPLOAD(CompleteMultipartUploadRequest.class, () -> s3Error(500, "InternalError")),
        DELETE_OBJECT(DeleteObjectRequest.class, () -> s3Error(503, "SlowDown")),
        GET_ITEM(GetItemRequest.class, () -> dynamoError(400, "ThrottlingException")),
        TRANSACT_WRITE_ITEMS(TransactWriteItemsRequest.class, () -> dynamoThroughputExceeded()),
        TRANSACT_WRITE_ITEMS_500(TransactWriteItemsRequest.class, () -> dynamoError(500, "InternalServerError"));

        final Class<? extends SdkRequest> type;
        final Supplier<RuntimeException> fault;

        Call(Class<? extends SdkRequest> type, Supplier<RuntimeException> fault) {
            this.type = type;
            this.fault = fault;
        }
    }

    private static final String FILE = "progress-2026-03-03.jsonl"; // accepted and rejected lines: quarantine too

    @ParameterizedTest
    @EnumSource(Call.class)
    void persistentFault_isRetriedThenSurfaced_andTheRedeliveryEndsAsACleanRun(Call call) throws Exception {
        PipelineFixture pipeline = faulty();
        var upload = pipeline.putExample(DATASET, FILE);
        S3Event event = pipeline.eventFor(upload);
        String unit = unit(FILE);

        faults.fail(call.type::isInstance, Integer.MAX_VALUE, call.fault);
        if (call == Call.DELETE_OBJECT) {
            // step 9 is best effort: the publish and the ledger are consistent, the staging object is left for the
            // _staging/ lifecycle rule (1 day)
            assertEquals("published", action(pipeline.deliver(event)));
        } else {
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> pipeline.deliver(event));
            assertTrue(thrown instanceof AwsServiceException, thrown.toString());
        }
        assertEquals(MAX_ATTEMPTS, faults.injected(), "the SDK retried the fault, then surfaced it");
        faults.clear();

        switch (call) {
            case TRANSACT_WRITE_ITEMS, TRANSACT_WRITE_ITEMS_500 -> {
                // died between promote and ledger (the crash table's promote row): the object is ours, the ledger is not written
                assertTrue(pipeline.ledger.get(DATASET, unit).isEmpty());
                assertEquals(List.of(LakeLayout.publishedKey(DATASET, unit)), pipeline.keys(LakeLayout.PUBLISHED_PREFIX));
                assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX));
                assertEquals("finished", action(pipeline.deliver(event)));
            }
            case DELETE_OBJECT -> {
                assertEquals(1, pipeline.keys(LakeLayout.STAGING_PREFIX).size(), "the one orphan staging object");
                assertEquals("skipped", action(pipeline.deliver(event)));
            }
            default -> {
                assertTrue(pipeline.ledger.get(DATASET, unit).isEmpty());
                assertEquals(List.of(), pipeline.keys(LakeLayout.PUBLISHED_PREFIX));
                assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX));
                assertEquals(0, pipeline.openMultipartUploads());
                assertEquals("published", action(pipeline.deliver(event)));
            }
        }

        if (call == Call.DELETE_OBJECT) {
            // the only difference from a clean run is the orphan staging object the lifecycle rule expires
            String staging = pipeline.keys(LakeLayout.STAGING_PREFIX).get(0);
            pipeline.s3.deleteObject(r -> r.bucket(pipeline.lake()).key(staging));
        } else {
            assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX), "no staging object left");
        }
        assertConverged(pipeline, upload, FILE);
    }

    @ParameterizedTest
    @EnumSource(Call.class)
    void transientFault_isAbsorbedByTheSdkRetries_inOneDelivery(Call call) throws Exception {
        PipelineFixture pipeline = faulty();
        var upload = pipeline.putExample(DATASET, FILE);
        faults.fail(call.type::isInstance, TRANSIENT_FAULTS, call.fault);
        assertEquals("published", action(pipeline.deliver(pipeline.eventFor(upload))));
        assertEquals(TRANSIENT_FAULTS, faults.injected());
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX));
        assertConverged(pipeline, upload, FILE);
    }

    // ---- 409 on the promote ----

    @Test
    void conflict409OnThePublishedComplete_restartsThePromoteWithANewUpload_andPublishesInTheSameDelivery() throws Exception {
        PipelineFixture pipeline = faulty();
        String file = "progress-2026-03-02.jsonl";
        var upload = pipeline.putExample(DATASET, file);
        faults.fail(r -> r instanceof CompleteMultipartUploadRequest c && c.key().startsWith(LakeLayout.PUBLISHED_PREFIX), 1,
                () -> s3Error(409, "ConditionalRequestConflict"));

        assertEquals("published", action(pipeline.deliver(pipeline.eventFor(upload))));
        assertEquals(1, faults.injected());
        List<String> creates = pipeline.requests.of(CreateMultipartUploadRequest.class).stream()
                .map(CreateMultipartUploadRequest::key).filter(k -> k.startsWith(LakeLayout.PUBLISHED_PREFIX)).toList();
        List<CompleteMultipartUploadRequest> completes = pipeline.requests.of(CompleteMultipartUploadRequest.class).stream()
                .filter(r -> r.key().startsWith(LakeLayout.PUBLISHED_PREFIX)).toList();
        assertEquals(2, creates.size(), "a new multipart upload after the 409");
        assertEquals(2, completes.size());
        assertFalse(completes.get(0).uploadId().equals(completes.get(1).uploadId()), "not the refused upload again");
        assertEquals("*", completes.get(1).ifNoneMatch(), "still conditioned: nothing was published");
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX));
        assertConverged(pipeline, upload, file);
    }

    // ---- a GetObject body that breaks mid-stream ----

    @ParameterizedTest
    @ValueSource(strings = {"progress-2026-03-02.jsonl", "progress-2026-03-06.jsonl.gz"})
    void getObjectBodyBreakingMidStream_failsTheRunCleanly_andTheRetryPublishesOnce(String file) throws Exception {
        PipelineFixture pipeline = faulty();
        var upload = pipeline.putExample(DATASET, file);
        S3Event event = pipeline.eventFor(upload);
        faults.breakBody(r -> r instanceof GetObjectRequest g && g.bucket().equals(pipeline.inbox()), 1, 100,
                () -> new SocketTimeoutException("Read timed out (injected)"));

        RuntimeException thrown = assertThrows(RuntimeException.class, () -> pipeline.deliver(event));
        assertEquals(1, faults.injected());
        assertTrue(hasCause(thrown, SocketTimeoutException.class), "the read fault surfaces as itself: " + thrown);
        // a network fault is not an unreadable file: nothing is refused, published or recorded
        assertNothingWritten(pipeline, unit(file));
        faults.clear();

        assertEquals("published", action(pipeline.deliver(event)));
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX));
        assertConverged(pipeline, upload, file);
    }

    // ---- ranged reads (S3_READ_RANGES, S3_READ_RANGE_MB): tiny ranges, so the examples are read in 2-9 ranges ----

    private static final io.landingledger.lambda.adapters.RangedRead.Settings TINY_RANGES =
            new io.landingledger.lambda.adapters.RangedRead.Settings(3, 256);

    private PipelineFixture faultyRanged() {
        PipelineFixture pipeline = new PipelineFixture(EMULATORS, List.of(faults), FastRetries.strategy(), TINY_RANGES);
        fixtures.add(pipeline);
        return pipeline;
    }

    private static boolean rangedInboxGet(SdkRequest r, PipelineFixture pipeline) {
        return r instanceof GetObjectRequest g && g.bucket().equals(pipeline.inbox()) && g.range() != null;
    }

    @ParameterizedTest
    @ValueSource(strings = {"progress-2026-03-02.jsonl", "progress-2026-03-06.jsonl.gz"})
    void rangedRead_isTheCleanRun_andEveryRangeIsPinnedToTheVersionAndETag(String file) throws Exception {
        PipelineFixture pipeline = faultyRanged();
        var upload = pipeline.putExample(DATASET, file);
        assertEquals("published", action(pipeline.deliver(pipeline.eventFor(upload))));
        List<GetObjectRequest> ranges = pipeline.requests.of(GetObjectRequest.class).stream()
                .filter(g -> g.bucket().equals(pipeline.inbox()) && g.range() != null).toList();
        long size = upload.size();
        assertEquals((size + 255) / 256 - 1, ranges.size(), "every range but the first, which the plain GetObject read");
        String version = upload.versionId();
        for (GetObjectRequest range : ranges) {
            assertEquals(version, range.versionId(), "pinned to the version");
            assertTrue(range.ifMatch() != null && !range.ifMatch().isBlank(), "If-Match on the ETag the first GET read");
        }
        assertConverged(pipeline, upload, file);
    }

    @ParameterizedTest
    @ValueSource(strings = {"progress-2026-03-02.jsonl", "progress-2026-03-06.jsonl.gz"})
    void rangedRead_aRangeBodyBreakingOnce_isFetchedAgain_inOneDelivery(String file) throws Exception {
        PipelineFixture pipeline = faultyRanged();
        var upload = pipeline.putExample(DATASET, file);
        faults.breakBody(r -> rangedInboxGet(r, pipeline), 1, 100, () -> new SocketTimeoutException("Read timed out (injected)"));
        assertEquals("published", action(pipeline.deliver(pipeline.eventFor(upload))));
        assertEquals(1, faults.injected());
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX));
        assertConverged(pipeline, upload, file);
    }

    @Test
    void rangedRead_aRangeFailingPersistently_failsTheRunCleanly_andTheRedeliveryPublishes() throws Exception {
        PipelineFixture pipeline = faultyRanged();
        var upload = pipeline.putExample(DATASET, FILE);
        S3Event event = pipeline.eventFor(upload);
        faults.fail(r -> rangedInboxGet(r, pipeline), Integer.MAX_VALUE, () -> s3Error(500, "InternalError"));
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> pipeline.deliver(event));
        assertTrue(hasCause(thrown, AwsServiceException.class), thrown.toString());
        // the SDK's attempts, then the range's one retry with the SDK's attempts again; the other ranges in flight
        // fail so too, but only the first failed range is waited for
        assertTrue(faults.injected() >= 2 * MAX_ATTEMPTS, "injected " + faults.injected());
        assertNothingWritten(pipeline, unit(FILE));
        faults.clear();

        assertEquals("published", action(pipeline.deliver(event)));
        assertConverged(pipeline, upload, FILE);
    }

    private static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }

    // ---- TransactionCanceled for each reason ----

    @ParameterizedTest
    @ValueSource(strings = {"ConditionalCheckFailed", "TransactionConflict", "ThrottlingError"})
    void transactionCanceled_convergesOnConflicts_andPropagatesThrottling(String reason) throws Exception {
        PipelineFixture pipeline = faulty();
        String file = "progress-2026-03-02.jsonl";
        String unit = unit(file);
        var upload = pipeline.putExample(DATASET, file);
        S3Event event = pipeline.eventFor(upload);
        faults.fail(TransactWriteItemsRequest.class::isInstance, 1, () -> transactionCanceled(reason));

        if (reason.equals("ThrottlingError")) {
            TransactionCanceledException thrown = assertThrows(TransactionCanceledException.class, () -> pipeline.deliver(event));
            assertEquals("ThrottlingError", thrown.cancellationReasons().get(0).code());
            assertEquals(1, faults.injected(), "not retried by the SDK, propagated by the ledger adapter");
            assertTrue(pipeline.ledger.get(DATASET, unit).isEmpty(), "a throttled transaction wrote nothing");
            assertEquals(1, pipeline.keys(LakeLayout.PUBLISHED_PREFIX).size());
            faults.clear();
            assertEquals("finished", action(pipeline.deliver(event)));
        } else {
            // re-read the ledger and decide again, in the same delivery
            assertEquals("published", action(pipeline.deliver(event)));
            assertEquals(2, pipeline.requests.of(TransactWriteItemsRequest.class).size(), "one retry of the ledger write");
            assertEquals(1, faults.injected());
        }
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX));
        assertConverged(pipeline, upload, file);
    }

    // ---- a response lost after the call took effect (the SDK retries a call that already happened) ----

    enum Lost { TRANSACT_WRITE_ITEMS, PUBLISHED_COMPLETE_MULTIPART_UPLOAD, STAGING_PUT_OBJECT }

    @ParameterizedTest
    @EnumSource(Lost.class)
    void responseLostAfterTheCallTookEffect_convergesToOnePublish(Lost lost) throws Exception {
        PipelineFixture pipeline = faulty();
        String file = "progress-2026-03-02.jsonl";
        var upload = pipeline.putExample(DATASET, file);
        S3Event event = pipeline.eventFor(upload);
        String s3Body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>InternalError</Code>"
                + "<Message>We encountered an internal error. Please try again. (injected)</Message></Error>";
        switch (lost) {
            case TRANSACT_WRITE_ITEMS -> faults.loseResponse(TransactWriteItemsRequest.class::isInstance, 1, 500,
                    "application/x-amz-json-1.0", "InternalServerError",
                    "{\"__type\":\"com.amazonaws.dynamodb.v20120810#InternalServerError\",\"message\":\"injected\"}");
            case PUBLISHED_COMPLETE_MULTIPART_UPLOAD -> faults.loseResponse(
                    r -> r instanceof CompleteMultipartUploadRequest c && c.key().startsWith(LakeLayout.PUBLISHED_PREFIX), 1, 500,
                    "application/xml", null, s3Body);
            case STAGING_PUT_OBJECT -> faults.loseResponse(
                    r -> r instanceof PutObjectRequest p && p.key().startsWith(LakeLayout.STAGING_PREFIX), 1, 500,
                    "application/xml", null, s3Body);
        }
        List<String> actions = new ArrayList<>();
        try {
            actions.add(action(pipeline.deliver(event)));
        } catch (RuntimeException e) {
            actions.add("failed " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        assertEquals(1, faults.injected(), faults.injectedRequests().toString());
        faults.clear();
        actions.add(action(pipeline.deliver(event)));
        if (lost == Lost.PUBLISHED_COMPLETE_MULTIPART_UPLOAD) {
            // the SDK retries the complete of an upload that already completed: AWS answers 200 (published); a 412
            // (the object now exists) converges through the metadata check (finished); NoSuchUpload fails the run
            // and the redelivery finishes it (the crash table's promote row). All end in the same state.
            assertTrue(List.of("[published, skipped]", "[finished, skipped]").contains(actions.toString())
                    || actions.get(0).startsWith("failed") && actions.get(1).equals("finished"), actions.toString());
        } else {
            // a retried staging put overwrites the same bytes; a retried transaction meets its own write and converges
            assertEquals(List.of("published", "skipped"), actions);
        }
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX));
        assertConverged(pipeline, upload, file);
    }

    // ---- the function's remaining time running out between steps ----

    /** The step a run is about to start when its time runs out, and the file that reaches it. */
    enum Boundary {
        STAGE(FILE, "the staging"),
        PROMOTE(FILE, "the promote"),
        LEDGER_WRITE(FILE, "the ledger write of " + DATASET),
        REFUSAL_LEDGER_WRITE("progress-2026-03-07.jsonl", "the ledger write of the refusal");

        final String file;
        final String step;

        Boundary(String file, String step) {
            this.file = file;
            this.step = step;
        }
    }

    /**
     * The invocation's remaining time drops below the step margin during the step before {@code boundary} (the
     * previous step's last request is the moment): the run stops before the step, reports the record failed, leaves
     * no staging object and no open multipart upload, records nothing in the ledger; the redelivery (full time) ends
     * in the clean run's state.
     */
    @ParameterizedTest
    @EnumSource(Boundary.class)
    void remainingTimeBelowTheStepMargin_stopsBeforeTheStep_andTheRedeliveryEndsAsACleanRun(Boundary boundary) throws Exception {
        PipelineFixture pipeline = faulty();
        String unit = unit(boundary.file);
        var upload = pipeline.putExample(DATASET, boundary.file);
        S3Event event = pipeline.eventFor(upload);
        FakeContext context = new FakeContext(Duration.ofMinutes(15));
        Runnable timeRunsOut = () -> context.remaining(IngestService.DEFAULT_STEP_MARGIN.minusSeconds(1));
        switch (boundary) {
            case STAGE -> timeRunsOut.run(); // a late record in a long batch: too little left before it starts
            case PROMOTE -> faults.whenSent(r -> r instanceof PutObjectRequest p && p.key().startsWith(LakeLayout.STAGING_PREFIX), timeRunsOut);
            case LEDGER_WRITE -> faults.whenSent(
                    r -> r instanceof CompleteMultipartUploadRequest c && c.key().startsWith(LakeLayout.PUBLISHED_PREFIX), timeRunsOut);
            case REFUSAL_LEDGER_WRITE -> faults.whenSent(GetObjectRequest.class::isInstance, timeRunsOut);
        }

        OutOfTimeException thrown = assertThrows(OutOfTimeException.class, () -> pipeline.deliver(event, context));
        assertTrue(thrown.getMessage().startsWith("stopped before " + boundary.step), thrown.getMessage());
        assertEquals(List.of(upload.key() + " OutOfTimeException"), pipeline.failed, "the record is reported failed");
        assertTrue(pipeline.ledger.get(DATASET, unit).isEmpty(), "nothing recorded in the ledger");
        assertEquals(List.of(), pipeline.history(DATASET, unit));
        assertEquals(List.of(), pipeline.requests.of(TransactWriteItemsRequest.class), "no ledger write was attempted");
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX), "no staging object left");
        assertEquals(0, pipeline.openMultipartUploads(), "no multipart upload left open");
        switch (boundary) {
            case STAGE -> {
                assertEquals(List.of(), pipeline.requests.of(GetObjectRequest.class), "the body was not read");
                assertEquals(List.of(), pipeline.keys(""), "nothing in the lake");
            }
            case PROMOTE -> {
                assertEquals(List.of(), pipeline.requests.of(CreateMultipartUploadRequest.class), "no promote started");
                assertEquals(List.of(), pipeline.keys(LakeLayout.PUBLISHED_PREFIX));
                // the content-addressed quarantine object the redelivery writes again, byte for byte
                assertEquals(1, pipeline.keys(LakeLayout.QUARANTINE_PREFIX).size());
            }
            case LEDGER_WRITE -> assertEquals(List.of(LakeLayout.publishedKey(DATASET, unit)), pipeline.keys(LakeLayout.PUBLISHED_PREFIX),
                    "promoted, not recorded: the crash table's promote row");
            case REFUSAL_LEDGER_WRITE -> assertEquals(List.of(), pipeline.keys(""), "a refusal writes nothing to the lake");
        }
        pipeline.failed.clear();
        faults.clear();

        String redelivered = action(pipeline.deliver(event, new FakeContext(Duration.ofMinutes(15))));
        assertEquals(switch (boundary) {
            case STAGE, PROMOTE -> "published";
            case LEDGER_WRITE -> "finished";
            case REFUSAL_LEDGER_WRITE -> "refused";
        }, redelivered);
        assertEquals(List.of(), pipeline.failed);
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX));
        assertEquals(0, pipeline.openMultipartUploads());
        if (boundary == Boundary.REFUSAL_LEDGER_WRITE) {
            LedgerItem item = pipeline.ledgerItem(DATASET, unit);
            assertEquals(LedgerStatus.REFUSED, item.status());
            assertEquals("KEY_CONFLICT", item.reason());
            assertEquals(clean(boundary.file, p -> p.putExample(DATASET, boundary.file), "refused"), normalised(pipeline, upload));
        } else {
            assertConverged(pipeline, upload, boundary.file);
        }
    }

    // ---- AbortMultipartUpload failing after the upload it would abort was refused or broken ----

    /**
     * Asserts that every open multipart upload in the lake is one the lake bucket's lifecycle rule in
     * infra/template.yaml aborts (an enabled rule with AbortIncompleteMultipartUpload whose prefix covers the key),
     * then aborts them as that rule would a day later.
     */
    private static void assertOnlyWhatTheLifecycleRuleAbortsIsOpen(PipelineFixture pipeline, List<String> expectedKeys) throws IOException {
        var open = pipeline.s3.listMultipartUploads(r -> r.bucket(pipeline.lake())).uploads();
        assertEquals(expectedKeys, open.stream().map(u -> u.key()).toList(), "the uploads left open");
        // the lake bucket as the deploy creates it: the transformed template, resolved by the one template model
        StackScope stack = StackScope.declared(TransformedTemplate.load(PipelineFixture.REPOSITORY,
                PipelineFixture.REPOSITORY.resolve("functions/lambda/target/template-cache")), "us-east-1", "123456789012", "landing-ledger", Map.of());
        List<Map<String, Object>> rules = child(stack.properties("LakeBucket"), "LifecycleConfiguration").get("Rules") instanceof List<?> list ? list.stream().map(InjectedFaultsIT::asMap).toList() : List.of();
        for (var upload : open) {
            boolean aborted = rules.stream().anyMatch(rule -> "Enabled".equals(rule.get("Status"))
                    && rule.get("AbortIncompleteMultipartUpload") instanceof Map<?, ?> abort
                    && abort.get("DaysAfterInitiation") instanceof Integer days && days <= 1
                    && upload.key().startsWith(prefix(rule)));
            assertTrue(aborted, upload.key() + " is aborted by no lifecycle rule of LakeBucket: " + rules);
            pipeline.s3.abortMultipartUpload(r -> r.bucket(pipeline.lake()).key(upload.key()).uploadId(upload.uploadId()));
        }
    }

    private static String prefix(Map<String, Object> rule) {
        if (rule.get("Prefix") instanceof String p) {
            return p;
        }
        return rule.get("Filter") instanceof Map<?, ?> filter && filter.get("Prefix") instanceof String p ? p : "";
    }

    private static Map<String, Object> child(Map<String, Object> map, String key) {
        return asMap(map.get(key));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        assertTrue(value instanceof Map<?, ?>, "not a mapping: " + value);
        return (Map<String, Object>) value;
    }

    @Test
    void abortFailingAfterA409OnThePublishedComplete_stillPublishesInTheSameDelivery_leavingOnlyTheRefusedUploadForTheLifecycleRule()
            throws Exception {
        PipelineFixture pipeline = faulty();
        String file = "progress-2026-03-02.jsonl";
        var upload = pipeline.putExample(DATASET, file);
        faults.fail(r -> r instanceof CompleteMultipartUploadRequest c && c.key().startsWith(LakeLayout.PUBLISHED_PREFIX), 1,
                () -> s3Error(409, "ConditionalRequestConflict"));
        faults.fail(AbortMultipartUploadRequest.class::isInstance, Integer.MAX_VALUE, () -> s3Error(503, "SlowDown"));

        assertEquals("published", action(pipeline.deliver(pipeline.eventFor(upload))));
        assertEquals(1 + MAX_ATTEMPTS, faults.injected(), "the 409, then every attempt of the abort");
        faults.clear();
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX));
        assertOnlyWhatTheLifecycleRuleAbortsIsOpen(pipeline, List.of(LakeLayout.publishedKey(DATASET, unit(file))));
        assertConverged(pipeline, upload, file);
    }

    @Test
    void abortFailingAfterAPersistentFaultOnThePublishedComplete_failsTheRun_andTheRedeliveryPublishes() throws Exception {
        PipelineFixture pipeline = faulty();
        String file = "progress-2026-03-02.jsonl";
        String unit = unit(file);
        var upload = pipeline.putExample(DATASET, file);
        S3Event event = pipeline.eventFor(upload);
        faults.fail(r -> r instanceof CompleteMultipartUploadRequest c && c.key().startsWith(LakeLayout.PUBLISHED_PREFIX),
                Integer.MAX_VALUE, () -> s3Error(500, "InternalError"));
        faults.fail(AbortMultipartUploadRequest.class::isInstance, Integer.MAX_VALUE, () -> s3Error(500, "InternalError"));

        RuntimeException thrown = assertThrows(RuntimeException.class, () -> pipeline.deliver(event));
        assertTrue(thrown instanceof S3Exception s && s.statusCode() == 500, "the complete's fault, not the abort's: " + thrown);
        assertEquals(2 * MAX_ATTEMPTS, faults.injected());
        faults.clear();
        assertTrue(pipeline.ledger.get(DATASET, unit).isEmpty(), "nothing recorded");
        assertEquals(List.of(), pipeline.keys(LakeLayout.PUBLISHED_PREFIX), "nothing published");
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX), "staging deleted");

        assertEquals("published", action(pipeline.deliver(event)));
        assertOnlyWhatTheLifecycleRuleAbortsIsOpen(pipeline, List.of(LakeLayout.publishedKey(DATASET, unit)));
        assertConverged(pipeline, upload, file);
    }

    /** More accepted bytes than one staging part (16 MiB), then a prohibited field: the refusal comes after a multipart staging upload began. */
    private static PipelineFixture.Uploaded putLargeRefusedFile(PipelineFixture pipeline) {
        StringBuilder lines = new StringBuilder(21 << 20);
        for (int i = 0; lines.length() < (17 << 20); i++) { // compact lines: their canonical rows are as long
            lines.append(Events.event("evt_big_" + i).text("learner_id", "lrn_" + i % 997).text("lesson_id", "les_" + i % 31)
                    .text("event_time", "2026-03-04T10:00:00Z").raw("checkpoint", Integer.toString(i % 7)).line()).append('\n');
        }
        lines.append(Events.event("evt_big_last").text("learner_id", "lrn_1").text("lesson_id", "les_1")
                .text("event_time", "2026-03-04T10:00:00Z").raw("checkpoint", "1").text("email", "planted@example.com").line()).append('\n');
        return pipeline.put(DATASET + "/progress-2026-03-04.jsonl", lines.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void abortFailingForARefusedFileWhoseStagingHadBegunAMultipartUpload_stillRecordsTheRefusal_leavingOnlyThatUploadForTheLifecycleRule()
            throws Exception {
        PipelineFixture pipeline = faulty();
        var upload = putLargeRefusedFile(pipeline);
        S3Event event = pipeline.eventFor(upload);
        faults.fail(AbortMultipartUploadRequest.class::isInstance, Integer.MAX_VALUE, () -> s3Error(503, "SlowDown"));

        Map<String, Object> response = pipeline.deliver(event);
        assertEquals("refused", action(response));
        assertEquals(MAX_ATTEMPTS, faults.injected(), "the staging upload's abort, retried, then given up");
        faults.clear();
        assertTrue(pipeline.requests.of(CreateMultipartUploadRequest.class).stream()
                .anyMatch(c -> c.key().startsWith(LakeLayout.STAGING_PREFIX)), "the staging upload had become a multipart upload");
        LedgerItem item = pipeline.ledgerItem(DATASET, "2026-03-04");
        assertEquals(LedgerStatus.REFUSED, item.status());
        assertEquals("PROHIBITED_FIELD", item.reason());
        assertEquals(List.of(), pipeline.keys(LakeLayout.PUBLISHED_PREFIX), "nothing published from a refused file");
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX), "no staging object: the upload never completed");
        assertOnlyWhatTheLifecycleRuleAbortsIsOpen(pipeline,
                List.of(LakeLayout.stagingKey(DATASET, "2026-03-04", item.runId())));

        assertEquals("skipped", action(pipeline.deliver(event)), "the redelivery sees the refusal recorded");
        assertEquals(clean("large refused", InjectedFaultsIT::putLargeRefusedFile, "refused"), normalised(pipeline, upload));
    }
}
