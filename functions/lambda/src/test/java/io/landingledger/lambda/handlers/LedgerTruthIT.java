package io.landingledger.lambda.handlers;

import io.landingledger.lambda.testing.Invocations;
import com.amazonaws.services.lambda.runtime.events.S3Event;
import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ledger.AttemptOutcome;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.repair.RepairRequest;
import io.landingledger.core.repair.RepairResult;
import io.landingledger.core.repair.RepairService;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.UnitStatus;
import io.landingledger.core.validate.Events;
import io.landingledger.lambda.testing.AwsEmulators;
import io.landingledger.lambda.testing.FastRetries;
import io.landingledger.lambda.testing.FaultInjector;
import io.landingledger.lambda.testing.InjectedErrors;
import io.landingledger.lambda.testing.PipelineFixture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import software.amazon.awssdk.core.sync.RequestBody;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ledger-truth issue's user reports and findings, each as the producer or operator meets it: through the handler
 * Lambda runs, on S3Proxy and moto, then the sweep. Written against what the code had before the fix too, so each
 * case can be run there: every one of them failed on it (the closing note says how it was run).
 */
class LedgerTruthIT {
    @RegisterExtension
    static final AwsEmulators EMULATORS = new AwsEmulators();
    private static final String DATASET = "progress_events";
    private static final String UNIT = "2026-03-01";
    private static final String KEY = DATASET + "/progress-" + UNIT + ".jsonl";
    /** A line with a prohibited field: the file that carries it is refused. */
    private static final String PROHIBITED_LINE = new Events.Event().text("event_id", "x").text("email", "someone@example.com").line() + "\n";

    private final PipelineFixture pipeline;

    LedgerTruthIT(PipelineFixture pipeline) {
        this.pipeline = pipeline;
    }

    private byte[] day() throws IOException {
        return pipeline.putExampleBytes(DATASET, "progress-" + UNIT + ".jsonl");
    }

    private PipelineFixture.Uploaded deliverPut(String key, byte[] body) throws IOException {
        PipelineFixture.Uploaded upload = pipeline.put(key, body);
        pipeline.deliver(pipeline.eventFor(upload));
        return upload;
    }

    private UnitStatus sweptStatus() {
        DatasetContract contract = pipeline.contracts().get(DATASET).orElseThrow();
        DatasetReport report = pipeline.sweep(Clock.systemUTC()).sweep(contract, UNIT, UNIT);
        return report.units().get(0).status();
    }

    private long history(String action) {
        return pipeline.history(DATASET, UNIT).stream().map(HistoryEntry::action).filter(action::equals).count();
    }

    /** User report 1: the same rows again gzipped, under the unit's other key. */
    @Test
    void sameRowsResentGzipped_isANewPublish_theLedgerNamesTheGzippedInput_andTheSweepSaysRestated() throws Exception {
        deliverPut(KEY, day());
        deliverPut(KEY + ".gz", gzip(day()));

        LedgerItem item = pipeline.ledgerItem(DATASET, UNIT);
        assertEquals(KEY + ".gz", item.input().key());
        assertEquals(2, item.publishCount());
        assertEquals(2, history("PUBLISHED"));
        assertEquals(UnitStatus.OK, sweptStatus(), "not UNPROCESSED for ever; the same rows, so not RESTATED either");
    }

    /**
     * User report 1: a re-export with another key order in every line: the canonical rows, so the staged bytes and
     * their ETag, are the first publish's (which made the old code take it as already recorded).
     */
    @Test
    void sameRowsReexportedWithAnotherKeyOrder_isANewPublish_andTheLedgerNamesIt() throws Exception {
        deliverPut(KEY, day());
        PipelineFixture.Uploaded reordered = deliverPut(KEY, reorderKeys(day()));

        LedgerItem item = pipeline.ledgerItem(DATASET, UNIT);
        assertEquals(reordered.versionId(), item.input().versionId());
        assertEquals(2, item.publishCount());
        assertEquals(0, item.restatements(), "the canonical rows are the first publish's bytes");
        assertEquals(UnitStatus.OK, sweptStatus());
    }

    /** User report 1: a re-send with one rejected line added: the ledger's counts and quarantine are the new input's. */
    @Test
    void resendWithOneRejectedLine_theLedgersCountsAndQuarantineDescribeIt() throws Exception {
        deliverPut(KEY, day());
        String withBadLine = new String(day(), StandardCharsets.UTF_8) + new Events.Event().text("event_id", "bad").line() + "\n";
        PipelineFixture.Uploaded resent = deliverPut(KEY, withBadLine.getBytes(StandardCharsets.UTF_8));

        LedgerItem item = pipeline.ledgerItem(DATASET, UNIT);
        assertEquals(resent.versionId(), item.input().versionId());
        assertEquals(1, item.published().rejected());
        assertEquals(1, pipeline.keys("_quarantine/" + DATASET + "/unit=" + UNIT + "/").size());
        assertEquals(UnitStatus.OK, sweptStatus(), "the same accepted rows: a reader sees no change");
    }

    /** User report 2: a byte-identical re-upload as a multipart upload: another ETag, the same SHA-256. */
    @Test
    void byteIdenticalReuploadWithAnotherEtag_isRecordedOnce_andTheSweepSaysOk() throws Exception {
        PipelineFixture.Uploaded first = deliverPut(KEY, day());
        String uploadId = pipeline.s3.createMultipartUpload(r -> r.bucket(pipeline.inbox()).key(KEY)).uploadId();
        String partEtag = pipeline.s3.uploadPart(r -> r.bucket(pipeline.inbox()).key(KEY).uploadId(uploadId).partNumber(1),
                RequestBody.fromBytes(day())).eTag();
        var completed = pipeline.s3.completeMultipartUpload(r -> r.bucket(pipeline.inbox()).key(KEY).uploadId(uploadId)
                .multipartUpload(m -> m.parts(p -> p.partNumber(1).eTag(partEtag))));
        PipelineFixture.Uploaded again = new PipelineFixture.Uploaded(KEY, completed.versionId(), PipelineFixture.unquote(completed.eTag()),
                first.size(), "0066A1B2C3D4E5FFFF");
        assertFalse(again.etag().equals(first.etag()), "a multipart ETag, not the single PUT's MD5");
        pipeline.deliver(pipeline.eventFor(again));
        pipeline.deliver(pipeline.eventFor(again)); // a replay records nothing more

        LedgerItem item = pipeline.ledgerItem(DATASET, UNIT);
        assertEquals(again.versionId(), item.input().versionId(), "the ledger names the newest version");
        assertEquals(1, item.publishCount(), "not republished");
        assertEquals(1, history("UNCHANGED"), "recorded once");
        assertEquals(UnitStatus.OK, sweptStatus(), "not UNPROCESSED for ever");
    }

    /**
     * Finding 4: V1 promotes and its run dies before the ledger write; the newer V2 is refused; V1's retry must still
     * record what readers are reading, and the sweep says the newest input was refused.
     */
    @Test
    void crashedCleanPublish_thenANewerRefusal_theRetryRecordsThePublishAndKeepsTheRefusal() throws Exception {
        PipelineFixture.Uploaded v1 = pipeline.put(KEY, day());
        assertThrows(RuntimeException.class, () -> pipeline.handler((step, unit) -> {
            if (step == IngestService.Step.PROMOTED) {
                throw new IllegalStateException("the function died after its promote");
            }
        }).handle(pipeline.eventFor(v1), null));
        PipelineFixture.Uploaded v2 = deliverPut(KEY, (new String(day(), StandardCharsets.UTF_8)
                + PROHIBITED_LINE).getBytes(StandardCharsets.UTF_8));
        pipeline.deliver(pipeline.eventFor(v1)); // Lambda's retry of V1

        LedgerItem item = pipeline.ledgerItem(DATASET, UNIT);
        assertEquals(LedgerStatus.PUBLISHED, item.status(), "readers read V1's publish: the ledger says so");
        assertEquals(v1.versionId(), item.input().versionId());
        assertEquals(AttemptOutcome.REFUSED, item.lastAttempt().outcome());
        assertEquals(v2.versionId(), item.lastAttempt().inputVersionId());
        assertEquals(UnitStatus.REFUSED, sweptStatus());
    }

    /** Finding 7: a late event for an old version must not turn a REFUSED unit into UNPROCESSED. */
    @Test
    void lateEventForAnOldVersion_keepsTheNewestRefusal() throws Exception {
        PipelineFixture.Uploaded v0 = pipeline.put(KEY, reorder(day()));
        deliverPut(KEY, day());
        deliverPut(KEY, (new String(day(), StandardCharsets.UTF_8)
                + PROHIBITED_LINE).getBytes(StandardCharsets.UTF_8));
        pipeline.deliver(pipeline.eventFor(v0)); // delayed

        assertEquals(AttemptOutcome.REFUSED, pipeline.ledgerItem(DATASET, UNIT).lastAttempt().outcome());
        assertEquals(UnitStatus.REFUSED, sweptStatus());
    }

    /** Finding 5: a repair whose recorded input no longer exists says it did not restore the unit. */
    @Test
    void repairOfARecordedVersionThatIsGone_saysItFailed() throws Exception {
        PipelineFixture.Uploaded v1 = deliverPut(KEY, day());
        pipeline.s3.deleteObject(r -> r.bucket(pipeline.inbox()).key(KEY).versionId(v1.versionId()));
        RepairService repair = new RepairService(ContractRegistry.fromDirectory(PipelineFixture.REPOSITORY.resolve("datasets")),
                pipeline.ledger, pipeline.store, pipeline.service(IngestService.StepListener.NONE), pipeline.inbox(), pipeline.lake(),
                Clock.systemUTC(), Duration.ZERO);
        RepairResult result = repair.run(RepairRequest.fromPayload(Map.of("dataset", DATASET, "units", List.of(UNIT), "force", true,
                "reason", "restore 03-01")), io.landingledger.core.ingest.Deadline.NONE, () -> UUID.randomUUID().toString());

        assertFalse(result.succeeded(), result.units().toString());
    }

    /** The object readers read and the ledger's record of it are one publish (invariant S2: the ledger never leads S3). */
    private void assertLedgerNamesWhatS3Holds(LedgerItem item) {
        var head = pipeline.s3.headObject(r -> r.bucket(pipeline.lake()).key(item.published().key()));
        assertEquals(PipelineFixture.unquote(head.eTag()), item.published().etag(), "the ledger vouches for the object S3 holds");
        assertEquals(head.metadata().get("run-id"), item.runId(), "and for the run that built it");
    }

    /**
     * Finding 1: with the ledger at V1, V2 (other rows) promotes and pauses before its ledger write; V3 (V1's rows,
     * other bytes) promotes over V2 and gets V1's ETag back, which the old code took for "already recorded".
     */
    @Test
    void newerInputWithTheRecordedRows_promotedOverAnUnrecordedPublish_isRecorded() throws Exception {
        deliverPut(KEY, day());
        PipelineFixture.Uploaded v2 = pipeline.put(KEY, dropLastLine(day()));
        byte[] v1RowsOtherBytes = reorderKeys(day());
        AtomicBoolean paused = new AtomicBoolean();
        AtomicReference<PipelineFixture.Uploaded> v3 = new AtomicReference<>();
        pipeline.handler((step, unit) -> {
            if (step == IngestService.Step.PROMOTED && paused.compareAndSet(false, true)) {
                v3.set(deliverNow(KEY, v1RowsOtherBytes)); // V3 runs whole while V2's run is between promote and ledger
            }
        }).handle(pipeline.eventFor(v2), null);

        LedgerItem item = pipeline.ledgerItem(DATASET, UNIT);
        assertEquals(v3.get().versionId(), item.input().versionId(), "the ledger names the newest input");
        assertLedgerNamesWhatS3Holds(item);
        assertEquals(UnitStatus.RESTATED, sweptStatus());
    }

    /**
     * Finding 3: an operator repairs the recorded V1 while a newer V2 is published; the repair's promote meets a 412,
     * and the old code, with ordering switched off for repairs, promoted V1 over V2 on the re-read.
     */
    @Test
    void repairOfTheRecordedVersion_neverOverwritesANewerPublishThatLandsDuringIt() throws Exception {
        deliverPut(KEY, day());
        byte[] otherRows = dropLastLine(day());
        AtomicBoolean landed = new AtomicBoolean();
        AtomicReference<PipelineFixture.Uploaded> v2 = new AtomicReference<>();
        IngestService repairing = pipeline.service((step, unit) -> {
            if (step == IngestService.Step.STAGED && landed.compareAndSet(false, true)) {
                v2.set(deliverNow(KEY, otherRows)); // published while the repair validates V1
            }
        });
        RepairService repair = new RepairService(pipeline.contracts(), pipeline.ledger, pipeline.store, repairing, pipeline.inbox(),
                pipeline.lake(), Clock.systemUTC(), Duration.ZERO);
        RepairResult result = repair.run(RepairRequest.fromPayload(Map.of("dataset", DATASET, "units", List.of(UNIT), "force", true,
                "reason", "rebuild 03-01")), io.landingledger.core.ingest.Deadline.NONE, () -> UUID.randomUUID().toString());

        assertEquals(true, landed.get(), "V2 landed during the repair");
        LedgerItem item = pipeline.ledgerItem(DATASET, UNIT);
        assertEquals(v2.get().versionId(), item.input().versionId(), "the ledger keeps the newer input");
        var head = pipeline.s3.headObject(r -> r.bucket(pipeline.lake()).key(item.published().key()));
        assertEquals(v2.get().versionId(), head.metadata().get("input-version-id"), "readers keep reading the newer input");
        assertLedgerNamesWhatS3Holds(item);
        assertFalse(result.succeeded(), "a repair that did not restore the unit says so: " + result.units());
    }

    /**
     * Finding 6: S3 event times have milliseconds, LastModified only seconds. V2 lands in V1's second and its event
     * is lost; the sweep's re-drive must still take V2 as the newer (the old code compared V2's LastModified with
     * V1's event time, called V2 older and never published it).
     */
    @Test
    void newerVersionInTheSameSecondWithALostEvent_isPublishedByTheRedrive() throws Exception {
        PipelineFixture.Uploaded v1;
        PipelineFixture.Uploaded v2;
        Instant v1Completed;
        do { // both versions in one second of LastModified, V1's completion late enough in it to be after V2's truncated time
            while (Instant.now().getNano() > 100_000_000) {
                Thread.sleep(5);
            }
            Thread.sleep(300);
            v1 = pipeline.put(KEY, day());
            v1Completed = Instant.now();
            v2 = pipeline.put(KEY, dropLastLine(day()));
        } while (!lastModified(v1).equals(lastModified(v2)));
        pipeline.deliver(eventWithTime(v1, v1Completed)); // V2's event is lost

        UnitStatus first = sweptStatus(); // re-drives V2
        LedgerItem item = pipeline.ledgerItem(DATASET, UNIT);
        assertEquals(v2.versionId(), item.input().versionId(), "the re-drive published the newer version (sweep said " + first + ")");
        assertLedgerNamesWhatS3Holds(item);
        // V1's event found V2 already in the inbox, so V1 was stale and only V2 was ever published
        assertEquals(UnitStatus.OK, sweptStatus(), "not UNPROCESSED for ever");
    }

    /**
     * Finding 8: V1's run promotes and pauses before its ledger write; V2 promotes over it and dies before its own;
     * V3 is refused. V1's ledger write must not record V1's ETag, which S3 no longer holds: readers read V2.
     */
    @Test
    void ledgerWriteAfterOthersMoved_recordsThePublishS3Holds() throws Exception {
        PipelineFixture.Uploaded v1 = pipeline.put(KEY, day());
        byte[] otherRows = dropLastLine(day());
        byte[] prohibited = (new String(day(), StandardCharsets.UTF_8)
                + PROHIBITED_LINE).getBytes(StandardCharsets.UTF_8);
        AtomicBoolean paused = new AtomicBoolean();
        AtomicReference<PipelineFixture.Uploaded> v2 = new AtomicReference<>();
        AtomicReference<PipelineFixture.Uploaded> v3 = new AtomicReference<>();
        pipeline.handler((step, unit) -> {
            if (step == IngestService.Step.PROMOTED && paused.compareAndSet(false, true)) {
                v2.set(pipeline.put(KEY, otherRows));
                ValidateObjectHandler dies = pipeline.handler((s, u) -> {
                    if (s == IngestService.Step.PROMOTED) {
                        throw new IllegalStateException("V2's function died after its promote");
                    }
                });
                assertThrows(RuntimeException.class, () -> Invocations.invoke(dies, eventNow(v2.get()), null));
                v3.set(deliverNow(KEY, prohibited));
            }
        }).handle(pipeline.eventFor(v1), null);

        LedgerItem item = pipeline.ledgerItem(DATASET, UNIT);
        assertEquals(LedgerStatus.PUBLISHED, item.status());
        assertEquals(v2.get().versionId(), item.input().versionId(), "readers read V2's publish: the ledger records it");
        assertLedgerNamesWhatS3Holds(item);
        assertEquals(AttemptOutcome.REFUSED, item.lastAttempt().outcome());
        assertEquals(v3.get().versionId(), item.lastAttempt().inputVersionId(), "and keeps the newest input's refusal");
        assertEquals(UnitStatus.REFUSED, sweptStatus());
    }

    /** {@link #deliverPut} from inside a step listener, which cannot throw checked exceptions. */
    private PipelineFixture.Uploaded deliverNow(String key, byte[] body) {
        PipelineFixture.Uploaded upload = pipeline.put(key, body);
        pipeline.deliver(eventNow(upload));
        return upload;
    }

    private S3Event eventNow(PipelineFixture.Uploaded upload) {
        try {
            return pipeline.eventFor(upload);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Finding 2: a forced repair after a contract change republishes under the new contract (the old code returned
     * early because the published object carried the same input SHA-256, leaving the old contract's output).
     */
    @Test
    void forcedRepairAfterAContractChange_republishesUnderTheNewContract() throws Exception {
        deliverPut(KEY, day());
        java.nio.file.Path changed = java.nio.file.Files.createTempDirectory("contracts");
        // the JSON contracts only: datasets/odcs/ holds the ODCS example
        try (var files = java.nio.file.Files.newDirectoryStream(PipelineFixture.REPOSITORY.resolve("datasets"), "*.json")) {
            for (java.nio.file.Path file : files) {
                String text = java.nio.file.Files.readString(file);
                if (file.getFileName().toString().equals(DATASET + ".json")) {
                    assertTrue(text.contains("\"version\": 1,"), "the bundled contract is version 1");
                    text = text.replace("\"version\": 1,", "\"version\": 2,");
                }
                java.nio.file.Files.writeString(changed.resolve(file.getFileName()), text);
            }
        }
        RepairService repair = new RepairService(ContractRegistry.fromDirectory(changed), pipeline.ledger, pipeline.store,
                pipeline.service(IngestService.StepListener.NONE), pipeline.inbox(), pipeline.lake(), Clock.systemUTC(), Duration.ZERO);
        RepairResult result = repair.run(RepairRequest.fromPayload(Map.of("dataset", DATASET, "units", List.of(UNIT), "force", true,
                "reason", "contract 2")), io.landingledger.core.ingest.Deadline.NONE, () -> UUID.randomUUID().toString());

        assertTrue(result.succeeded(), result.units().toString());
        LedgerItem item = pipeline.ledgerItem(DATASET, UNIT);
        var head = pipeline.s3.headObject(r -> r.bucket(pipeline.lake()).key(item.published().key()));
        assertEquals("2", head.metadata().get("contract-version"), "published/ holds the new contract's output");
        assertEquals(2, item.publishCount(), "a forced rebuild is a publish");
        assertLedgerNamesWhatS3Holds(item);
    }

    /**
     * Finding 9: an omit whose ledger transaction is cancelled for a TransactionConflict (another transaction on the
     * item at that moment) omits on the retry; the old code reported "it was published".
     */
    @Test
    void omitMeetingATransactionConflict_omits() throws Exception {
        FaultInjector faults = new FaultInjector();
        try (PipelineFixture faulty = new PipelineFixture(EMULATORS, List.of(faults), FastRetries.strategy())) {
            faults.fail(software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest.class::isInstance, 1,
                    () -> InjectedErrors.transactionCanceled("TransactionConflict"));
            RepairService repair = new RepairService(faulty.contracts(), faulty.ledger, faulty.store,
                    faulty.service(IngestService.StepListener.NONE), faulty.inbox(), faulty.lake(), Clock.systemUTC(), Duration.ZERO);
            RepairResult result = repair.run(RepairRequest.fromPayload(Map.of("dataset", DATASET, "units", List.of(UNIT), "action", "omit",
                    "reason", "no export that day")), io.landingledger.core.ingest.Deadline.NONE, () -> UUID.randomUUID().toString());

            assertEquals(1, faults.injected(), "the conflict happened");
            assertEquals(LedgerStatus.OMITTED, faulty.ledgerItem(DATASET, UNIT).status(), result.units().toString());
            assertTrue(result.succeeded(), result.units().toString());
        }
    }

    private Instant lastModified(PipelineFixture.Uploaded upload) {
        return pipeline.s3.headObject(r -> r.bucket(pipeline.inbox()).key(upload.key()).versionId(upload.versionId())).lastModified();
    }

    /** The notification S3 sends for one upload, with its event time in milliseconds as S3 writes it. */
    private S3Event eventWithTime(PipelineFixture.Uploaded upload, Instant time) throws IOException {
        var record = pipeline.eventFor(upload).getRecords().get(0);
        return new S3Event(List.of(new com.amazonaws.services.lambda.runtime.events.models.s3.S3EventNotification.S3EventNotificationRecord(
                record.getAwsRegion(), record.getEventName(), record.getEventSource(), time.truncatedTo(ChronoUnit.MILLIS).toString(),
                record.getEventVersion(), record.getRequestParameters(), record.getResponseElements(), record.getS3(),
                record.getUserIdentity())));
    }

    /** Other rows: the day without its last line. */
    private static byte[] dropLastLine(byte[] text) {
        List<String> lines = new ArrayList<>(List.of(new String(text, StandardCharsets.UTF_8).split("\n")));
        lines.removeIf(String::isBlank);
        lines.remove(lines.size() - 1);
        return (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] gzip(byte[] text) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(text);
        }
        return out.toByteArray();
    }

    /** The same rows, each with its keys in reverse order: the canonical rows are byte for byte the same. */
    private static byte[] reorderKeys(byte[] text) throws IOException {
        StringBuilder out = new StringBuilder();
        for (String line : new String(text, StandardCharsets.UTF_8).split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            List<Map.Entry<String, Object>> fields = new ArrayList<>(JSON.std.mapFrom(line).entrySet());
            Collections.reverse(fields);
            Map<String, Object> reversed = new LinkedHashMap<>();
            fields.forEach(f -> reversed.put(f.getKey(), f.getValue()));
            out.append(JSON.std.asString(reversed)).append('\n');
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The same rows in reverse order (each line's JSON as it is: the canonical rows do not change). */
    private static byte[] reorder(byte[] text) {
        List<String> lines = new ArrayList<>(List.of(new String(text, StandardCharsets.UTF_8).split("\n")));
        lines.removeIf(String::isBlank);
        Collections.reverse(lines);
        return (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    }
}
