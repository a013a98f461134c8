package io.landingledger.core.ingest;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The result of one run, as logged (one line per outcome) and returned by the handlers. Names, hashes, counts and
 * codes only. Build one with {@link #builder(IngestAction, String, String)}.
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
        return builder(IngestAction.valueOf(String.valueOf(map.get("action")).toUpperCase(Locale.ROOT)),
                (String) map.get("dataset"), (String) map.get("unit"))
                .input((String) map.get("key"), (String) map.get("version"))
                .sha256((String) map.get("sha256"))
                .bytes(number(map, "bytes"))
                .counts(number(map, "accepted"), number(map, "rejected"), number(map, "duplicates"))
                .published((String) map.get("published_key"), (String) map.get("published_etag"))
                .refusal((String) map.get("refusal"))
                .detail((String) map.get("detail"))
                .run((String) map.get("run_id"), (String) map.get("run_kind"))
                .duration(Duration.ofMillis(number(map, "duration_ms")))
                .build();
    }

    /** An outcome of {@code action} on {@code dataset}'s {@code unit}; what is not named is null, 0, or no time. */
    public static Builder builder(IngestAction action, String dataset, String unit) {
        return new Builder(action, dataset, unit);
    }

    /**
     * A {@link IngestAction#SUBMITTED} outcome: {@code request}'s input was handed to an asynchronous ingest path,
     * which runs it under a run id of its own; {@code detail} says where it went (e.g. the invocation's request id).
     */
    public static IngestOutcome submitted(IngestService.Request request, String detail) {
        InputRef input = request.input();
        return builder(IngestAction.SUBMITTED, request.contract().dataset(), request.unit())
                .input(input.key(), input.versionId())
                .bytes(input.size())
                .detail(detail)
                .run(null, request.runKind().name())
                .build();
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

    /** Names each part of an {@link IngestOutcome}. */
    public static final class Builder {
        private final IngestAction action;
        private final String dataset;
        private final String unit;
        private String inputKey;
        private String inputVersionId;
        private String sha256;
        private long bytes;
        private long accepted;
        private long rejected;
        private long duplicates;
        private String publishedKey;
        private String publishedEtag;
        private String refusalCode;
        private String detail;
        private String runId;
        private String runKind;
        private Duration duration = Duration.ZERO;

        private Builder(IngestAction action, String dataset, String unit) {
            this.action = action;
            this.dataset = dataset;
            this.unit = unit;
        }

        /** The inbox object the run was asked to ingest (or read). */
        public Builder input(String key, String versionId) {
            this.inputKey = key;
            this.inputVersionId = versionId;
            return this;
        }

        public Builder sha256(String value) {
            this.sha256 = value;
            return this;
        }

        public Builder bytes(long value) {
            this.bytes = value;
            return this;
        }

        /** Rows published, lines rejected, identical duplicates collapsed. */
        public Builder counts(long acceptedRows, long rejectedLines, long duplicateRows) {
            this.accepted = acceptedRows;
            this.rejected = rejectedLines;
            this.duplicates = duplicateRows;
            return this;
        }

        /** The published object the outcome names. */
        public Builder published(String key, String etag) {
            this.publishedKey = key;
            this.publishedEtag = etag;
            return this;
        }

        public Builder refusal(String code) {
            this.refusalCode = code;
            return this;
        }

        public Builder detail(String value) {
            this.detail = value;
            return this;
        }

        public Builder run(String id, String kind) {
            this.runId = id;
            this.runKind = kind;
            return this;
        }

        public Builder duration(Duration value) {
            this.duration = value;
            return this;
        }

        public IngestOutcome build() {
            return new IngestOutcome(action, dataset, unit, inputKey, inputVersionId, sha256, bytes, accepted, rejected,
                    duplicates, publishedKey, publishedEtag, refusalCode, detail, runId, runKind, duration);
        }
    }
}
