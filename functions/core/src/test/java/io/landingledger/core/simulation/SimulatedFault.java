package io.landingledger.core.simulation;

/**
 * An infrastructure fault injected at a yield point, thrown to the code under test as an SDK would throw a 5xx or a
 * timeout. A runtime exception on purpose: the ports document "any other runtime exception" as a fault the caller
 * lets propagate, and production code is expected to do exactly that (or to handle it and carry on with the port
 * calls it makes next: unlike a {@link SimulatedCrash}, a fault does not kill the task).
 *
 * <p>{@link #tookEffect()} tells the two kinds apart: a fault before the call (the request never landed) or after it
 * (the request committed and the response was lost: the caller cannot tell, which is the case that makes retries
 * interesting). No stack trace: faults are frequent in random runs and the message says where it was injected.
 */
public final class SimulatedFault extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean tookEffect;

    public SimulatedFault(String label, boolean tookEffect) {
        super("simulated fault " + (tookEffect ? "after " : "before ") + label, null, false, false);
        this.tookEffect = tookEffect;
    }

    /** True when the faulted call was performed before the fault was thrown (a lost response). */
    public boolean tookEffect() {
        return tookEffect;
    }

    /** Whether {@code t} is a simulated fault or was caused by one (code under test may wrap it). */
    public static boolean isCause(Throwable t) {
        for (int depth = 0; t != null && depth < 32; depth++, t = t.getCause()) {
            if (t instanceof SimulatedFault) {
                return true;
            }
        }
        return false;
    }
}
