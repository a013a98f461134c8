package io.landingledger.core.store;

/** The object or the requested version does not exist (deleted before it was read, or a version id that no longer exists). */
public final class ObjectNotFoundException extends Exception {
    private static final long serialVersionUID = 1L;

    public ObjectNotFoundException(String message) {
        super(message);
    }

    public ObjectNotFoundException(String message, Throwable cause) {
        super(message, cause);
    }
}
