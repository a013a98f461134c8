package io.landingledger.lambda.handlers;

import io.landingledger.lambda.testing.Invocations;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.landingledger.core.contract.ContractLoader;
import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.ingest.IngestAction;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.repair.RepairService;
import io.landingledger.core.validate.Events;
import io.landingledger.core.validate.StreamingValidator;
import io.landingledger.core.validate.ValidationLimits;
import io.landingledger.core.validate.ValidationResult;
import io.landingledger.lambda.testing.AwsEmulators;
import io.landingledger.lambda.testing.PipelineFixture;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The ingest path with a duplicate-key index far smaller than the file (a 1-byte budget: a spilled run every 820
 * keys), on the embedded S3 and DynamoDB: the publish is byte-identical to what an index that never spills gives,
 * the first staging upload is aborted before a second pass over the same pinned version, a conflict across runs is
 * refused naming both lines, and no spill file is left.
 */
@ExtendWith(AwsEmulators.class)
class KeyIndexSpillIT {
    private static final String KEY = "progress_events/progress-2026-03-02.jsonl";
    private static final int KEYS = 3000;

    @TempDir
    Path spill;

    private final PipelineFixture pipeline;

    KeyIndexSpillIT(PipelineFixture pipeline) {
        this.pipeline = pipeline;
    }

    @BeforeEach
    void setUp() {
        pipeline.limits = ValidationLimits.builder().keyIndexMemoryBytes(1).spillDirectory(spill).build();
    }

    private static String row(int i, int attempt) {
        return Events.event("evt_" + i).text("learner_id", "lrn_" + (i % 97)).text("lesson_id", "les_1")
                .raw("attempt_number", Integer.toString(attempt)).text("event_time", "2026-03-02T10:00:00+02:00")
                .raw("checkpoint", Integer.toString(i % 7)).line() + "\n";
    }

    /** KEYS events, then identical repeats of early ones (their originals are in spilled runs by then), then {@code tail}. */
    private static byte[] day(String tail) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < KEYS; i++) {
            text.append(row(i, 1 + i % 3));
        }
        for (int i = 0; i < 40; i++) {
            text.append(row(i * 11, 1 + i * 11 % 3));
        }
        return (text + tail).getBytes(StandardCharsets.UTF_8);
    }

    private static ValidationResult unlimited(byte[] input, ByteArrayOutputStream accepted) throws IOException {
        StreamingValidator validator = new StreamingValidator(ContractLoader.load(PipelineFixture.REPOSITORY.resolve("datasets/progress_events.json")));
        return validator.validate(new ByteArrayInputStream(input), accepted, OutputStream.nullOutputStream());
    }

    private void assertNoSpillFileLeft() throws IOException {
        try (Stream<Path> left = Files.list(spill)) {
            assertEquals(List.of(), left.toList());
        }
    }

    @Test
    void ingest_whenIdenticalRepeatsCrossSpilledRuns_publishesWhatAnUnlimitedIndexWouldAfterASecondPass() throws Exception {
        byte[] input = day("");
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        ValidationResult reference = unlimited(input, expected);
        var upload = pipeline.put(KEY, input);

        pipeline.deliver(pipeline.eventFor(upload));

        IngestOutcome outcome = pipeline.outcomes.get(0);
        assertEquals(IngestAction.PUBLISHED, outcome.action());
        assertArrayEquals(expected.toByteArray(), pipeline.published("progress_events", "2026-03-02"));
        LedgerItem item = pipeline.ledgerItem("progress_events", "2026-03-02");
        assertEquals(reference.accepted(), item.published().accepted());
        assertEquals(reference.duplicates(), item.published().duplicates());
        assertEquals(40, reference.duplicates());
        List<GetObjectRequest> reads = pipeline.requests.of(GetObjectRequest.class).stream()
                .filter(r -> r.bucket().equals(pipeline.inbox())).toList();
        assertEquals(2, reads.size(), "the input is read twice");
        reads.forEach(r -> assertEquals(upload.versionId(), r.versionId(), "both passes read the pinned version"));
        // the first pass's staging (smaller than one part) is discarded before any byte of it reaches S3
        List<PutObjectRequest> staging = pipeline.requests.of(PutObjectRequest.class).stream()
                .filter(r -> r.key().startsWith(LakeLayout.STAGING_PREFIX)).toList();
        assertEquals(1, staging.size(), "only the final pass is staged");
        assertEquals(0, pipeline.openMultipartUploads());
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX));
        assertNoSpillFileLeft();
    }

    @Test
    void ingest_whenAKeyConflictsAcrossSpilledRuns_refusesNamingBothLinesAndPublishesNothing() throws Exception {
        byte[] input = day(row(7, 3)); // evt_7 was line 8 with attempt_number 2
        long conflictLine = KEYS + 40 + 1;
        var upload = pipeline.put(KEY, input);

        pipeline.deliver(pipeline.eventFor(upload));

        IngestOutcome outcome = pipeline.outcomes.get(0);
        assertEquals(IngestAction.REFUSED, outcome.action());
        assertEquals("KEY_CONFLICT", outcome.refusalCode());
        assertEquals("the event_id on line " + conflictLine + " repeats the one on line 8 with a different payload", outcome.detail());
        assertEquals(LedgerStatus.REFUSED, pipeline.ledgerItem("progress_events", "2026-03-02").status());
        assertEquals(List.of(), pipeline.keys(LakeLayout.PUBLISHED_PREFIX));
        assertEquals(0, pipeline.openMultipartUploads());
        assertTrue(pipeline.keys(LakeLayout.STAGING_PREFIX).isEmpty());
        assertNoSpillFileLeft();
    }

    @Test
    void repair_whenAFileWasRefusedTooManyKeysAndTheFunctionGotMoreRoom_publishesOnlyWhenForced() throws Exception {
        // the operator's path after TOO_MANY_KEYS (docs/operations.md, Limits): raise the budget, then repair with force
        pipeline.limits = ValidationLimits.builder().keyIndexMemoryBytes(1).keyIndexDiskBytes(40_000).spillDirectory(spill).build();
        byte[] input = day("");
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        unlimited(input, expected);
        var upload = pipeline.put(KEY, input);

        pipeline.deliver(pipeline.eventFor(upload));

        IngestOutcome refused = pipeline.outcomes.get(0);
        assertEquals("TOO_MANY_KEYS", refused.refusalCode());
        assertTrue(refused.detail().contains("then repair the unit with force"), refused.detail());
        assertEquals(LedgerStatus.REFUSED, pipeline.ledgerItem("progress_events", "2026-03-02").status());
        assertNoSpillFileLeft();

        pipeline.limits = ValidationLimits.builder().keyIndexMemoryBytes(1).spillDirectory(spill).build(); // disk unbounded
        repair(false);
        assertEquals(LedgerStatus.REFUSED, pipeline.ledgerItem("progress_events", "2026-03-02").status(),
                "the same input version: without force the recorded refusal stands");
        assertEquals(List.of(), pipeline.keys(LakeLayout.PUBLISHED_PREFIX));

        repair(true);
        LedgerItem item = pipeline.ledgerItem("progress_events", "2026-03-02");
        assertEquals(LedgerStatus.PUBLISHED, item.status());
        assertEquals(upload.versionId(), item.input().versionId());
        assertArrayEquals(expected.toByteArray(), pipeline.published("progress_events", "2026-03-02"));
        assertEquals(0, pipeline.openMultipartUploads());
        assertNoSpillFileLeft();
    }

    private void repair(boolean force) {
        ContractRegistry contracts = ContractRegistry.fromDirectory(PipelineFixture.REPOSITORY.resolve("datasets"));
        RepairService service = new RepairService(contracts, pipeline.ledger, pipeline.store, pipeline.service(IngestService.StepListener.NONE),
                pipeline.inbox(), pipeline.lake(), Clock.systemUTC(), Duration.ZERO);
        Invocations.invoke(new RepairHandler(service, () -> UUID.randomUUID().toString()), Map.of("dataset", "progress_events",
                "units", List.of("2026-03-02"), "reason", "validator given a larger key index", "force", force), null);
    }
}
