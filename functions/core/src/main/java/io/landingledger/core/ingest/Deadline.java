package io.landingledger.core.ingest;

import java.time.Duration;

/**
 * The time the invocation has left before the function's timeout kills it: Lambda's Context in production, a fake in
 * tests. The core sees only a duration, never an AWS type. Runs check it before each step they start, so that a run
 * that cannot finish stops between steps (a state the next run finishes) rather than being killed inside one.
 */
@FunctionalInterface
public interface Deadline {
    /** Outside Lambda (the local run, tests): no timeout to watch. */
    Deadline NONE = () -> Duration.ofDays(1);

    Duration remaining();

    /** Whether at least {@code margin} is left. */
    default boolean allows(Duration margin) {
        return remaining().compareTo(margin) >= 0;
    }
}
