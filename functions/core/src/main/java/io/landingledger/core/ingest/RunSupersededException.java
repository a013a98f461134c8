package io.landingledger.core.ingest;

/**
 * A run's own publish was replaced while it ran, and the decision asks it to promote again. A publish's identity is the
 * run that built it, so one run publishes at most once: it stops, in a state the next run finishes (its publish and the
 * newer one are both recorded or recordable), and is thrown like an infrastructure fault so that Lambda's retry, the
 * sweep's next re-drive or the operator's rerun decides again under a new run id.
 */
public final class RunSupersededException extends RuntimeException {
    public RunSupersededException(String message) {
        super(message);
    }
}
