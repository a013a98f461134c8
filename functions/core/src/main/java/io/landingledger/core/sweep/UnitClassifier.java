package io.landingledger.core.sweep;

import io.landingledger.core.ledger.InputIdentity;
import io.landingledger.core.ledger.LastAttempt;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.store.ObjectStore;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Classifies one unit from what the sweep gathered for it in bulk: its ledger item, the inbox's current object for
 * it, and the published object's listing entry. Pure: no I/O, time passed in. The rules, each one a finding (a unit
 * can have several; {@link UnitStatus} orders them):
 *
 * <ul>
 *   <li>OMITTED: the ledger item's status is OMITTED. Nothing else is judged.</li>
 *   <li>LEDGER_DRIFT: the ledger vouches for a publish and the listing has no such object
 *       ({@code PUBLISHED_OBJECT_MISSING}) or another ETag ({@code PUBLISHED_ETAG_MISMATCH}); or an object is
 *       published that no ledger item vouches for ({@code UNRECORDED_PUBLISH}, e.g. a run died between promote and
 *       ledger: re-driving its input finishes it).</li>
 *   <li>UNPROCESSED: the inbox has a current object for the unit and the ledger has no item ({@code NOT_IN_LEDGER}),
 *       or the object is not the recorded input (same key and ETag or version id), is not the version the last attempt
 *       read (a refusal or a stale verdict covers it), and is not older than the recorded input
 *       ({@code NEWER_INPUT}; older means a whole second earlier, S3 LastModified's resolution: an order that
 *       cannot be told is not called older, as in the ingest path's ordering rule).</li>
 *   <li>REFUSED: the ledger item is REFUSED (never published); or it is PUBLISHED and its last attempt, after the
 *       publish, was a refusal, unless the inbox's current object is the published input again (the producer
 *       withdrew the refused file).</li>
 *   <li>INPUT_DRIFT: the unit is published and the inbox's current object is neither the recorded input nor newer:
 *       strictly older by LastModified ({@code OLDER_INPUT}), or the ingest path already judged that very version
 *       stale ({@code STALE_INPUT}). Typically the producer deleted the version the publish was built from.</li>
 *   <li>EMPTY: published with zero accepted rows. RESTATED: publish_count above 1.</li>
 *   <li>PENDING / MISSING: no ledger item, no inbox object, no published object: PENDING while now is before the
 *       unit's deadline, MISSING after it (or at once for a list cadence, whose units have no deadline).</li>
 * </ul>
 * A published unit whose inbox object is gone altogether (deleted, or expired by a lifecycle rule) is not drift: the
 * publish is what the ledger says and nothing newer exists. The report shows the inbox as absent.
 */
public final class UnitClassifier {
    private UnitClassifier() {
    }

    /**
     * What the sweep knows about one unit.
     *
     * @param deadline  the unit's end plus graceHours, or null (list cadence)
     * @param item      the ledger item, or null
     * @param inbox     the inbox's current object for the unit, or null
     * @param published the listing entry of the unit's published object, or null
     */
    public record Evidence(String unit, Instant deadline, Instant now, LedgerItem item, InboxObject inbox,
                           ObjectStore.ListedObject published) {
        public Evidence {
            Objects.requireNonNull(unit);
            Objects.requireNonNull(now);
        }
    }

    /**
     * True when classifying needs the inbox object's version id: the unit has a ledger item and the listing shows an
     * object other than the recorded input (the exceptions; a healthy unit never costs a request of its own).
     */
    public static boolean needsVersion(LedgerItem item, InboxObject inbox) {
        return item != null && inbox != null && inbox.versionId() == null && item.status() != LedgerStatus.OMITTED
                && !isRecordedInput(item.input(), inbox);
    }

    public static Classification classify(Evidence evidence) {
        Map<UnitStatus, String[]> findings = new EnumMap<>(UnitStatus.class);
        LedgerItem item = evidence.item();
        InboxObject inbox = evidence.inbox();
        ObjectStore.ListedObject published = evidence.published();

        if (item != null && item.status() == LedgerStatus.OMITTED) {
            String reason = item.reason() == null ? "OMITTED" : item.reason();
            return single(UnitStatus.OMITTED, reason, "omitted by an operator"
                    + (item.lastAttempt() != null && item.lastAttempt().at() != null ? " at " + at(item.lastAttempt().at()) : "")
                    + ": " + reason);
        }

        // ledger against published/
        String vouched = item == null ? null : item.publishedEtag();
        if (vouched != null && published == null) {
            findings.put(UnitStatus.LEDGER_DRIFT, of("PUBLISHED_OBJECT_MISSING",
                    "the ledger vouches for " + item.published().key() + " (ETag " + vouched + ") but published/ has no such object"));
        } else if (vouched != null && !vouched.equals(published.etag())) {
            findings.put(UnitStatus.LEDGER_DRIFT, of("PUBLISHED_ETAG_MISMATCH",
                    "published/ holds ETag " + published.etag() + " but the ledger vouches for ETag " + vouched));
        } else if (vouched == null && published != null) {
            findings.put(UnitStatus.LEDGER_DRIFT, of("UNRECORDED_PUBLISH",
                    "published/ holds " + published.key() + " (ETag " + published.etag() + ") that no ledger publish vouches for"));
        }

        // inbox against the ledger
        boolean inboxIsRecorded = false;
        if (inbox != null) {
            if (item == null) {
                findings.put(UnitStatus.UNPROCESSED, of("NOT_IN_LEDGER",
                        "the inbox holds " + describe(inbox) + " and the ledger has no record of the unit"));
            } else {
                InputIdentity recorded = item.input();
                inboxIsRecorded = isRecordedInput(recorded, inbox);
                LastAttempt last = item.lastAttempt();
                boolean lastAttemptReadIt = !inboxIsRecorded && last != null && inbox.versionId() != null
                        && inbox.versionId().equals(last.inputVersionId());
                if (!inboxIsRecorded && lastAttemptReadIt && "STALE_EVENT".equals(last.outcome())) {
                    if (item.published() != null) {
                        findings.put(UnitStatus.INPUT_DRIFT, of("STALE_INPUT", "published from " + describe(recorded)
                                + "; the inbox's current " + describe(inbox) + " was judged older by the ingest path at " + at(last.at())));
                    }
                } else if (!inboxIsRecorded && !lastAttemptReadIt) {
                    // S3 LastModified has one-second resolution while the recorded time may be an event time with
                    // milliseconds: only a whole second earlier is older
                    boolean older = recorded != null && recorded.lastModified() != null && inbox.lastModified() != null
                            && inbox.lastModified().isBefore(recorded.lastModified().truncatedTo(ChronoUnit.SECONDS));
                    if (!older) {
                        findings.put(UnitStatus.UNPROCESSED, of("NEWER_INPUT", "the inbox holds " + describe(inbox)
                                + ", newer than the recorded " + describe(recorded)));
                    } else if (item.published() != null) {
                        findings.put(UnitStatus.INPUT_DRIFT, of("OLDER_INPUT", "published from " + describe(recorded)
                                + " but the inbox's current input is the older " + describe(inbox)));
                    }
                }
            }
        }

        // what the ledger itself says
        if (item != null) {
            LastAttempt last = item.lastAttempt();
            if (item.status() == LedgerStatus.REFUSED) {
                String code = item.reason() != null ? item.reason() : last != null ? last.reason() : "REFUSED";
                findings.put(UnitStatus.REFUSED, of(code, "every input so far was refused (" + code + "), last "
                        + describe(item.input()) + "; nothing is published"));
            } else if (item.status() == LedgerStatus.PUBLISHED) {
                if (last != null && "REFUSED".equals(last.outcome()) && last.at() != null
                        && (item.publishedAt() == null || last.at().isAfter(item.publishedAt())) && !inboxIsRecorded) {
                    findings.put(UnitStatus.REFUSED, of(last.reason() == null ? "REFUSED" : last.reason(),
                            "the newest input (version " + last.inputVersionId() + ") was refused (" + last.reason() + ") at "
                                    + at(last.at()) + "; the publish of " + at(item.publishedAt()) + " still stands"));
                }
                if (item.published() != null && item.published().accepted() == 0) {
                    findings.put(UnitStatus.EMPTY, of("NO_ROWS", "published with 0 rows (" + item.published().rejected()
                            + " lines rejected)"));
                }
                if (item.publishCount() > 1) {
                    findings.put(UnitStatus.RESTATED, of("PUBLISHED_" + item.publishCount() + "_TIMES", "published "
                            + item.publishCount() + " times: first at " + at(item.firstPublishedAt()) + ", now from "
                            + describe(item.input()) + " at " + at(item.publishedAt())));
                }
            }
        }

        if (findings.isEmpty()) {
            if (item != null) {
                return new Classification(UnitStatus.OK, List.of(), null, null);
            }
            Instant deadline = evidence.deadline();
            if (deadline != null && evidence.now().isBefore(deadline)) {
                return new Classification(UnitStatus.PENDING, List.of(), "NOT_DUE", "no input yet; due by " + deadline);
            }
            return new Classification(UnitStatus.MISSING, List.of(), "NO_INPUT",
                    deadline == null ? "no input arrived" : "no input arrived; it was due by " + deadline);
        }
        List<UnitStatus> flags = new ArrayList<>(findings.keySet()); // EnumMap: in precedence order
        String[] first = findings.get(flags.get(0));
        return new Classification(flags.get(0), flags, first[0], first[1]);
    }

    /**
     * The inbox object is the input the ledger recorded: the same key and the same version, or the same ETag (the
     * same bytes uploaded again: the ingest path would skip them, so they must not count as unprocessed).
     */
    static boolean isRecordedInput(InputIdentity recorded, InboxObject inbox) {
        if (recorded == null || !inbox.key().equals(recorded.key())) {
            return false;
        }
        if (inbox.versionId() != null && inbox.versionId().equals(recorded.versionId())) {
            return true;
        }
        return inbox.etag() != null && inbox.etag().equals(recorded.etag());
    }

    private static Classification single(UnitStatus status, String reason, String detail) {
        return new Classification(status, List.of(status), reason, detail);
    }

    private static String[] of(String reason, String detail) {
        return new String[] {reason, detail};
    }

    private static String describe(InboxObject inbox) {
        return inbox.key() + (inbox.versionId() != null ? " (version " + inbox.versionId() + ")" : "")
                + " modified " + at(inbox.lastModified());
    }

    /** An instant to the second: details are read by people. */
    private static String at(Instant instant) {
        return instant == null ? "(unknown)" : instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static String describe(InputIdentity input) {
        if (input == null) {
            return "input (none recorded)";
        }
        return input.key() + " (version " + input.versionId() + ")";
    }
}
