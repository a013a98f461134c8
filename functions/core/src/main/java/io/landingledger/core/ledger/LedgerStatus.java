package io.landingledger.core.ledger;

/** What a unit's ledger item says is published now. */
public enum LedgerStatus {
    /** A publish exists (a later refused input may be recorded in last_attempt; the publish still stands). */
    PUBLISHED,
    /** Never published: every input so far was refused. */
    REFUSED,
    /** An operator recorded that this unit is intentionally absent. */
    OMITTED
}
