package io.landingledger.core.ingest;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One decision about one input file, as its producer hears it (issue 32, "producers hear back"): the
 * {@code InputDecision} event on the ledger bus (events/input-decision.schema.json) and the tags on the input's
 * version. Names, codes and counts only: never a line, never a value (invariant 7).
 *
 * @param decision        what became of the file
 * @param dataset         the dataset; for an unroutable key the key's first segment (which may name no dataset), or
 *                        null when the key has none
 * @param unit            the unit the file owns; null when unroutable
 * @param bucket          the inbox bucket
 * @param key             the input's key (null only for a record that names none)
 * @param versionId       the input's version id
 * @param reasons         codes: the refusal's, the rejected lines' (one each, sorted), the unroutable reason,
 *                        {@code INPUT_GONE}; empty when there is nothing to explain
 * @param accepted        rows published from this input (or standing from it, for a replay)
 * @param rejected        lines rejected to the quarantine
 * @param duplicates      identical duplicate rows collapsed
 * @param runId           the run that decided; null for an unroutable record
 * @param runKind         INGEST, REPAIR; null for an unroutable record
 * @param contractVersion the contract version the run read the input against; null when unroutable
 * @param expectedRows    the dataset's expected band of rows, for {@link Decision#SUSPECT_VOLUME} only
 */
public record InputDecision(Decision decision, String dataset, String unit, String bucket, String key, String versionId,
                            List<String> reasons, long accepted, long rejected, long duplicates, String runId, String runKind,
                            Integer contractVersion, ExpectedRows expectedRows) {

    public InputDecision {
        Objects.requireNonNull(decision, "decision");
        reasons = List.copyOf(reasons);
    }

    /** What became of a file, in the words a producer's rule matches on ({@link #wireName()}). */
    public enum Decision {
        /** Its rows are the unit's publish, every line accepted. */
        PUBLISHED,
        /** Its rows are the unit's publish; some lines were rejected to the quarantine (reasons: their codes). */
        PUBLISHED_WITH_REJECTS,
        /** Nothing was published from it (reasons: the refusal's code); an older publish of the unit may stand. */
        REFUSED,
        /** Its key names no dataset or no unit (reasons: UNKNOWN_DATASET, PATTERN_MISMATCH, UNIT_INVALID, ...). */
        UNROUTABLE,
        /** A replay: the ledger already records this version (published from it, or its refusal: reasons). */
        SKIPPED_REPLAY,
        /** The version was deleted before it was read. */
        INPUT_GONE,
        /** The same bytes as the published input: recorded as the unit's input, not republished. */
        UNCHANGED,
        /** Not the unit's newest input: a newer file of the unit is in the inbox, nothing was written. */
        STALE,
        /**
         * Published, but its accepted rows are outside the dataset's expected band (the sweep's volume check,
         * {@link #suspectVolume}).
         */
        SUSPECT_VOLUME;

        /** On the wire and in the tag: {@code published_with_rejects}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The band of accepted rows the dataset's history and contract expect of a unit. */
    public record ExpectedRows(long low, long high) {
    }

    /**
     * The producer's decision of a run's outcome in {@code bucket}, or empty for an outcome that is no decision about
     * a file (a re-drive handed to another invocation, which reports its own).
     */
    public static Optional<InputDecision> of(IngestOutcome outcome, String bucket) {
        Decision decision = switch (outcome.action()) {
            case PUBLISHED, FINISHED -> outcome.rejected() > 0 ? Decision.PUBLISHED_WITH_REJECTS : Decision.PUBLISHED;
            case REFUSED -> Decision.REFUSED;
            case SKIPPED -> "INPUT_GONE".equals(outcome.refusalCode()) ? Decision.INPUT_GONE : Decision.SKIPPED_REPLAY;
            case UNCHANGED -> Decision.UNCHANGED;
            case STALE -> Decision.STALE;
            case SUBMITTED -> null;
        };
        if (decision == null) {
            return Optional.empty();
        }
        List<String> reasons = switch (decision) {
            case REFUSED, INPUT_GONE -> outcome.refusalCode() == null ? List.of() : List.of(outcome.refusalCode());
            // a replay of a refused version names the refusal it already had
            case SKIPPED_REPLAY -> outcome.refusalCode() == null ? List.of() : List.of(outcome.refusalCode());
            case PUBLISHED_WITH_REJECTS -> List.copyOf(outcome.rejectReasons().keySet());
            default -> List.of();
        };
        return Optional.of(new InputDecision(decision, outcome.dataset(), outcome.unit(), bucket, outcome.inputKey(),
                outcome.inputVersionId(), reasons, outcome.accepted(), outcome.rejected(), outcome.duplicates(),
                outcome.runId(), outcome.runKind(), outcome.contractVersion(), null));
    }

    /** A record whose key routes to no dataset or unit, for {@code reason}. */
    public static InputDecision unroutable(String bucket, String key, String versionId, String reason) {
        return new InputDecision(Decision.UNROUTABLE, firstSegment(key), null, bucket, key, versionId,
                reason == null ? List.of() : List.of(reason), 0, 0, 0, null, null, null, null);
    }

    /**
     * The hook for the sweep's volume check (issue 32, item 1): a published unit whose accepted rows are outside
     * {@code expected}, heard by the producer of the input the ledger names. Sent once, when the sweep first
     * classifies the unit SUSPECT_VOLUME; {@code runId} is the run that built the standing publish.
     */
    public static InputDecision suspectVolume(String dataset, String unit, String bucket, String key, String versionId,
                                              long accepted, ExpectedRows expected, String runId,
                                              int contractVersion) {
        return new InputDecision(Decision.SUSPECT_VOLUME, dataset, unit, bucket, key, versionId, List.of("SUSPECT_VOLUME"),
                accepted, 0, 0, runId, null, contractVersion, Objects.requireNonNull(expected, "expected"));
    }

    private static String firstSegment(String key) {
        int slash = key == null ? -1 : key.indexOf('/');
        return slash > 0 ? key.substring(0, slash) : null;
    }
}
