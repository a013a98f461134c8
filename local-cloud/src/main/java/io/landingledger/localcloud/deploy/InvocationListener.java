package io.landingledger.localcloud.deploy;

/**
 * Sees every invocation the local runtime completes, as an operator reads a function's logs: the local run prints its
 * per-file progress from the validator's answers, without reaching into the function.
 */
public interface InvocationListener {
    /** After each attempt of an invocation, synchronous or asynchronous. */
    void completed(FunctionSpec function, String payload, InvokeResult result, int attempt, boolean asynchronous);
}
