package io.landingledger.core.ingest;

/** What one run did. */
public enum IngestAction {
    /** This run promoted a new publish and recorded it. */
    PUBLISHED,
    /**
     * Nothing to do: the ledger and the published object already reflect this input, or the input version no longer
     * exists ({@code INPUT_GONE}). No write at all.
     */
    SKIPPED,
    /** The file was refused; nothing was published; the refusal is recorded. */
    REFUSED,
    /** An earlier run (crashed, or a concurrent duplicate) promoted this input; this run recorded it in the ledger. */
    FINISHED,
    /**
     * A new version whose bytes are the published input's (the same SHA-256: a byte-identical re-upload): recorded
     * once as the unit's input, nothing republished.
     */
    UNCHANGED,
    /** Not the unit's newest input (or, for a repair, older than the standing publish's): nothing is written. */
    STALE,
    /**
     * Not run here: the input was handed to an ingest path that runs it later, on its own (the deployed sweep's
     * re-drive, an asynchronous invocation of the validator function). Nothing is known of the run yet; it reports
     * its own outcome, and the next sweep reads what it did from the ledger. {@link IngestService} never returns it.
     */
    SUBMITTED;

    /** False for {@link #SUBMITTED}, the one action that is not what a run did (no file is counted under it). */
    public boolean ran() {
        return this != SUBMITTED;
    }

    /** On the wire (handler responses, log lines) in lower case: {@code published}. */
    @com.fasterxml.jackson.annotation.JsonValue
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    @com.fasterxml.jackson.annotation.JsonCreator
    public static IngestAction of(String wireName) {
        return valueOf(wireName.toUpperCase(java.util.Locale.ROOT));
    }
}
