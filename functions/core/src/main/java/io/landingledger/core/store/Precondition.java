package io.landingledger.core.store;

/** The condition a publish commits under. */
public sealed interface Precondition {
    /** No object may exist at the target: {@code If-None-Match: *}. */
    record NoneMatch() implements Precondition {
    }

    /** The target must still have this ETag: {@code If-Match: <etag>}. */
    record Match(String etag) implements Precondition {
    }

    static Precondition none() {
        return new NoneMatch();
    }

    static Precondition match(String etag) {
        return new Match(etag);
    }
}
