package io.landingledger.core.ingest;

/** What one run did. */
public enum IngestAction {
    /** This run promoted a new publish and recorded it. */
    PUBLISHED,
    /** Nothing to do: the ledger and the published object already reflect this input. No write at all. */
    SKIPPED,
    /** The file was refused; nothing was published; the refusal is recorded. */
    REFUSED,
    /** An earlier run (crashed, or a concurrent duplicate) promoted this input; this run recorded it in the ledger. */
    FINISHED,
    /** The input is older than the one the unit is built from; it does not replace it. */
    STALE
}
