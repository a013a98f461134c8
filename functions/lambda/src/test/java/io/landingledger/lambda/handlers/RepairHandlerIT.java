package io.landingledger.lambda.handlers;

import io.landingledger.lambda.testing.Invocations;
import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.repair.RepairService;
import io.landingledger.core.validate.Events;
import io.landingledger.lambda.testing.AwsEmulators;
import io.landingledger.lambda.testing.PipelineFixture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Operator repair (docs/design.md section 6) through RepairHandler, on the embedded emulators. */
@ExtendWith(AwsEmulators.class)
class RepairHandlerIT {
    private final PipelineFixture pipeline;

    RepairHandlerIT(PipelineFixture pipeline) {
        this.pipeline = pipeline;
    }

    private RepairHandler repairHandler(Duration safetyMargin) {
        ContractRegistry contracts = ContractRegistry.fromDirectory(PipelineFixture.REPOSITORY.resolve("datasets"));
        RepairService service = new RepairService(contracts, pipeline.ledger, pipeline.store,
                pipeline.service(IngestService.StepListener.NONE), pipeline.inbox(), pipeline.lake(), Clock.systemUTC(), safetyMargin);
        return new RepairHandler(service, () -> UUID.randomUUID().toString());
    }

    private Map<String, Object> repair(Map<String, Object> payload) {
        return Invocations.invoke(repairHandler(Duration.ZERO), payload, null);
    }

    private static Map<String, Object> payload(String eventFile) throws Exception {
        return JSON.std.mapFrom(Files.readString(PipelineFixture.REPOSITORY.resolve("events").resolve(eventFile)));
    }

    private static String day(LocalDate date) {
        return date.toString();
    }

    private static String line(String id, String date) {
        return Events.event(id).text("learner_id", "lrn_1").text("lesson_id", "les_1").text("event_type", "completed")
                .text("event_time", date + "T10:00:00Z").raw("checkpoint", "null").line() + "\n";
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> units(Map<String, Object> result) {
        return (List<Map<String, Object>>) result.get("units");
    }

    /** Every unit an S3 or DynamoDB write recorded by the fixture touched. */
    private Set<String> unitsWritten() {
        Set<String> units = new HashSet<>();
        for (SdkRequest request : pipeline.requests.all) {
            String key = switch (request) {
                case PutObjectRequest r -> r.key();
                case CreateMultipartUploadRequest r -> r.key();
                case CompleteMultipartUploadRequest r -> r.key();
                case DeleteObjectRequest r -> r.key();
                case TransactWriteItemsRequest r -> "unit=" + r.transactItems().get(0).update().key().get("unit").s() + "/";
                case UpdateItemRequest r -> "unit=" + r.key().get("unit").s() + "/";
                case PutItemRequest r -> "unit=" + r.item().get("dataset_unit").s().replaceFirst(".*#", "") + "/";
                default -> null;
            };
            if (key != null) {
                int at = key.indexOf("unit=");
                units.add(at < 0 ? key : key.substring(at + 5, key.indexOf('/', at)));
            }
        }
        return units;
    }

    @Test
    void repair_twoFailedDaysOfAHundred_publishesExactlyThoseAndTouchesNoOtherUnit() throws Exception {
        LocalDate first = LocalDate.parse("2026-03-01");
        String lost = day(first.plusDays(36));
        String refused = day(first.plusDays(71));
        for (int i = 0; i < 100; i++) {
            String unit = day(first.plusDays(i));
            String key = "progress_events/progress-" + unit + ".jsonl";
            String body = line("e-" + unit, unit);
            if (unit.equals(refused)) {
                body = body.replace("\"checkpoint\":null", "\"checkpoint\":null,\"email\":\"planted@example.com\"");
            }
            var upload = pipeline.put(key, body.getBytes(StandardCharsets.UTF_8));
            if (!unit.equals(lost)) {
                pipeline.deliver(pipeline.eventFor(upload));
            }
        }
        // the producer fixes the refused day, and that event is lost too
        pipeline.put("progress_events/progress-" + refused + ".jsonl", line("e-" + refused, refused).getBytes(StandardCharsets.UTF_8));
        assertEquals(LedgerStatus.REFUSED, pipeline.ledgerItem("progress_events", refused).status());
        assertTrue(pipeline.ledger.get("progress_events", lost).isEmpty());
        Map<String, Integer> historyBefore = new HashMap<>();
        for (int i = 0; i < 100; i++) {
            String unit = day(first.plusDays(i));
            historyBefore.put(unit, pipeline.history("progress_events", unit).size());
        }

        pipeline.requests.clear();
        Map<String, Object> result = repair(Map.of("dataset", "progress_events", "units", List.of(lost, refused),
                "reason", "INC-1: lost event and fixed file", "inputVersion", "latest"));

        assertEquals(List.of("published", "published"), units(result).stream().map(u -> u.get("action")).toList(), result.get("table").toString());
        assertEquals(true, result.get("succeeded"));
        assertEquals(Set.of(lost, refused), unitsWritten(), "a repair writes to the units it names and no other");
        for (int i = 0; i < 100; i++) {
            String unit = day(first.plusDays(i));
            LedgerItem item = pipeline.ledgerItem("progress_events", unit);
            assertEquals(LedgerStatus.PUBLISHED, item.status(), unit);
            if (!unit.equals(lost) && !unit.equals(refused)) {
                assertEquals(historyBefore.get(unit), pipeline.history("progress_events", unit).size(), unit);
                assertEquals(RunKind.INGEST, item.runKind());
            }
        }
        var sweep = pipeline.sweep(Clock.systemUTC()).sweep(pipeline.contracts().get("progress_events").orElseThrow(),
                day(first), day(first.plusDays(99)));
        assertTrue(sweep.complete(), "after the repair a second sweep is complete: " + sweep.notOk());
        LedgerItem repaired = pipeline.ledgerItem("progress_events", lost);
        assertEquals(RunKind.REPAIR, repaired.runKind(), "the ledger says a repair built it");
        List<HistoryEntry> history = pipeline.history("progress_events", refused);
        assertEquals(RunKind.REPAIR, history.get(history.size() - 1).runKind());
        assertEquals("PUBLISHED", history.get(history.size() - 1).action());
        assertEquals("INC-1: lost event and fixed file", history.get(history.size() - 1).reason(), "the operator's reason is recorded");
    }

    @Test
    void repair_dryRun_returnsThePlanAndWritesNothing() throws Exception {
        var day3 = pipeline.putExample("progress_events", "progress-2026-03-03.jsonl");
        pipeline.deliver(pipeline.eventFor(day3));
        pipeline.putExample("progress_events", "progress-2026-03-05.jsonl"); // event lost
        String before = pipeline.snapshot();
        pipeline.requests.clear();

        Map<String, Object> plan = repair(Map.of("dataset", "progress_events", "units", List.of("2026-03-03", "2026-03-04", "2026-03-05"),
                "dryRun", true, "reason", "check before repairing", "inputVersion", "latest"));

        assertEquals(List.of(), pipeline.requests.writes(), "a dry run writes nothing");
        assertEquals(before, pipeline.snapshot());
        List<Map<String, Object>> units = units(plan);
        assertEquals("skip", units.get(0).get("expect"));
        assertEquals("no_input", units.get(1).get("action"));
        assertEquals("publish", units.get(2).get("expect"));
        @SuppressWarnings("unchecked")
        Map<String, Object> input = (Map<String, Object>) units.get(0).get("input");
        assertEquals(day3.versionId(), input.get("version"));
        assertEquals(pipeline.ledgerItem("progress_events", "2026-03-03").input().sha256(), input.get("sha256"));
        assertEquals(LakeLayout.publishedKey("progress_events", "2026-03-03"), units.get(0).get("output"));
        assertTrue(plan.get("table").toString().contains("plan: skip"), plan.get("table").toString());
    }

    @Test
    void repair_sameListTwice_changesNothingTheSecondTime() throws Exception {
        pipeline.putExample("progress_events", "progress-2026-03-01.jsonl"); // event lost
        Map<String, Object> request = Map.of("dataset", "progress_events", "units", List.of("2026-03-01"), "reason", "INC-2", "inputVersion", "latest");
        assertEquals("published", units(repair(request)).get(0).get("action"));
        String after = pipeline.snapshot().lines().filter(l -> !l.startsWith("history")).reduce("", String::concat);
        int history = pipeline.history("progress_events", "2026-03-01").size();

        Map<String, Object> again = repair(request);
        assertEquals("skipped", units(again).get(0).get("action"));
        assertEquals(after, pipeline.snapshot().lines().filter(l -> !l.startsWith("history")).reduce("", String::concat),
                "published/ and the ledger are unchanged");
        List<HistoryEntry> entries = pipeline.history("progress_events", "2026-03-01");
        assertEquals(history + 1, entries.size());
        assertEquals("REPAIR_SKIPPED", entries.get(entries.size() - 1).action(), "the audit trail records that an operator looked");
    }

    @Test
    void repair_forward_runsEveryUnitFromTheFirstInOrderAndStopsAtTheFirstFailure() throws Exception {
        for (String unit : List.of("2026-03-01", "2026-03-02", "2026-03-03", "2026-03-05", "2026-03-06")) {
            var upload = pipeline.put("progress_events/progress-" + unit + ".jsonl", line("e-" + unit, unit).getBytes(StandardCharsets.UTF_8));
            pipeline.deliver(pipeline.eventFor(upload));
        }
        Map<String, Object> result = repair(payload("repair-forward.json"));
        List<Map<String, Object>> units = units(result);
        assertEquals(List.of("2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06"),
                units.stream().map(u -> u.get("unit")).toList(), "forward expands from the first unit to the latest, in order");
        // the payload forces: every unit it reaches is republished under the current contract (before the ledger-truth
        // issue's finding 2 was fixed, force stopped at "same input" and these were skipped)
        assertEquals(List.of("published", "published", "no_input", "not_attempted", "not_attempted"),
                units.stream().map(u -> u.get("action")).toList(), result.get("table").toString());
        assertEquals(false, result.get("succeeded"));
        assertEquals(1, pipeline.ledgerItem("progress_events", "2026-03-05").publishCount(), "units after the failure were not touched");
    }

    @Test
    void repair_omit_recordsOmittedWithTheReasonAndPublishesNothing() throws Exception {
        Map<String, Object> result = repair(payload("repair-omit.json"));
        assertEquals("omitted", units(result).get(0).get("action"));
        LedgerItem item = pipeline.ledgerItem("progress_events", "2026-03-04");
        assertEquals(LedgerStatus.OMITTED, item.status());
        assertEquals(RunKind.OMIT, item.runKind());
        assertTrue(item.reason().startsWith("Platform outage"));
        assertEquals(List.of(), pipeline.keys(LakeLayout.PUBLISHED_PREFIX));
        assertEquals("OMITTED", pipeline.history("progress_events", "2026-03-04").get(0).action());
        assertEquals("skipped", units(repair(payload("repair-omit.json"))).get(0).get("action"));

        var published = pipeline.putExample("progress_events", "progress-2026-03-01.jsonl");
        pipeline.deliver(pipeline.eventFor(published));
        Map<String, Object> rejected = repair(Map.of("dataset", "progress_events", "units", List.of("2026-03-01"), "action", "omit", "reason", "x"));
        assertEquals("rejected", units(rejected).get(0).get("action"));
        assertEquals(LedgerStatus.PUBLISHED, pipeline.ledgerItem("progress_events", "2026-03-01").status());
    }

    @Test
    void repair_acceptEmpty_recordsTheAcceptanceWithTheReason_conditionedOnTheItemRead_andRevokes() throws Exception {
        String unit = "2026-03-08";
        // one line, rejected: a publish of 0 rows
        pipeline.deliver(pipeline.eventFor(pipeline.put("progress_events/progress-" + unit + ".jsonl",
                "{\"event_id\":\"e1\",\"surprise\":1}\n".getBytes(StandardCharsets.UTF_8))));
        LedgerItem empty = pipeline.ledgerItem("progress_events", unit);
        assertEquals(0, empty.published().accepted());
        pipeline.requests.clear();

        Map<String, Object> result = repair(payload("repair-accept-empty.json"));
        assertEquals("accepted_empty", units(result).get(0).get("action"), result.toString());
        LedgerItem accepted = pipeline.ledgerItem("progress_events", unit);
        assertTrue(accepted.emptyAccepted().reason().startsWith("No lessons were scheduled"));
        assertEquals(empty.publishCount(), accepted.publishCount(), "nothing is republished");
        assertEquals(empty.publishedEtag(), accepted.publishedEtag());
        List<TransactWriteItemsRequest> writes = pipeline.requests.of(TransactWriteItemsRequest.class);
        assertEquals(1, writes.size(), "one transaction: the item and its history");
        assertEquals("revision = :expected_revision", writes.get(0).transactItems().get(0).update().conditionExpression());
        assertEquals(List.of(), pipeline.requests.of(PutObjectRequest.class), "no S3 write");
        assertEquals("EMPTY_ACCEPTED", pipeline.history("progress_events", unit).get(1).action());

        Map<String, Object> revoked = repair(Map.of("dataset", "progress_events", "units", List.of(unit), "action", "revoke-accept-empty",
                "reason", "CHG-2101 rolled back"));
        assertEquals("revoked", units(revoked).get(0).get("action"));
        assertEquals(null, pipeline.ledgerItem("progress_events", unit).emptyAccepted());
        assertEquals("EMPTY_ACCEPTANCE_REVOKED", pipeline.history("progress_events", unit).get(2).action());
    }

    /** events/repair-accept-volume.json through the deployed handler: volume_accepted and its history, no S3 write. */
    @Test
    void repair_acceptVolume_recordsTheAcceptanceWithTheReason_conditionedOnTheItemRead_andRevokes() throws Exception {
        String unit = "2026-03-09";
        pipeline.deliver(pipeline.eventFor(pipeline.put("progress_events/progress-" + unit + ".jsonl",
                line("e-" + unit, unit).getBytes(StandardCharsets.UTF_8))));
        LedgerItem published = pipeline.ledgerItem("progress_events", unit);
        assertEquals(1, published.published().accepted());
        pipeline.requests.clear();

        Map<String, Object> result = repair(payload("repair-accept-volume.json"));
        assertEquals("accepted_volume", units(result).get(0).get("action"), result.toString());
        LedgerItem accepted = pipeline.ledgerItem("progress_events", unit);
        assertTrue(accepted.volumeAccepted().reason().startsWith("Half the lessons were cancelled"));
        assertEquals(published.publishedEtag(), accepted.publishedEtag(), "nothing is republished");
        List<TransactWriteItemsRequest> writes = pipeline.requests.of(TransactWriteItemsRequest.class);
        assertEquals(1, writes.size(), "one transaction: the item and its history");
        assertEquals("revision = :expected_revision", writes.get(0).transactItems().get(0).update().conditionExpression());
        assertEquals(List.of(), pipeline.requests.of(PutObjectRequest.class), "no S3 write");
        assertEquals("VOLUME_ACCEPTED", pipeline.history("progress_events", unit).get(1).action());

        Map<String, Object> revoked = repair(Map.of("dataset", "progress_events", "units", List.of(unit), "action",
                "revoke-accept-volume", "reason", "CHG-2107 rolled back"));
        assertEquals("revoked", units(revoked).get(0).get("action"));
        assertEquals(null, pipeline.ledgerItem("progress_events", unit).volumeAccepted());
        assertEquals("VOLUME_ACCEPTANCE_REVOKED", pipeline.history("progress_events", unit).get(2).action());
    }

    /** A repair of three units whose time left drops to {@code left} when {@code trigger} ends the {@code n}th time. */
    private io.landingledger.core.repair.RepairResult repairRunningOutOfTime(IngestService.Step trigger, int n, Duration left) {
        for (String unit : List.of("2026-03-01", "2026-03-02", "2026-03-03")) {
            pipeline.put("progress_events/progress-" + unit + ".jsonl", line("e-" + unit, unit).getBytes(StandardCharsets.UTF_8));
        }
        java.util.concurrent.atomic.AtomicReference<Duration> remaining = new java.util.concurrent.atomic.AtomicReference<>(Duration.ofMinutes(10));
        AtomicInteger seen = new AtomicInteger();
        IngestService.StepListener clock = (step, unit) -> {
            if (step == trigger && seen.incrementAndGet() == n) {
                remaining.set(left);
            }
        };
        ContractRegistry contracts = ContractRegistry.fromDirectory(PipelineFixture.REPOSITORY.resolve("datasets"));
        RepairService service = new RepairService(contracts, pipeline.ledger, pipeline.store, pipeline.service(clock),
                pipeline.inbox(), pipeline.lake(), Clock.systemUTC(), Duration.ofSeconds(60));
        Map<String, Object> request = Map.of("dataset", "progress_events", "units", List.of("2026-03-01", "2026-03-02", "2026-03-03"),
                "reason", "backfill", "inputVersion", "latest");
        return service.run(io.landingledger.core.repair.RepairRequest.fromPayload(request), remaining::get, () -> UUID.randomUUID().toString());
    }

    @Test
    void repair_nearTheDeadline_stopsBetweenUnitsAndReturnsAContinuation() throws Exception {
        // two units are recorded, then 45 s are left: below the repair's 60 s margin for starting a unit
        var result = repairRunningOutOfTime(IngestService.Step.LEDGER_WRITTEN, 2, Duration.ofSeconds(45));
        assertEquals(List.of("2026-03-03"), result.notReached());
        Map<String, Object> continuation = io.landingledger.core.json.JsonCodec.readMap(result.continuation().toJson());
        assertNotNull(continuation);
        assertEquals(List.of("2026-03-03"), continuation.get("units"));
        assertEquals("published", units(repair(new HashMap<>(continuation))).get(0).get("action"));
        assertEquals(3, new ArrayList<>(pipeline.keys(LakeLayout.PUBLISHED_PREFIX)).size());
    }

    @Test
    void repair_runningOutOfTimeInsideAUnit_stopsBeforeItsPromote_andTheContinuationIncludesThatUnit() throws Exception {
        // the second unit is staged, then 10 s are left: below the ingest's step margin, so it stops before its promote
        var result = repairRunningOutOfTime(IngestService.Step.STAGED, 2, Duration.ofSeconds(10));
        assertEquals(List.of("2026-03-01"), result.units().stream().map(u -> u.unit()).toList());
        assertEquals("published", result.units().get(0).action());
        assertEquals(List.of("2026-03-02", "2026-03-03"), result.notReached(), "the stopped unit is not reported failed: it is continued");
        assertTrue(pipeline.ledger.get("progress_events", "2026-03-02").isEmpty(), "nothing recorded for the stopped unit");
        assertEquals(List.of(LakeLayout.publishedKey("progress_events", "2026-03-01")), pipeline.keys(LakeLayout.PUBLISHED_PREFIX));
        assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX), "its staging object is deleted");
        assertEquals(0, pipeline.openMultipartUploads());

        var continued = units(repair(io.landingledger.core.json.JsonCodec.readMap(result.continuation().toJson())));
        assertEquals(List.of("published", "published"), continued.stream().map(u -> u.get("action")).toList());
        assertEquals(3, pipeline.keys(LakeLayout.PUBLISHED_PREFIX).size());
    }

    @Test
    void repair_withoutAReason_failsNamingTheField() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> repair(Map.of("dataset", "progress_events", "units", List.of("2026-03-01"))));
        assertTrue(error.getMessage().contains("\"reason\" is required"), error.getMessage());
        IllegalArgumentException badUnit = assertThrows(IllegalArgumentException.class,
                () -> repair(Map.of("dataset", "progress_events", "units", List.of("March 1st"), "reason", "x")));
        assertTrue(badUnit.getMessage().contains("not a unit of progress_events"), badUnit.getMessage());
    }
}
