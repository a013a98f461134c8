package io.landingledger.core.store;

/** The target of a conditional write did not meet its precondition (HTTP 412): someone else published first. */
public final class PreconditionFailedException extends Exception {
    private static final long serialVersionUID = 1L;

    public PreconditionFailedException(String message) {
        super(message);
    }

    public PreconditionFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
