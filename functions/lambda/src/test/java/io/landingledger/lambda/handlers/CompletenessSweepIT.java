package io.landingledger.lambda.handlers;

import io.landingledger.lambda.testing.Invocations;
import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.ledger.AttemptOutcome;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.LastAttempt;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.Redrive;
import io.landingledger.core.sweep.UnitReport;
import io.landingledger.core.store.ObjectNotFoundException;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.store.Precondition;
import io.landingledger.core.store.StoredObject;
import io.landingledger.core.sweep.UnitStatus;
import io.landingledger.core.validate.Events;
import io.landingledger.core.validate.ValidationLimits;
import io.landingledger.lambda.DatasetMetrics;
import io.landingledger.lambda.adapters.LedgerSeeding;
import io.landingledger.lambda.testing.AwsEmulators;
import io.landingledger.lambda.testing.PipelineFixture;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The completeness sweep (docs/design.md section 5) on S3Proxy and moto_server: the ledger, the inbox and published/
 * built by the real ingest path (the handler Lambda runs), then swept. Every status has a scenario of its own.
 */
@ExtendWith(AwsEmulators.class)
class CompletenessSweepIT {
    private static final String DATASET = "progress_events";
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    private final PipelineFixture pipeline;

    CompletenessSweepIT(PipelineFixture pipeline) {
        this.pipeline = pipeline;
    }

    // ---- (a) 100 expected days, 2 failed ----

    @Test
    void sweep_hundredDaysWithOneMissingAndOneRefused_listsExactlyThoseTwo() throws Exception {
        LocalDate first = LocalDate.parse("2026-03-01");
        List<PipelineFixture.Uploaded> uploads = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String unit = first.plusDays(i).toString();
            if (unit.equals("2026-04-10")) {
                continue; // never sent
            }
            byte[] body = unit.equals("2026-05-20") ? refusedFile(unit) : file(unit, 3);
            uploads.add(put(unit, body));
        }
        for (int i = 0; i < uploads.size(); i += 11) {
            pipeline.deliver(pipeline.eventAt(uploads.subList(i, Math.min(uploads.size(), i + 11)).toArray(PipelineFixture.Uploaded[]::new)));
        }
        pipeline.requests.clear();

        DatasetReport report = pipeline.sweep(Clock.systemUTC()).sweep(contract(), "2026-03-01", "2026-06-08");

        assertEquals(100, report.units().size());
        assertEquals(Map.of("2026-04-10", "MISSING NO_INPUT", "2026-05-20", "REFUSED PROHIBITED_FIELD"), notOk(report),
                () -> evidence(report));
        assertEquals(98, report.counts().get(UnitStatus.OK));
        assertFalse(report.complete());
        assertEquals(List.of(), report.redrives());
        assertOnlyReportsWritten();
        assertTrue(report.oldestUnpublishedAgeSeconds() > 0, "the missing day is owed since its deadline");
    }

    // ---- (b) each status from a scenario built for it ----

    /** What {@link #buildEveryStatus()} makes, unit by unit, before any re-drive. */
    private static final Map<String, String> EVERY_STATUS = new TreeMap<>(Map.of(
            "2026-05-02", "LEDGER_DRIFT PUBLISHED_OBJECT_MISSING",
            "2026-05-05", "UNPROCESSED NEWER_INPUT",
            "2026-05-08", "UNPROCESSED NEWER_INPUT",
            "2026-05-11", "REFUSED PROHIBITED_FIELD",
            "2026-05-13", "REFUSED PROHIBITED_FIELD",
            "2026-05-16", "EMPTY NO_ROWS",
            "2026-05-19", "RESTATED ROWS_CHANGED_1_TIMES",
            "2026-05-22", "OMITTED source system retired for the day",
            "2026-05-25", "UNPROCESSED NOT_IN_LEDGER",
            "2026-05-28", "MISSING NO_INPUT"));

    /**
     * May 2026, every day a clean publish except:
     * <ul>
     *   <li>05-02 LEDGER_DRIFT: published, then the published object is deleted behind the ledger's back.</li>
     *   <li>05-05 UNPROCESSED: published from v1; the producer's v2 arrives and its event is lost.</li>
     *   <li>05-08 withdrawn input: v1 published, v2 published (restated), then the producer deletes version v2: the
     *       inbox's current input is v1 again, while readers see data built from v2, an input the producer withdrew.
     *       The unit follows the inbox (docs/design.md, "Which input is newer": a version the inbox no longer holds is
     *       older than every one it holds), so v1 is the newest input and unprocessed; a re-drive republishes it.</li>
     *   <li>05-11 REFUSED: the only input has a prohibited field (never published).</li>
     *   <li>05-13 REFUSED: published from v1; the newer v2 is refused; v1's publish still stands.</li>
     *   <li>05-16 EMPTY: a file with no line, published with 0 rows.</li>
     *   <li>05-19 RESTATED: v1 then a corrected v2, both delivered: publish_count 2.</li>
     *   <li>05-22 OMITTED: the ledger item an operator's omit writes (RunKind OMIT), written through the Ledger port.</li>
     *   <li>05-25 lost event: the file is in the inbox, no event was ever delivered (no ledger item).</li>
     *   <li>05-28 MISSING: nothing arrived and the deadline passed.</li>
     * </ul>
     */
    private void buildEveryStatus() throws Exception {
        List<PipelineFixture.Uploaded> clean = new ArrayList<>();
        for (int day = 1; day <= 31; day++) {
            String unit = LocalDate.of(2026, 5, day).toString();
            if (!EVERY_STATUS.containsKey(unit)) {
                clean.add(put(unit, file(unit, 2 + day % 4)));
            }
        }
        clean.add(put("2026-05-02", file("2026-05-02", 4)));
        PipelineFixture.Uploaded restated1 = put("2026-05-05", file("2026-05-05", 3));
        PipelineFixture.Uploaded drift1 = put("2026-05-08", file("2026-05-08", 3));
        clean.add(put("2026-05-11", refusedFile("2026-05-11")));
        PipelineFixture.Uploaded refusedLater1 = put("2026-05-13", file("2026-05-13", 3));
        clean.add(put("2026-05-16", new byte[0]));
        PipelineFixture.Uploaded corrected1 = put("2026-05-19", file("2026-05-19", 3));
        clean.addAll(List.of(restated1, drift1, refusedLater1, corrected1));
        for (int i = 0; i < clean.size(); i += 10) {
            pipeline.deliver(pipeline.eventAt(clean.subList(i, Math.min(clean.size(), i + 10)).toArray(PipelineFixture.Uploaded[]::new)));
        }

        pipeline.s3.deleteObject(r -> r.bucket(pipeline.lake()).key(LakeLayout.publishedKey(DATASET, "2026-05-02")));
        put("2026-05-05", file("2026-05-05", 5)); // its event is lost
        Thread.sleep(1_100); // LastModified has one-second resolution: v2 is strictly newer than v1
        PipelineFixture.Uploaded drift2 = put("2026-05-08", file("2026-05-08", 4));
        pipeline.deliver(pipeline.eventAt(drift2));
        pipeline.s3.deleteObject(r -> r.bucket(pipeline.inbox()).key(drift2.key()).versionId(drift2.versionId()));
        pipeline.deliver(pipeline.eventAt(put("2026-05-13", refusedFile("2026-05-13"))));
        pipeline.deliver(pipeline.eventAt(put("2026-05-19", file("2026-05-19", 4))));
        omit("2026-05-22", "source system retired for the day");
        put("2026-05-25", file("2026-05-25", 3)); // no event at all
    }

    @Test
    void sweep_everyStatusScenario_classifiesEachUnit_andWritesOnlyReports() throws Exception {
        buildEveryStatus();
        pipeline.requests.clear();

        DatasetReport report = pipeline.sweep(Clock.systemUTC()).sweep(contractWithAutoRedrive(false), "2026-05-01", "2026-05-31");

        assertEquals(EVERY_STATUS, notOk(report), () -> evidence(report));
        assertEquals(21, report.counts().get(UnitStatus.OK));
        assertEquals(List.of(UnitStatus.UNPROCESSED, UnitStatus.RESTATED), unit(report, "2026-05-08").flags());
        assertTrue(unit(report, "2026-05-13").detail().contains("still stands"), unit(report, "2026-05-13").detail());
        assertEquals(List.of(), report.redrives(), "autoRedrive is off: reported, not re-driven");
        assertFalse(report.complete());
        assertOnlyReportsWritten();
        // freshness figures: every published unit has an age and a lateness (published long after its May deadline)
        UnitReport ok = unit(report, "2026-05-01");
        assertNotNull(ok.ageSeconds());
        assertTrue(ok.publishedAfterDeadlineSeconds() > 0);
        assertTrue(unit(report, "2026-05-28").unpublishedAgeSeconds() > 0);

        // the JSON report holds the same, and neither report holds row content (ids, learner or lesson values)
        Map<String, Object> json = JSON.std.mapFrom(lakeText(report.reports().latestJson()));
        assertEquals(false, json.get("complete"));
        assertEquals(31, json.get("expected"));
        @SuppressWarnings("unchecked")
        Map<String, Object> counts = (Map<String, Object>) json.get("counts");
        assertEquals(2, counts.get("REFUSED"));
        assertEquals(lakeText(report.reports().json()), lakeText(report.reports().latestJson()));
        for (String key : List.of(report.reports().json(), report.reports().html())) {
            String text = lakeText(key);
            for (String content : List.of("evt_", "lrn_", "les_", "a@example.com")) {
                assertFalse(text.contains(content), key + " holds row content " + content);
            }
        }
    }

    @Test
    void sweep_withAutoRedrive_redrivesTheUnprocessedInputs_thenIsIdempotent() throws Exception {
        buildEveryStatus();
        pipeline.requests.clear();

        DatasetReport report = pipeline.sweep(Clock.systemUTC()).sweep(contract(), "2026-05-01", "2026-05-31");

        Map<String, String> redrives = new TreeMap<>();
        for (Redrive redrive : report.redrives()) {
            redrives.put(redrive.unit(), redrive.action() + " " + redrive.statusBefore() + " -> " + redrive.statusAfter());
            assertNotNull(redrive.versionId(), "the re-drive reads the version the version listing named");
            assertEquals("INGEST", redrive.outcome().runKind());
        }
        // a deleted published object (05-02) is republished (the same rows: OK, not a restatement) and a withdrawn input
        // (05-08) rebuilt from what the inbox serves again: the re-drive is the ingest path, whose decision repairs drift
        // as it processes a lost event
        assertEquals(Map.of("2026-05-02", "published LEDGER_DRIFT -> OK", "2026-05-05", "published UNPROCESSED -> RESTATED",
                "2026-05-08", "published UNPROCESSED -> RESTATED", "2026-05-25", "published UNPROCESSED -> OK"), redrives);
        assertEquals(UnitStatus.RESTATED, unit(report, "2026-05-05").status());
        assertEquals(2, pipeline.ledgerItem(DATASET, "2026-05-05").publishCount());
        assertEquals(UnitStatus.OK, unit(report, "2026-05-25").status());
        assertEquals(RunKind.INGEST, pipeline.ledgerItem(DATASET, "2026-05-25").runKind());
        // only the re-driven units were written outside _reports/ and _status/
        for (PutObjectRequest put : pipeline.requests.of(PutObjectRequest.class)) {
            assertTrue(put.key().startsWith(LakeLayout.REPORTS_PREFIX) || put.key().equals(LakeLayout.statusKey(DATASET)) || put.key().contains("2026-05-02") || put.key().contains("2026-05-05")
                    || put.key().contains("2026-05-08") || put.key().contains("2026-05-25"), put.key());
        }
        Map<String, String> rest = new TreeMap<>(EVERY_STATUS);
        rest.remove("2026-05-25");
        rest.remove("2026-05-02");
        assertEquals(2, pipeline.ledgerItem(DATASET, "2026-05-02").publishCount(), "the republish is counted");
        rest.put("2026-05-05", "RESTATED ROWS_CHANGED_1_TIMES");
        rest.put("2026-05-08", "RESTATED ROWS_CHANGED_2_TIMES"); // v1's rows, v2's, then v1's again
        assertEquals(rest, notOk(report), () -> evidence(report));

        pipeline.requests.clear();
        DatasetReport again = pipeline.sweep(Clock.systemUTC()).sweep(contract(), "2026-05-01", "2026-05-31");
        assertEquals(List.of(), again.redrives(), "a second sweep finds nothing to re-drive");
        assertOnlyReportsWritten();
    }

    /**
     * A re-drive that cannot write (infra/template.yaml gives the sweep's role no write outside _reports/, so on AWS
     * every re-drive fails at its staging upload): reported as failed with the fault's name, the unit stays
     * UNPROCESSED, the other units are still re-driven and the reports are still written.
     */
    @Test
    void sweep_redriveThatCannotWrite_isReportedFailed_andTheSweepGoesOn() throws Exception {
        put("2026-06-01", file("2026-06-01", 2));
        put("2026-06-02", file("2026-06-02", 2));
        ObjectStore readOnly = new ObjectStore() {
            @Override
            public Optional<StoredObject> head(String bucket, String key) {
                return pipeline.store.head(bucket, key);
            }

            @Override
            public OpenedObject open(String bucket, String key, String versionId) throws ObjectNotFoundException {
                return pipeline.store.open(bucket, key, versionId);
            }

            @Override
            public StreamingUpload startUpload(String bucket, String key, String contentType) {
                throw new IllegalStateException("Access Denied (Service: S3, Status Code: 403)");
            }

            @Override
            public void put(String bucket, String key, byte[] body, String contentType) {
                pipeline.store.put(bucket, key, body, contentType);
            }

            @Override
            public String promote(String bucket, String sourceKey, String targetKey, Map<String, String> metadata,
                                  Precondition precondition) {
                throw new IllegalStateException("Access Denied (Service: S3, Status Code: 403)");
            }

            @Override
            public void delete(String bucket, String key) {
                throw new IllegalStateException("Access Denied (Service: S3, Status Code: 403)");
            }

            @Override
            public Iterable<ListedObject> list(String bucket, String prefix) {
                return pipeline.store.list(bucket, prefix);
            }

            @Override
            public Iterable<ListedVersion> versions(String bucket, String prefix) {
                return pipeline.store.versions(bucket, prefix);
            }
        };
        IngestService ingest = new IngestService(readOnly, pipeline.ledger, pipeline.lake(), Clock.systemUTC(), ValidationLimits.defaults(),
                IngestService.StepListener.NONE);
        CompletenessSweep sweep = new CompletenessSweep(pipeline.store, pipeline.ledger, ingest, new UnitRouter(pipeline.contracts()),
                pipeline.inbox(), pipeline.lake(), Clock.systemUTC(), () -> UUID.randomUUID().toString());

        DatasetReport report = sweep.sweep(contract(), "2026-06-01", "2026-06-02");

        assertEquals(2, report.redrives().size());
        for (Redrive redrive : report.redrives()) {
            assertEquals("failed", redrive.action());
            assertTrue(redrive.detail().startsWith("IllegalStateException: Access Denied"), redrive.detail());
            assertEquals(UnitStatus.UNPROCESSED, redrive.statusAfter());
        }
        assertEquals(2, report.counts().get(UnitStatus.UNPROCESSED));
        assertFalse(report.complete());
        assertTrue(lakeText(report.reports().latestHtml()).contains("Access Denied"));
    }

    @Test
    void sweep_noInput_isPendingBeforeTheDeadlineAndMissingAtIt_omittedAndPendingAreComplete() throws Exception {
        omit("2026-03-18", "holiday: the producer sends nothing");
        // progress_events: graceHours 6, so 2026-03-19 is due by 2026-03-20T06:00Z
        Instant deadline = Instant.parse("2026-03-20T06:00:00Z");

        DatasetReport before = pipeline.sweep(Clock.fixed(deadline.minusSeconds(1), ZoneOffset.UTC)).sweep(contract(), "2026-03-18", "2026-03-19");
        assertEquals(UnitStatus.OMITTED, unit(before, "2026-03-18").status());
        assertEquals(UnitStatus.PENDING, unit(before, "2026-03-19").status());
        assertEquals(deadline, unit(before, "2026-03-19").deadline());
        assertTrue(before.complete(), "PENDING and OMITTED do not fail completeness");
        assertEquals(0, before.oldestUnpublishedAgeSeconds());

        DatasetReport at = pipeline.sweep(Clock.fixed(deadline, ZoneOffset.UTC)).sweep(contract(), "2026-03-18", "2026-03-19");
        assertEquals(UnitStatus.MISSING, unit(at, "2026-03-19").status());
        assertFalse(at.complete());

        DatasetReport later = pipeline.sweep(Clock.fixed(deadline.plusSeconds(5400), ZoneOffset.UTC)).sweep(contract(), "2026-03-18", "2026-03-19");
        assertEquals(5400, later.oldestUnpublishedAgeSeconds());
        assertEquals(5400L, unit(later, "2026-03-19").unpublishedAgeSeconds());
    }

    // ---- (c) request count ----

    /**
     * 1,100 units, all healthy but 2 missing and 3 with a newer unprocessed version: the sweep reads them with 2
     * ListObjectsV2 pages of the inbox, 2 of published/, the ledger Query's pages, and one HEAD per unit whose
     * listing differs from the ledger (3): nothing per healthy unit, no Scan, no GetItem.
     */
    @Test
    void sweep_elevenHundredUnits_readsInPagesNotPerUnit() throws Exception {
        DatasetContract contract = withUnit(contract(), "2023-01-01", false);
        LocalDate first = LocalDate.parse("2023-01-01");
        int units = 1_100;
        List<LedgerItem> items = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService seeders = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> seeded = new ArrayList<>();
            for (int i = 0; i < units; i++) {
                String unit = first.plusDays(i).toString();
                if (i == 17 || i == 1_050) {
                    continue; // missing
                }
                seeded.add(seeders.submit(() -> items.add(healthyUnit(unit))));
            }
            for (Future<?> future : seeded) {
                future.get(5, TimeUnit.MINUTES);
            }
        } finally {
            seeders.shutdownNow();
        }
        LedgerSeeding.putAll(pipeline.dynamo, pipeline.resources.ledgerTable(), items);
        for (int i : new int[] {3, 500, 1_099}) {
            put(first.plusDays(i).toString(), file(first.plusDays(i).toString(), 2)); // a newer version, event lost
        }
        String last = first.plusDays(units - 1).toString();
        pipeline.requests.clear();

        DatasetReport report = pipeline.sweep(Clock.systemUTC()).sweep(contract, first.toString(), last);

        assertEquals(units, report.units().size());
        assertEquals(2, report.counts().get(UnitStatus.MISSING));
        assertEquals(3, report.counts().get(UnitStatus.UNPROCESSED));
        assertEquals(units - 5, report.counts().get(UnitStatus.OK));
        Map<String, Long> requests = requestCounts();
        System.err.println("CompletenessSweepIT: requests for " + units + " units: " + requests);
        assertEquals(2L, requests.getOrDefault("ListObjectVersionsRequest", 0L), "1,101 inbox versions: 2 pages");
        assertEquals(2L, requests.getOrDefault("ListObjectsV2Request", 0L), "1,098 published objects: 2 pages");
        long queries = requests.getOrDefault("QueryRequest", 0L);
        // the range's Query, and one of all the dataset's items for ledger-held units its cadence cannot name (their
        // keys sort anywhere: CompletenessSweep.invalidUnits), each paged by DynamoDB's 1 MB pages: here the range is
        // the whole dataset, so each is one or two pages; neither grows with a request per unit
        assertTrue(queries >= 2 && queries <= 4, "two ledger Queries, paged by DynamoDB's 1 MB pages: " + queries);
        assertEquals(0L, requests.getOrDefault("HeadObjectRequest", 0L), "no request per unit: the version listing names every version");
        assertEquals(5L, requests.getOrDefault("PutObjectRequest", 0L), "the four reports and _status/<dataset>/status.jsonl");
        assertEquals(2 + 2 + queries + 5, requests.values().stream().mapToLong(Long::longValue).sum(), "nothing else: " + requests);
    }

    /**
     * A unit as a clean publish leaves it, made directly (the ingest path would take minutes for 1,100 units): its
     * inbox object and published object, and the ledger item that vouches for both.
     */
    private LedgerItem healthyUnit(String unit) {
        return healthyUnit(unit, 1);
    }

    /** {@link #healthyUnit(String)} whose publish the ledger records with {@code rows} accepted rows. */
    private LedgerItem healthyUnit(String unit, long rows) {
        PipelineFixture.Uploaded upload = put(unit, file(unit, 1));
        String key = LakeLayout.publishedKey(DATASET, unit);
        String etag = PipelineFixture.unquote(pipeline.s3.putObject(r -> r.bucket(pipeline.lake()).key(key),
                RequestBody.fromString("{\"rows\":1}\n")).eTag());
        Instant now = Instant.now();
        String runId = UUID.randomUUID().toString();
        var input = new io.landingledger.core.ledger.InputIdentity(pipeline.inbox(), upload.key(), upload.versionId(), upload.etag(),
                "0".repeat(64), upload.size(), upload.sequencer(), now);
        var published = new io.landingledger.core.ledger.PublishedRef(key, etag, rows, 0, 0, null);
        return LedgerItem.builder(DATASET, unit)
                .status(LedgerStatus.PUBLISHED)
                .input(input)
                .published(published)
                .run(runId, RunKind.INGEST)
                .contractVersion(1)
                .publishCount(1)
                .publishedAt(now, now)
                .lastAttempt(LastAttempt.builder().at(now).runId(runId).runKind(RunKind.INGEST).outcome(AttemptOutcome.PUBLISHED)
                        .inputVersionId(upload.versionId()).inputSha256(input.sha256()).build())
                .build();
    }

    private Map<String, Long> requestCounts() {
        synchronized (pipeline.requests.all) {
            return pipeline.requests.all.stream().collect(Collectors.groupingBy(r -> r.getClass().getSimpleName(), TreeMap::new,
                    Collectors.counting()));
        }
    }

    // ---- the handler and the schedule's payload ----

    @Test
    void handleRequest_schedulePayload_sweepsEveryDatasetOverItsDefaultRange_andEmitsMetrics() throws Exception {
        // 2026-03-01..03-08 published except 03-04; 03-09's event was lost; 03-10 is not due until 03-11T06:00
        List<PipelineFixture.Uploaded> uploads = new ArrayList<>();
        for (int day = 1; day <= 8; day++) {
            if (day != 4) {
                uploads.add(put("2026-03-0" + day, file("2026-03-0" + day, 2)));
            }
        }
        pipeline.deliver(pipeline.eventAt(uploads.toArray(PipelineFixture.Uploaded[]::new)));
        put("2026-03-09", file("2026-03-09", 2));
        Instant now = Instant.parse("2026-03-10T12:00:00Z");
        List<io.landingledger.core.ingest.IngestOutcome> logged = new ArrayList<>();
        io.landingledger.lambda.OutcomeReporter reporter = new io.landingledger.lambda.OutcomeReporter() {
            @Override
            public void outcome(io.landingledger.core.ingest.IngestOutcome outcome) {
                logged.add(outcome);
            }

            @Override
            public void unroutable(String bucket, String key, String versionId, String reason, String detail) {
            }

            @Override
            public void failed(String bucket, String key, String versionId, String runId, RuntimeException fault) {
            }
        };
        @SuppressWarnings("unchecked")
        Map<String, Object> payload = JSON.std.mapFrom(Files.readString(PipelineFixture.REPOSITORY.resolve("events/sweep-schedule.json")));

        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        PrintStream original = System.out;
        Map<String, Object> response;
        System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
        try {
            CompletenessSweepHandler handler = new CompletenessSweepHandler(pipeline.contracts(),
                    pipeline.sweep(Clock.fixed(now, ZoneOffset.UTC)), DatasetMetrics.toStandardOutput(), reporter);
            response = Invocations.invoke(handler, payload, null);
        } finally {
            System.setOut(original);
        }

        assertEquals(now.toString(), response.get("as_of"));
        assertEquals(false, response.get("complete"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> datasets = (List<Map<String, Object>>) response.get("datasets");
        assertEquals(List.of("progress_events", "transactions"), datasets.stream().map(d -> d.get("dataset")).toList());
        Map<String, Object> progress = datasets.get(0);
        assertEquals("2026-03-01", progress.get("from"));
        assertEquals("2026-03-10", progress.get("to"));
        assertEquals(10, progress.get("expected"));
        assertEquals(false, progress.get("complete"));
        assertEquals(List.of(Map.of("unit", "2026-03-04", "status", "MISSING", "reason", "NO_INPUT",
                        "detail", "no input arrived; it was due by 2026-03-05T06:00:00Z"),
                        Map.of("unit", "2026-03-10", "status", "PENDING", "reason", "NOT_DUE", "detail", "no input yet; due by 2026-03-11T06:00:00Z")),
                progress.get("not_ok"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> redrives = (List<Map<String, Object>>) progress.get("redrives");
        assertEquals(1, redrives.size());
        assertEquals("2026-03-09", redrives.get(0).get("unit"));
        assertEquals("published", redrives.get(0).get("action"));
        assertEquals("OK", redrives.get(0).get("status_after"));
        assertEquals(1, logged.size(), "the re-drive's outcome is reported like the validator's");
        @SuppressWarnings("unchecked")
        Map<String, Object> keys = (Map<String, Object>) progress.get("reports");
        assertEquals("_reports/completeness/progress_events/20260310T120000Z.json", keys.get("json"));
        for (Object key : keys.values()) {
            assertFalse(lakeText((String) key).isEmpty(), key + " is written");
        }
        Map<String, Object> transactions = datasets.get(1);
        assertEquals(0, transactions.get("expected"), "transactions' first unit (2026-10-01) is after the range");
        assertEquals(true, transactions.get("complete"));

        // one EMF document per dataset, with the per-status counts
        List<Map<String, Object>> emf = new ArrayList<>();
        for (String line : stdout.toString(StandardCharsets.UTF_8).split("\n")) {
            if (line.contains("\"_aws\"")) {
                emf.add(JSON.std.mapFrom(line));
            }
        }
        Map<String, Object> document = emf.stream().filter(d -> "progress_events".equals(d.get("dataset"))).findFirst().orElseThrow();
        assertEquals(10, ((Number) document.get("UnitsExpected")).intValue());
        assertEquals(8, ((Number) document.get("UnitsOk")).intValue());
        assertEquals(1, ((Number) document.get("UnitsMissing")).intValue());
        assertEquals(1, ((Number) document.get("UnitsPending")).intValue());
        assertEquals(0, ((Number) document.get("UnitsRefused")).intValue());
        assertEquals(1, ((Number) document.get("UnitsRedriven")).intValue());
        assertEquals(Instant.parse("2026-03-05T06:00:00Z").until(now, java.time.temporal.ChronoUnit.SECONDS),
                ((Number) document.get("OldestUnpublishedAgeSeconds")).longValue());
        String aws = JSON.std.asString(document.get("_aws"));
        assertTrue(aws.contains("\"Namespace\":\"LandingLedger\"") && aws.contains("OldestUnpublishedAgeSeconds"), aws);
    }

    @Test
    void handleRequest_invalidPayload_failsNamingTheProblem_beforeSweepingAnything() {
        CompletenessSweepHandler handler = new CompletenessSweepHandler(pipeline.contracts(), pipeline.sweep(Clock.systemUTC()),
                DatasetMetrics.toStandardOutput(), new io.landingledger.lambda.LogAndMetricsReporter());
        pipeline.requests.clear();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Invocations.invoke(handler, Map.of("dataset", "x"), null))
                .getMessage().contains("unknown field \"dataset\" (allowed: datasets, from, to)"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Invocations.invoke(handler, Map.of("datasets", List.of("nope")), null))
                .getMessage().contains("unknown dataset nope"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Invocations.invoke(handler, 
                Map.of("datasets", List.of(DATASET), "from", "2026-3-1"), null)).getMessage().contains("'2026-3-1' is not a daily unit"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Invocations.invoke(handler, 
                Map.of("from", "2026-03-09", "to", "2026-03-01"), null)).getMessage().contains("is after to"));
        assertEquals(List.of(), pipeline.requests.all, "nothing was read or written");
    }

    // ---- (d) the HTML report in headless Chromium ----

    @Test
    void htmlReport_rendersInHeadlessChromium_andTheScreenshotIsKept() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM), CHROMIUM + " is not installed: scripts/ensure-chromium.sh installs "
                + "Debian's chromium when ./verify runs as root with apt-get; without it this test cannot render the report");
        buildEveryStatus();
        DatasetReport report = pipeline.sweep(Clock.systemUTC()).sweep(contract(), "2026-04-27", "2026-05-31");
        String html = lakeText(report.reports().latestHtml());
        assertFalse(html.toLowerCase(java.util.Locale.ROOT).contains("<script"), "the page runs no script");
        assertFalse(html.matches("(?s).*(src|href)=\"(https?:)?//.*"), "the page loads nothing from anywhere");

        Path work = Files.createTempDirectory("sweep-report");
        Path page = work.resolve("report.html");
        Files.writeString(page, html);
        Path png = work.resolve("report.png");
        Process screenshot = chromium(work, List.of("--screenshot=" + png, "--window-size=1400,1000", page.toUri().toString()),
                work.resolve("screenshot.log"));
        assertEquals(0, screenshot.exitValue(), () -> "chromium failed: " + read(work.resolve("screenshot.log")));
        assertTrue(Files.isRegularFile(png), "no screenshot: " + read(work.resolve("screenshot.log")));
        byte[] image = Files.readAllBytes(png);
        assertTrue(image.length > 30_000, "a screenshot of a rendered report is not " + image.length + " bytes");
        assertEquals("\u0089PNG", new String(image, 0, 4, StandardCharsets.ISO_8859_1));
        ByteBuffer header = ByteBuffer.wrap(image, 16, 8);
        assertEquals(1400, header.getInt());
        assertEquals(1000, header.getInt());
        Path kept = Path.of("target", "sweep-report.png");
        Files.createDirectories(kept.getParent());
        Files.copy(png, kept, StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(Path.of("target", "sweep-report.html"), html);

        Path dom = work.resolve("dom.html");
        Process dump = chromium(work, List.of("--dump-dom", page.toUri().toString()), dom);
        assertEquals(0, dump.exitValue());
        String rendered = read(dom);
        for (String expected : List.of("progress_events", "INCOMPLETE", "LEDGER_DRIFT", "UNPROCESSED", "PROHIBITED_FIELD",
                "source system retired for the day", "Re-drives (4)", "May 2026", "April 2026")) {
            assertTrue(rendered.contains(expected), "the rendered page lacks " + expected);
        }
    }

    /**
     * Issue 32: sixty days of about 200 rows and one of 4 (a truncated export). Before the volume check such a report
     * said "COMPLETE: all 60 expected units are OK"; now the day is SUSPECT_VOLUME and the report's chart of rows
     * against the expected band marks it, rendered by headless Chromium like the page above.
     */
    @Test
    void htmlReport_ofSixtyDaysWithOneTruncated_marksItOnTheVolumeChart_inHeadlessChromium() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM), CHROMIUM + " is not installed: scripts/ensure-chromium.sh installs it");
        DatasetContract contract = withUnit(contract(), "2026-01-01", false);
        LocalDate first = LocalDate.parse("2026-01-01");
        String truncated = "2026-02-20";
        List<LedgerItem> items = new ArrayList<>();
        for (int d = 0; d < 60; d++) {
            String unit = first.plusDays(d).toString();
            items.add(healthyUnit(unit, unit.equals(truncated) ? 4 : 190 + (d * 7) % 21));
        }
        LedgerSeeding.putAll(pipeline.dynamo, pipeline.resources.ledgerTable(), items);

        DatasetReport report = pipeline.sweep(Clock.systemUTC()).sweep(contract, first.toString(), "2026-03-01");

        assertEquals(Map.of(truncated, "SUSPECT_VOLUME ROWS_BELOW_EXPECTED"), notOk(report), () -> evidence(report));
        assertEquals(59, report.counts().get(UnitStatus.OK));
        assertFalse(report.complete());
        UnitReport day = unit(report, truncated);
        assertTrue(day.volume().band().low() > 100, day.volume().detail());
        String html = lakeText(report.reports().latestHtml());
        assertFalse(html.toLowerCase(java.util.Locale.ROOT).contains("<script"), "the page runs no script");

        Path work = Files.createTempDirectory("volume-report");
        Path page = work.resolve("report.html");
        Files.writeString(page, html);
        Path png = work.resolve("report.png");
        Process screenshot = chromium(work, List.of("--screenshot=" + png, "--window-size=1400,1400", page.toUri().toString()),
                work.resolve("screenshot.log"));
        assertEquals(0, screenshot.exitValue(), () -> "chromium failed: " + read(work.resolve("screenshot.log")));
        byte[] image = Files.readAllBytes(png);
        assertTrue(image.length > 30_000, "a screenshot of a rendered report is not " + image.length + " bytes");
        Files.copy(png, Path.of("target", "sweep-report-volume.png"), StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(Path.of("target", "sweep-report-volume.html"), html);

        Path dom = work.resolve("dom.html");
        assertEquals(0, chromium(work, List.of("--dump-dom", page.toUri().toString()), dom).exitValue());
        String rendered = read(dom);
        for (String expected : List.of("INCOMPLETE", "SUSPECT_VOLUME", "Rows per unit against the expected band (1 suspect)",
                "<svg class=\"volume\"", "<g class=\"mark\" data-unit=\"" + truncated + "\"",
                truncated + ": 4 rows, expected " + day.volume().band().range())) {
            assertTrue(rendered.contains(expected), "the rendered page lacks " + expected);
        }
        assertEquals(60, rendered.split("<rect class=\"bar", -1).length - 1, "a bar per unit");
        assertEquals(1, rendered.split("<rect class=\"bar suspect\"", -1).length - 1, "one of them red");
    }

    /** Runs headless Chromium on a local page with every network feature off; it must contact no host. */
    private static Process chromium(Path work, List<String> arguments, Path output) throws Exception {
        List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--hide-scrollbars", "--user-data-dir=" + Files.createTempDirectory(work, "profile")));
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile()).redirectOutput(output.toFile());
        builder.redirectError(work.resolve("chromium-" + output.getFileName() + ".stderr").toFile());
        Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("chromium did not finish in 120 s: " + command);
        }
        return process;
    }

    // ---- helpers ----

    private static DatasetContract contract() {
        return new PipelineFixtureContracts().progressEvents();
    }

    private static DatasetContract contractWithAutoRedrive(boolean autoRedrive) {
        DatasetContract base = contract();
        return withUnit(base, base.unit().first(), autoRedrive);
    }

    private static DatasetContract withUnit(DatasetContract base, String first, boolean autoRedrive) {
        return base.withUnit(base.unit().toBuilder().first(first).autoRedrive(autoRedrive).build());
    }

    /** The bundled contracts, loaded once. */
    private static final class PipelineFixtureContracts {
        private static final io.landingledger.core.contract.ContractRegistry REGISTRY =
                io.landingledger.core.contract.ContractRegistry.fromDirectory(PipelineFixture.REPOSITORY.resolve("datasets"));

        DatasetContract progressEvents() {
            return REGISTRY.get(DATASET).orElseThrow();
        }
    }

    private PipelineFixture.Uploaded put(String unit, byte[] body) {
        return pipeline.put(DATASET + "/progress-" + unit + ".jsonl", body);
    }

    /** A clean day: {@code lines} distinct events. */
    private static byte[] file(String unit, int lines) {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= lines; i++) {
            text.append(Events.event("evt_" + unit.replace("-", "") + "_" + i).text("learner_id", "lrn_" + i).text("lesson_id", "les_1")
                    .text("event_time", unit + "T10:00:0" + (i % 10) + "+02:00").raw("checkpoint", Integer.toString(i)).line()).append('\n');
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A day whose second line carries a prohibited field: the file is refused. */
    private static byte[] refusedFile(String unit) {
        String clean = new String(file(unit, 2), StandardCharsets.UTF_8);
        int second = clean.indexOf('\n') + 1;
        return (clean.substring(0, second) + clean.substring(second).replace("\"checkpoint\":2", "\"checkpoint\":2,\"email\":\"a@example.com\""))
                .getBytes(StandardCharsets.UTF_8);
    }

    /** What the operator's omit writes (RunKind OMIT, status OMITTED, a reason), through the Ledger port. */
    private void omit(String unit, String reason) throws Exception {
        Instant now = Instant.now();
        String runId = UUID.randomUUID().toString();
        LedgerItem omitted = LedgerItem.builder(DATASET, unit)
                .status(LedgerStatus.OMITTED)
                .run(runId, RunKind.OMIT)
                .contractVersion(1)
                .lastAttempt(LastAttempt.omitted(now, runId, reason))
                .reason(reason)
                .build();
        HistoryEntry history = HistoryEntry.builder()
                .dataset(DATASET)
                .unit(unit)
                .at(now)
                .runId(runId)
                .runKind(RunKind.OMIT)
                .action("OMITTED")
                .reason(reason)
                .contractVersion(1)
                .build();
        pipeline.ledger.write(omitted, pipeline.ledger.get(DATASET, unit).map(LedgerItem::revision).orElse(0L), history);
    }

    /** Unit to "STATUS reason" for every unit that is not OK. */
    private static Map<String, String> notOk(DatasetReport report) {
        return report.notOk().stream().collect(Collectors.toMap(UnitReport::unit, u -> u.status() + " " + u.reason(), (a, b) -> a,
                TreeMap::new));
    }

    /** Every not-OK unit's whole evidence, for a failure message. */
    private static String evidence(DatasetReport report) {
        return report.notOk().stream().map(u -> u.toMap().toString()).collect(Collectors.joining("\n"));
    }

    private static UnitReport unit(DatasetReport report, String unit) {
        return report.units().stream().filter(u -> u.unit().equals(unit)).findFirst().orElseThrow();
    }

    private String lakeText(String key) {
        return pipeline.s3.getObjectAsBytes(r -> r.bucket(pipeline.lake()).key(key)).asUtf8String();
    }

    /** The sweep wrote the four reports and the unit status, nothing else: no published/ object, no ledger or history item. */
    private void assertOnlyReportsWritten() {
        List<String> writes = pipeline.requests.writes();
        assertEquals(List.of("PutObjectRequest", "PutObjectRequest", "PutObjectRequest", "PutObjectRequest", "PutObjectRequest"), writes);
        for (PutObjectRequest put : pipeline.requests.of(PutObjectRequest.class)) {
            assertTrue(put.key().startsWith(CompletenessSweep.REPORTS_PREFIX + DATASET + "/") || put.key().equals(LakeLayout.statusKey(DATASET)),
                    put.key());
        }
        for (SdkRequest request : pipeline.requests.all) {
            assertFalse(request.getClass().getSimpleName().startsWith("Scan"), "the sweep never scans");
        }
    }

    private static String read(Path file) {
        try {
            return Files.isRegularFile(file) ? Files.readString(file) : "(no " + file + ")";
        } catch (IOException e) {
            return "(unreadable " + file + ": " + e.getMessage() + ")";
        }
    }
}
