package io.landingledger.core.simulation;

/**
 * The world a schedule runs in: its state (in-memory ports, the services under test wired to stepped ports), its
 * actors and its invariants. A fresh model is built for every schedule by the factory handed to {@link Explorer}
 * ({@code scheduler -> new MyModel(scheduler)}), whose constructor builds the state and spawns the first actors;
 * that is what lets exhaustive mode rebuild any state by replaying a prefix instead of snapshotting it.
 *
 * <p>Everything a model does runs on the thread that holds the scheduler's turn, one thing at a time, so model state
 * needs no locks. A violation is any exception or error thrown from a check (JUnit assertions are fine).
 */
public interface Model {

    /** Runs after every yield point and every atomic step: invariants that must hold at every instant. */
    default void check() {
    }

    /** Runs once no actor is enabled any more (every task ended, every step ran or is disabled). */
    default void checkFinal() {
    }

    /**
     * A task without its own {@link Actor#onEnd} handler ended. Default: a crash, a return, or a propagated
     * injected fault is fine; any other exception is a violation (production code threw something no fault
     * explains).
     */
    default void onTaskEnd(TaskEnd end) {
        if (end.kind() == TaskEnd.Kind.THREW && !end.faulted()) {
            throw new AssertionError(end.actor() + " threw an exception no injected fault explains", end.thrown());
        }
    }
}
