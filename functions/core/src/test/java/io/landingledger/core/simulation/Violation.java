package io.landingledger.core.simulation;

import java.util.Objects;

/**
 * What went wrong in one schedule: a check failed, a step or a task's end handler threw, a task threw something no
 * fault explains, production code swallowed a crash, the step bound was reached, or the tasks deadlocked.
 *
 * @param kind    which of those: {@code check}, {@code final check}, {@code step}, {@code task end},
 *                {@code swallowed crash}, {@code step bound}, {@code deadlock}, {@code guard}, {@code foreign thread},
 *                {@code factory}
 * @param message what, with the actor and step where it was detected
 * @param cause   the assertion or exception, when there was one
 * @param step    the step counter at detection
 */
public record Violation(String kind, String message, Throwable cause, int step) {

    /**
     * Whether {@code other} is the same failure for shrinking's purposes: same kind and same cause class. (Messages
     * differ between schedules in step numbers, actor ids, keys; a shrink should not wander to another bug, such as
     * from a broken invariant to the step bound.)
     */
    public boolean sameFailure(Violation other) {
        return other != null && kind.equals(other.kind)
                && Objects.equals(cause == null ? null : cause.getClass(),
                        other.cause == null ? null : other.cause.getClass());
    }

    /** The message and the cause's own message (what an assertion said). */
    public String describe() {
        if (cause == null) {
            return message;
        }
        String detail = cause.getMessage() != null ? cause.getMessage() : "";
        return message + ": " + cause.getClass().getSimpleName() + (detail.isEmpty() ? "" : ": " + detail);
    }

    @Override
    public String toString() {
        return describe();
    }
}
