package io.landingledger.core.ingest;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The result of one run, as logged (one line per outcome) and returned by the handlers. Names, hashes, counts and
 * codes only.
 */
public record IngestOutcome(IngestAction action, String dataset, String unit, String inputKey, String inputVersionId,
                            String sha256, long bytes, long accepted, long rejected, long duplicates, String publishedKey,
                            String publishedEtag, String refusalCode, String detail, String runId, String runKind,
                            Duration duration) {

    /** The outcome as a flat map (for JSON logs and handler responses). */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("action", action.name().toLowerCase(java.util.Locale.ROOT));
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
