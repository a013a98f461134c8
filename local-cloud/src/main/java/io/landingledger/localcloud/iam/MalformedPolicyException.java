package io.landingledger.localcloud.iam;

/**
 * A policy document that IAM would refuse: not JSON, a missing or unknown Effect, a statement with neither Action nor
 * NotAction, an element of the wrong shape. The message names the policy, the statement (its Sid or index) and the
 * element.
 */
public final class MalformedPolicyException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public MalformedPolicyException(String message) {
        super(message);
    }

    public MalformedPolicyException(String message, Throwable cause) {
        super(message, cause);
    }
}
