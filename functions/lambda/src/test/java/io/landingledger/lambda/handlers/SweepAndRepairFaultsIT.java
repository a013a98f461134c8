package io.landingledger.lambda.handlers;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.Deadline;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.repair.RepairRequest;
import io.landingledger.core.repair.RepairResult;
import io.landingledger.core.repair.RepairService;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.UnitReport;
import io.landingledger.core.sweep.UnitStatus;
import io.landingledger.lambda.testing.AwsEmulators;
import io.landingledger.lambda.testing.FastRetries;
import io.landingledger.lambda.testing.FaultInjector;
import io.landingledger.lambda.testing.NormalisedSnapshot;
import io.landingledger.lambda.testing.PipelineFixture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static io.landingledger.lambda.testing.FastRetries.MAX_ATTEMPTS;
import static io.landingledger.lambda.testing.FastRetries.TRANSIENT_FAULTS;
import static io.landingledger.lambda.testing.InjectedErrors.dynamoError;
import static io.landingledger.lambda.testing.InjectedErrors.s3Error;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Faults injected at the SDK layer into the completeness sweep's and the operator repair's own calls (issue 7), with
 * InjectedFaultsIT's {@link FaultInjector}, {@link FastRetries} and {@link NormalisedSnapshot}. The scenario: 03-01 and 03-02
 * delivered and published, 03-03 in the inbox with its event lost (UNPROCESSED: the sweep re-drives it, the repair
 * publishes it). A persistent fault surfaces as a failure that claims nothing (no {@code latest.json}, no ledger entry
 * S3 does not back); a transient one is absorbed; after the retry the lake and the ledger equal a clean run's.
 */
class SweepAndRepairFaultsIT {
    @RegisterExtension
    static final AwsEmulators EMULATORS = new AwsEmulators();

    static final String DATASET = "progress_events";
    static final List<String> FILES = List.of("progress-2026-03-01.jsonl", "progress-2026-03-02.jsonl", "progress-2026-03-03.jsonl");
    static final String UNPROCESSED = "2026-03-03";
    /** One as-of for every sweep here (clean, faulty and retried), so that they name their reports alike. */
    static final Clock SWEEP_CLOCK = Clock.fixed(Instant.now().plus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS), ZoneOffset.UTC);
    static final String LATEST_JSON = CompletenessSweep.REPORTS_PREFIX + DATASET + "/latest.json";
    static final String LATEST_HTML = CompletenessSweep.REPORTS_PREFIX + DATASET + "/latest.html";

    private static final Map<String, String> CLEAN = new ConcurrentHashMap<>();

    private final List<PipelineFixture> fixtures = new ArrayList<>();
    private final FaultInjector faults = new FaultInjector();

    @AfterEach
    void tearDown() {
        fixtures.forEach(PipelineFixture::close);
    }

    /** The scenario in a pipeline: two units published through their events, the third's event lost. */
    private static List<PipelineFixture.Uploaded> scenario(PipelineFixture pipeline) throws IOException {
        List<PipelineFixture.Uploaded> uploads = new ArrayList<>();
        for (String file : FILES) {
            PipelineFixture.Uploaded upload = pipeline.putExample(DATASET, file);
            uploads.add(upload);
            if (!file.contains(UNPROCESSED)) {
                assertEquals("published", PipelineFixture.action(pipeline.deliver(pipeline.eventFor(upload))));
            }
        }
        return uploads;
    }

    private record Faulty(PipelineFixture pipeline, PipelineFixture.Uploaded[] uploads) {
    }

    private Faulty faulty() throws IOException {
        PipelineFixture pipeline = new PipelineFixture(EMULATORS, List.of(faults), FastRetries.strategy());
        fixtures.add(pipeline);
        return new Faulty(pipeline, scenario(pipeline).toArray(PipelineFixture.Uploaded[]::new));
    }

    /** The lake and the ledger (the reports and unit status aside: the sweep's are compared by their classification). */
    private static String state(PipelineFixture pipeline, PipelineFixture.Uploaded... uploads) {
        // one entry per object or item; a report's JSON and HTML span lines, none of which starts like an entry
        return java.util.Arrays.stream(NormalisedSnapshot.normalised(pipeline, uploads).split("\n(?=s3 |ledger |history )"))
                .filter(entry -> !entry.startsWith("s3 " + LakeLayout.REPORTS_PREFIX) && !entry.startsWith("s3 " + LakeLayout.STATUS_PREFIX)).collect(Collectors.joining("\n"));
    }

    /** The ledger never claims what S3 does not hold (invariant 2): every publish it records is there, with its ETag. */
    private static void assertLedgerBackedByS3(PipelineFixture pipeline) {
        for (LedgerItem item : pipeline.ledger.items(DATASET, "2026-03-01", "2026-03-31")) {
            if (item.status() == LedgerStatus.PUBLISHED) {
                var head = pipeline.store.head(pipeline.lake(), LakeLayout.publishedKey(DATASET, item.unit()));
                assertTrue(head.isPresent(), item.unit() + ": the ledger records a publish S3 does not hold");
                assertEquals(item.publishedEtag(), head.get().etag(), item.unit());
            }
        }
    }

    // ---- the sweep ----

    private static DatasetContract contract(PipelineFixture pipeline) {
        DatasetContract contract = pipeline.contracts().get(DATASET).orElseThrow();
        assertTrue(contract.unit().autoRedrive(), "the scenario needs the re-drive");
        return contract;
    }

    private static DatasetReport sweep(PipelineFixture pipeline) {
        return pipeline.sweep(SWEEP_CLOCK).sweep(contract(pipeline), "2026-03-01", UNPROCESSED);
    }

    /** Each unit's classification, as an operator reads the report. */
    private static String classification(DatasetReport report) {
        return report.units().stream().map(u -> u.unit() + " " + u.status() + " " + u.flags() + " " + u.reason())
                .collect(Collectors.joining("\n")) + "\ncomplete=" + report.complete();
    }

    private static String cleanSweep() {
        return CLEAN.computeIfAbsent("sweep", k -> {
            try (PipelineFixture pipeline = new PipelineFixture(EMULATORS)) {
                var uploads = scenario(pipeline).toArray(PipelineFixture.Uploaded[]::new);
                DatasetReport report = sweep(pipeline);
                assertEquals(List.of("published"), report.redrives().stream().map(r -> r.action()).toList());
                return classification(report) + "\n" + state(pipeline, uploads);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    /** What a persistent fault on the call does to the sweep. */
    enum SweepOutcome {
        /** The sweep fails before its reports are all written: latest.json is not written. */
        FAILS,
        /** The re-drive fails; the sweep reports it (action failed, unit not OK, incomplete) and completes. */
        REDRIVE_REPORTED_FAILED
    }

    enum SweepCall {
        /** The version listing of the dataset's inbox prefix (the sweep reads no inbox object). */
        LIST_INBOX((p, r) -> r instanceof ListObjectVersionsRequest l && l.bucket().equals(p.inbox()) && l.prefix().endsWith("/"),
                () -> s3Error(503, "SlowDown"), SweepOutcome.FAILS),
        LIST_PUBLISHED((p, r) -> r instanceof ListObjectsV2Request l && l.bucket().equals(p.lake()), () -> s3Error(500, "InternalError"),
                SweepOutcome.FAILS),
        QUERY_LEDGER((p, r) -> r instanceof QueryRequest, () -> dynamoError(400, "ThrottlingException"), SweepOutcome.FAILS),
        /** The re-drive's own version listing of the unit's keys (the ingest path orders its input by it). */
        LIST_UNIT_VERSIONS((p, r) -> r instanceof ListObjectVersionsRequest l && l.bucket().equals(p.inbox()) && !l.prefix().endsWith("/"),
                () -> s3Error(503, "SlowDown"), SweepOutcome.REDRIVE_REPORTED_FAILED),
        /** The re-drive's own read of the ledger fails (reported), then the reclassification's GetItem fails the sweep. */
        GET_ITEM((p, r) -> r instanceof GetItemRequest, () -> dynamoError(500, "InternalServerError"), SweepOutcome.FAILS),
        /** The re-drive's HEAD of published/ fails (reported), then the reclassification's HEAD fails the sweep. */
        HEAD_LAKE((p, r) -> r instanceof HeadObjectRequest h && h.bucket().equals(p.lake()), () -> s3Error(500, "InternalError"), SweepOutcome.FAILS),
        PUT_REPORTS((p, r) -> r instanceof PutObjectRequest put && put.key().startsWith(LakeLayout.REPORTS_PREFIX), () -> s3Error(503, "SlowDown"),
                SweepOutcome.FAILS),
        /** Only latest.html's put: the timestamped pair is written, and latest.json, written last, is not moved. */
        PUT_LATEST_HTML((p, r) -> r instanceof PutObjectRequest put && put.key().equals(LATEST_HTML), () -> s3Error(500, "InternalError"),
                SweepOutcome.FAILS),
        /** The re-drive's GetObject of the input. */
        REDRIVE_READ((p, r) -> r instanceof GetObjectRequest, () -> s3Error(500, "InternalError"), SweepOutcome.REDRIVE_REPORTED_FAILED),
        /** The re-drive's ledger write, after its promote (the crash table's promote row). */
        REDRIVE_LEDGER_WRITE((p, r) -> r instanceof TransactWriteItemsRequest, () -> dynamoError(500, "InternalServerError"),
                SweepOutcome.REDRIVE_REPORTED_FAILED);

        final BiPredicate<PipelineFixture, SdkRequest> matches;
        final Supplier<RuntimeException> fault;
        final SweepOutcome persistent;

        SweepCall(BiPredicate<PipelineFixture, SdkRequest> matches, Supplier<RuntimeException> fault, SweepOutcome persistent) {
            this.matches = matches;
            this.fault = fault;
            this.persistent = persistent;
        }
    }

    @ParameterizedTest
    @EnumSource(SweepCall.class)
    void sweep_persistentFault_failsClaimingNothing_andTheNextSweepEndsAsACleanOne(SweepCall call) throws Exception {
        String clean = cleanSweep();
        Faulty run = faulty();
        PipelineFixture pipeline = run.pipeline();
        faults.fail(r -> call.matches.test(pipeline, r), Integer.MAX_VALUE, call.fault);

        DatasetReport report = null;
        if (call.persistent == SweepOutcome.FAILS) {
            assertThrows(RuntimeException.class, () -> sweep(pipeline));
        } else {
            report = sweep(pipeline);
        }
        assertTrue(faults.injected() >= MAX_ATTEMPTS, "retried, then surfaced: " + faults.injected());
        faults.clear();
        switch (call.persistent) {
            case FAILS -> assertEquals(Optional.empty(), pipeline.store.head(pipeline.lake(), LATEST_JSON), "no report claimed as latest");
            case REDRIVE_REPORTED_FAILED -> {
                assertEquals(List.of("failed"), report.redrives().stream().map(r -> r.action()).toList());
                assertTrue(report.redrives().get(0).detail().contains("(injected)"), "the report names the fault: " + report.redrives().get(0).detail());
                UnitReport unit = report.units().stream().filter(u -> u.unit().equals(UNPROCESSED)).findFirst().orElseThrow();
                assertFalse(unit.status() == UnitStatus.OK, "the unit is not reported OK: " + unit.status());
                assertFalse(report.complete());
                assertTrue(pipeline.store.head(pipeline.lake(), LATEST_JSON).isPresent(), "the incomplete sweep is reported");
            }
        }
        assertLedgerBackedByS3(pipeline);
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX));
        assertEquals(0, pipeline.openMultipartUploads());

        DatasetReport retried = sweep(pipeline);
        assertTrue(retried.complete(), classification(retried));
        assertTrue(pipeline.store.head(pipeline.lake(), LATEST_JSON).isPresent());
        assertEquals(clean, classification(retried) + "\n" + state(pipeline, run.uploads()), "the end state equals a clean sweep's");
    }

    @ParameterizedTest
    @EnumSource(SweepCall.class)
    void sweep_transientFault_isAbsorbed_andTheSweepEndsAsACleanOne(SweepCall call) throws Exception {
        String clean = cleanSweep();
        Faulty run = faulty();
        PipelineFixture pipeline = run.pipeline();
        faults.fail(r -> call.matches.test(pipeline, r), TRANSIENT_FAULTS, call.fault);

        DatasetReport report = sweep(pipeline);
        assertEquals(TRANSIENT_FAULTS, faults.injected());
        assertEquals(List.of("published"), report.redrives().stream().map(r -> r.action()).toList());
        assertEquals(clean, classification(report) + "\n" + state(pipeline, run.uploads()));
    }

    // ---- the repair ----

    /** 03-02 is published from the same input (skipped, with a REPAIR_SKIPPED audit item), 03-03 is published by the repair. */
    private static RepairRequest repairOf(String... units) {
        return RepairRequest.fromPayload(Map.of("dataset", DATASET, "units", List.of(units), "reason", "INC-7 fault drill"));
    }

    private static RepairResult repair(PipelineFixture pipeline, RepairRequest request) {
        RepairService service = new RepairService(pipeline.contracts(), pipeline.ledger, pipeline.store,
                pipeline.service(IngestService.StepListener.NONE), pipeline.inbox(), pipeline.lake(), Clock.systemUTC(),
                RepairService.DEFAULT_SAFETY_MARGIN);
        return service.run(request, Deadline.NONE, () -> UUID.randomUUID().toString());
    }

    private static Map<String, String> actions(RepairResult result) {
        return result.units().stream().collect(Collectors.toMap(RepairResult.UnitResult::unit, RepairResult.UnitResult::action,
                (a, b) -> a, java.util.TreeMap::new));
    }

    private static String cleanRepair() {
        return CLEAN.computeIfAbsent("repair", k -> {
            try (PipelineFixture pipeline = new PipelineFixture(EMULATORS)) {
                var uploads = scenario(pipeline).toArray(PipelineFixture.Uploaded[]::new);
                RepairResult result = repair(pipeline, repairOf("2026-03-02", UNPROCESSED));
                assertEquals(Map.of("2026-03-02", "skipped", UNPROCESSED, "published"), actions(result));
                return state(pipeline, uploads);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    enum RepairCall {
        /** The inbox's version listing, before any unit: the repair fails. */
        LIST_INBOX((p, r) -> r instanceof ListObjectVersionsRequest l && l.prefix().endsWith("/"), () -> s3Error(503, "SlowDown"), null),
        /** The ledger read of the first unit's before-state: the repair fails. */
        GET_ITEM((p, r) -> r instanceof GetItemRequest, () -> dynamoError(400, "ThrottlingException"), null),
        /** The ingest path's version listing of a unit's keys (03-03 is the first unit that reads its input). */
        LIST_UNIT_VERSIONS((p, r) -> r instanceof ListObjectVersionsRequest l && !l.prefix().endsWith("/"), () -> s3Error(503, "SlowDown"),
                UNPROCESSED),
        PUT_STAGING((p, r) -> r instanceof PutObjectRequest put && put.key().startsWith(LakeLayout.STAGING_PREFIX),
                () -> s3Error(500, "InternalError"), UNPROCESSED),
        COMPLETE_PUBLISHED((p, r) -> r instanceof CompleteMultipartUploadRequest c && c.key().startsWith(LakeLayout.PUBLISHED_PREFIX),
                () -> s3Error(500, "InternalError"), UNPROCESSED),
        /** The publish's ledger transaction, after the promote (the crash table's promote row). */
        LEDGER_WRITE((p, r) -> r instanceof TransactWriteItemsRequest, () -> dynamoError(500, "InternalServerError"), UNPROCESSED),
        /** The REPAIR_SKIPPED audit item of the unchanged unit. */
        PUT_HISTORY((p, r) -> r instanceof PutItemRequest, () -> dynamoError(500, "InternalServerError"), "2026-03-02");

        final BiPredicate<PipelineFixture, SdkRequest> matches;
        final Supplier<RuntimeException> fault;
        /** The unit a persistent fault fails (the other one succeeds), or null when the whole repair fails. */
        final String failedUnit;

        RepairCall(BiPredicate<PipelineFixture, SdkRequest> matches, Supplier<RuntimeException> fault, String failedUnit) {
            this.matches = matches;
            this.fault = fault;
            this.failedUnit = failedUnit;
        }
    }

    @ParameterizedTest
    @EnumSource(RepairCall.class)
    void repair_persistentFault_failsTheUnitOrTheRun_claimingNothing_andTheRerunEndsAsACleanRepair(RepairCall call) throws Exception {
        String clean = cleanRepair();
        Faulty run = faulty();
        PipelineFixture pipeline = run.pipeline();
        faults.fail(r -> call.matches.test(pipeline, r), Integer.MAX_VALUE, call.fault);

        RepairRequest request = repairOf("2026-03-02", UNPROCESSED);
        if (call.failedUnit == null) {
            assertThrows(RuntimeException.class, () -> repair(pipeline, request));
        } else {
            RepairResult result = repair(pipeline, request);
            assertEquals("failed", actions(result).get(call.failedUnit), actions(result).toString());
            assertEquals(call.failedUnit.equals(UNPROCESSED) ? "skipped" : "published",
                    actions(result).get(call.failedUnit.equals(UNPROCESSED) ? "2026-03-02" : UNPROCESSED), "the other unit went on");
            assertFalse(result.succeeded());
        }
        assertEquals(MAX_ATTEMPTS, faults.injected(), "retried, then surfaced");
        faults.clear();
        assertLedgerBackedByS3(pipeline);
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX));
        assertEquals(0, pipeline.openMultipartUploads());
        if (call.failedUnit != null) {
            assertEquals(0, pipeline.history(DATASET, call.failedUnit).stream().filter(h -> h.runKind() == RunKind.REPAIR).count(),
                    "no audit item for the failed unit's repair");
        }

        // the operator reruns what did not succeed (the whole repair, or the failed unit as its table says)
        RepairResult rerun = repair(pipeline, call.failedUnit == null ? request : repairOf(call.failedUnit));
        assertTrue(rerun.succeeded(), actions(rerun).toString());
        assertLedgerBackedByS3(pipeline);
        assertEquals(clean, state(pipeline, run.uploads()), "the end state equals a clean repair's");
    }

    @ParameterizedTest
    @EnumSource(RepairCall.class)
    void repair_transientFault_isAbsorbed_andTheRepairEndsAsACleanOne(RepairCall call) throws Exception {
        String clean = cleanRepair();
        Faulty run = faulty();
        PipelineFixture pipeline = run.pipeline();
        faults.fail(r -> call.matches.test(pipeline, r), TRANSIENT_FAULTS, call.fault);

        RepairResult result = repair(pipeline, repairOf("2026-03-02", UNPROCESSED));
        assertEquals(TRANSIENT_FAULTS, faults.injected());
        assertEquals(Map.of("2026-03-02", "skipped", UNPROCESSED, "published"), actions(result));
        assertEquals(clean, state(pipeline, run.uploads()));
    }
}
