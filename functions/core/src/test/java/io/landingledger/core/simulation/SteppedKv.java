package io.landingledger.core.simulation;

/** The {@link Kv} as tasks see it: a yield point before every call. */
record SteppedKv(Scheduler sim, Kv kv) implements Kv {
    @Override
    public int get(String key) {
        return sim.call("kv.get", key, false, () -> kv.get(key));
    }

    @Override
    public boolean cas(String key, int expected, int value) {
        return sim.call("kv.cas", key, true, () -> kv.cas(key, expected, value));
    }

    @Override
    public void put(String key, int value) {
        sim.call("kv.put", key, true, () -> {
            kv.put(key, value);
            return null;
        });
    }
}
