package io.landingledger.lambda.handlers;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;

import java.io.PrintStream;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Every handler the template names, built from a function's environment and log stream: the init Lambda's runtime
 * runs through each handler's no-argument constructor (with the process's), for a runtime that hosts the functions in
 * one JVM (the local cloud) and so must hand each one its own. A typed list, not a class loaded by name. Each is a
 * {@link RequestStreamHandler} ({@link TypedHandler}): it reads its payload and writes its answer itself, so the
 * local cloud calls it exactly as Lambda's runtime does.
 */
public final class FunctionHandlers {
    private static final Map<String, BiFunction<Map<String, String>, PrintStream, RequestStreamHandler>> HANDLERS = Map.of(
            ValidateObjectHandler.class.getName(), ValidateObjectHandler::new,
            RepairHandler.class.getName(), RepairHandler::new,
            CompletenessSweepHandler.class.getName(), CompletenessSweepHandler::new,
            SweepPlannerHandler.class.getName(), SweepPlannerHandler::new,
            SweepShardHandler.class.getName(), SweepShardHandler::new,
            SweepChangeHandler.class.getName(), SweepChangeHandler::new,
            ConsumerReceiptHandler.class.getName(), ConsumerReceiptHandler::new,
            TableEnqueueHandler.class.getName(), TableEnqueueHandler::new);

    private FunctionHandlers() {
    }

    /** The handler of {@code handlerClass} (the template's Handler before {@code ::}), or empty when none is ours. */
    public static Optional<RequestStreamHandler> create(String handlerClass, Map<String, String> environment, PrintStream stdout) {
        BiFunction<Map<String, String>, PrintStream, RequestStreamHandler> factory = HANDLERS.get(handlerClass);
        return factory == null ? Optional.empty() : Optional.of(factory.apply(environment, stdout));
    }
}
