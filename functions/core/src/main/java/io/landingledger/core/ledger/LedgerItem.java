package io.landingledger.core.ledger;

import java.time.Instant;

/**
 * One unit's ledger item: what is published now and from what (docs/design.md section 4). Build one with
 * {@link #builder(String, String)}, derive one with {@link #toBuilder()} or a {@code with...} copy: twenty positional
 * components are too many to read at a call site. {@code dataset}, {@code unit} and {@code status} are required.
 *
 * @param input            the input of the current publish (or of the refusal, when never published)
 * @param published        the published object, or null when none
 * @param publishCount     distinct publishes so far, a republish of the same rows (a repair) included
 * @param firstPublishedAt the first publish, or null
 * @param publishedAt      the current publish, or null
 * @param reason           the refusal code (REFUSED) or the operator's reason (OMITTED), else null
 * @param revision         how many times the item was written (1 after its first write; 0 for an item built to be
 *                         written): every write is conditioned on the revision its writer read
 * @param restatements     publishes whose rows differed from the publish they replaced (by content hash): above 0 the
 *                         unit is RESTATED. A republish of the same rows counts in publishCount only
 * @param contentRunId     the run whose publish first held the standing rows (the same as runId unless later
 *                         publishes repeated them), or null when not known
 * @param contentPublishedAt when the standing rows were first published, or null when not known: a reader who read
 *                         the unit since then read these rows
 * @param emptyAccepted    an operator's acceptance of the standing empty publish, or null
 * @param table            what the dataset's Iceberg table holds for the unit, as the table writer last recorded it,
 *                         or null when the writer has never recorded the unit (docs/design.md section 4)
 * @param volumeAccepted   an operator's acceptance of the standing publish's suspect row count, or null
 */
public record LedgerItem(String dataset, String unit, LedgerStatus status, InputIdentity input, PublishedRef published,
                         String runId, RunKind runKind, int contractVersion, long publishCount, Instant firstPublishedAt,
                         Instant publishedAt, LastAttempt lastAttempt, String reason, long revision, long restatements,
                         String contentRunId, Instant contentPublishedAt, EmptyAcceptance emptyAccepted,
                         TableState table, VolumeAcceptance volumeAccepted) {

    /** A new item of {@code dataset}'s {@code unit}, every other attribute unset (null, 0) until named. */
    public static Builder builder(String dataset, String unit) {
        return new Builder(dataset, unit);
    }

    /** A builder holding this item's attributes. */
    public Builder toBuilder() {
        Builder builder = new Builder(dataset, unit);
        builder.status = status;
        builder.input = input;
        builder.published = published;
        builder.runId = runId;
        builder.runKind = runKind;
        builder.contractVersion = contractVersion;
        builder.publishCount = publishCount;
        builder.firstPublishedAt = firstPublishedAt;
        builder.publishedAt = publishedAt;
        builder.lastAttempt = lastAttempt;
        builder.reason = reason;
        builder.revision = revision;
        builder.restatements = restatements;
        builder.contentRunId = contentRunId;
        builder.contentPublishedAt = contentPublishedAt;
        builder.emptyAccepted = emptyAccepted;
        builder.table = table;
        builder.volumeAccepted = volumeAccepted;
        return builder;
    }

    /** This item as stored at {@code stored} (the ledger sets it on every write). */
    public LedgerItem withRevision(long stored) {
        return toBuilder().revision(stored).build();
    }

    /** This item with {@code attempt} as its last attempt, everything else kept. */
    public LedgerItem withLastAttempt(LastAttempt attempt) {
        return toBuilder().lastAttempt(attempt).build();
    }

    /** True when some publish changed the rows a reader sees (not merely republished them). */
    public boolean restated() {
        return restatements > 0;
    }

    /** The ETag the ledger vouches for, or null when nothing is published. */
    public String publishedEtag() {
        return published == null ? null : published.etag();
    }

    /** Names each attribute of a {@link LedgerItem}; what is not named stays null (or 0). */
    public static final class Builder {
        private final String dataset;
        private final String unit;
        private LedgerStatus status;
        private InputIdentity input;
        private PublishedRef published;
        private String runId;
        private RunKind runKind;
        private int contractVersion;
        private long publishCount;
        private Instant firstPublishedAt;
        private Instant publishedAt;
        private LastAttempt lastAttempt;
        private String reason;
        private long revision;
        private long restatements;
        private String contentRunId;
        private Instant contentPublishedAt;
        private EmptyAcceptance emptyAccepted;
        private TableState table;
        private VolumeAcceptance volumeAccepted;

        private Builder(String dataset, String unit) {
            this.dataset = dataset;
            this.unit = unit;
        }

        public Builder status(LedgerStatus value) {
            this.status = value;
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

        /** The run that wrote the current publish (or the refusal, the omission) and why it ran. */
        public Builder run(String id, RunKind kind) {
            this.runId = id;
            this.runKind = kind;
            return this;
        }

        public Builder contractVersion(int value) {
            this.contractVersion = value;
            return this;
        }

        public Builder publishCount(long value) {
            this.publishCount = value;
            return this;
        }

        /** The first and the current publish. */
        public Builder publishedAt(Instant first, Instant current) {
            this.firstPublishedAt = first;
            this.publishedAt = current;
            return this;
        }

        public Builder lastAttempt(LastAttempt value) {
            this.lastAttempt = value;
            return this;
        }

        public Builder reason(String value) {
            this.reason = value;
            return this;
        }

        public Builder revision(long value) {
            this.revision = value;
            return this;
        }

        public Builder restatements(long value) {
            this.restatements = value;
            return this;
        }

        /** The run whose publish first held the standing rows, and when. */
        public Builder contentSince(String run, Instant at) {
            this.contentRunId = run;
            this.contentPublishedAt = at;
            return this;
        }

        public Builder emptyAccepted(EmptyAcceptance value) {
            this.emptyAccepted = value;
            return this;
        }

        public Builder table(TableState value) {
            this.table = value;
            return this;
        }

        public Builder volumeAccepted(VolumeAcceptance value) {
            this.volumeAccepted = value;
            return this;
        }

        /** The item; throws {@link IllegalStateException} naming the first required attribute left unset. */
        public LedgerItem build() {
            require(dataset, "dataset");
            require(unit, "unit");
            require(status, "status");
            return new LedgerItem(dataset, unit, status, input, published, runId, runKind, contractVersion, publishCount,
                    firstPublishedAt, publishedAt, lastAttempt, reason, revision, restatements, contentRunId,
                    contentPublishedAt, emptyAccepted, table, volumeAccepted);
        }

        private static void require(Object value, String attribute) {
            if (value == null) {
                throw new IllegalStateException("LedgerItem: " + attribute + " is required");
            }
        }
    }
}
