package io.landingledger.core.ingest;

/**
 * An asynchronous ingest path could not hand an input over: the call was refused (throttled, a server error, a
 * missing permission) or had no answer in time. It is not retried where it was thrown: the caller reports it with
 * this message and leaves the input to its next pass (the sweep's next run re-drives the unit if it is still
 * unprocessed). After a timeout the hand-over may still have happened; the run it started is then an ordinary
 * run of the publish protocol, which any number of runs of the same input leave in one state.
 */
public final class NotSubmittedException extends RuntimeException {
    public NotSubmittedException(String message, Throwable cause) {
        super(message, cause);
    }
}
