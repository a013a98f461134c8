package io.landingledger.core.ingest;

/**
 * The ingest path as a callable step: in process ({@link IngestService}) for the validator, repair, tests and the
 * local run; through the validator function for the deployed sweep, whose role may not write {@code published/}
 * (its re-drives then run with the validator's own permissions, asynchronously).
 */
@FunctionalInterface
public interface IngestPath {
    /**
     * Runs the request and returns what the run did, or, for an asynchronous path, hands it over and returns a
     * {@link IngestAction#SUBMITTED} outcome (the run happens later and reports itself).
     *
     * @throws NotSubmittedException an asynchronous path could not hand the request over (nothing to retry here)
     */
    IngestOutcome ingest(IngestService.Request request);

    /**
     * True when the path logs and counts each outcome itself (the deployed validator function does, for every
     * record it runs), so a caller that reports outcomes must not report them a second time.
     */
    default boolean reportsOutcomes() {
        return false;
    }
}
