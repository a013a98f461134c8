package io.landingledger.core.ledger;

/** Why a run happened. Repair and backfill run the same code path as ingest; only this differs (invariant 8). */
public enum RunKind {
    INGEST,
    REPAIR,
    OMIT,
    /** An operator accepted (or revoked the acceptance of) an empty publish; only its history item carries it. */
    ACCEPT_EMPTY,
    /** An operator accepted (or revoked the acceptance of) a suspect row count; only its history item carries it. */
    ACCEPT_VOLUME
}
