package io.landingledger.cli.stack;

import com.fasterxml.jackson.jr.ob.JSON;

import java.util.Map;

/** The deployed function failed (its error type and message, as Lambda returned them), or answered something unreadable. */
public final class RemoteFunctionException extends RuntimeException {
    private final String functionName;

    public RemoteFunctionException(String functionName, String message) {
        super(functionName + ": " + message);
        this.functionName = functionName;
    }

    static RemoteFunctionException of(String functionName, String functionError, String body) {
        String detail = body;
        try {
            Map<String, Object> error = JSON.std.mapFrom(body);
            detail = error.get("errorType") + ": " + error.get("errorMessage");
        } catch (Exception notJson) {
            // keep the body as it came
        }
        return new RemoteFunctionException(functionName, "the function failed (" + functionError + "): " + detail);
    }

    public String functionName() {
        return functionName;
    }
}
