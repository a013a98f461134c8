package io.landingledger.core.sweep;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.landingledger.core.ledger.AttemptOutcome;
import io.landingledger.core.ledger.LastAttempt;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.store.ObjectStore;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One expected unit in a sweep report: its classification, the evidence behind it (names, versions, ETags,
 * hashes, counts; never row content) and its freshness figures.
 *
 * @param deadline                      the unit's end plus graceHours, or null (list cadence)
 * @param item                          the ledger item, or null
 * @param inbox                         the inbox's current object for the unit, or null
 * @param published                     the published object's listing entry, or null
 * @param ageSeconds                    now minus the current publish, or null when nothing is published
 * @param publishedAfterDeadlineSeconds the first publish minus the deadline (negative: before it), or null
 * @param unpublishedAgeSeconds         how long the unit has been owed a publish: MISSING since its deadline,
 *                                      UNPROCESSED since its input arrived, REFUSED since its deadline (never
 *                                      published) or since the refusal; null otherwise
 * @param redrive                       the sweep's re-drive of the unit, or null
 * @param consumersBehind               the consumers whose receipt for the unit names an earlier publish than the
 *                                      current one (name order; {@code ConsumersBehind}): they must read it again
 */
public record UnitReport(String unit, Classification classification, Instant deadline, LedgerItem item, InboxObject inbox,
                         ObjectStore.ListedObject published, Long ageSeconds, Long publishedAfterDeadlineSeconds,
                         Long unpublishedAgeSeconds, Redrive redrive, List<String> consumersBehind) {

    public UnitReport {
        consumersBehind = consumersBehind == null ? List.of() : List.copyOf(consumersBehind);
    }

    static UnitReport of(UnitClassifier.Evidence evidence, Classification classification) {
        Instant now = evidence.now();
        LedgerItem item = evidence.item();
        Instant deadline = evidence.deadline();
        Long age = null;
        Long late = null;
        if (item != null && item.published() != null && item.publishedAt() != null) {
            age = seconds(item.publishedAt(), now);
            Instant first = item.firstPublishedAt() != null ? item.firstPublishedAt() : item.publishedAt();
            late = deadline == null ? null : Duration.between(deadline, first).toSeconds();
        }
        Long unpublished = switch (classification.status()) {
            case MISSING -> deadline == null ? null : seconds(deadline, now);
            case UNPROCESSED -> evidence.inbox() == null || evidence.inbox().lastModified() == null ? null
                    : seconds(evidence.inbox().lastModified(), now);
            case REFUSED -> refusedSince(item, deadline, now);
            default -> null;
        };
        return new UnitReport(evidence.unit(), classification, deadline, item, evidence.inbox(), evidence.published(), age, late,
                unpublished, null, List.of());
    }

    private static Long refusedSince(LedgerItem item, Instant deadline, Instant now) {
        if (item == null) {
            return null;
        }
        if (item.published() == null && deadline != null) {
            return seconds(deadline, now);
        }
        LastAttempt last = item.lastAttempt();
        return last == null || last.at() == null ? null : seconds(last.at(), now);
    }

    private static long seconds(Instant from, Instant to) {
        return Math.max(0, Duration.between(from, to).toSeconds());
    }

    UnitReport withRedrive(Redrive value) {
        return new UnitReport(unit, classification, deadline, item, inbox, published, ageSeconds, publishedAfterDeadlineSeconds,
                unpublishedAgeSeconds, value, consumersBehind);
    }

    UnitReport withConsumersBehind(List<String> consumers) {
        return new UnitReport(unit, classification, deadline, item, inbox, published, ageSeconds, publishedAfterDeadlineSeconds,
                unpublishedAgeSeconds, redrive, consumers);
    }

    public UnitStatus status() {
        return classification.status();
    }

    public List<UnitStatus> flags() {
        return classification.flags();
    }

    public String reason() {
        return classification.reason();
    }

    public String detail() {
        return classification.detail();
    }

    /** The unit as its JSON document (in the {@code _reports/} report): write it with JsonCodec. */
    public Document document() {
        Document.Inbox in = inbox == null ? null
                : new Document.Inbox(inbox.key(), inbox.versionId(), inbox.etag(), inbox.size(), inbox.lastModified());
        Document.Ledger ledger = null;
        if (item != null) {
            LastAttempt last = item.lastAttempt();
            ledger = new Document.Ledger(item.status(),
                    item.input() == null ? null : item.input().key(), item.input() == null ? null : item.input().versionId(),
                    item.input() == null ? null : item.input().sha256(), item.input() == null ? null : item.input().size(),
                    item.published() == null ? null : item.published().key(), item.published() == null ? null : item.published().etag(),
                    item.published() == null ? null : item.published().accepted(),
                    item.published() == null ? null : item.published().rejected(),
                    item.published() == null ? null : item.published().duplicates(),
                    item.publishCount(), item.firstPublishedAt(), item.publishedAt(), item.runKind(), item.runId(),
                    item.contractVersion(), item.reason(), last == null ? null
                            : new Document.Attempt(last.at(), last.outcome(), last.reason(), last.runKind(), last.inputVersionId(),
                                    last.inputSha256()));
        }
        return new Document(unit, status(), flags(), reason(), detail(), deadline, ageSeconds, publishedAfterDeadlineSeconds,
                unpublishedAgeSeconds, in, ledger,
                published == null ? null : new Document.Published(published.key(), published.etag(), published.size()),
                redrive == null ? null : redrive.document(), consumersBehind);
    }

    /**
     * A {@link UnitReport} as JSON: its classification, figures and evidence (inbox object, ledger item, published
     * object, re-drive). Null fields are left out (JsonCodec).
     */
    @JsonPropertyOrder({"unit", "status", "flags", "reason", "detail", "deadline", "age_seconds", "published_after_deadline_seconds",
            "unpublished_age_seconds", "inbox", "ledger", "published", "redrive", "consumers_behind"})
    public record Document(String unit, UnitStatus status, List<UnitStatus> flags, String reason, String detail, Instant deadline,
                           @JsonProperty("age_seconds") Long ageSeconds,
                           @JsonProperty("published_after_deadline_seconds") Long publishedAfterDeadlineSeconds,
                           @JsonProperty("unpublished_age_seconds") Long unpublishedAgeSeconds, Inbox inbox, Ledger ledger,
                           Published published, Redrive.Document redrive,
                           @JsonProperty("consumers_behind") List<String> consumersBehind) {

        /** The inbox's current object for the unit. */
        @JsonPropertyOrder({"key", "version", "etag", "size", "last_modified"})
        public record Inbox(String key, String version, String etag, long size, @JsonProperty("last_modified") Instant lastModified) {
        }

        /** The ledger item: its input and publish (left out when it has none), counts, run and last attempt. */
        @JsonPropertyOrder({"status", "input_key", "input_version", "input_sha256", "input_size", "published_key", "published_etag",
                "accepted", "rejected", "duplicates", "publish_count", "first_published_at", "published_at", "run_kind", "run_id",
                "contract_version", "reason", "last_attempt"})
        public record Ledger(LedgerStatus status, @JsonProperty("input_key") String inputKey,
                             @JsonProperty("input_version") String inputVersion, @JsonProperty("input_sha256") String inputSha256,
                             @JsonProperty("input_size") Long inputSize, @JsonProperty("published_key") String publishedKey,
                             @JsonProperty("published_etag") String publishedEtag, Long accepted, Long rejected, Long duplicates,
                             @JsonProperty("publish_count") long publishCount,
                             @JsonProperty("first_published_at") Instant firstPublishedAt,
                             @JsonProperty("published_at") Instant publishedAt, @JsonProperty("run_kind") RunKind runKind,
                             @JsonProperty("run_id") String runId, @JsonProperty("contract_version") int contractVersion,
                             String reason, @JsonProperty("last_attempt") Attempt lastAttempt) {
        }

        /** The ledger item's last attempt. */
        @JsonPropertyOrder({"at", "outcome", "reason", "run_kind", "input_version", "input_sha256"})
        public record Attempt(Instant at, AttemptOutcome outcome, String reason, @JsonProperty("run_kind") RunKind runKind,
                              @JsonProperty("input_version") String inputVersion,
                              @JsonProperty("input_sha256") String inputSha256) {
        }

        /** The published object's listing entry. */
        @JsonPropertyOrder({"key", "etag", "size"})
        public record Published(String key, String etag, long size) {
        }
    }
}
