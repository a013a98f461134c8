package io.landingledger.lambda.handlers;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.ingest.DecisionTags;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.InputDecision;
import io.landingledger.core.ingest.InputDecisionEvent;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.json.JsonCodec;
import io.landingledger.core.testing.InMemoryLedger;
import io.landingledger.core.testing.InMemoryObjectStore;
import io.landingledger.core.testing.ManualClock;
import io.landingledger.core.validate.ValidationLimits;
import io.landingledger.lambda.OutcomeReporter;
import io.landingledger.lambda.adapters.EventBridgeDecisionEvents;
import io.landingledger.core.testing.EventSchemas;
import io.landingledger.lambda.testing.Invocations;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Producers hear back (issue 32): every decision the validator's handler makes about an input is an InputDecision
 * whose event, as the adapter puts it on the bus, is valid under events/input-decision.schema.json, carries the
 * file's identity, the decision, its reason codes and counts and never a value of a row; and the samples in events/
 * are valid under their schemas. The validator is the real handler on the in-memory ports.
 */
class InputDecisionEventsTest {
    private static final Path REPOSITORY = Path.of("../..").toAbsolutePath().normalize();
    private static final String INBOX = "inbox";

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-03T06:00:00Z"));
    private final InMemoryObjectStore s3 = new InMemoryObjectStore(clock).createBucket(INBOX, true).createBucket("lake", false);
    private final List<InputDecision> heard = new ArrayList<>();
    private final AtomicInteger runs = new AtomicInteger();
    private final ValidateObjectHandler handler = new ValidateObjectHandler(
            new UnitRouter(ContractRegistry.fromDirectory(REPOSITORY.resolve("datasets"))),
            new IngestService(s3, new InMemoryLedger(), "lake", clock, ValidationLimits.defaults(), IngestService.StepListener.NONE),
            QUIET, () -> "run-" + runs.incrementAndGet(), heard::add);

    @Test
    void everySampleInEvents_isValidUnderItsSchema() throws IOException {
        int checked = 0;
        try (DirectoryStream<Path> samples = Files.newDirectoryStream(REPOSITORY.resolve("events"), "{input-decision-*,unit-*}.json")) {
            for (Path sample : samples) {
                String name = sample.getFileName().toString();
                if (name.endsWith(".schema.json")) {
                    continue;
                }
                String schema = name.startsWith("input-decision-") ? "input-decision" : name.substring(0, name.length() - ".json".length());
                assertEquals(List.of(), EventSchemas.errors(REPOSITORY, schema, Files.readString(sample)), name);
                checked++;
            }
        }
        assertTrue(checked >= 7, "the four InputDecision samples and the three unit events: " + checked);
    }

    @Test
    void theSchemaRefuses_anUnknownDecision_aFieldItDoesNotName_andASuspectVolumeWithoutItsBand() throws IOException {
        String sample = Files.readString(REPOSITORY.resolve("events/input-decision-refused.json"));
        assertFalse(EventSchemas.errors(REPOSITORY, "input-decision", sample.replace("\"refused\"", "\"maybe\"")).isEmpty());
        assertFalse(EventSchemas.errors(REPOSITORY, "input-decision",
                sample.replace("\"decision\": \"refused\",", "\"decision\": \"refused\", \"line\": \"{\\\"email\\\": 1}\",")).isEmpty(),
                "no field beyond the schema's: a line's content has no place in the event");
        String suspect = Files.readString(REPOSITORY.resolve("events/input-decision-suspect-volume.json"));
        assertFalse(EventSchemas.errors(REPOSITORY, "input-decision",
                suspect.replaceAll("(?s),\\s*\"expected_rows\": \\{[^}]*\\}", "")).isEmpty());
    }

    @Test
    void everyDecisionTheValidatorMakes_isAnEventItsSchemaAccepts_withCodesAndCounts() throws IOException {
        byte[] withRejects = example("progress-2026-03-03.jsonl");
        byte[] refused = example("progress-2026-03-05.jsonl");
        byte[] clean = example("progress-2026-03-01.jsonl");

        InMemoryObjectStore.Version published = put("progress_events/progress-2026-03-01.jsonl", clean);
        deliver(published);
        deliver(published); // a duplicate event: a replay
        deliver(put("progress_events/progress-2026-03-01.jsonl", clean)); // the same bytes again: unchanged
        deliver(put("progress_events/progress-2026-03-03.jsonl", withRejects));
        deliver(put("progress_events/progress-2026-03-05.jsonl", refused));
        InMemoryObjectStore.Version older = put("progress_events/progress-2026-03-07.jsonl", clean);
        clock.advance(java.time.Duration.ofSeconds(2));
        deliver(put("progress_events/progress-2026-03-07.jsonl", example("progress-2026-03-07.jsonl")));
        deliver(older); // delivered after the newer one: stale
        InMemoryObjectStore.Version gone = put("progress_events/progress-2026-03-09.jsonl", clean);
        s3.deleteVersion(INBOX, gone.key(), gone.versionId());
        deliver(gone);
        deliver(put("unknown_dataset/export-2026-03-02.csv", "a,b\n".getBytes(StandardCharsets.UTF_8)));

        Map<String, InputDecision> byDecision = new LinkedHashMap<>();
        heard.forEach(d -> byDecision.putIfAbsent(d.decision().wireName(), d));
        assertEquals(List.of("published", "skipped_replay", "unchanged", "published_with_rejects", "refused", "stale",
                "input_gone", "unroutable"), List.copyOf(byDecision.keySet()), heard.toString());
        heard.add(InputDecision.suspectVolume("progress_events", "2026-03-01", INBOX, published.key(), published.versionId(), 4,
                new InputDecision.ExpectedRows(172, 231), "run-1", 1));

        for (InputDecision decision : heard) {
            String event = envelope(EventBridgeDecisionEvents.detailJson(decision, clock.instant()));
            assertEquals(List.of(), EventSchemas.errors(REPOSITORY, "input-decision", event), event);
        }
        InputDecision refusal = byDecision.get("refused");
        assertEquals(List.of("PROHIBITED_FIELD"), refusal.reasons());
        assertEquals(Map.of(DecisionTags.DECISION, "refused", DecisionTags.REASON, "PROHIBITED_FIELD", DecisionTags.RUN, refusal.runId(),
                DecisionTags.COUNTS, "accepted=" + refusal.accepted() + " rejected=" + refusal.rejected() + " duplicates=0"),
                DecisionTags.of(refusal).orElseThrow());
        InputDecision rejects = byDecision.get("published_with_rejects");
        assertTrue(rejects.rejected() > 0 && !rejects.reasons().isEmpty(), rejects.toString());
        assertEquals(1, rejects.contractVersion());
        assertEquals(List.of("UNKNOWN_DATASET"), byDecision.get("unroutable").reasons());
        assertEquals("unknown_dataset", byDecision.get("unroutable").dataset());
        assertTrue(DecisionTags.of(byDecision.get("skipped_replay")).isEmpty(), "a replay leaves the first decision's tags");
        // no row value in any event: the refused file's prohibited field's value, a learner id of the example
        String all = heard.stream().map(d -> EventBridgeDecisionEvents.detailJson(d, clock.instant())).reduce("", String::concat);
        for (String line : new String(refused, StandardCharsets.UTF_8).split("\n")) {
            Map<String, Object> row = JsonCodec.readMap(line);
            Object learner = row.get("learner_id");
            assertFalse(learner != null && all.contains("\"" + learner + "\""), "a row value in an event: " + learner);
        }
    }

    @Test
    void theProducersOwnTagsAreKept_andLeftAloneWhenTheyLeaveNoRoom() {
        Map<String, String> ours = Map.of(DecisionTags.DECISION, "refused");
        assertEquals(Map.of("team", "a", DecisionTags.DECISION, "refused"),
                DecisionTags.merge(Map.of("team", "a", DecisionTags.DECISION, "published"), ours).orElseThrow());
        Map<String, String> ten = new LinkedHashMap<>();
        for (int i = 0; i < 10; i++) {
            ten.put("k" + i, "v");
        }
        assertTrue(DecisionTags.merge(ten, ours).isEmpty(), "ten tags of the producer's: ours are not written, theirs stay");
    }

    private InMemoryObjectStore.Version put(String key, byte[] body) {
        clock.advance(java.time.Duration.ofSeconds(1));
        return s3.put(INBOX, key, body, "application/octet-stream", Map.of());
    }

    private void deliver(InMemoryObjectStore.Version version) {
        String record = "{\"eventVersion\":\"2.1\",\"eventSource\":\"aws:s3\",\"awsRegion\":\"us-east-1\","
                + "\"eventTime\":\"2026-03-03T06:00:00.000Z\",\"eventName\":\"ObjectCreated:Put\",\"s3\":{\"s3SchemaVersion\":\"1.0\","
                + "\"bucket\":{\"name\":\"" + INBOX + "\"},\"object\":{\"key\":\"" + version.key() + "\",\"size\":" + version.size()
                + ",\"eTag\":\"" + version.etag() + "\",\"versionId\":\"" + version.versionId() + "\",\"sequencer\":\"0A\"}}}";
        Invocations.invoke(handler, "{\"Records\":[" + record + "]}", null);
    }

    private static byte[] example(String file) throws IOException {
        return Files.readAllBytes(REPOSITORY.resolve("examples/inbox/progress_events/" + file));
    }

    /** The event as EventBridge delivers an entry the adapter put: its envelope around the detail. */
    private static String envelope(String detailJson) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("version", "0");
        event.put("id", "6a1f3c2e-9b7d-4e58-a0c4-3d2b1e9f8c57");
        event.put("detail-type", InputDecisionEvent.DETAIL_TYPE);
        event.put("source", InputDecisionEvent.SOURCE);
        event.put("account", "123456789012");
        event.put("time", "2026-03-03T06:00:05Z");
        event.put("region", "us-east-1");
        event.put("resources", List.of());
        event.put("detail", JsonCodec.readMap(detailJson));
        return JsonCodec.writeString(event);
    }

    private static final OutcomeReporter QUIET = new OutcomeReporter() {
        @Override
        public void outcome(IngestOutcome outcome) {
        }

        @Override
        public void unroutable(String bucket, String key, String versionId, String reason, String detail) {
        }

        @Override
        public void failed(String bucket, String key, String versionId, String runId, RuntimeException fault) {
        }
    };
}
