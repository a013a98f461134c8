package io.landingledger.core.sweep;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.store.ObjectStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Unit status as data, for readers that join it with their rows (docs/readers.md): one JSON line per expected unit
 * of a sweep, in unit order, written as one object {@code _status/<dataset>/status.jsonl} with one PUT (S3 replaces
 * an object atomically: a reader sees the previous sweep's status or this one's, never a mix). The Glue table
 * {@code <dataset>_status} is over it
 * ({@link io.landingledger.core.reader.ReaderTables#statusColumns()} names and types the fields), so a reader joins
 * {@code USING (unit)} to tell complete units from missing, refused or restated ones. Names, versions, hashes, ETags,
 * run ids, counts and seconds only: never row content (the classification's free-text detail stays in the report).
 */
public final class UnitStatusExport {
    private UnitStatusExport() {
    }

    /** The fields of one line, in order: {@code ReaderTables.statusColumns()} gives each its Hive type. */
    public static final List<String> FIELDS = List.of("unit", "status", "reason", "publish_count", "accepted", "rejected",
            "input_key", "input_version", "input_sha256", "inbox_version", "published_etag", "run_id", "run_kind",
            "published_at", "first_published_at", "deadline", "age_seconds", "published_after_deadline_seconds",
            "unpublished_age_seconds", "as_of", "table_snapshot_id", "table_reason");

    /** Writes the report's units to {@code _status/<dataset>/status.jsonl} in one PUT and returns the key. */
    public static String write(ObjectStore store, String lakeBucket, DatasetReport report) {
        String key = LakeLayout.statusKey(report.dataset());
        store.put(lakeBucket, key, lines(report), "application/x-ndjson");
        return key;
    }

    /** The object's bytes: one compact JSON object per unit, each line ending with a newline. */
    public static byte[] lines(DatasetReport report) {
        StringBuilder out = new StringBuilder();
        for (UnitReport unit : report.units()) {
            try {
                out.append(JSON.std.asString(line(unit, report.asOf()))).append('\n');
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the unit status of " + report.dataset() + " as JSON", e);
            }
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** One unit's line. The published fields name the standing publish (also under a refusal of a newer input). */
    static Map<String, Object> line(UnitReport unit, Instant asOf) {
        LedgerItem item = unit.item();
        boolean published = item != null && item.published() != null;
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("unit", unit.unit());
        map.put("status", unit.status().name());
        map.put("reason", unit.reason());
        map.put("publish_count", item == null ? 0L : item.publishCount());
        map.put("accepted", published ? item.published().accepted() : null);
        map.put("rejected", published ? item.published().rejected() : null);
        map.put("input_key", item == null || item.input() == null ? null : item.input().key());
        map.put("input_version", item == null || item.input() == null ? null : item.input().versionId());
        map.put("input_sha256", item == null || item.input() == null ? null : item.input().sha256());
        map.put("inbox_version", unit.inbox() == null ? null : unit.inbox().versionId());
        map.put("published_etag", published ? item.published().etag() : null);
        map.put("run_id", published ? item.runId() : null);
        map.put("run_kind", published && item.runKind() != null ? item.runKind().name() : null);
        map.put("published_at", published ? text(item.publishedAt()) : null);
        map.put("first_published_at", published ? text(item.firstPublishedAt()) : null);
        map.put("deadline", text(unit.deadline()));
        map.put("age_seconds", unit.ageSeconds());
        map.put("published_after_deadline_seconds", unit.publishedAfterDeadlineSeconds());
        map.put("unpublished_age_seconds", unit.unpublishedAgeSeconds());
        map.put("as_of", text(asOf));
        // the table's snapshot that holds the unit's rows, and why it does not hold the standing publish (null: it
        // does, or the stack has no tables)
        boolean tables = unit.flags().contains(UnitStatus.TABLE_BEHIND) || item != null && item.table() != null;
        map.put("table_snapshot_id", item == null || item.table() == null ? null : item.table().snapshotId());
        map.put("table_reason", tables ? UnitClassifier.tableReason(item) : null);
        return map;
    }

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
