package io.landingledger.core.simulation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The {@link Kv} itself, unstepped: a map, and a log of every call it performed, with the actor that performed it. */
final class MemKv implements Kv {
    final Map<String, Integer> values = new HashMap<>();
    final List<String> log = new ArrayList<>();
    private final Scheduler sim;

    MemKv(Scheduler sim) {
        this.sim = sim;
    }

    @Override
    public int get(String key) {
        log.add(sim.current() + " get " + key);
        return values.getOrDefault(key, 0);
    }

    @Override
    public void put(String key, int value) {
        log.add(sim.current() + " put " + key);
        values.put(key, value);
    }

    @Override
    public boolean cas(String key, int expected, int value) {
        log.add(sim.current() + " cas " + key);
        if (values.getOrDefault(key, 0) != expected) {
            return false;
        }
        values.put(key, value);
        return true;
    }
}
