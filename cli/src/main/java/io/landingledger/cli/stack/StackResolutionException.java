package io.landingledger.cli.stack;

/** The stack could not be resolved: it does not exist, is not a Landing Ledger stack, or CloudFormation refused. */
public final class StackResolutionException extends RuntimeException {
    public StackResolutionException(String message) {
        super(message);
    }
}
