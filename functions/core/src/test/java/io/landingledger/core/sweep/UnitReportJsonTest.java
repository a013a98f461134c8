package io.landingledger.core.sweep;

import io.landingledger.core.json.JsonCodec;
import io.landingledger.core.ledger.AttemptOutcome;
import io.landingledger.core.ledger.InputIdentity;
import io.landingledger.core.ledger.LastAttempt;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.PublishedRef;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.store.ObjectStore;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The JSON of a sweep report's unit ({@link UnitReport}) and of its re-drive ({@link Redrive}), byte for byte: the
 * {@code _reports/} documents, the sweep's answer and its log lines carry them, and readers take them by name and order.
 * Null fields are left out (by both writers: JsonCodec and the jackson-jr printer of {@code _reports/}).
 */
class UnitReportJsonTest {
    private static final com.fasterxml.jackson.jr.ob.JSON REPORT = com.fasterxml.jackson.jr.ob.JSON.std;
    private static final Instant AT = Instant.parse("2026-03-02T06:00:00Z");
    private static final InputIdentity INPUT = new InputIdentity("inbox", "progress_events/2026-03-01.jsonl", "v1", "\"e1\"",
            "ab12", 1958, "seq", AT);

    static UnitReport missing() {
        return new UnitReport("2026-03-01", new Classification(UnitStatus.MISSING, List.of(), "no input", null),
                Instant.parse("2026-03-02T02:00:00Z"), null, null, null, null, null, 14_400L, null, List.of());
    }

    static UnitReport published() {
        LedgerItem item = LedgerItem.builder("progress_events", "2026-03-01").status(LedgerStatus.PUBLISHED).input(INPUT)
                .published(new PublishedRef("lake/progress_events/2026-03-01.jsonl", "\"p1\"", 8, 3, 0, null, "cd34"))
                .run("run-1", RunKind.INGEST).contractVersion(1).publishCount(2).publishedAt(AT, AT.plusSeconds(60))
                .lastAttempt(LastAttempt.of(AT, "run-1", RunKind.INGEST, AttemptOutcome.PUBLISHED, null, INPUT)).build();
        return new UnitReport("2026-03-01", new Classification(UnitStatus.OK, List.of(UnitStatus.RESTATED), "published", "twice"),
                Instant.parse("2026-03-02T02:00:00Z"), item,
                new InboxObject("progress_events/2026-03-01.jsonl", "\"e1\"", 1958, AT, "v1"),
                new ObjectStore.ListedObject("lake/progress_events/2026-03-01.jsonl", "\"p1\"", 1428, AT), 3_000_000_000L, 14_400L,
                null, null, List.of("mart", "ml"));
    }

    static UnitReport redriven() {
        LedgerItem item = LedgerItem.builder("progress_events", "2026-03-01").status(LedgerStatus.REFUSED).reason("KEY_CONFLICT").build();
        Redrive redrive = new Redrive("2026-03-01", "progress_events/2026-03-01.jsonl", "v1", null, Redrive.SUBMITTED, null, "req-1",
                UnitStatus.UNPROCESSED, null, null);
        return new UnitReport("2026-03-01", new Classification(UnitStatus.UNPROCESSED, List.of(), "not ingested", null), null, item,
                new InboxObject("progress_events/2026-03-01.jsonl", null, 0, null, null), null, null, null, 60L, redrive, List.of());
    }

    static Redrive refusedRedrive() {
        return new Redrive("2026-03-01", "k", "v2", "run-2", "refused", "KEY_CONFLICT", "key repeated", UnitStatus.UNPROCESSED,
                UnitStatus.REFUSED, null);
    }

    @Test
    void aMissingUnit() {
        assertEquals("{\"unit\":\"2026-03-01\",\"status\":\"MISSING\",\"flags\":[],\"reason\":\"no input\",\"deadline\":\"2026-03-02T02:00:00Z\",\"unpublished_age_seconds\":14400,\"consumers_behind\":[]}", json(missing()));
    }

    @Test
    void aPublishedUnit_withItsLedgerItemAndConsumersBehind() {
        assertEquals("{\"unit\":\"2026-03-01\",\"status\":\"OK\",\"flags\":[\"RESTATED\"],\"reason\":\"published\",\"detail\":\"twice\",\"deadline\":\"2026-03-02T02:00:00Z\",\"age_seconds\":3000000000,\"published_after_deadline_seconds\":14400,\"inbox\":{\"key\":\"progress_events/2026-03-01.jsonl\",\"version\":\"v1\",\"etag\":\"\\\"e1\\\"\",\"size\":1958,\"last_modified\":\"2026-03-02T06:00:00Z\"},\"ledger\":{\"status\":\"PUBLISHED\",\"input_key\":\"progress_events/2026-03-01.jsonl\",\"input_version\":\"v1\",\"input_sha256\":\"ab12\",\"input_size\":1958,\"published_key\":\"lake/progress_events/2026-03-01.jsonl\",\"published_etag\":\"\\\"p1\\\"\",\"accepted\":8,\"rejected\":3,\"duplicates\":0,\"publish_count\":2,\"first_published_at\":\"2026-03-02T06:00:00Z\",\"published_at\":\"2026-03-02T06:01:00Z\",\"run_kind\":\"INGEST\",\"run_id\":\"run-1\",\"contract_version\":1,\"last_attempt\":{\"at\":\"2026-03-02T06:00:00Z\",\"outcome\":\"PUBLISHED\",\"run_kind\":\"INGEST\",\"input_version\":\"v1\",\"input_sha256\":\"ab12\"}},\"published\":{\"key\":\"lake/progress_events/2026-03-01.jsonl\",\"etag\":\"\\\"p1\\\"\",\"size\":1428},\"consumers_behind\":[\"mart\",\"ml\"]}", json(published()));
    }

    @Test
    void aRedrivenUnit() {
        assertEquals("{\"unit\":\"2026-03-01\",\"status\":\"UNPROCESSED\",\"flags\":[],\"reason\":\"not ingested\",\"unpublished_age_seconds\":60,\"inbox\":{\"key\":\"progress_events/2026-03-01.jsonl\",\"size\":0},\"ledger\":{\"status\":\"REFUSED\",\"publish_count\":0,\"contract_version\":0,\"reason\":\"KEY_CONFLICT\"},\"redrive\":{\"unit\":\"2026-03-01\",\"key\":\"progress_events/2026-03-01.jsonl\",\"version\":\"v1\",\"run_kind\":\"INGEST\",\"action\":\"submitted\",\"detail\":\"req-1\",\"status_before\":\"UNPROCESSED\"},\"consumers_behind\":[]}", json(redriven()));
    }

    @Test
    void aRedrive_refused() {
        assertEquals("{\"unit\":\"2026-03-01\",\"key\":\"k\",\"version\":\"v2\",\"run_id\":\"run-2\",\"run_kind\":\"INGEST\",\"action\":\"refused\",\"refusal\":\"KEY_CONFLICT\",\"detail\":\"key repeated\",\"status_before\":\"UNPROCESSED\",\"status_after\":\"REFUSED\"}", report(document(refusedRedrive())));
    }

    @Test
    void aRedrive_inTheSweepsAnswer_leavesNullsOut() {
        assertEquals("[{\"unit\":\"2026-03-01\",\"key\":\"progress_events/2026-03-01.jsonl\",\"version\":\"v1\",\"run_kind\":\"INGEST\",\"action\":\"submitted\",\"detail\":\"req-1\",\"status_before\":\"UNPROCESSED\"},{\"unit\":\"2026-03-01\",\"key\":\"k\",\"version\":\"v2\",\"run_id\":\"run-2\",\"run_kind\":\"INGEST\",\"action\":\"refused\",\"refusal\":\"KEY_CONFLICT\",\"detail\":\"key repeated\",\"status_before\":\"UNPROCESSED\",\"status_after\":\"REFUSED\"}]", JsonCodec.writeString(List.of(document(redriven().redrive()), document(refusedRedrive()))));
    }

    /** How CompletenessSweep writes the {@code _reports/} document (compact here: the indentation is the same printer's). */
    private static String report(Object document) {
        try {
            return REPORT.asString(document);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Object document(UnitReport unit) {
        return unit.toMap();
    }

    private static Object document(Redrive redrive) {
        return redrive.toMap();
    }

    /** The unit's JSON; the published object's fields were in Map.of's order (one per JVM run), pinned here to key, etag, size. */
    private static String json(UnitReport unit) {
        Map<String, Object> map = JsonCodec.readMap(report(document(unit)).replace(":null", ":\"NULL\""));
        if (map.get("published") instanceof Map<?, ?> published) {
            Map<String, Object> ordered = new LinkedHashMap<>();
            ordered.put("key", published.get("key"));
            ordered.put("etag", published.get("etag"));
            ordered.put("size", published.get("size"));
            map.put("published", ordered);
        }
        return JsonCodec.writeString(map).replace(":\"NULL\"", ":null");
    }
}
