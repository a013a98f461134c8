package io.landingledger.core.ledger;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * One immutable LedgerHistory item (PK {@code dataset_unit}, SK {@code <iso-instant>#<run_id>}): a publish, a
 * refusal, a skip after repair, or an omission. Written in the same transaction as the ledger update.
 *
 * <p>Build one with {@link #builder()}; {@code dataset}, {@code unit}, {@code at}, {@code runId}, {@code runKind} and
 * {@code action} are required (they make its keys), the rest may be null (or 0).
 *
 * @param action PUBLISHED, REFUSED, OMITTED or REPAIR_SKIPPED
 */
public record HistoryEntry(String dataset, String unit, Instant at, String runId, RunKind runKind, String action,
                           String reason, InputIdentity input, PublishedRef published, int contractVersion) {

    /** A builder with every component unset (null, 0). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this entry's components, to build a copy that differs in some. */
    public Builder toBuilder() {
        return new Builder()
                .dataset(dataset)
                .unit(unit)
                .at(at)
                .runId(runId)
                .runKind(runKind)
                .action(action)
                .reason(reason)
                .input(input)
                .published(published)
                .contractVersion(contractVersion);
    }

    /** The history table's partition key. */
    public String partitionKey() {
        return dataset + "#" + unit;
    }

    /**
     * The history table's sort key: time-ordered, unique per run. The instant always has nine fraction digits:
     * {@code Instant.toString()} drops trailing zeros, and {@code ...:00Z} would then sort after {@code ...:00.5Z}.
     */
    public String sortKey() {
        return SORT_KEY_TIME.format(at) + "#" + runId;
    }

    private static final DateTimeFormatter SORT_KEY_TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'").withZone(ZoneOffset.UTC);

    /** Names each component of a {@link HistoryEntry}; {@link #build()} checks the required ones. */
    public static final class Builder {
        private String dataset;
        private String unit;
        private Instant at;
        private String runId;
        private RunKind runKind;
        private String action;
        private String reason;
        private InputIdentity input;
        private PublishedRef published;
        private int contractVersion;

        private Builder() {
        }

        public Builder dataset(String value) {
            this.dataset = value;
            return this;
        }

        public Builder unit(String value) {
            this.unit = value;
            return this;
        }

        public Builder at(Instant value) {
            this.at = value;
            return this;
        }

        public Builder runId(String value) {
            this.runId = value;
            return this;
        }

        public Builder runKind(RunKind value) {
            this.runKind = value;
            return this;
        }

        public Builder action(String value) {
            this.action = value;
            return this;
        }

        public Builder reason(String value) {
            this.reason = value;
            return this;
        }

        public Builder input(InputIdentity value) {
            this.input = value;
            return this;
        }

        public Builder published(PublishedRef value) {
            this.published = value;
            return this;
        }

        public Builder contractVersion(int value) {
            this.contractVersion = value;
            return this;
        }

        /** The entry; throws {@link IllegalStateException} naming the first required component left unset. */
        public HistoryEntry build() {
            require(dataset, "dataset");
            require(unit, "unit");
            require(at, "at");
            require(runId, "runId");
            require(runKind, "runKind");
            require(action, "action");
            return new HistoryEntry(dataset, unit, at, runId, runKind, action, reason, input, published,
                    contractVersion);
        }

        private static void require(Object value, String component) {
            if (value == null) {
                throw new IllegalStateException("HistoryEntry: " + component + " is required");
            }
        }
    }
}
