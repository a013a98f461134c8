package io.landingledger.lambda;

import com.amazonaws.services.lambda.runtime.Context;

import io.landingledger.core.ingest.Deadline;

import java.time.Duration;

/** The core's {@link Deadline} from Lambda's Context: the invocation's remaining time, read at each check. */
public final class LambdaDeadline {
    private LambdaDeadline() {
    }

    /** {@link Deadline#NONE} without a Context (the local run and tests call handlers with null). */
    public static Deadline of(Context context) {
        return context == null ? Deadline.NONE : () -> Duration.ofMillis(context.getRemainingTimeInMillis());
    }
}
