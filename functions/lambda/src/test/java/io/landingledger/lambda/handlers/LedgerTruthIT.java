package io.landingledger.lambda.handlers;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.repair.RepairRequest;
import io.landingledger.core.repair.RepairResult;
import io.landingledger.core.repair.RepairService;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.UnitStatus;
import io.landingledger.lambda.testing.AwsEmulators;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import software.amazon.awssdk.core.sync.RequestBody;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

    private PipelineFixture pipeline;

    @BeforeEach
    void setUp() {
        pipeline = new PipelineFixture(EMULATORS);
    }

    @AfterEach
    void tearDown() {
        pipeline.close();
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
        assertEquals(UnitStatus.RESTATED, sweptStatus(), "not UNPROCESSED for ever");
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
        assertEquals(UnitStatus.RESTATED, sweptStatus());
    }

    /** User report 1: a re-send with one rejected line added: the ledger's counts and quarantine are the new input's. */
    @Test
    void resendWithOneRejectedLine_theLedgersCountsAndQuarantineDescribeIt() throws Exception {
        deliverPut(KEY, day());
        String withBadLine = new String(day(), StandardCharsets.UTF_8) + "{\"event_id\": \"bad\"}\n";
        PipelineFixture.Uploaded resent = deliverPut(KEY, withBadLine.getBytes(StandardCharsets.UTF_8));

        LedgerItem item = pipeline.ledgerItem(DATASET, UNIT);
        assertEquals(resent.versionId(), item.input().versionId());
        assertEquals(1, item.published().rejected());
        assertEquals(1, pipeline.keys("_quarantine/" + DATASET + "/unit=" + UNIT + "/").size());
        assertEquals(UnitStatus.RESTATED, sweptStatus());
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
        }).handleRequest(pipeline.eventFor(v1), null));
        PipelineFixture.Uploaded v2 = deliverPut(KEY, (new String(day(), StandardCharsets.UTF_8)
                + "{\"event_id\": \"x\", \"email\": \"someone@example.com\"}\n").getBytes(StandardCharsets.UTF_8));
        pipeline.deliver(pipeline.eventFor(v1)); // Lambda's retry of V1

        LedgerItem item = pipeline.ledgerItem(DATASET, UNIT);
        assertEquals(LedgerStatus.PUBLISHED, item.status(), "readers read V1's publish: the ledger says so");
        assertEquals(v1.versionId(), item.input().versionId());
        assertEquals("REFUSED", item.lastAttempt().outcome());
        assertEquals(v2.versionId(), item.lastAttempt().inputVersionId());
        assertEquals(UnitStatus.REFUSED, sweptStatus());
    }

    /** Finding 7: a late event for an old version must not turn a REFUSED unit into UNPROCESSED. */
    @Test
    void lateEventForAnOldVersion_keepsTheNewestRefusal() throws Exception {
        PipelineFixture.Uploaded v0 = pipeline.put(KEY, reorder(day()));
        deliverPut(KEY, day());
        deliverPut(KEY, (new String(day(), StandardCharsets.UTF_8)
                + "{\"event_id\": \"x\", \"email\": \"someone@example.com\"}\n").getBytes(StandardCharsets.UTF_8));
        pipeline.deliver(pipeline.eventFor(v0)); // delayed

        assertEquals("REFUSED", pipeline.ledgerItem(DATASET, UNIT).lastAttempt().outcome());
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
