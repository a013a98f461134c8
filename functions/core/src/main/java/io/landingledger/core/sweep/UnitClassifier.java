package io.landingledger.core.sweep;

import io.landingledger.core.ledger.EmptyAcceptance;
import io.landingledger.core.ledger.InputIdentity;
import io.landingledger.core.ledger.LastAttempt;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.TableState;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.volume.VolumeCheck;

import java.time.Duration;
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
 *   <li>TABLE_BEHIND: the dataset has a table ({@link Evidence#tableGrace()} is set), the unit is PUBLISHED, and the
 *       table writer's record on the ledger item ({@link TableState}) does not name the standing publish (run id and
 *       content hash) although the grace period after {@code publishedAt} has passed. The reason is the writer's last
 *       error code when it recorded one, else {@code TABLE_NOT_WRITTEN} (no snapshot recorded for the unit) or
 *       {@code TABLE_HOLDS_OLDER_PUBLISH}. Within the grace the unit carries TABLE_BEHIND as a flag only, never as
 *       its status: the writer is fed asynchronously, and a fresh publish is briefly ahead of its table.</li>
 *   <li>UNPROCESSED: the inbox holds an input for the unit and the ledger has no item ({@code NOT_IN_LEDGER}), or
 *       the inbox's newest input ({@link io.landingledger.core.ingest.UnitInputs}: the rule the ingest path orders
 *       inputs by) is neither the version the ledger names nor the one whose refusal it recorded
 *       ({@code NEWER_INPUT}). The re-drive sends exactly that version through the ingest path.</li>
 *   <li>REFUSED: the ledger item is REFUSED (never published); or it is PUBLISHED and its last attempt was the
 *       refusal of the inbox's newest input (or of the last input before the inbox emptied): the older publish
 *       stands, the producer must send a clean file.</li>
 *   <li>SUSPECT_VOLUME: published with accepted rows (more than zero) outside the band the dataset's history and
 *       contract expect ({@link VolumeCheck}, computed by the sweep from the earlier units' counts), and no operator
 *       accepted the standing publish's count ({@code volume_accepted}).</li>
 *   <li>EMPTY: published with zero accepted rows; EMPTY_ACCEPTED instead when the contract says empty units are
 *       complete ({@code acceptEmptyUnits}) or an operator accepted the unit's empty publish with a reason.</li>
 *   <li>RESTATED: a publish changed the rows a reader sees (the ledger's {@code restatements}, counted by content
 *       hash); a republish of the same rows, as a repair after an out-of-band deletion makes, is not one.</li>
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
     * @param emptyUnitsAccepted the dataset's contract says an empty unit is complete ({@code acceptEmptyUnits})
     * @param tableGrace how long after a publish its table commit may take ({@link TableTracking#grace()}), or null
     *                   when the dataset has no table (a stack without tables): nothing is judged against one
     * @param volume     the standing publish's rows judged against the dataset's expected band, or null (nothing
     *                   published, or no band yet: a new dataset warming up without declared bounds)
     */
    public record Evidence(String unit, Instant deadline, Instant now, LedgerItem item, InboxObject inbox,
                           ObjectStore.ListedObject published, boolean emptyUnitsAccepted, Duration tableGrace,
                           VolumeCheck volume) {
        public Evidence {
            Objects.requireNonNull(unit);
            Objects.requireNonNull(now);
        }

        /** A dataset without a table, and without a volume check. */
        public Evidence(String unit, Instant deadline, Instant now, LedgerItem item, InboxObject inbox,
                        ObjectStore.ListedObject published, boolean emptyUnitsAccepted) {
            this(unit, deadline, now, item, inbox, published, emptyUnitsAccepted, null, null);
        }

        /** A dataset whose contract does not accept empty units. */
        public Evidence(String unit, Instant deadline, Instant now, LedgerItem item, InboxObject inbox,
                        ObjectStore.ListedObject published) {
            this(unit, deadline, now, item, inbox, published, false);
        }
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

        // inbox against the ledger: the inbox's newest input (UnitInputs' rule, the ingest path's own) must be the
        // one the ledger names, or the one whose refusal it recorded
        boolean newestRefused = false;
        if (inbox != null) {
            if (item == null) {
                findings.put(UnitStatus.UNPROCESSED, of("NOT_IN_LEDGER",
                        "the inbox holds " + describe(inbox) + " and the ledger has no record of the unit"));
            } else {
                LastAttempt last = item.lastAttempt();
                boolean named = isRecordedInput(item.input(), inbox);
                newestRefused = last != null && last.refused() && last.read(inbox.key(), inbox.versionId());
                if (!named && !newestRefused) {
                    findings.put(UnitStatus.UNPROCESSED, of("NEWER_INPUT", "the inbox's newest input is " + describe(inbox)
                            + "; the ledger names " + describe(item.input())));
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
                // the newest input was refused (or the inbox no longer holds any input): the older publish stands
                if (last != null && last.refused() && (newestRefused || inbox == null)) {
                    findings.put(UnitStatus.REFUSED, of(last.reason() == null ? "REFUSED" : last.reason(),
                            "the newest input (version " + last.inputVersionId() + ") was refused (" + last.reason() + ") at "
                                    + at(last.at()) + "; the publish of " + at(item.publishedAt()) + " still stands"));
                }
                VolumeCheck volume = evidence.volume();
                if (item.published() != null && item.published().accepted() > 0 && volume != null && volume.suspect()
                        && item.volumeAccepted() == null) {
                    findings.put(UnitStatus.SUSPECT_VOLUME, of(volume.reasonCode(), volume.detail()
                            + "; a truncated or duplicated export? republish, or accept the count with a reason"));
                }
                if (item.published() != null && item.published().accepted() == 0) {
                    String rejected = " (" + item.published().rejected() + " lines rejected)";
                    EmptyAcceptance accepted = item.emptyAccepted();
                    if (accepted != null) {
                        findings.put(UnitStatus.EMPTY_ACCEPTED, of("ACCEPTED_BY_OPERATOR", "published with 0 rows" + rejected
                                + "; accepted by an operator at " + at(accepted.at()) + ": " + accepted.reason()));
                    } else if (evidence.emptyUnitsAccepted()) {
                        findings.put(UnitStatus.EMPTY_ACCEPTED, of("ACCEPTED_BY_CONTRACT", "published with 0 rows" + rejected
                                + "; the contract accepts empty units (acceptEmptyUnits)"));
                    } else {
                        findings.put(UnitStatus.EMPTY, of("NO_ROWS", "published with 0 rows" + rejected
                                + "; not accepted as an empty day"));
                    }
                }
                if (item.restated()) {
                    findings.put(UnitStatus.RESTATED, of("ROWS_CHANGED_" + item.restatements() + "_TIMES", "the published rows changed "
                            + item.restatements() + (item.restatements() == 1 ? " time" : " times") + " in " + item.publishCount()
                            + " publishes: first at " + at(item.firstPublishedAt()) + ", these rows since " + at(item.contentPublishedAt())
                            + ", now from " + describe(item.input())));
                }
            }
        }

        // the dataset's table against the standing publish
        String[] table = tableBehind(evidence);
        boolean tableWithinGrace = false;
        if (table != null) {
            tableWithinGrace = !pastTableGrace(item, evidence.now(), evidence.tableGrace());
            if (!tableWithinGrace) {
                findings.put(UnitStatus.TABLE_BEHIND, table);
            }
        }

        if (findings.isEmpty()) {
            if (item != null) {
                // a table commit still within its grace is shown, never counted
                return new Classification(UnitStatus.OK, tableWithinGrace ? List.of(UnitStatus.TABLE_BEHIND) : List.of(),
                        null, null);
            }
            Instant deadline = evidence.deadline();
            if (deadline != null && evidence.now().isBefore(deadline)) {
                return new Classification(UnitStatus.PENDING, List.of(), "NOT_DUE", "no input yet; due by " + deadline);
            }
            return new Classification(UnitStatus.MISSING, List.of(), "NO_INPUT",
                    deadline == null ? "no input arrived" : "no input arrived; it was due by " + deadline);
        }
        List<UnitStatus> flags = new ArrayList<>(findings.keySet()); // EnumMap: in precedence order
        UnitStatus status = flags.get(0);
        String[] first = findings.get(status);
        if (tableWithinGrace) {
            flags.add(UnitStatus.TABLE_BEHIND);
            flags.sort(null); // enum order: the precedence order
        }
        return new Classification(status, flags, first[0], first[1]);
    }

    /**
     * The TABLE_BEHIND finding (reason, detail) when the dataset has a table, the unit is PUBLISHED and the table's
     * record does not name the standing publish; null otherwise. The grace period is the caller's to judge.
     */
    private static String[] tableBehind(Evidence evidence) {
        LedgerItem item = evidence.item();
        if (evidence.tableGrace() == null || item == null || item.status() != LedgerStatus.PUBLISHED
                || item.published() == null) {
            return null;
        }
        String sha256 = item.published().contentSha256();
        TableState table = item.table();
        if (table != null && table.holds(item.runId(), sha256)) {
            return null;
        }
        String wanted = "the table does not hold the publish of run " + item.runId() + " (content " + shortSha(sha256)
                + ", published " + at(item.publishedAt()) + ")";
        String holds = table == null || table.snapshotId() == null ? "; no table snapshot is recorded for the unit"
                : "; it holds run " + table.runId() + " (content " + shortSha(table.contentSha256()) + ") since snapshot "
                + table.snapshotId() + " of " + at(table.committedAt());
        String failed = table != null && table.lastError() != null
                ? "; the table writer last failed at " + at(table.failedAt()) + " (" + table.lastError() + ")" : "";
        return of(tableReason(item), wanted + holds + failed);
    }

    /**
     * Why the unit's table partition does not hold its standing publish: the table writer's last error code when it
     * recorded one, else {@code TABLE_NOT_WRITTEN} (no snapshot recorded) or {@code TABLE_HOLDS_OLDER_PUBLISH}; null
     * when it holds it, or the unit has no publish. Judged whatever the grace period ({@code _status/} and
     * {@code landing explain} show it while the commit is still on its way).
     */
    public static String tableReason(LedgerItem item) {
        if (item == null || item.status() != LedgerStatus.PUBLISHED || item.published() == null) {
            return null;
        }
        TableState table = item.table();
        if (table != null && table.holds(item.runId(), item.published().contentSha256())) {
            return null;
        }
        if (table != null && table.lastError() != null) {
            return table.lastError();
        }
        return table == null || table.snapshotId() == null ? "TABLE_NOT_WRITTEN" : "TABLE_HOLDS_OLDER_PUBLISH";
    }

    /**
     * True when the table grace period after the unit's publish has passed at {@code now}: a table that still does
     * not hold the publish is then TABLE_BEHIND (a publish of unknown time is judged at once).
     */
    static boolean pastTableGrace(LedgerItem item, Instant now, Duration grace) {
        return item.publishedAt() == null || !now.isBefore(item.publishedAt().plus(grace));
    }

    private static String shortSha(String sha256) {
        return sha256 == null ? "unknown" : sha256.substring(0, Math.min(12, sha256.length()));
    }

    /** The inbox object is the very version the ledger names as the unit's input. */
    static boolean isRecordedInput(InputIdentity recorded, InboxObject inbox) {
        return recorded != null && inbox.key().equals(recorded.key()) && inbox.versionId() != null
                && inbox.versionId().equals(recorded.versionId());
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
