package io.landingledger.core.ingest;

/**
 * Where a producer hears each {@link InputDecision}: the adapters put it on the ledger bus and tag the input's
 * version with it. Telling the producer never fails the decision: an implementation logs and counts what it could
 * not deliver and returns (the decision is in the ledger, the logs and the metrics either way).
 */
@FunctionalInterface
public interface DecisionNotices {
    /** Nobody hears: tests, the command line's local validation. */
    DecisionNotices NONE = decision -> { };

    /** Tells the producer of {@code decision}'s input. Never throws. */
    void decided(InputDecision decision);
}
