package io.landingledger.lambda.testing;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A Lambda Context whose remaining time a test sets (and drops mid-invocation); the rest are fixed placeholders. */
public final class FakeContext implements Context {
    private final AtomicLong remainingMillis;

    public FakeContext(Duration remaining) {
        this.remainingMillis = new AtomicLong(remaining.toMillis());
    }

    /** What {@link #getRemainingTimeInMillis()} answers from now on. */
    public void remaining(Duration remaining) {
        remainingMillis.set(remaining.toMillis());
    }

    @Override
    public int getRemainingTimeInMillis() {
        return (int) Math.min(Integer.MAX_VALUE, remainingMillis.get());
    }

    @Override
    public String getAwsRequestId() {
        return "00000000-0000-0000-0000-000000000000";
    }

    @Override
    public String getLogGroupName() {
        return "/aws/lambda/test";
    }

    @Override
    public String getLogStreamName() {
        return "test";
    }

    @Override
    public String getFunctionName() {
        return "test";
    }

    @Override
    public String getFunctionVersion() {
        return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
        return "arn:aws:lambda:eu-west-1:123456789012:function:test";
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
    public int getMemoryLimitInMB() {
        return 2048;
    }

    @Override
    public LambdaLogger getLogger() {
        return new LambdaLogger() {
            @Override
            public void log(String message) {
            }

            @Override
            public void log(byte[] message) {
            }
        };
    }
}
