package io.landingledger.core.store;

/** A concurrent operation on the same key interfered with a conditional write (HTTP 409): retry it, with a new upload. */
public final class ConcurrentUpdateException extends Exception {
    private static final long serialVersionUID = 1L;

    public ConcurrentUpdateException(String message) {
        super(message);
    }

    public ConcurrentUpdateException(String message, Throwable cause) {
        super(message, cause);
    }
}
