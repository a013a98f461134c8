package io.landingledger.core.simulation;

/**
 * Thrown from a yield point to kill the task that reached it: the simulated Lambda died there.
 *
 * <p>An {@link Error}, not an exception, on purpose: the code under test catches {@code RuntimeException} (and
 * sometimes {@code Exception}) to record failures, and a dead Lambda records nothing. Its {@code finally} blocks and
 * try-with-resources closers still run as the thread unwinds, but every port call they make reaches another yield
 * point of the same crashed task, which throws this again instead of performing the call, so nothing a crashed task
 * does after its crash ever reaches a port.
 *
 * <p>One shared instance without a stack trace or suppressed exceptions: throwing it allocates nothing, and
 * try-with-resources, which would add the closer's crash to the primary one, skips self-suppression and finds the
 * suppression list disabled. Production code never sees which yield point crashed; the {@link Trace} says.
 */
public final class SimulatedCrash extends Error {
    private static final long serialVersionUID = 1L;

    static final SimulatedCrash INSTANCE = new SimulatedCrash();

    private SimulatedCrash() {
        super("simulated crash: this task is dead", null, false, false);
    }
}
