package io.landingledger.core.contract;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The functions' view of the {@link ContractStore}: each dataset's newest version, kept for at most {@link
 * Settings#ttl()} and for at most {@link Settings#maxEntries()} datasets (least recently used out first). A change
 * registered with {@code landing dataset} is therefore in force in every function within one TTL, without a deploy;
 * until then a warm function may still route and validate with the version before, and records that version's number
 * with what it publishes (the ledger's {@code contract_version} is always the version that was used).
 *
 * <p>Unknown names are cached too, so a producer writing under a prefix no one registered costs one store read per
 * TTL, not one per file. A name that cannot be a dataset ({@link ContractLoader#DATASET_NAME}) never reaches the store.
 * A store fault propagates (the caller's invocation fails and is retried); a stored entry that does not load is an
 * {@link InvalidContractException}, never half used; a version that is not what was registered (its bytes hash
 * otherwise than its registration record) is a {@link ContractTamperedException} ({@code CONTRACT_TAMPERED}), from
 * the store's read, never cached: each lookup after the TTL reads the store again and is refused again, and the
 * version cached before it is not used past its TTL either.
 */
public final class ContractCache {
    /** The default bound on cached datasets: a few MB of parsed contracts. */
    public static final int DEFAULT_MAX_ENTRIES = 1_000;
    /** The default time a cached version is used before the store is asked again. */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(60);

    /**
     * How much the cache holds and for how long.
     *
     * @param maxEntries datasets kept (1 or more; env {@code CONTRACT_CACHE_ENTRIES})
     * @param ttl        how long one read of a dataset is used (0 or more: 0 reads the store every time; env
     *                   {@code CONTRACT_CACHE_TTL_SECONDS})
     */
    public record Settings(int maxEntries, Duration ttl) {
        public static final Settings DEFAULT = new Settings(DEFAULT_MAX_ENTRIES, DEFAULT_TTL);

        public Settings {
            Objects.requireNonNull(ttl, "ttl");
            if (maxEntries < 1) {
                throw new IllegalArgumentException("maxEntries (CONTRACT_CACHE_ENTRIES) must be at least 1, not " + maxEntries);
            }
            if (ttl.isNegative()) {
                throw new IllegalArgumentException("ttl (CONTRACT_CACHE_TTL_SECONDS) must not be negative, not " + ttl);
            }
        }
    }

    private record Cached(ContractLookup lookup, Instant readAt) {
    }

    private final ContractStore store;
    private final Settings settings;
    private final Clock clock;
    private final Map<String, Cached> entries;
    private long storeReads;

    public ContractCache(ContractStore store, Settings settings, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
                return size() > settings.maxEntries();
            }
        };
    }

    public Settings settings() {
        return settings;
    }

    /** The dataset's contract as the cache knows it, reading the store when it has none younger than the TTL. */
    public ContractLookup lookup(String dataset) {
        if (dataset == null || !ContractLoader.DATASET_NAME.matcher(dataset).matches()) {
            return new ContractLookup.Unknown();
        }
        Instant now = clock.instant();
        synchronized (entries) {
            Cached cached = entries.get(dataset);
            if (cached != null && now.isBefore(cached.readAt().plus(settings.ttl()))) {
                return cached.lookup();
            }
        }
        // read outside the lock: one slow store read must not hold up lookups of other datasets
        ContractLookup lookup = read(dataset);
        synchronized (entries) {
            entries.put(dataset, new Cached(lookup, now));
            storeReads++;
        }
        return lookup;
    }

    /**
     * Every active dataset's contract, by name: one listing of the store and a lookup of each (through the cache).
     * The sweep's "every dataset"; at 10,000 datasets it reads 10,000 entries once per TTL, so a sharded caller asks
     * {@link #lookup} for its own datasets instead.
     */
    public Map<String, DatasetContract> active() {
        Map<String, DatasetContract> active = new TreeMap<>();
        for (String dataset : store.datasets()) {
            if (lookup(dataset) instanceof ContractLookup.Active found) {
                active.put(dataset, found.contract());
            }
        }
        return active;
    }

    /** Every registered dataset's name (a listing of the store, never cached: it is the sweep's, once a run). */
    public java.util.List<String> names() {
        return store.datasets();
    }

    /** How many times the store was read (tests: the TTL and the bound). */
    public long storeReads() {
        synchronized (entries) {
            return storeReads;
        }
    }

    private ContractLookup read(String dataset) {
        return store.latest(dataset).<ContractLookup>map(entry -> entry.state() == ContractState.RETIRED
                        ? new ContractLookup.Retired(entry)
                        : new ContractLookup.Active(entry.contract().orElseThrow()))
                .orElseGet(ContractLookup.Unknown::new);
    }
}
