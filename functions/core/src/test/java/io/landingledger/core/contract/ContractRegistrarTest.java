package io.landingledger.core.contract;

import io.landingledger.core.testing.InMemoryContractStore;
import io.landingledger.core.testing.ManualClock;
import io.landingledger.core.testing.TestContracts;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ContractRegistrarTest {
    private final InMemoryContractStore store = new InMemoryContractStore();
    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-03T17:00:00Z"));
    private final ContractRegistrar registrar = new ContractRegistrar(store, clock);

    private static byte[] shipped(String dataset) throws IOException {
        return Files.readAllBytes(TestContracts.DATASETS.resolve(dataset + ".json"));
    }

    /** The shipped transactions contract at {@code version}, with one textual replacement. */
    private static byte[] transactions(int version, String from, String to) throws IOException {
        String text = new String(shipped("transactions"), StandardCharsets.UTF_8).replace("\"version\": 1", "\"version\": " + version);
        if (!text.contains(from)) {
            throw new IllegalArgumentException(from);
        }
        return text.replace(from, to).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void add_storesVersionOneExactlyAsSubmitted() throws IOException {
        ContractRegistrar.Registration added = registrar.add("datasets/transactions.json", shipped("transactions"), "INC-1 onboard", false);
        assertTrue(added.written());
        ContractEntry entry = store.latest("transactions").orElseThrow();
        assertEquals(added.entry(), entry);
        assertEquals(1, entry.version());
        assertEquals(new String(shipped("transactions"), StandardCharsets.UTF_8), entry.contractJson());
        assertEquals(clock.instant(), entry.at());
        assertEquals("INC-1 onboard", entry.reason());
    }

    @Test
    void add_ofAnInvalidContractIsRefusedWithTheLoadersErrorAndWritesNothing() {
        byte[] bad = """
                {"dataset": "orders", "version": 1, "unit": {"pattern": "o-(?<unit>.+)", "cadence": "daily", "first": "2026-01-01"},
                 "key": "id", "fields": {"id": {"type": "string", "required": true}, "amount": {"type": "money"}}}
                """.getBytes(StandardCharsets.UTF_8);
        InvalidContractException refused = assertThrows(InvalidContractException.class, () -> registrar.add("orders.json", bad, "new", false));
        assertEquals("orders.json", refused.source());
        assertEquals("$.fields.amount.type", refused.jsonPath());
        assertTrue(refused.problem().startsWith("unknown type \"money\""), refused.problem());
        assertEquals(List.of(), store.datasets());
    }

    @Test
    void add_ofAnActiveDatasetIsRefused_updateOfAnUnknownOneToo() throws IOException {
        registrar.add("t.json", shipped("transactions"), "new", false);
        assertTrue(assertThrows(ContractRefusedException.class, () -> registrar.add("t.json", transactions(2, "\"maxRejectedLines\": 0", "\"maxRejectedLines\": 5"), "again", false))
                .getMessage().contains("landing dataset update"));
        assertTrue(assertThrows(ContractRefusedException.class, () -> registrar.update("p.json", shipped("progress_events"), "x", false))
                .getMessage().contains("not registered"));
        assertEquals(1, store.history("transactions").size());
    }

    @Test
    void update_needsTheNextVersionInTheFile() throws IOException {
        registrar.add("t.json", shipped("transactions"), "new", false);
        InvalidContractException stale = assertThrows(InvalidContractException.class,
                () -> registrar.update("t.json", transactions(1, "\"maxRejectedLines\": 0", "\"maxRejectedLines\": 5"), "cap", false));
        assertEquals("$.version", stale.jsonPath());
        assertTrue(stale.problem().contains("set \"version\": 2"), stale.problem());
        ContractRegistrar.Registration updated = registrar.update("t.json", transactions(2, "\"maxRejectedLines\": 0", "\"maxRejectedLines\": 5"), "cap 5", false);
        assertEquals(2, updated.entry().version());
        assertEquals(5, store.latest("transactions").orElseThrow().contract().orElseThrow().maxRejectedLines());
        assertEquals(1, updated.previous().orElseThrow().version());
    }

    @Test
    void update_thatChangesTheKeyOrPatternIsRefusedUnlessAllowed() throws IOException {
        registrar.add("t.json", shipped("transactions"), "new", false);
        byte[] pattern = transactions(2, "transactions-(?<unit>", "txn-(?<unit>");
        ContractRefusedException refused = assertThrows(ContractRefusedException.class, () -> registrar.update("t.json", pattern, "rename", false));
        assertEquals(1, refused.changes().size());
        assertTrue(refused.changes().get(0).startsWith("unit.pattern "), refused.changes().toString());
        assertEquals(1, store.history("transactions").size(), "a refused change writes nothing");

        ContractRegistrar.Registration allowed = registrar.update("t.json", pattern, "INC-3 producer renamed its files", true);
        assertEquals(refused.changes(), allowed.breaking());
        assertEquals(2, store.latest("transactions").orElseThrow().version());
    }

    @Test
    void breakingChanges_nameFormatKeyPatternCadenceFirstDroppedUnitsFieldsAndTypes_notNewOptionalFieldsOrLimits() {
        DatasetContract base = TestContracts.transactions();
        assertEquals(List.of(), ContractRegistrar.breakingChanges(base, TestContracts.transactions(json -> {
            json.put("maxRejectedLines", 10);
            fields(json).put("note", new java.util.LinkedHashMap<>(java.util.Map.of("type", "string")));
            json.put("prohibited", List.of("ssn"));
        })));
        List<String> changes = ContractRegistrar.breakingChanges(base, TestContracts.transactions(json -> {
            json.put("format", "jsonl");
            json.put("key", "account_id");
            unit(json).put("first", "2026-09-01");
            fields(json).remove("batch_date");
            fields(json).put("amount", new java.util.LinkedHashMap<>(java.util.Map.of("type", "string", "required", true)));
        }));
        assertEquals(5, changes.size(), changes.toString());
        assertTrue(changes.get(0).startsWith("format csv -> jsonl"), changes.toString());
        assertTrue(changes.get(1).startsWith("key txn_id -> account_id"), changes.toString());
        assertTrue(changes.get(2).startsWith("unit.first 2026-10-01 -> 2026-09-01"), changes.toString());
        assertTrue(changes.contains("field amount number -> string: published units hold number values"), changes.toString());
        assertTrue(changes.contains("field batch_date dropped: published units hold it"), changes.toString());
    }

    @Test
    void update_thatTheTableCannotFollow_isRefusedWithTheReason_evenWhenBreakingIsAllowed() throws IOException {
        registrar.add("t.json", shipped("transactions"), "new", false);
        byte[] narrowed = transactions(2, "\"precision\": 12, \"scale\": 2", "\"precision\": 12, \"scale\": 3");
        for (boolean allowBreaking : new boolean[] {false, true}) {
            ContractRefusedException refused = assertThrows(ContractRefusedException.class,
                    () -> registrar.update("t.json", narrowed, "INC-5 cents to mills", allowBreaking));
            assertTrue(refused.getMessage().contains("Iceberg table cannot follow"), refused.getMessage());
            assertEquals(List.of("field amount decimal(12,2) -> decimal(12,3): a decimal's scale cannot change (the"
                    + " table's values would change meaning)"), refused.changes());
        }
        assertEquals(1, store.history("transactions").size(), "nothing registered");

        byte[] additive = transactions(2, "\"batch_date\":", "\"note\": { \"type\": \"string\" },\n    \"batch_date\":");
        assertTrue(registrar.update("t.json", additive, "INC-6 a note column", false).written());
    }

    @Test
    void retire_isARecordedVersion_andAddMakesTheDatasetActiveAgainAfterIt() throws IOException {
        registrar.add("t.json", shipped("transactions"), "new", false);
        clock.advance(java.time.Duration.ofDays(1));
        ContractRegistrar.Registration retired = registrar.retire("transactions", "INC-4 producer decommissioned");
        assertEquals(ContractState.RETIRED, retired.entry().state());
        assertEquals(2, retired.entry().version());
        assertEquals(store.version("transactions", 1).orElseThrow().contractJson(), retired.entry().contractJson());
        assertThrows(ContractRefusedException.class, () -> registrar.retire("transactions", "again"));
        assertThrows(ContractRefusedException.class, () -> registrar.update("t.json", transactions(3, "\"maxRejectedLines\": 0", "\"maxRejectedLines\": 1"), "x", false));

        // back, under the next version; a key change against the last active contract still needs the flag
        assertThrows(ContractRefusedException.class, () -> registrar.add("t.json", transactions(3, "\"key\": \"txn_id\"", "\"key\": \"account_id\""), "back", false));
        assertEquals(3, registrar.add("t.json", transactions(3, "\"maxRejectedLines\": 0", "\"maxRejectedLines\": 1"), "back", false).entry().version());
    }

    @Test
    void everyChangeNeedsAReason() throws IOException {
        assertThrows(ContractRefusedException.class, () -> registrar.add("t.json", shipped("transactions"), " ", false));
        assertEquals(Optional.empty(), store.latest("transactions"));
    }

    @Test
    void register_isIdempotentForTheSameText() throws IOException {
        assertTrue(registrar.register("datasets/progress_events.json", shipped("progress_events"), "local run").written());
        ContractRegistrar.Registration again = registrar.register("datasets/progress_events.json", shipped("progress_events"), "local run");
        assertFalse(again.written());
        assertEquals(1, again.entry().version());
        assertEquals(1, store.history("progress_events").size());
    }

    @Test
    void racingOperators_theSecondWriterOfAVersionLosesAndNothingOfItsIsStored() throws IOException {
        registrar.add("t.json", shipped("transactions"), "new", false);
        byte[] mine = transactions(2, "\"maxRejectedLines\": 0", "\"maxRejectedLines\": 5");
        byte[] theirs = transactions(2, "\"maxRejectedLines\": 0", "\"maxRejectedLines\": 7");
        // both read version 1; theirs is written between my read and my write
        ContractStore racing = new ContractStore() {
            private boolean raced;

            @Override
            public Optional<ContractEntry> latest(String dataset) {
                Optional<ContractEntry> read = store.latest(dataset);
                if (!raced) {
                    raced = true;
                    new ContractRegistrar(store, clock).update("theirs.json", theirs, "theirs", false);
                }
                return read;
            }

            @Override
            public Optional<ContractEntry> version(String dataset, int version) {
                return store.version(dataset, version);
            }

            @Override
            public List<ContractEntry> history(String dataset) {
                return store.history(dataset);
            }

            @Override
            public List<String> datasets() {
                return store.datasets();
            }

            @Override
            public void create(ContractEntry entry) {
                store.create(entry);
            }

            @Override
            public SealOutcome seal(String dataset, int version, String sha256) {
                return store.seal(dataset, version, sha256);
            }
        };
        ContractVersionExistsException lost = assertThrows(ContractVersionExistsException.class,
                () -> new ContractRegistrar(racing, clock).update("mine.json", mine, "mine", false));
        assertEquals("theirs", lost.existing().orElseThrow().reason());
        assertTrue(lost.getMessage().contains("as version 3"), lost.getMessage());
        assertEquals(7, store.latest("transactions").orElseThrow().contract().orElseThrow().maxRejectedLines());
    }

    @SuppressWarnings("unchecked")
    private static java.util.Map<String, Object> fields(java.util.Map<String, Object> json) {
        return (java.util.Map<String, Object>) json.get("fields");
    }

    @SuppressWarnings("unchecked")
    private static java.util.Map<String, Object> unit(java.util.Map<String, Object> json) {
        return (java.util.Map<String, Object>) json.get("unit");
    }
}
