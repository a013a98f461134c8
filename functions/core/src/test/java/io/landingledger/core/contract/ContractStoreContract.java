package io.landingledger.core.contract;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every {@link ContractStore} must do: run against the in-memory store (core, {@code InMemoryContractStoreContractTest})
 * and against {@code S3ContractStore} on S3Proxy (lambda, {@code S3ContractStoreContractIT}), so the fake cannot
 * drift from the adapter.
 */
public abstract class ContractStoreContract {
    /** A contract of {@code dataset} at {@code version}, with text a codec could mangle (escapes, non-ASCII, key order). */
    public static String contractJson(String dataset, int version) {
        return """
                {
                  "version": %d, "dataset": "%s",
                  "description": "caf\\u00e9 \\"quoted\\" — naïve ✓",
                  "unit": { "pattern": "f-(?<unit>\\\\d{4}-\\\\d{2}-\\\\d{2})\\\\.jsonl", "cadence": "daily", "first": "2026-01-01" },
                  "key": "id",
                  "fields": { "id": { "type": "string", "required": true }, "amount": { "type": "number", "min": 0.10, "max": 1E+3 } }
                }
                """.formatted(version, dataset);
    }

    public static ContractEntry active(String dataset, int version, String reason) {
        return new ContractEntry(dataset, version, ContractState.ACTIVE, contractJson(dataset, version), reason,
                Instant.parse("2026-12-03T17:00:00.123456789Z").plusSeconds(version));
    }

    /** A new, empty store (its own bucket or prefix). */
    protected abstract ContractStore newStore();

    /**
     * Rewrites the stored bytes of a version and nothing else, as a write around the lake's bucket policy would (S3: a
     * plain PutObject straight to the emulator; memory: the bytes only).
     */
    protected abstract void rewriteAroundThePolicy(String dataset, int version, byte[] body);

    /** Stores a version's bytes with no registration record: a registration cut short, or a write around it. */
    protected abstract void writeUnsealed(String dataset, int version, byte[] body);

    private ContractStore store;

    @BeforeEach
    void setUp() {
        store = newStore();
    }

    @Test
    void emptyStore_knowsNothing() {
        assertEquals(Optional.empty(), store.latest("progress_events"));
        assertEquals(Optional.empty(), store.version("progress_events", 1));
        assertEquals(List.of(), store.history("progress_events"));
        assertEquals(List.of(), store.datasets());
    }

    @Test
    void create_thenEveryReadReturnsTheEntryExactly() {
        ContractEntry entry = active("orders", 1, "INC-1 new producer: orders (naïve ✓)");
        store.create(entry);
        assertEquals(Optional.of(entry), store.latest("orders"));
        assertEquals(Optional.of(entry), store.version("orders", 1));
        assertEquals(List.of(entry), store.history("orders"));
        assertEquals(List.of("orders"), store.datasets());
        assertEquals(1, entry.contract().orElseThrow().version());
    }

    @Test
    void create_ofAnExistingVersionIsRefusedCarryingTheWinnerAndChangesNothing() {
        ContractEntry first = active("orders", 1, "first");
        store.create(first);
        ContractVersionExistsException refused = assertThrows(ContractVersionExistsException.class,
                () -> store.create(active("orders", 1, "second")));
        assertEquals(1, refused.version());
        assertEquals(Optional.of(first), refused.existing());
        assertEquals(List.of(first), store.history("orders"));
    }

    @Test
    void create_racingWritersOfOneVersion_exactlyOneWins() throws Exception {
        store.create(active("orders", 1, "base"));
        int writers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                String reason = "writer " + i;
                results.add(pool.submit(() -> {
                    start.await();
                    try {
                        store.create(active("orders", 2, reason));
                        return true;
                    } catch (ContractVersionExistsException e) {
                        return false;
                    }
                }));
            }
            start.countDown();
            List<String> winners = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                if (results.get(i).get(30, TimeUnit.SECONDS)) {
                    winners.add("writer " + i);
                }
            }
            assertEquals(1, winners.size(), "winners: " + winners);
            assertEquals(winners.get(0), store.latest("orders").orElseThrow().reason());
            assertEquals(2, store.history("orders").size());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void versions_areOrderedByNumberPastNineAndDatasetsDoNotShareAPrefix() {
        for (int v = 1; v <= 12; v++) {
            store.create(active("a", v, "v" + v));
        }
        store.create(active("a_b", 1, "other"));
        store.create(active("ab", 1, "other"));
        assertEquals(12, store.latest("a").orElseThrow().version());
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), store.history("a").stream().map(ContractEntry::version).toList());
        assertEquals(10, store.version("a", 10).orElseThrow().version());
        assertEquals(Optional.empty(), store.version("a", 13));
        assertEquals(List.of("a", "a_b", "ab"), store.datasets());
        assertEquals(1, store.history("a_b").size());
    }

    /** Issue 30, finding 3: a registered version rewritten in place is refused by every read, naming only where. */
    @Test
    void finding3_aVersionRewrittenAfterItsRegistration_isRefusedContractTampered_byEveryRead() {
        store.create(active("orders", 1, "new"));
        store.create(active("orders", 2, "cap"));
        ContractEntry rewritten = new ContractEntry("orders", 2, ContractState.ACTIVE,
                contractJson("orders", 2).replace("\"amount\"", "\"email\": {\"type\": \"string\"}, \"amount\""), "cap",
                active("orders", 2, "cap").at());
        rewriteAroundThePolicy("orders", 2, ContractEntryJson.write(rewritten));
        List<Runnable> reads = List.of(() -> store.latest("orders"), () -> store.version("orders", 2),
                () -> store.history("orders"));
        for (Runnable read : reads) {
            ContractTamperedException refused = assertThrows(ContractTamperedException.class, read::run);
            assertEquals(ContractTamperedException.TAMPERED, refused.code());
            assertEquals("orders", refused.dataset());
            assertEquals(2, refused.version());
            assertTrue(refused.getMessage().startsWith("CONTRACT_TAMPERED: orders v2 "), refused.getMessage());
            assertTrue(!refused.getMessage().contains("email"), "never the content: " + refused.getMessage());
        }
        assertEquals(1, store.version("orders", 1).orElseThrow().version(), "the versions before stay readable");
    }

    @Test
    void aVersionWithoutItsRegistrationRecord_isRefusedContractUnsealed() {
        store.create(active("orders", 1, "new"));
        writeUnsealed("orders", 2, ContractEntryJson.write(active("orders", 2, "around the registrar")));
        ContractTamperedException refused = assertThrows(ContractTamperedException.class, () -> store.latest("orders"));
        assertEquals(ContractTamperedException.UNSEALED, refused.code());
        assertEquals(2, refused.version());
    }

    @Test
    void anUnsealedVersion_isSealedByTheHashOfItsContent_andReadsAgain_butNeverByAnotherHash() {
        store.create(active("orders", 1, "new"));
        byte[] body = ContractEntryJson.write(active("orders", 2, "registered before versions had records"));
        writeUnsealed("orders", 2, body);
        String checked = ContractSeal.of(body);
        String other = ContractSeal.of("something else".getBytes(java.nio.charset.StandardCharsets.UTF_8));

        assertEquals(ContractStore.SealOutcome.CONTENT_DIFFERS, store.seal("orders", 2, other));
        assertThrows(ContractTamperedException.class, () -> store.latest("orders"), "nothing written");
        assertEquals(ContractStore.SealOutcome.NO_SUCH_VERSION, store.seal("orders", 3, checked));
        assertEquals(ContractStore.SealOutcome.SEALED, store.seal("orders", 2, checked.toUpperCase(java.util.Locale.ROOT)));
        assertEquals(2, store.latest("orders").orElseThrow().version());
        assertEquals(ContractStore.SealOutcome.ALREADY_SEALED, store.seal("orders", 2, checked));
    }

    @Test
    void aTamperedVersion_cannotBeSealedAgain_byTheHashOfItsNewContent() {
        store.create(active("orders", 1, "new"));
        byte[] rewritten = ContractEntryJson.write(active("orders", 1, "rewritten"));
        rewriteAroundThePolicy("orders", 1, rewritten);
        assertEquals(ContractStore.SealOutcome.ALREADY_SEALED, store.seal("orders", 1, ContractSeal.of(rewritten)));
        assertThrows(ContractTamperedException.class, () -> store.latest("orders"), "a record is never replaced");
    }

    @Test
    void retirement_isAVersionLikeAnyOther() {
        store.create(active("orders", 1, "new"));
        ContractEntry retired = new ContractEntry("orders", 2, ContractState.RETIRED, contractJson("orders", 1), "INC-9 producer gone",
                Instant.parse("2026-12-04T00:00:00Z"));
        store.create(retired);
        assertEquals(Optional.of(retired), store.latest("orders"));
        assertEquals(Optional.empty(), retired.contract());
        assertTrue(store.version("orders", 1).orElseThrow().contract().isPresent());
    }
}
