package io.landingledger.localcloud.iam;

import java.util.List;

/**
 * The outcome of one authorization, with the policy and statement that decided it (the deny's, or the allow's; none
 * for an implicit deny) and a one-line message in AWS's words, which the gateway can return as an AccessDenied's
 * message. {@code notes} names the statements that could not be evaluated (an operator this package does not know)
 * and how that was resolved; it is empty in the usual case.
 */
public record Decision(Outcome outcome, String policy, String sid, String message, List<String> notes) {
    public enum Outcome {
        ALLOWED,
        EXPLICIT_DENY,
        IMPLICIT_DENY
    }

    public Decision {
        notes = List.copyOf(notes);
    }

    public boolean allowed() {
        return outcome == Outcome.ALLOWED;
    }
}
