package io.landingledger.core.ingest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import io.landingledger.core.json.JsonCodec;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The result of one run, as logged (one line per outcome) and returned by the handlers. Names, hashes, counts and
 * codes only. Build one with {@link #builder(IngestAction, String, String)}.
 */
@JsonPropertyOrder({"action", "dataset", "unit", "key", "version", "sha256", "bytes", "accepted", "rejected", "duplicates",
        "published_key", "published_etag", "refusal", "detail", "reject_reasons", "run_id", "run_kind", "contract_version",
        "duration_ms"})
public record IngestOutcome(IngestAction action, String dataset, String unit,
                            @JsonProperty("key") @JsonInclude(JsonInclude.Include.ALWAYS) String inputKey,
                            @JsonProperty("version") @JsonInclude(JsonInclude.Include.ALWAYS) String inputVersionId,
                            @JsonInclude(JsonInclude.Include.ALWAYS) String sha256, long bytes, long accepted, long rejected, long duplicates,
                            @JsonProperty("published_key") String publishedKey, @JsonProperty("published_etag") String publishedEtag,
                            @JsonProperty("refusal") String refusalCode, String detail,
                            @JsonProperty("run_id") @JsonInclude(JsonInclude.Include.ALWAYS) String runId,
                            @JsonProperty("run_kind") @JsonInclude(JsonInclude.Include.ALWAYS) String runKind,
                            @JsonProperty("duration_ms") Duration duration,
                            @JsonProperty("contract_version") Integer contractVersion,
                            @JsonProperty("reject_reasons") @JsonInclude(JsonInclude.Include.NON_EMPTY)
                            Map<String, Long> rejectReasons) {
    public IngestOutcome {
        duration = duration == null ? Duration.ZERO : duration;
        rejectReasons = rejectReasons == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(rejectReasons));
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

    /**
     * The outcome as the flat object of JSON logs and handler responses (JsonCodec writes the record so): for a
     * structured log line's fields.
     */
    public Map<String, Object> fields() {
        return JsonCodec.fields(this);
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
        private Integer contractVersion;
        private Map<String, Long> rejectReasons = Map.of();

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

        /** The version of the dataset's contract the run read the input against. */
        public Builder contractVersion(int value) {
            this.contractVersion = value;
            return this;
        }

        /**
         * Rejected lines by reason code (MISSING_FIELD: 2), when this run read the input and rejected lines: codes and
         * counts, never a line's content.
         */
        public Builder rejectReasons(Map<String, Long> value) {
            this.rejectReasons = value == null ? Map.of() : value;
            return this;
        }

        public IngestOutcome build() {
            return new IngestOutcome(action, dataset, unit, inputKey, inputVersionId, sha256, bytes, accepted, rejected,
                    duplicates, publishedKey, publishedEtag, refusalCode, detail, runId, runKind, duration, contractVersion,
                    rejectReasons);
        }
    }
}
