package io.landingledger.lambda.handlers;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.S3Event;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Every handler the template names, built from a function's environment and log stream: the init Lambda's runtime
 * runs through each handler's no-argument constructor (with the process's), for a runtime that hosts the functions in
 * one JVM (the local cloud) and so must hand each one its own. A typed list, not a class loaded by name.
 */
public final class FunctionHandlers {
    /** A handler and the type its input is read as (Lambda's runtime reads the event's JSON into it). */
    public record FunctionHandler<I>(Class<I> input, RequestHandler<I, ?> handler) {
    }

    private static final Map<String, BiFunction<Map<String, String>, PrintStream, FunctionHandler<?>>> HANDLERS = handlers();

    private FunctionHandlers() {
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Map<String, BiFunction<Map<String, String>, PrintStream, FunctionHandler<?>>> handlers() {
        Map<String, BiFunction<Map<String, String>, PrintStream, FunctionHandler<?>>> all = new LinkedHashMap<>();
        all.put(ValidateObjectHandler.class.getName(), (env, out) -> new FunctionHandler<>(S3Event.class, new ValidateObjectHandler(env, out)));
        all.put(RepairHandler.class.getName(), (env, out) -> new FunctionHandler(Map.class, new RepairHandler(env, out)));
        all.put(CompletenessSweepHandler.class.getName(), (env, out) -> new FunctionHandler(Map.class, new CompletenessSweepHandler(env, out)));
        all.put(SweepPlannerHandler.class.getName(), (env, out) -> new FunctionHandler(Map.class, new SweepPlannerHandler(env, out)));
        all.put(SweepShardHandler.class.getName(), (env, out) -> new FunctionHandler(Map.class, new SweepShardHandler(env, out)));
        all.put(SweepChangeHandler.class.getName(), (env, out) -> new FunctionHandler(Map.class, new SweepChangeHandler(env, out)));
        all.put(ConsumerReceiptHandler.class.getName(), (env, out) -> new FunctionHandler(Map.class, new ConsumerReceiptHandler(env, out)));
        return all;
    }

    /** The handler of {@code handlerClass} (the template's Handler before {@code ::}), or empty when none is ours. */
    public static Optional<FunctionHandler<?>> create(String handlerClass, Map<String, String> environment, PrintStream stdout) {
        BiFunction<Map<String, String>, PrintStream, FunctionHandler<?>> factory = HANDLERS.get(handlerClass);
        return factory == null ? Optional.empty() : Optional.of(factory.apply(environment, stdout));
    }
}
