package io.landingledger.core.sweep;

import io.landingledger.core.ledger.LastAttempt;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.TableState;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.volume.VolumeCheck;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
 *                                      published) or since the refusal; null otherwise (a TABLE_BEHIND unit's
 *                                      publish stands: it is owed a table commit, not a publish)
 * @param redrive                       the sweep's re-drive of the unit, or null
 * @param consumersBehind               the consumers whose receipt for the unit names an earlier publish than the
 *                                      current one (name order; {@code ConsumersBehind}): they must read it again
 * @param volume                        the standing publish's rows against the expected band, or null (nothing
 *                                      published with rows, or no band yet)
 */
public record UnitReport(String unit, Classification classification, Instant deadline, LedgerItem item, InboxObject inbox,
                         ObjectStore.ListedObject published, Long ageSeconds, Long publishedAfterDeadlineSeconds,
                         Long unpublishedAgeSeconds, Redrive redrive, List<String> consumersBehind, VolumeCheck volume) {

    public UnitReport {
        consumersBehind = consumersBehind == null ? List.of() : List.copyOf(consumersBehind);
    }

    /** A unit without a volume check. */
    public UnitReport(String unit, Classification classification, Instant deadline, LedgerItem item, InboxObject inbox,
                      ObjectStore.ListedObject published, Long ageSeconds, Long publishedAfterDeadlineSeconds,
                      Long unpublishedAgeSeconds, Redrive redrive, List<String> consumersBehind) {
        this(unit, classification, deadline, item, inbox, published, ageSeconds, publishedAfterDeadlineSeconds,
                unpublishedAgeSeconds, redrive, consumersBehind, null);
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
                unpublished, null, List.of(), evidence.volume());
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
                unpublishedAgeSeconds, value, consumersBehind, volume);
    }

    UnitReport withConsumersBehind(List<String> consumers) {
        return new UnitReport(unit, classification, deadline, item, inbox, published, ageSeconds, publishedAfterDeadlineSeconds,
                unpublishedAgeSeconds, redrive, consumers, volume);
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

    /** The unit as a JSON-ready map (the report and the handler's result). */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("unit", unit);
        map.put("status", status().name());
        map.put("flags", flags().stream().map(Enum::name).toList());
        map.put("reason", reason());
        map.put("detail", detail());
        map.put("deadline", text(deadline));
        map.put("age_seconds", ageSeconds);
        map.put("published_after_deadline_seconds", publishedAfterDeadlineSeconds);
        map.put("unpublished_age_seconds", unpublishedAgeSeconds);
        if (inbox != null) {
            Map<String, Object> in = new LinkedHashMap<>();
            in.put("key", inbox.key());
            in.put("version", inbox.versionId());
            in.put("etag", inbox.etag());
            in.put("size", inbox.size());
            in.put("last_modified", text(inbox.lastModified()));
            map.put("inbox", in);
        } else {
            map.put("inbox", null);
        }
        if (item != null) {
            Map<String, Object> ledger = new LinkedHashMap<>();
            ledger.put("status", item.status().name());
            if (item.input() != null) {
                ledger.put("input_key", item.input().key());
                ledger.put("input_version", item.input().versionId());
                ledger.put("input_sha256", item.input().sha256());
                ledger.put("input_size", item.input().size());
            }
            if (item.published() != null) {
                ledger.put("published_key", item.published().key());
                ledger.put("published_etag", item.published().etag());
                ledger.put("accepted", item.published().accepted());
                ledger.put("rejected", item.published().rejected());
                ledger.put("duplicates", item.published().duplicates());
            }
            ledger.put("publish_count", item.publishCount());
            ledger.put("first_published_at", text(item.firstPublishedAt()));
            ledger.put("published_at", text(item.publishedAt()));
            ledger.put("run_kind", item.runKind() == null ? null : item.runKind().name());
            ledger.put("run_id", item.runId());
            ledger.put("contract_version", item.contractVersion());
            ledger.put("reason", item.reason());
            if (item.table() != null) {
                ledger.put("table", tableView(item.table()));
            }
            LastAttempt last = item.lastAttempt();
            if (last != null) {
                Map<String, Object> attempt = new LinkedHashMap<>();
                attempt.put("at", text(last.at()));
                attempt.put("outcome", last.outcome() == null ? null : last.outcome().name());
                attempt.put("reason", last.reason());
                attempt.put("run_kind", last.runKind() == null ? null : last.runKind().name());
                attempt.put("input_version", last.inputVersionId());
                attempt.put("input_sha256", last.inputSha256());
                ledger.put("last_attempt", attempt);
            }
            map.put("ledger", ledger);
        } else {
            map.put("ledger", null);
        }
        if (published != null) {
            map.put("published", Map.of("key", published.key(), "etag", published.etag(), "size", published.size()));
        } else {
            map.put("published", null);
        }
        if (redrive != null) {
            map.put("redrive", redrive.toMap());
        }
        map.put("consumers_behind", consumersBehind);
        map.put("volume", volumeMap());
        return map;
    }

    /**
     * The volume figures for JSON ({@code actual}, {@code suspect}, {@code low}, {@code high}, {@code median},
     * {@code basis}, ...; {@code accepted}: the operator's reason when the count was accepted), or null.
     */
    public Map<String, Object> volumeMap() {
        if (volume == null) {
            return null;
        }
        Map<String, Object> map = volume.toMap();
        map.put("accepted", item == null || item.volumeAccepted() == null ? null : item.volumeAccepted().reason());
        return map;
    }

    /** What the table writer recorded for the unit: its snapshot and the publish it holds, or its last failure. */
    public static Map<String, Object> tableView(TableState table) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("snapshot_id", table.snapshotId());
        view.put("run_id", table.runId());
        view.put("content_sha256", table.contentSha256());
        view.put("committed_at", text(table.committedAt()));
        view.put("last_error", table.lastError());
        view.put("failed_at", text(table.failedAt()));
        return view;
    }

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
