package io.landingledger.core.simulation;

/**
 * What an exploration did: how many schedules it ran, whether it covered its whole space (exhaustive mode), and the
 * first violation it found, shrunk.
 *
 * @param mode      {@code random (base seed 42)} or {@code exhaustive}
 * @param schedules complete schedules run (not counting shrinking's replays)
 * @param truncated of those, how many were abandoned at the step bound (when that is not a violation)
 * @param complete  exhaustive mode: every schedule within the bounds was run (false when maxSchedules stopped it or
 *                  a violation ended it); random mode: all requested schedules ran
 * @param digest    a hash of every schedule's choices and outcome (a sum, so the same on any number of threads):
 *                  equal digests, identical explorations (when there is no violation: after one, how many more
 *                  schedules other threads ran varies)
 * @param failure   the first violation, or null
 */
public record Report(String mode, long schedules, long truncated, boolean complete, long digest, Failure failure) {

    public boolean violated() {
        return failure != null;
    }

    /** Throws an AssertionError describing the failure (seed, schedules, trace) if there was one. */
    public Report assertNoViolation() {
        if (failure != null) {
            throw new AssertionError(failure.describe(), failure.violation().cause());
        }
        return this;
    }

    @Override
    public String toString() {
        return mode + ": " + schedules + " schedules" + (truncated > 0 ? " (" + truncated + " truncated)" : "")
                + (complete ? ", complete" : ", incomplete")
                + (failure == null ? ", no violation" : "\n" + failure.describe());
    }
}
