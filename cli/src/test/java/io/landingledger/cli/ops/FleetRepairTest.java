package io.landingledger.cli.ops;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FleetRepairTest {
    @Test
    void unitsWithStatus_readsTheSweepsStatusTable() {
        byte[] table = """
                {"unit":"2026-03-01","status":"OK","reason":null}
                {"unit":"2026-03-02","status":"LEDGER_DRIFT","reason":"PUBLISHED_OBJECT_MISSING"}

                {"unit":"2026-03-03","status":"UNPROCESSED","reason":"NEWER_INPUT"}
                {"unit":"2026-03-04","status":"MISSING","reason":"NO_INPUT"}
                """.getBytes(StandardCharsets.UTF_8);
        assertEquals(List.of("2026-03-02", "2026-03-03"), FleetRepair.unitsWithStatus(table, Set.of("LEDGER_DRIFT", "UNPROCESSED")));
        assertEquals(List.of(), FleetRepair.unitsWithStatus(table, Set.of("REFUSED")));
    }

    @Test
    void fanOut_runsEachDatasetOnceAtMostNAtOnceInTheOrderGiven() {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<String> datasets = List.of("a", "b", "c", "d", "e", "f", "g", "h");
        Map<String, FleetRepair.Outcome<String>> outcomes = FleetRepair.fanOut(datasets, 3, dataset -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                Thread.sleep(30);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            running.decrementAndGet();
            return dataset.toUpperCase();
        });
        assertEquals(datasets, List.copyOf(outcomes.keySet()));
        assertEquals("H", outcomes.get("h").value());
        assertTrue(most.get() <= 3 && most.get() >= 2, "at most 3 at once, and in parallel: " + most.get());
    }

    @Test
    void fanOut_oneDatasetsFailureIsItsOwn_andADatasetNamedTwiceIsRefused() {
        Map<String, FleetRepair.Outcome<String>> outcomes = FleetRepair.fanOut(List.of("a", "b"), 2, dataset -> {
            if (dataset.equals("a")) {
                throw new IllegalStateException("the repair function timed out");
            }
            return "ok";
        });
        assertInstanceOf(IllegalStateException.class, outcomes.get("a").failure());
        assertEquals("ok", outcomes.get("b").value());
        assertThrows(IllegalArgumentException.class, () -> FleetRepair.fanOut(List.of("a", "a"), 2, d -> d));
        assertThrows(IllegalArgumentException.class, () -> FleetRepair.fanOut(List.of("a"), 0, d -> d));
    }
}
