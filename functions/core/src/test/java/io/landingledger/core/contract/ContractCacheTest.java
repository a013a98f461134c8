package io.landingledger.core.contract;

import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.testing.InMemoryContractStore;
import io.landingledger.core.testing.ManualClock;
import io.landingledger.core.testing.TestContracts;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ContractCacheTest {
    private final InMemoryContractStore store = new InMemoryContractStore();
    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-03T17:00:00Z"));
    private final ContractRegistrar registrar = new ContractRegistrar(store, clock);

    private static byte[] transactions(int version, int cap) throws IOException {
        return new String(Files.readAllBytes(TestContracts.DATASETS.resolve("transactions.json")), StandardCharsets.UTF_8)
                .replace("\"version\": 1", "\"version\": " + version)
                .replace("\"maxRejectedLines\": 0", "\"maxRejectedLines\": " + cap).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aChangeIsSeenAfterTheTtlAndNotBefore() throws IOException {
        registrar.add("t.json", transactions(1, 0), "new", false);
        ContractCache cache = new ContractCache(store, new ContractCache.Settings(10, Duration.ofSeconds(60)), clock);
        ContractRegistry registry = ContractRegistry.fromStore(cache);
        assertEquals(1, registry.get("transactions").orElseThrow().version());

        registrar.update("t.json", transactions(2, 5), "cap", false);
        clock.advance(Duration.ofSeconds(59));
        assertEquals(1, registry.get("transactions").orElseThrow().version(), "within the TTL the cached version is used");
        assertEquals(1, cache.storeReads());
        clock.advance(Duration.ofSeconds(1));
        DatasetContract now = registry.get("transactions").orElseThrow();
        assertEquals(2, now.version());
        assertEquals(5, now.maxRejectedLines());
        assertEquals(2, cache.storeReads());
    }

    @Test
    void unknownNamesAreCachedAndNamesThatCannotBeDatasetsNeverReachTheStore() {
        ContractCache cache = new ContractCache(store, ContractCache.Settings.DEFAULT, clock);
        for (int i = 0; i < 100; i++) {
            assertInstanceOf(ContractLookup.Unknown.class, cache.lookup("nobody"));
        }
        assertEquals(1, cache.storeReads());
        int before = store.reads();
        assertInstanceOf(ContractLookup.Unknown.class, cache.lookup("../_contracts"));
        assertInstanceOf(ContractLookup.Unknown.class, cache.lookup("Upper"));
        assertEquals(before, store.reads());
    }

    @Test
    void theBoundEvictsTheLeastRecentlyUsedDataset() throws IOException {
        registrar.add("t.json", transactions(1, 0), "new", false);
        registrar.add("p.json", Files.readAllBytes(TestContracts.DATASETS.resolve("progress_events.json")), "new", false);
        ContractCache cache = new ContractCache(store, new ContractCache.Settings(1, Duration.ofHours(1)), clock);
        cache.lookup("transactions");
        cache.lookup("transactions");
        cache.lookup("progress_events");
        assertEquals(2, cache.storeReads());
        cache.lookup("transactions"); // evicted by progress_events
        assertEquals(3, cache.storeReads());
    }

    @Test
    void aRetiredDatasetIsUnroutableWithItsReason_andLeavesTheActiveSet() throws IOException {
        registrar.add("t.json", transactions(1, 0), "new", false);
        registrar.retire("transactions", "INC-4 producer decommissioned");
        ContractRegistry registry = ContractRegistry.fromStore(new ContractCache(store, ContractCache.Settings.DEFAULT, clock));
        UnitRouter.Unroutable route = assertInstanceOf(UnitRouter.Unroutable.class,
                new UnitRouter(registry).route("transactions/transactions-2026-10-01.csv"));
        assertEquals("RETIRED_DATASET", route.reason());
        assertTrue(route.detail().contains("INC-4 producer decommissioned"), route.detail());
        assertEquals(Set.of(), registry.all().keySet());
        assertEquals(java.util.List.of("transactions"), registry.names(), "names() lists retired datasets too");
        assertEquals("UNKNOWN_DATASET", assertInstanceOf(UnitRouter.Unroutable.class, new UnitRouter(registry).route("orders/o.jsonl")).reason());
    }

    @Test
    void aStoredEntryThatDoesNotLoadIsAnErrorNeverHalfUsed() throws IOException {
        registrar.add("t.json", transactions(1, 0), "new", false);
        store.writeSealed("transactions", 1, ContractEntryJson.write(new ContractEntry("transactions", 1, ContractState.ACTIVE,
                new String(transactions(7, 0), StandardCharsets.UTF_8), "edited by hand", clock.instant())));
        ContractCache cache = new ContractCache(store, ContractCache.Settings.DEFAULT, clock);
        InvalidContractException error = assertThrows(InvalidContractException.class, () -> cache.lookup("transactions"));
        assertEquals("$.version", error.jsonPath());
    }

    /**
     * Issue 30, finding 3: a version rewritten in the store after its registration (a contract that now allows a
     * prohibited field) is never put in force: once the TTL ends every lookup is refused CONTRACT_TAMPERED, naming the
     * dataset and version, and the refusal is not cached as a contract.
     */
    @Test
    void finding3_aRewrittenVersion_isRefusedContractTampered_afterTheTtl_andNeverUsed() throws IOException {
        registrar.add("t.json", transactions(1, 0), "new", false);
        ContractCache cache = new ContractCache(store, new ContractCache.Settings(10, Duration.ofSeconds(60)), clock);
        ContractRegistry registry = ContractRegistry.fromStore(cache);
        assertEquals(0, registry.get("transactions").orElseThrow().maxRejectedLines());
        ContractEntry registered = store.latest("transactions").orElseThrow();
        store.overwrite("transactions", 1, ContractEntryJson.write(new ContractEntry("transactions", 1, ContractState.ACTIVE,
                new String(transactions(1, 1000), StandardCharsets.UTF_8), registered.reason(), registered.at())));
        clock.advance(Duration.ofSeconds(60));
        int reads = store.reads();
        for (int i = 0; i < 2; i++) {
            ContractTamperedException refused = assertThrows(ContractTamperedException.class, () -> registry.get("transactions"));
            assertEquals("CONTRACT_TAMPERED", refused.code());
            assertEquals("transactions", refused.dataset());
            assertEquals(1, refused.version());
        }
        assertEquals(reads + 2, store.reads(), "a refusal is read again, never cached in place of the contract");
    }

    @Test
    void settings_nameTheirKnobs() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new ContractCache.Settings(0, Duration.ZERO))
                .getMessage().contains("CONTRACT_CACHE_ENTRIES"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new ContractCache.Settings(1, Duration.ofSeconds(-1)))
                .getMessage().contains("CONTRACT_CACHE_TTL_SECONDS"));
    }
}
