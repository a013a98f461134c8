package io.landingledger.core.ingest;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The result of one run, as logged (one line per outcome) and returned by the handlers. Names, hashes, counts and
 * codes only.
 */
public record IngestOutcome(IngestAction action, String dataset, String unit, String inputKey, String inputVersionId,
                            String sha256, long bytes, long accepted, long rejected, long duplicates, String publishedKey,
                            String publishedEtag, String refusalCode, String detail, String runId, String runKind,
                            Duration duration) {

    /**
     * Reads an outcome back from {@link #toMap()}'s shape (a validator function's response, when the sweep re-drives
     * through it).
     */
    public static IngestOutcome fromMap(Map<String, ?> map) {
        return new IngestOutcome(IngestAction.valueOf(String.valueOf(map.get("action")).toUpperCase(Locale.ROOT)),
                (String) map.get("dataset"), (String) map.get("unit"), (String) map.get("key"), (String) map.get("version"),
                (String) map.get("sha256"), number(map, "bytes"), number(map, "accepted"), number(map, "rejected"),
                number(map, "duplicates"), (String) map.get("published_key"), (String) map.get("published_etag"),
                (String) map.get("refusal"), (String) map.get("detail"), (String) map.get("run_id"), (String) map.get("run_kind"),
                Duration.ofMillis(number(map, "duration_ms")));
    }

    /**
     * A {@link IngestAction#SUBMITTED} outcome: {@code request}'s input was handed to an asynchronous ingest path,
     * which runs it under a run id of its own; {@code detail} says where it went (e.g. the invocation's request id).
     */
    public static IngestOutcome submitted(IngestService.Request request, String detail) {
        InputRef input = request.input();
        return new IngestOutcome(IngestAction.SUBMITTED, request.contract().dataset(), request.unit(), input.key(), input.versionId(),
                null, input.size(), 0, 0, 0, null, null, null, detail, null, request.runKind().name(), Duration.ZERO);
    }

    private static long number(Map<String, ?> map, String key) {
        Object value = map.get(key);
        return value instanceof Number n ? n.longValue() : 0;
    }

    /** The outcome as a flat map (for JSON logs and handler responses). */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("action", action.name().toLowerCase(Locale.ROOT));
        map.put("dataset", dataset);
        map.put("unit", unit);
        map.put("key", inputKey);
        map.put("version", inputVersionId);
        map.put("sha256", sha256);
        map.put("bytes", bytes);
        map.put("accepted", accepted);
        map.put("rejected", rejected);
        map.put("duplicates", duplicates);
        if (publishedKey != null) {
            map.put("published_key", publishedKey);
            map.put("published_etag", publishedEtag);
        }
        if (refusalCode != null) {
            map.put("refusal", refusalCode);
        }
        if (detail != null) {
            map.put("detail", detail);
        }
        map.put("run_id", runId);
        map.put("run_kind", runKind);
        map.put("duration_ms", duration.toMillis());
        return map;
    }
}
