package io.landingledger.core.ingest;

/**
 * A run stopped before a step because the invocation had less time left than the step's safety margin. Everything
 * done so far is a state the crash table in docs/design.md describes (nothing open but what lifecycle rules expire, nothing
 * false in the ledger), and it is thrown like any infrastructure fault so Lambda retries the event and the sweep
 * re-drives what the retries do not finish.
 */
public final class OutOfTimeException extends RuntimeException {
    public OutOfTimeException(String message) {
        super(message);
    }
}
