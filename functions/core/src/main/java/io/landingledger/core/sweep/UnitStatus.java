package io.landingledger.core.sweep;

import java.util.Locale;

/**
 * What the completeness sweep says about one expected unit (docs/design.md section 5). Several findings can apply to
 * one unit (a restated unit whose published object was deleted is RESTATED and LEDGER_DRIFT); the unit's status is
 * the one that comes first in this enum's order, the others are listed as its flags:
 *
 * <ol>
 *   <li>{@link #OMITTED}: an operator decided the unit is intentionally absent; nothing else is judged.</li>
 *   <li>{@link #LEDGER_DRIFT}: the ledger and {@code published/} disagree, so every other finding rests on a lie.</li>
 *   <li>{@link #TABLE_BEHIND}: the publish stands but the dataset's table does not hold it (past the grace period).</li>
 *   <li>{@link #UNPROCESSED}: the inbox holds a newer input than the ledger recorded; the sweep can act on it.</li>
 *   <li>{@link #REFUSED}: the newest input was refused; the producer must act.</li>
 *   <li>{@link #SUSPECT_VOLUME}: published, but with a row count outside the band the dataset's history and contract
 *       expect (a truncated export); after REFUSED, whose standing publish is older rows anyway, and before EMPTY, which
 *       it never meets: a unit of 0 rows is judged by EMPTY alone.</li>
 *   <li>{@link #EMPTY} (an operator must accept it), {@link #EMPTY_ACCEPTED}, then {@link #RESTATED}: published, shown
 *       for what a reader should know.</li>
 *   <li>{@link #OK}: none of the above.</li>
 * </ol>
 * {@link #PENDING} and {@link #MISSING} apply only when there is no ledger item, no inbox input and no published
 * object for the unit, so they never combine with another finding.
 *
 * <p>A status that fails completeness is one an operator can close, each by one action (docs/operations.md, "What each
 * status means"): otherwise the sweep's alarm could never go quiet and a real failure would hide among old ones.
 */
public enum UnitStatus {
    /** An operator recorded an omission (RunKind OMIT) with a reason. Does not fail completeness. */
    OMITTED("UnitsOmitted", false),
    /** The ledger's published object is missing, has another ETag, or an object exists the ledger does not vouch for. */
    LEDGER_DRIFT("UnitsLedgerDrift", true),
    /**
     * The unit is published, the dataset has a table, and the table's record on the ledger item does not name the
     * standing publish (run id and content hash) although the table grace period after the publish has passed (within
     * it, a flag on the unit only). Re-driven to the table queue with autoRedrive; {@code landing repair} submits it.
     */
    TABLE_BEHIND("UnitsTableBehind", true),
    /** The inbox's newest input for the unit is not what the ledger recorded. Re-driven with autoRedrive. */
    UNPROCESSED("UnitsUnprocessed", true),
    /** Every input was refused, or the newest input was refused while an older publish still stands. */
    REFUSED("UnitsRefused", true),
    /**
     * Published with a count of accepted rows outside the band the dataset's own recent history and its contract's
     * {@code volume} expect ({@code io.landingledger.core.volume.VolumeModel}), and not accepted by an operator
     * ({@code landing repair ... --accept-volume}). Closed by the producer's republish (judged afresh) or that acceptance.
     */
    SUSPECT_VOLUME("UnitsSuspectVolume", true),
    /**
     * Published with zero rows, and neither the contract ({@code acceptEmptyUnits}) nor an operator
     * ({@code landing repair ... --accept-empty}) says an empty unit is what the day holds.
     */
    EMPTY("UnitsEmpty", true),
    /** Published with zero rows, accepted by the contract or by an operator with a reason. Complete. */
    EMPTY_ACCEPTED("UnitsEmptyAccepted", false),
    /**
     * A publish changed the rows a reader sees (by content hash; a republish of the same rows is not one). Complete:
     * the new rows are the unit's; readers who read the older rows are named as behind until they acknowledge.
     */
    RESTATED("UnitsRestated", false),
    /** Published from the inbox's current input, present in published/ with the ledger's ETag. */
    OK("UnitsOk", false),
    /** No input yet, and the unit's deadline (its end plus graceHours) has not passed. Not a failure. */
    PENDING("UnitsPending", false),
    /** No input arrived and the deadline passed (a list cadence's units have no deadline: missing at once). */
    MISSING("UnitsMissing", true);

    private final String metricName;
    private final boolean failsCompleteness;

    UnitStatus(String metricName, boolean failsCompleteness) {
        this.metricName = metricName;
        this.failsCompleteness = failsCompleteness;
    }

    /** The EMF metric that counts units with this status, e.g. {@code UnitsLedgerDrift}. */
    public String metricName() {
        return metricName;
    }

    /**
     * True when a unit with this status makes the dataset incomplete: LEDGER_DRIFT, TABLE_BEHIND, UNPROCESSED, REFUSED,
     * SUSPECT_VOLUME, EMPTY and MISSING. OMITTED and EMPTY_ACCEPTED are an operator's explicit, recorded decisions, and RESTATED is new rows
     * that stand: shown and counted, but complete; otherwise they could never be closed.
     */
    public boolean failsCompleteness() {
        return failsCompleteness;
    }

    /** Lower case, for JSON and CSS class names. */
    public String lowerCase() {
        return name().toLowerCase(Locale.ROOT);
    }
}
