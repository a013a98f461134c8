package io.landingledger.cli.stack;

import io.landingledger.core.sweep.SweepRequest;
import io.landingledger.core.sweep.SweepResult;

import software.amazon.awssdk.services.lambda.LambdaClient;

import java.time.Duration;

/**
 * The completeness sweep on a deployed stack, run now: the sweep function (CompletenessSweepHandler; payload as in
 * events/sweep-schedule.json, {@code {"datasets": [...], "from", "to"}} narrows it) invoked synchronously at its live
 * alias, with no retries and a read timeout above the function's. The sweep has no continuation: one invocation.
 */
public final class RemoteSweep implements AutoCloseable {
    /** The CompletenessSweepFunction's Timeout in infra/template.yaml. */
    public static final Duration FUNCTION_TIMEOUT = Duration.ofSeconds(600);

    private final RemoteFunction function;

    public RemoteSweep(LambdaClient lambda, String functionName) {
        this.function = new RemoteFunction(lambda, functionName, StackResources.LIVE_ALIAS, false);
    }

    private RemoteSweep(RemoteFunction function) {
        this.function = function;
    }

    /** The stack's sweep function, with the default credentials chain (closing this closes its client). */
    public static RemoteSweep forStack(StackResources stack) {
        return new RemoteSweep(new RemoteFunction(RemoteFunction.lambdaClient(stack.region(), FUNCTION_TIMEOUT),
                stack.sweepFunction(), StackResources.LIVE_ALIAS, true));
    }

    /** The sweep's answer ({@code as_of}, {@code complete}, {@code datasets}: one summary per dataset). */
    public SweepResult run(SweepRequest.Payload payload) {
        return function.invoke(payload, SweepResult.class);
    }

    @Override
    public void close() {
        function.close();
    }
}
