package io.landingledger.core.sweep;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.Deadline;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.InputRef;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.Ledger;
import io.landingledger.core.ledger.LedgerConflictException;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.TableState;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.testing.InMemoryLedger;
import io.landingledger.core.testing.InMemoryObjectStore;
import io.landingledger.core.testing.ManualClock;
import io.landingledger.core.testing.TestContracts;
import io.landingledger.core.validate.Events;
import io.landingledger.core.validate.ValidationLimits;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sharded and the incremental sweep give every unit the status today's one-dataset sweep gives it, on a fleet of
 * small datasets with published, refused, lost, re-sent and missing inputs, and after changes between sweeps: what
 * a reader of {@code _status/<dataset>/status.jsonl} sees after each sweep equals a fresh {@link CompletenessSweep}
 * classification at that instant. And the limit: a deletion nobody recorded is seen by the full sweep only.
 */
class ShardedSweepTest {
    private static final String INBOX = "inbox";
    private static final String LAKE = "lake";
    private static final int DATASETS = 12;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-15T12:00:00Z"));
    private final InMemoryObjectStore s3 = new InMemoryObjectStore(clock).createBucket(INBOX, true).createBucket(LAKE, false);
    private final InMemoryLedger dynamo = new InMemoryLedger();
    private final LakeSweepChanges changes = new LakeSweepChanges(s3, LAKE);
    // the Ledger table's stream, as the change recorder turns it into records: every write names its dataset
    private final Ledger ledger = new StreamedLedger(dynamo);
    private final Map<String, DatasetContract> contracts = new TreeMap<>();
    private final AtomicInteger runs = new AtomicInteger();
    private final Random random = new Random(26);

    ShardedSweepTest() {
        for (int i = 0; i < DATASETS; i++) {
            String name = String.format("ds_%02d", i);
            contracts.put(name, TestContracts.progressEvents(json -> {
                json.put("dataset", name);
                @SuppressWarnings("unchecked")
                Map<String, Object> unit = (Map<String, Object>) json.get("unit");
                unit.put("lookbackDays", 20);
                unit.put("autoRedrive", false); // the reference classification must see the same state
            }));
        }
    }

    @Test
    void fullThenIncremental_statusesEqualTodaysSweep_afterEveryChange() {
        // a fortnight of units, each one of: published, refused, lost event, re-sent, nothing
        for (DatasetContract contract : contracts.values()) {
            for (int day = 1; day <= 14; day++) {
                String unit = LocalDate.of(2026, 3, day).toString();
                int roll = random.nextInt(100);
                if (roll < 70) {
                    deliver(contract, unit, file(unit, 2, false));
                } else if (roll < 76) {
                    deliver(contract, unit, file(unit, 2, true));
                } else if (roll < 78) {
                    put(contract, unit, file(unit, 2, false)); // its event lost
                } else if (roll < 88) {
                    deliver(contract, unit, file(unit, 2, false));
                    deliver(contract, unit, file(unit, 3, false)); // a re-send with one more row: restated
                }
            }
        }
        clock.advance(Duration.ofMinutes(5));
        ShardedSweep sharded = sharded(new ShardBudget(5, 10_000));

        ShardedSweep.Result full = sharded.run(SweepMode.FULL, request(), CompletenessSweepListener.NONE, SweepAssembler.MetricsSink.NONE);
        assertEquals(3, full.plan().shards().size(), "12 datasets at 5 a shard");
        assertTrue(full.assembly().finished(), "every shard finished: " + full.assembly().summary());
        assertStatusTablesMatchTodaysSweep("after the full sweep");

        // an hour later: a re-send, a lost event, a refusal and a repair of a lost event, each in one dataset
        clock.advance(Duration.ofHours(1));
        deliver(contracts.get("ds_01"), "2026-03-03", file("2026-03-03", 5, false));
        put(contracts.get("ds_02"), "2026-03-04", file("2026-03-04", 4, false));
        deliver(contracts.get("ds_03"), "2026-03-05", file("2026-03-05", 4, true));
        clock.advance(Duration.ofMinutes(5)); // a change within LakeSweepChanges.CLOCK_SKEW of a sweep is read twice
        ShardedSweep.Result incremental = sharded.run(SweepMode.INCREMENTAL, request(), CompletenessSweepListener.NONE,
                SweepAssembler.MetricsSink.NONE);
        assertTrue(incremental.plan().reasons().keySet().containsAll(List.of("ds_01", "ds_02", "ds_03")), "the changed datasets are read: "
                + incremental.plan().reasons());
        assertEquals(Map.of("ds_01", "changed", "ds_02", "changed", "ds_03", "changed"), incremental.plan().reasons(),
                "the changed datasets are read, and only they");
        assertTrue(incremental.plan().carried() > 0, "the others are carried: " + incremental.plan().reasons());
        assertStatusTablesMatchTodaysSweep("after the incremental sweep");

        // nothing changed: nothing is read
        clock.advance(Duration.ofHours(1));
        ShardedSweep.Result quiet = sharded.run(SweepMode.INCREMENTAL, request(), CompletenessSweepListener.NONE, SweepAssembler.MetricsSink.NONE);
        assertEquals(Map.of(), quiet.plan().reasons(), "a quiet hour reads nothing");
        assertEquals(DATASETS, quiet.plan().carried());
        assertTrue(quiet.assembly().finished());
        assertStatusTablesMatchTodaysSweep("after a quiet hour");

        // past midnight plus the grace: 03-15 falls due in every dataset (PENDING becomes MISSING with no change at all)
        clock.set(Instant.parse("2026-03-16T06:30:00Z"));
        ShardedSweep.Result due = sharded.run(SweepMode.INCREMENTAL, request(), CompletenessSweepListener.NONE, SweepAssembler.MetricsSink.NONE);
        assertEquals(DATASETS, due.plan().datasetCount(), "03-15 was PENDING everywhere: " + due.plan().reasons());
        assertStatusTablesMatchTodaysSweep("after a unit fell due");

        // an out-of-band deletion from published/ whose notification was lost: the incremental sweep cannot see it ...
        String quiet5 = reference().entrySet().stream()
                .filter(e -> !e.getValue().containsValue("UNPROCESSED") && !e.getValue().containsValue("LEDGER_DRIFT"))
                .map(Map.Entry::getKey).findFirst().orElseThrow();
        String unit = firstPublished(quiet5);
        s3.delete(LAKE, LakeLayout.publishedKey(quiet5, unit));
        clock.advance(Duration.ofHours(1));
        sharded.run(SweepMode.INCREMENTAL, request(), CompletenessSweepListener.NONE, SweepAssembler.MetricsSink.NONE);
        assertNotEquals(reference().get(quiet5), statusTable(quiet5), "an unrecorded deletion is not seen by the incremental sweep");
        // ... and the full reconciliation does
        ShardedSweep.Result reconcile = sharded.run(SweepMode.FULL, request(), CompletenessSweepListener.NONE, SweepAssembler.MetricsSink.NONE);
        assertEquals("LEDGER_DRIFT", statusTable(quiet5).get(unit));
        assertStatusTablesMatchTodaysSweep("after the full reconciliation");
        assertTrue(reconcile.assembly().finished());
    }

    @Test
    void aShardThatFails_isRetriedByItsQueue_thenNamedInTheSummary_andReadFirstNextTime() {
        for (DatasetContract contract : contracts.values()) {
            deliver(contract, "2026-03-01", file("2026-03-01", 2, false));
        }
        clock.advance(Duration.ofMinutes(5));
        ShardedSweep sharded = sharded(new ShardBudget(4, 10_000));
        sharded.run(SweepMode.FULL, request(), CompletenessSweepListener.NONE, SweepAssembler.MetricsSink.NONE);

        clock.advance(Duration.ofHours(1));
        deliver(contracts.get("ds_00"), "2026-03-02", file("2026-03-02", 2, false));
        deliver(contracts.get("ds_09"), "2026-03-02", file("2026-03-02", 2, false));
        // the planner hands out two shards; one worker's every attempt fails, the other finishes
        SweepPlan plan = sharded.plan(SweepMode.INCREMENTAL, request(), SweepAssembler.MetricsSink.NONE);
        assertEquals(List.of(List.of("ds_00", "ds_09")), plan.shards().stream().map(SweepShard::datasets).toList());
        ShardTask task = ShardTask.of(plan, plan.shards().get(0));
        sharded.recordFailedShard(task, 3, "IllegalStateException: the worker's third attempt failed");
        SweepAssembler.Assembly assembly = sharded.assembleIfComplete(plan.sweepId(), SweepAssembler.MetricsSink.NONE).orElseThrow();
        assertFalse(assembly.finished());
        assertFalse(assembly.complete());
        assertEquals(1, ((List<?>) assembly.summary().get("unfinished_shards")).size(), assembly.summary().toString());
        assertTrue(assembly.state().datasets().get("ds_00").pending());

        // the next sweep reads them first, whatever the change records say
        clock.advance(Duration.ofHours(1));
        SweepPlan next = sharded.plan(SweepMode.INCREMENTAL, request(), SweepAssembler.MetricsSink.NONE);
        assertEquals("pending", next.reasons().get("ds_00"));
        assertEquals("pending", next.reasons().get("ds_09"));
    }

    @Test
    void aWorkerKilledWithoutAResult_isNamedByTheNextPlanner() {
        deliver(contracts.get("ds_00"), "2026-03-01", file("2026-03-01", 2, false));
        ShardedSweep sharded = sharded(new ShardBudget(6, 10_000));
        SweepPlan plan = sharded.plan(SweepMode.FULL, request(), SweepAssembler.MetricsSink.NONE);
        sharded.runShard(ShardTask.of(plan, plan.shards().get(0)), 1, Deadline.NONE, CompletenessSweepListener.NONE);
        assertTrue(sharded.assembleIfComplete(plan.sweepId(), SweepAssembler.MetricsSink.NONE).isEmpty(), "one shard has no result yet");

        clock.advance(Duration.ofHours(1));
        sharded.plan(SweepMode.INCREMENTAL, request(), SweepAssembler.MetricsSink.NONE);
        Map<String, Object> summary = read(SweepLayout.summaryKey(plan.sweepId()));
        assertEquals(false, summary.get("finished"));
        assertEquals("NO_RESULT", ((Map<?, ?>) ((List<?>) summary.get("unfinished_shards")).get(0)).get("reason"));
    }

    @Test
    void aShardOutOfTime_writesTheRestAsUnswept() {
        ShardedSweep sharded = sharded(new ShardBudget(12, 10_000));
        SweepPlan plan = sharded.plan(SweepMode.FULL, request(), SweepAssembler.MetricsSink.NONE);
        AtomicInteger calls = new AtomicInteger();
        // a deadline with time for three datasets
        Deadline deadline = () -> calls.incrementAndGet() <= 3 ? Duration.ofMinutes(5) : Duration.ofSeconds(5);
        SweepShardRunner.Outcome outcome = sharded.runShard(ShardTask.of(plan, plan.shards().get(0)), 1, deadline, CompletenessSweepListener.NONE);
        assertEquals(3, outcome.result().swept().size());
        assertEquals(9, outcome.result().unswept().size());
        assertTrue(outcome.result().unswept().stream().allMatch(u -> u.reason().equals("OUT_OF_TIME")));
    }

    // ---- the reference: today's one-dataset sweep, classifying at this instant ----

    /**
     * Every unit both name has the same status. A carried dataset's table may lack a unit the range took in since
     * its last read, only if that unit is PENDING (not due: no status changes until its deadline, when the dataset is
     * read again), and may keep a unit the lookback let go.
     */
    private void assertStatusTablesMatchTodaysSweep(String when) {
        Map<String, Map<String, String>> expected = reference();
        for (String dataset : contracts.keySet()) {
            Map<String, String> table = statusTable(dataset);
            Map<String, String> want = new TreeMap<>(expected.get(dataset));
            String first = ((TreeMap<String, String>) expected.get(dataset)).firstKey();
            table.keySet().removeIf(unit -> unit.compareTo(first) < 0);
            want.entrySet().removeIf(e -> !table.containsKey(e.getKey()) && e.getValue().equals("PENDING"));
            assertEquals(want, table, when + ": " + dataset + "'s status.jsonl");
        }
    }

    private Map<String, Map<String, String>> reference() {
        CompletenessSweep today = todaysSweep();
        Instant now = clock.instant();
        Map<String, Map<String, String>> statuses = new TreeMap<>();
        for (DatasetContract contract : contracts.values()) {
            DatasetReport report = today.classify(contract, CompletenessSweep.range(contract, null, null, now), now);
            Map<String, String> units = new TreeMap<>();
            report.units().forEach(u -> units.put(u.unit(), u.status().name()));
            statuses.put(contract.dataset(), units);
        }
        return statuses;
    }

    /** What a reader sees: the statuses in {@code _status/<dataset>/status.jsonl}. */
    private Map<String, String> statusTable(String dataset) {
        Map<String, String> units = new TreeMap<>();
        try (ObjectStore.OpenedObject opened = s3.open(LAKE, LakeLayout.statusKey(dataset), null); InputStream in = opened.body()) {
            for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    Map<String, Object> row = JSON.std.mapFrom(line);
                    units.put((String) row.get("unit"), (String) row.get("status"));
                }
            }
        } catch (IOException | io.landingledger.core.store.ObjectNotFoundException e) {
            throw new AssertionError(e);
        }
        return units;
    }

    private String firstPublished(String dataset) {
        return dynamo.items(dataset, null, null).stream().filter(i -> i.published() != null).map(LedgerItem::unit).findFirst().orElseThrow();
    }

    private Map<String, Object> read(String key) {
        try (ObjectStore.OpenedObject opened = s3.open(LAKE, key, null); InputStream in = opened.body()) {
            return JSON.std.mapFrom(in.readAllBytes());
        } catch (IOException | io.landingledger.core.store.ObjectNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    // ---- the fleet ----

    private SweepRequest request() {
        return new SweepRequest(List.copyOf(contracts.values()), null, null);
    }

    private CompletenessSweep todaysSweep() {
        IngestService ingest = new IngestService(s3, dynamo, LAKE, clock, ValidationLimits.defaults(), IngestService.StepListener.NONE);
        return new CompletenessSweep(s3, dynamo, ingest, new UnitRouter(new ContractRegistry(contracts)), INBOX, LAKE, clock,
                () -> "sweep-run-" + runs.incrementAndGet());
    }

    private ShardedSweep sharded(ShardBudget budget) {
        IngestService ingest = new IngestService(s3, ledger, LAKE, clock, ValidationLimits.defaults(), IngestService.StepListener.NONE);
        CompletenessSweep sweep = new CompletenessSweep(s3, ledger, ingest, new UnitRouter(new ContractRegistry(contracts)), INBOX, LAKE,
                clock, () -> "sweep-run-" + runs.incrementAndGet());
        return new ShardedSweep(sweep, s3, LAKE, changes, budget, name -> Optional.ofNullable(contracts.get(name)));
    }

    private InMemoryObjectStore.Version put(DatasetContract contract, String unit, byte[] body) {
        InMemoryObjectStore.Version version = s3.put(INBOX, contract.dataset() + "/progress-" + unit + ".jsonl", body, "application/x-ndjson", Map.of());
        changes.record(contract.dataset(), clock.instant()); // the inbox's S3 notification, through EventBridge
        clock.advance(Duration.ofSeconds(1));
        return version;
    }

    private void deliver(DatasetContract contract, String unit, byte[] body) {
        InMemoryObjectStore.Version v = put(contract, unit, body);
        IngestService ingest = new IngestService(s3, ledger, LAKE, clock, ValidationLimits.defaults(), IngestService.StepListener.NONE);
        ingest.ingest(IngestService.Request.event(contract, unit, new InputRef(INBOX, v.key(), v.versionId(), v.etag(), v.size(), v.sequencer(),
                v.lastModified()), "run-" + runs.incrementAndGet(), Deadline.NONE));
    }

    private static byte[] file(String unit, int rows, boolean prohibited) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            Events.Event event = Events.event(unit + "-e" + i);
            lines.add((prohibited && i == 0 ? event.raw("email", "\"x@example.com\"") : event).line());
        }
        return Events.utf8(Events.lines(lines.toArray(String[]::new)));
    }

    /** The Ledger table with its stream: every write records its dataset's change (what the recorder function does). */
    private final class StreamedLedger implements Ledger {
        private final Ledger delegate;

        StreamedLedger(Ledger delegate) {
            this.delegate = delegate;
        }

        @Override
        public Optional<LedgerItem> get(String dataset, String unit) {
            return delegate.get(dataset, unit);
        }

        @Override
        public void write(LedgerItem item, long expectedRevision, HistoryEntry history) throws LedgerConflictException {
            delegate.write(item, expectedRevision, history);
            changes.record(item.dataset(), clock.instant());
        }

        @Override
        public void appendHistory(HistoryEntry history) {
            delegate.appendHistory(history);
        }

        @Override
        public boolean recordTable(String dataset, String unit, String expectedRunId, String expectedSha256,
                                   TableState state, HistoryEntry history) {
            return delegate.recordTable(dataset, unit, expectedRunId, expectedSha256, state, history);
        }

        @Override
        public List<HistoryEntry> history(String dataset, String unit) {
            return delegate.history(dataset, unit);
        }

        @Override
        public List<LedgerItem> items(String dataset, String fromUnit, String toUnit) {
            return delegate.items(dataset, fromUnit, toUnit);
        }
    }

    /** No listener: the test reads the status tables. */
    private static final class CompletenessSweepListener {
        static final CompletenessSweep.ReportListener NONE = new CompletenessSweep.ReportListener() {
            @Override
            public void redriveRan(io.landingledger.core.ingest.IngestOutcome outcome) {
            }

            @Override
            public void swept(DatasetReport report) {
            }
        };
    }
}
