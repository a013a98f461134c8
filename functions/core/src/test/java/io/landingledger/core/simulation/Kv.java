package io.landingledger.core.simulation;

/** A tiny port for the engine's own tests: a map of ints. */
interface Kv {
    int get(String key);

    void put(String key, int value);

    boolean cas(String key, int expected, int value);
}
