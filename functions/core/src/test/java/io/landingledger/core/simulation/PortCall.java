package io.landingledger.core.simulation;

/**
 * The effect behind a yield point: one call to a real (usually in-memory) port, performed only if the scheduler lets
 * it happen. It may throw the port's checked exceptions; {@link Scheduler#call} rethrows them unchanged, so a stepped
 * port's methods declare exactly what the port's do.
 */
@FunctionalInterface
public interface PortCall<T> {
    T run() throws Exception;
}
