package io.landingledger.core.simulation;

/**
 * How a task ended, as reported to {@link Actor#onEnd} or {@link Model#onTaskEnd}.
 *
 * @param actor  the task
 * @param kind   returned, threw, or crashed
 * @param thrown what the task's code threw (null when it returned or crashed)
 * @param label  the yield point it crashed at (null unless crashed)
 */
public record TaskEnd(Actor actor, Kind kind, Throwable thrown, String label) {

    public enum Kind { RETURNED, THREW, CRASHED }

    public boolean returned() {
        return kind == Kind.RETURNED;
    }

    public boolean crashed() {
        return kind == Kind.CRASHED;
    }

    /** The task threw an injected fault (or an exception caused by one): the code under test propagated it. */
    public boolean faulted() {
        return kind == Kind.THREW && SimulatedFault.isCause(thrown);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case RETURNED -> actor + " returned";
            case CRASHED -> actor + " crashed at " + label;
            case THREW -> actor + " threw " + thrown;
        };
    }
}
