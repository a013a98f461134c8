package io.landingledger.core.validate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What the validator found in one input. Counts, hashes, reason codes and line numbers only: no content.
 *
 * <p>Build one with {@link #builder()} (or copy one with {@link #toBuilder()}): twenty positional components are too
 * many to read at a call site. {@code dataset} and {@code sha256} are required; {@code reasons} defaults to none,
 * {@code rowsToDrop} to {@link LineSet#empty()}, {@code refusal} to null and every figure to 0.
 *
 * @param dataset          the contract's dataset
 * @param contractVersion  the contract's version
 * @param sha256           SHA-256 (hex) of the stored bytes, before any decompression: the input identity
 * @param storedBytes      bytes read from the source
 * @param decodedBytes     bytes after decompression (equal to storedBytes for plain input)
 * @param gzip             the input was gzip, detected by its magic bytes
 * @param lines            physical lines (CSV: including the header and every line of a quoted record), counting blank
 *                         ones: what a line number in a reason or refusal counts
 * @param records          data records read: rows of the file, so neither the header nor a blank line, and a CSV
 *                         record whose quoted cell holds line breaks once (its reasons name its first line)
 * @param blankLines       blank lines, ignored
 * @param accepted         rows the published unit holds: rows written to the accepted stream, less
 *                         {@code rowsToDrop}
 * @param duplicates       rows identical to an earlier row with the same key, collapsed into it (including
 *                         {@code rowsToDrop})
 * @param rejected         lines rejected (quarantined)
 * @param reasons          rejected lines by reason
 * @param acceptedBytes    bytes written to the accepted stream by this pass
 * @param distinctKeys     distinct keys seen
 * @param keyIndexBytes    heap held by the duplicate-key index at the end (its largest run when it spilled)
 * @param keyIndexRuns     sorted runs the index spilled to local disk (0: it stayed within keyIndexMemoryBytes)
 * @param keyIndexDiskBytes bytes those runs took on disk (deleted before the result is returned)
 * @param rowsToDrop       lines written to the accepted stream that repeat an identical earlier row in a spilled run,
 *                         found only at the end; when not empty the accepted stream is not final: validate the same
 *                         input again with these lines as {@code dropRows} (see {@link #acceptedFinal()})
 * @param refusal          why the file is refused, or null when it may be published
 */
public record ValidationResult(String dataset, int contractVersion, String sha256, long storedBytes, long decodedBytes,
                               boolean gzip, long lines, long records, long blankLines, long accepted, long duplicates, long rejected,
                               Map<ReasonCode, Long> reasons, long acceptedBytes, long distinctKeys, long keyIndexBytes,
                               int keyIndexRuns, long keyIndexDiskBytes, LineSet rowsToDrop, Refusal refusal) {

    public ValidationResult {
        EnumMap<ReasonCode, Long> copy = new EnumMap<>(ReasonCode.class);
        copy.putAll(reasons);
        reasons = java.util.Collections.unmodifiableMap(copy);
        java.util.Objects.requireNonNull(rowsToDrop, "rowsToDrop");
    }

    /** A builder with every component unset: no reasons, no rows to drop, no refusal, every figure 0. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this result's components, to build a copy that differs in some. */
    public Builder toBuilder() {
        return new Builder()
                .dataset(dataset)
                .contractVersion(contractVersion)
                .sha256(sha256)
                .storedBytes(storedBytes)
                .decodedBytes(decodedBytes)
                .gzip(gzip)
                .lines(lines)
                .records(records)
                .blankLines(blankLines)
                .accepted(accepted)
                .duplicates(duplicates)
                .rejected(rejected)
                .reasons(reasons)
                .acceptedBytes(acceptedBytes)
                .distinctKeys(distinctKeys)
                .keyIndexBytes(keyIndexBytes)
                .keyIndexRuns(keyIndexRuns)
                .keyIndexDiskBytes(keyIndexDiskBytes)
                .rowsToDrop(rowsToDrop)
                .refusal(refusal);
    }

    /** True when the accepted stream holds exactly the rows to publish: no row of it must be dropped. */
    public boolean acceptedFinal() {
        return rowsToDrop.isEmpty();
    }

    /** True when the file may be published: no refusal. */
    public boolean publishable() {
        return refusal == null;
    }

    /** {@code accept} or {@code refuse}. */
    public String decision() {
        return publishable() ? "accept" : "refuse";
    }

    /** Index bytes per distinct key, or 0 when no key was seen. */
    public double keyIndexBytesPerKey() {
        return distinctKeys == 0 ? 0 : (double) keyIndexBytes / distinctKeys;
    }

    /** Spilled bytes on disk per distinct key, or 0 when nothing spilled. */
    public double keyIndexDiskBytesPerKey() {
        return distinctKeys == 0 ? 0 : (double) keyIndexDiskBytes / distinctKeys;
    }

    /** The result as its JSON document ({@code landing validate}'s output, log lines): write it with JsonCodec. */
    public Document document() {
        return new Document(dataset, contractVersion, decision(),
                refusal == null ? null : new Document.RefusalDocument(refusal.code(), refusal.detail(), refusal.lines()),
                sha256, storedBytes, decodedBytes, gzip, records, lines, blankLines, accepted, duplicates, rejected, reasons,
                acceptedBytes, distinctKeys, keyIndexBytes, keyIndexRuns, keyIndexDiskBytes);
    }

    /**
     * A {@link ValidationResult} as JSON: its figures in a stable order, the decision, and the refusal (left out when
     * there is none; its {@code lines} left out when empty). Reasons are keyed by code, in the codes' order.
     */
    @JsonPropertyOrder({"dataset", "contractVersion", "decision", "refusal", "sha256", "storedBytes", "decodedBytes", "gzip",
            "records", "lines", "blankLines", "accepted", "duplicates", "rejected", "reasons", "acceptedBytes", "distinctKeys",
            "keyIndexBytes", "keyIndexRuns", "keyIndexDiskBytes"})
    public record Document(String dataset, int contractVersion, String decision, RefusalDocument refusal, String sha256,
                           long storedBytes, long decodedBytes, boolean gzip, long records, long lines, long blankLines, long accepted,
                           long duplicates, long rejected, Map<ReasonCode, Long> reasons, long acceptedBytes, long distinctKeys,
                           long keyIndexBytes, int keyIndexRuns, long keyIndexDiskBytes) {

        /** A refusal as JSON: its code, its sentence and the lines concerned (left out when none). */
        @JsonPropertyOrder({"code", "detail", "lines"})
        public record RefusalDocument(RefusalCode code, @JsonInclude(JsonInclude.Include.ALWAYS) String detail,
                                      @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Long> lines) {
        }
    }

    /** Names each component of a {@link ValidationResult}; {@link #build()} checks the required ones. */
    public static final class Builder {
        private String dataset;
        private int contractVersion;
        private String sha256;
        private long storedBytes;
        private long decodedBytes;
        private boolean gzip;
        private long lines;
        private long records;
        private long blankLines;
        private long accepted;
        private long duplicates;
        private long rejected;
        private Map<ReasonCode, Long> reasons = Map.of();
        private long acceptedBytes;
        private long distinctKeys;
        private long keyIndexBytes;
        private int keyIndexRuns;
        private long keyIndexDiskBytes;
        private LineSet rowsToDrop = LineSet.empty();
        private Refusal refusal;

        private Builder() {
        }

        public Builder dataset(String value) {
            this.dataset = value;
            return this;
        }

        public Builder contractVersion(int value) {
            this.contractVersion = value;
            return this;
        }

        public Builder sha256(String value) {
            this.sha256 = value;
            return this;
        }

        public Builder storedBytes(long value) {
            this.storedBytes = value;
            return this;
        }

        public Builder decodedBytes(long value) {
            this.decodedBytes = value;
            return this;
        }

        public Builder gzip(boolean value) {
            this.gzip = value;
            return this;
        }

        public Builder lines(long value) {
            this.lines = value;
            return this;
        }

        public Builder records(long value) {
            this.records = value;
            return this;
        }

        public Builder blankLines(long value) {
            this.blankLines = value;
            return this;
        }

        public Builder accepted(long value) {
            this.accepted = value;
            return this;
        }

        public Builder duplicates(long value) {
            this.duplicates = value;
            return this;
        }

        public Builder rejected(long value) {
            this.rejected = value;
            return this;
        }

        public Builder reasons(Map<ReasonCode, Long> value) {
            this.reasons = value;
            return this;
        }

        public Builder acceptedBytes(long value) {
            this.acceptedBytes = value;
            return this;
        }

        public Builder distinctKeys(long value) {
            this.distinctKeys = value;
            return this;
        }

        public Builder keyIndexBytes(long value) {
            this.keyIndexBytes = value;
            return this;
        }

        public Builder keyIndexRuns(int value) {
            this.keyIndexRuns = value;
            return this;
        }

        public Builder keyIndexDiskBytes(long value) {
            this.keyIndexDiskBytes = value;
            return this;
        }

        public Builder rowsToDrop(LineSet value) {
            this.rowsToDrop = value;
            return this;
        }

        public Builder refusal(Refusal value) {
            this.refusal = value;
            return this;
        }

        /** The result; throws {@link IllegalStateException} naming the first required component left unset. */
        public ValidationResult build() {
            require(dataset, "dataset");
            require(sha256, "sha256");
            require(reasons, "reasons");
            require(rowsToDrop, "rowsToDrop");
            return new ValidationResult(dataset, contractVersion, sha256, storedBytes, decodedBytes, gzip, lines, records, blankLines,
                    accepted, duplicates, rejected, reasons, acceptedBytes, distinctKeys, keyIndexBytes, keyIndexRuns,
                    keyIndexDiskBytes, rowsToDrop, refusal);
        }

        private static void require(Object value, String component) {
            if (value == null) {
                throw new IllegalStateException("ValidationResult: " + component + " is required");
            }
        }
    }
}
