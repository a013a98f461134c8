package io.landingledger.localcloud.deploy;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** The Lambda context of one local invocation: its request id, the function's names and its deadline. */
final class LocalContext implements Context {
    private final FunctionSpec function;
    private final String requestId;
    private final String qualifier;
    private final long deadlineMillis;
    private final PrintStream log;

    LocalContext(FunctionSpec function, String requestId, String qualifier, long deadlineMillis, PrintStream log) {
        this.function = function;
        this.requestId = requestId;
        this.qualifier = qualifier;
        this.deadlineMillis = deadlineMillis;
        this.log = log;
    }

    @Override
    public String getAwsRequestId() {
        return requestId;
    }

    @Override
    public String getLogGroupName() {
        return function.logGroup();
    }

    @Override
    public String getLogStreamName() {
        return "local/[" + getFunctionVersion() + "]" + function.name();
    }

    @Override
    public String getFunctionName() {
        return function.name();
    }

    @Override
    public String getFunctionVersion() {
        return qualifier == null ? "$LATEST" : qualifier;
    }

    @Override
    public String getInvokedFunctionArn() {
        return qualifier == null ? function.arn() : function.arn() + ":" + qualifier;
    }

    @Override
    public CognitoIdentity getIdentity() {
        return null;
    }

    @Override
    public ClientContext getClientContext() {
        return null;
    }

    @Override
    public int getRemainingTimeInMillis() {
        return (int) Math.max(0, deadlineMillis - System.currentTimeMillis());
    }

    @Override
    public int getMemoryLimitInMB() {
        return function.memoryMb();
    }

    @Override
    public LambdaLogger getLogger() {
        return new LambdaLogger() {
            @Override
            public void log(String message) {
                log.println(message);
            }

            @Override
            public void log(byte[] message) {
                log.println(new String(message, StandardCharsets.UTF_8));
            }
        };
    }
}
