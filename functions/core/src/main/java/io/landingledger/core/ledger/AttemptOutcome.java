package io.landingledger.core.ledger;

/** What the most recent run that changed the ledger's knowledge of a unit did ({@link LastAttempt#outcome()}). */
public enum AttemptOutcome {
    /** It published the input (or recorded a publish a crashed or concurrent run left). */
    PUBLISHED,
    /** It refused the input: nothing published, the previous publish stays. */
    REFUSED,
    /** A new version with the published input's bytes: recorded as the unit's input, not republished. */
    UNCHANGED,
    /** An operator omitted the unit: intentionally absent. */
    OMITTED
}
