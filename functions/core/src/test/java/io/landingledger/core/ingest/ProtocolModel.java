package io.landingledger.core.ingest;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ledger.AttemptOutcome;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.reference.ReferenceContract;
import io.landingledger.core.reference.ReferenceInbox;
import io.landingledger.core.reference.ReferenceValidator;
import io.landingledger.core.repair.RepairRequest;
import io.landingledger.core.repair.RepairResult;
import io.landingledger.core.repair.RepairService;
import io.landingledger.core.simulation.Model;
import io.landingledger.core.simulation.Scheduler;
import io.landingledger.core.simulation.SimClock;
import io.landingledger.core.simulation.SteppedLedger;
import io.landingledger.core.simulation.SteppedObjectStore;
import io.landingledger.core.simulation.SteppedTablePort;
import io.landingledger.core.simulation.TaskEnd;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.ShardBudget;
import io.landingledger.core.sweep.ShardedSweep;
import io.landingledger.core.sweep.SweepAssembler;
import io.landingledger.core.sweep.SweepChanges;
import io.landingledger.core.sweep.SweepMode;
import io.landingledger.core.sweep.SweepRequest;
import io.landingledger.core.sweep.UnitReport;
import io.landingledger.core.sweep.UnitStatus;
import io.landingledger.core.table.TablePort;
import io.landingledger.core.table.TableSnapshot;
import io.landingledger.core.table.TableWriteResult;
import io.landingledger.core.table.TableWriter;
import io.landingledger.core.testing.InMemoryContractStore;
import io.landingledger.core.testing.InMemoryObjectStore;
import io.landingledger.core.testing.InMemoryTablePort;
import io.landingledger.core.testing.InspectableS3;
import io.landingledger.core.validate.Events;
import io.landingledger.core.validate.ValidationLimits;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.zip.GZIPOutputStream;

/**
 * The world of one simulated schedule: a versioned inbox and a lake (faithful in-memory S3), a ledger (in-memory
 * DynamoDB), the real {@link IngestService}, {@link CompletenessSweep} and {@link RepairService} wired to ports
 * whose every call is a yield point, and the actors that do what S3, Lambda, producers and operators can do. After
 * every step it checks the safety invariants S1-S6 of docs/design.md section 2; when no actor is left it drains
 * what is pending (undelivered events, then sweeps with re-drive to a fixpoint, then a forced repair) and checks
 * L1-L3.
 *
 * <p>The unit under every per-step check is {@code progress_events} {@code 2026-03-01}, with two keys ({@code .jsonl}
 * and {@code .jsonl.gz}): every race in the protocol is a race on one unit. Its neighbours, the dataset's next unit
 * ({@code 2026-03-02}) and the same day of a second dataset ({@code lesson_events}), get one file each in the random
 * world (their events race the unit's, through the same ports) and are checked at quiescence (L4): a run that mixes
 * up units or datasets shows on one side or the other.
 *
 * <p>Every expected output and every "newer" comes from the model's own reference ({@code core/reference}), not from
 * the production validator, {@link UnitInputs} or {@link PublishDecision}.
 */
final class ProtocolModel implements Model {
    static final String INBOX = "inbox";
    static final String LAKE = "lake";
    static final String DATASET = "progress_events";
    static final String UNIT = "2026-03-01";
    static final String KEY = DATASET + "/progress-" + UNIT + ".jsonl";
    static final String GZ = KEY + ".gz";
    static final String PUBLISHED_KEY = LakeLayout.publishedKey(DATASET, UNIT);
    /** The neighbours: the dataset's next unit, and the same day of a second dataset (a copy of the contract). */
    static final String UNIT2 = "2026-03-02";
    static final String KEY2 = DATASET + "/progress-" + UNIT2 + ".jsonl";
    static final String DATASET2 = "lesson_events";
    static final String KEY3 = DATASET2 + "/lesson-" + UNIT + ".jsonl";
    /** Values planted in rows and refused fields: none may reach the ledger, quarantine, outcomes or exceptions. */
    static final List<String> PLANTED = List.of("PLANTED-L", "planted@example.com");
    private static final Instant START = Instant.parse("2026-03-01T23:30:00Z");

    // ---- the files producers send ----

    /** Row sets a producer can send: rows, then an encoding. */
    enum Rows {
        A("a", 3), B("b", 2);

        final String prefix;
        final int count;

        Rows(String prefix, int count) {
            this.prefix = prefix;
            this.count = count;
        }

        List<String> lines(boolean reorder) {
            List<String> lines = new ArrayList<>();
            for (int i = 1; i <= count; i++) {
                String id = prefix + i;
                // the same event: another key order, and its time in another offset
                lines.add(reorder
                        ? new Events.Event().text("learner_id", "PLANTED-L" + i).text("event_id", id).text("lesson_id", "les")
                        .text("event_type", "checkpoint").raw("checkpoint", Integer.toString(i)).raw("attempt_number", "1")
                        .text("event_time", "2026-03-01T10:00:0" + i + "+01:00").line()
                        : Events.event(id).text("learner_id", "PLANTED-L" + i).text("lesson_id", "les")
                        .text("event_time", "2026-03-01T09:00:0" + i + "Z").raw("checkpoint", Integer.toString(i)).line());
            }
            if (reorder) {
                java.util.Collections.reverse(lines);
            }
            return lines;
        }
    }

    /** How the rows are written. Every encoding of one Rows value canonicalises to the same published rows. */
    enum Encoding { PLAIN, REORDERED, GZIP, WITH_REJECTED_LINE, PROHIBITED_FIELD, KEY_CONFLICT, EMPTY_DAY }

    static byte[] file(Rows rows, Encoding encoding) {
        if (encoding == Encoding.EMPTY_DAY) {
            // one rejected line and no row: published empty under v1 (one reject allowed), refused under v2
            return (Events.event("bad").text("learner_id", "PLANTED-LX").text("lesson_id", "les").text("attempt_number", "one")
                    .text("event_time", "2026-03-01T09:00:00Z").raw("checkpoint", "1").line() + "\n").getBytes(StandardCharsets.UTF_8);
        }
        List<String> lines = new ArrayList<>(rows.lines(encoding == Encoding.REORDERED));
        switch (encoding) {
            case WITH_REJECTED_LINE -> lines.add(1, Events.event("bad").text("learner_id", "PLANTED-LX").text("lesson_id", "les")
                    .text("attempt_number", "one").text("event_time", "2026-03-01T09:00:00Z").raw("checkpoint", "1").line());
            case PROHIBITED_FIELD -> lines.add(Events.event("p1").text("learner_id", "x").text("lesson_id", "les")
                    .text("event_time", "2026-03-01T09:00:00Z").raw("checkpoint", "1").text("email", "planted@example.com").line());
            case KEY_CONFLICT -> lines.add(lines.get(0).replace("\"checkpoint\":1", "\"checkpoint\":9"));
            default -> {
            }
        }
        byte[] text = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
        return encoding == Encoding.GZIP ? gzip(text) : text;
    }

    private static byte[] gzip(byte[] text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    // ---- the world ----

    final Scheduler sim;
    final SimClock clock = new SimClock(START);
    /** The world's stores, read directly by the checks and out-of-band actors (see {@link ProtocolWorld}). */
    final InspectableS3 s3;
    final io.landingledger.core.ledger.Ledger dynamo;
    final ObjectStore store;
    final io.landingledger.core.ledger.Ledger ledger;
    final DatasetContract v1 = io.landingledger.core.testing.TestContracts.progressEvents();
    /** The next contract an operator may deploy: one rejected line now refuses the file. */
    final DatasetContract v2 = io.landingledger.core.testing.TestContracts.progressEvents(c -> {
        c.put("version", 2);
        c.put("maxRejectedLines", 0);
    });
    DatasetContract current = v1;
    /** The second dataset: progress_events' rules under another name and file pattern. */
    final DatasetContract lessons = io.landingledger.core.testing.TestContracts.progressEvents(c -> {
        c.put("dataset", DATASET2);
        @SuppressWarnings("unchecked")
        Map<String, Object> unit = new HashMap<>((Map<String, Object>) c.get("unit"));
        unit.put("pattern", "lesson-(?<unit>\\d{4}-\\d{2}-\\d{2})\\.jsonl(\\.gz)?");
        c.put("unit", unit);
    });

    /** Which dataset and unit an inbox key belongs to, as the model wires it (the router is not the model's oracle). */
    record Target(DatasetContract contract, String unit) {
    }

    Target targetOf(String key) {
        if (key.equals(KEY2)) {
            return new Target(current, UNIT2);
        }
        return key.equals(KEY3) ? new Target(lessons, UNIT) : new Target(current, UNIT);
    }

    /** The neighbours' files, put before anything else happens: their events race the unit's. */
    void withNeighbours() {
        put(KEY2, file(Rows.B, Encoding.PLAIN));
        put(KEY3, file(Rows.A, Encoding.PLAIN));
    }
    /** The same two contract versions as the reference reads them (datasets/progress_events.json, and v2's cap). */
    private final Map<Integer, ReferenceContract> referenceContracts = Map.of(1, ReferenceContract.progressEvents(DATASET, 1, 10),
            2, ReferenceContract.progressEvents(DATASET, 2, 0));
    private int runs;

    /** S3 events not delivered yet (and not lost). */
    final List<InMemoryObjectStore.Event> pending = new ArrayList<>();
    int deliveries;
    final List<Throwable> unexplained = new ArrayList<>();
    final List<IngestOutcome> outcomes = new ArrayList<>();
    final List<String> exceptionMessages = new ArrayList<>();

    // what the checks remember between steps
    private final Set<String> everPublished = new HashSet<>(); // "etag|run-id" of every published object seen
    /** SHA-256 of the bytes of every published object seen, by "etag|run-id": the rows a reader saw. */
    private final Map<String, String> contentOf = new HashMap<>();
    /** Recorded publishes whose rows differ from the recorded publish before them, counted from the bytes seen. */
    private long restatements;
    /** The ledger item after the last write that took effect. */
    private LedgerItem recorded;
    /** The item before L3's forced repair, when it held an empty acceptance. */
    private LedgerItem lastAccepted;
    private byte[] lastPublishedBytes;
    private PublishMetadata lastPublishedMeta;
    private LedgerItem lastItem;
    private boolean publishedChanged;
    private InMemoryObjectStore.Version lastPublishedVersion;
    private int eventsSeen;
    private final Map<String, ReferenceValidator.Verdict> oracle = new HashMap<>();
    /** Every inbox version producers created, by version id (deleted ones stay here). */
    final Map<String, InMemoryObjectStore.Version> created = new HashMap<>();
    /** Writes the in-memory S3 and ledger performed, through any port (the dry-run checks count these). */
    long storeWrites;
    /** Set by the world: at quiescence, run every dry-run repair (each flag, each target) and check none writes. */
    boolean auditDryRuns;
    /** What a consumer read: its receipt, and the model's content streak when it read. */
    record Read(io.landingledger.core.consumers.ConsumerReceipt receipt, int streak) {
    }

    final List<Read> reads = new ArrayList<>();
    /** Recorded publishes that changed the rows (by the bytes seen), counted by the model: a "content streak". */
    private int streak;
    /** The content hash of the last recorded publish, and the run and time its streak began (the model's own). */
    private String standingContent;
    private String contentSinceRun;
    private Instant contentSinceAt;
    /** Writes by any actor, and by each, for S5: a replay that ran alone must not have written. */
    long writes;
    final Map<String, Long> writesBy = new HashMap<>();

    /** A write by whoever runs now: a run's port call, or a producer's, S3 lifecycle's or an operator's step. */
    void countWrite() {
        writes++;
        writesBy.merge(sim.current().name(), 1L, Long::sum);
    }

    /** The dataset's Iceberg table, in memory (the writer's commits land here; T1 and T2 read it directly). */
    final InMemoryTablePort table = new InMemoryTablePort(clock);
    /** The table as the writer sees it: every call a yield point. */
    final TablePort steppedTable;
    /** Both contract versions, as the writer loads the one a publish recorded. */
    final InMemoryContractStore contracts = new InMemoryContractStore();
    /** What the stepped table writers decided, over every schedule run (printed by the random run). */
    static final Map<TableWriteResult.Outcome, java.util.concurrent.atomic.AtomicLong> TABLE_WRITES =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** Every content hash the ledger recorded for the unit, now or before (T1). */
    private final Set<String> everRecordedContent = new HashSet<>();

    ProtocolModel(Scheduler sim, Consumer<ProtocolModel> script) {
        this(sim, ProtocolWorld::inMemory, script);
    }

    ProtocolModel(Scheduler sim, ProtocolWorld.Factory worlds, Consumer<ProtocolModel> script) {
        this.sim = sim;
        ProtocolWorld world = worlds.create(clock);
        this.s3 = world.s3();
        this.dynamo = world.ledger();
        // counting inside stepping: what a call records happens when the call is performed, after its yield point
        // (and its check) and only if it is performed
        this.store = new SteppedObjectStore(sim, new CountingStore(s3, this));
        this.ledger = new SteppedLedger(sim, new CountingLedger(dynamo, this));
        // every write any port performs, stepped or not, counted where it lands (a dry run must add none); restatements
        // are counted write by write: the drain at quiescence runs unstepped, so several ledger writes can happen
        // between two checks
        world.observeWrites(() -> storeWrites++, this::ledgerWritten);
        this.steppedTable = new SteppedTablePort(sim, table);
        registerContractVersions();
        script.accept(this);
    }

    // ---- services, built per run as Lambda builds them per container ----

    IngestService ingest(ObjectStore store, io.landingledger.core.ledger.Ledger ledger) {
        return new IngestService(store, ledger, LAKE, clock, ValidationLimits.defaults(), IngestService.StepListener.NONE);
    }

    CompletenessSweep sweep(ObjectStore store, io.landingledger.core.ledger.Ledger ledger) {
        return new CompletenessSweep(store, ledger, ingest(store, ledger), new UnitRouter(registry()), INBOX, LAKE, clock, this::runId);
    }

    /**
     * The sharded sweep (issue 26) where the model runs the sweep: planned, its one shard run and assembled in this
     * task, through the same ports (so its plan, result, state and summary files are port calls the explorer can
     * interleave, crash or fault like any other). Full mode: the model records no change markers, and a full sweep
     * classifies (and re-drives) whatever the last one saw.
     */
    DatasetReport shardedSweep(ObjectStore store, io.landingledger.core.ledger.Ledger ledger, DatasetContract contract) {
        return shardedSweep(store, ledger, contract, true);
    }

    /**
     * @param required false for a sweep task, where an injected fault in the dataset's sweep is reported in the
     *                 shard's result (a worker's failed attempt) rather than thrown: null is returned then
     */
    DatasetReport shardedSweep(ObjectStore store, io.landingledger.core.ledger.Ledger ledger, DatasetContract contract, boolean required) {
        ShardedSweep sharded = new ShardedSweep(sweep(store, ledger), store, LAKE, SweepChanges.NONE, ShardBudget.defaults(),
                name -> name.equals(contract.dataset()) ? java.util.Optional.of(contract) : java.util.Optional.empty());
        ShardedSweep.Result result = sharded.run(SweepMode.FULL, new SweepRequest(List.of(contract), UNIT, UNIT), NO_LISTENER,
                SweepAssembler.MetricsSink.NONE);
        if (!required) {
            return result.report(contract.dataset()).orElse(null);
        }
        return result.report(contract.dataset()).orElseThrow(() -> new IllegalStateException(
                "the sharded sweep did not sweep " + contract.dataset() + ": " + result.assembly().summary().get("datasets_unswept")));
    }

    private static final CompletenessSweep.ReportListener NO_LISTENER = new CompletenessSweep.ReportListener() {
        @Override
        public void redriveRan(IngestOutcome outcome) {
        }

        @Override
        public void swept(DatasetReport report) {
        }
    };

    RepairService repair(ObjectStore store, io.landingledger.core.ledger.Ledger ledger) {
        return new RepairService(registry(), ledger, store, ingest(store, ledger), INBOX, LAKE, clock, Duration.ofSeconds(1));
    }

    private ContractRegistry registry() {
        return new ContractRegistry(Map.of(DATASET, current));
    }

    String runId() {
        return "run" + (++runs);
    }

    /** Versions 1 and 2 of the unit's dataset, as registered: v2 is v1 with no rejected line allowed. */
    private void registerContractVersions() {
        try {
            String v1Json = java.nio.file.Files.readString(io.landingledger.core.testing.TestContracts.DATASETS
                    .resolve("progress_events.json"));
            String v2Json = v1Json.replace("\"version\": 1", "\"version\": 2");
            contracts.create(new io.landingledger.core.contract.ContractEntry(DATASET, 1,
                    io.landingledger.core.contract.ContractState.ACTIVE, v1Json, "v1", START));
            contracts.create(new io.landingledger.core.contract.ContractEntry(DATASET, 2,
                    io.landingledger.core.contract.ContractState.ACTIVE, v2Json, "v2", START));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    TableWriter tableWriter(ObjectStore store, io.landingledger.core.ledger.Ledger ledger, TablePort tablePort) {
        return new TableWriter(ledger, store, LAKE, contracts, tablePort, clock);
    }

    /** The ledger records a publish of the unit (what makes the ledger stream send the table writer a message). */
    boolean unitPublished() {
        return dynamo.get(DATASET, UNIT).map(i -> i.status() == LedgerStatus.PUBLISHED).orElse(false);
    }

    /**
     * The table writer, as its queue delivers a message for the unit (docs/design.md section 12): it reads the ledger
     * and the table through stepped ports, so a crash can fall between its commit and its ledger record, and two
     * writers (a duplicate message, the sweep's re-drive) can race each other's commits.
     */
    void tableWriterTask() {
        sim.task("table-writer", () -> {
            TableWriteResult result = tableWriter(store, ledger, steppedTable).write(DATASET, UNIT);
            TABLE_WRITES.computeIfAbsent(result.outcome(), o -> new java.util.concurrent.atomic.AtomicLong())
                    .incrementAndGet();
            if (result.reason() != null) {
                assertNoPlanted("a table writer's reason", result.reason());
            }
        }).onEnd(this::expectedEnd);
    }

    // ---- producers ----

    /** A single PUT of a file (its event goes to pending). */
    InMemoryObjectStore.Version put(String key, byte[] body) {
        InMemoryObjectStore.Version v = s3.put(INBOX, key, body, "application/x-ndjson", Map.of());
        countWrite();
        created.put(v.versionId(), v);
        collectEvents();
        return v;
    }

    /** A multipart upload of a file in parts of {@code partSize} bytes (another ETag for the same bytes). */
    InMemoryObjectStore.Version putInParts(String key, byte[] body, int partSize) {
        InMemoryObjectStore.Version v = s3.putWithParts(INBOX, key, body, partSize);
        countWrite();
        created.put(v.versionId(), v);
        collectEvents();
        return v;
    }

    /**
     * One thing a producer does, chosen by the schedule: new rows, the same rows re-encoded (another key order,
     * gzipped under the unit's other key, with one rejected line added), a byte-identical re-upload in parts (another
     * ETag), a refused file, a multipart upload whose LastModified is when it started, or a delete.
     */
    void producerAction() {
        clock.advanceMillis(sim.choose(3) * 700L);
        switch (sim.choose(8)) {
            case 0 -> put(KEY, file(Rows.A, Encoding.PLAIN));
            case 1 -> put(KEY, file(Rows.B, Encoding.PLAIN));
            case 2 -> put(GZ, file(Rows.A, Encoding.GZIP));
            case 3 -> put(KEY, file(Rows.A, switch (sim.choose(3)) {
                case 0 -> Encoding.WITH_REJECTED_LINE;
                case 1 -> Encoding.REORDERED;
                default -> Encoding.EMPTY_DAY;
            }));
            case 4 -> put(KEY, file(Rows.A, sim.chooseBoolean() ? Encoding.KEY_CONFLICT : Encoding.PROHIBITED_FIELD));
            case 5 -> {
                InMemoryObjectStore.Version last = s3.current(INBOX, KEY).filter(v -> !v.deleteMarker()).orElse(null);
                putInParts(KEY, last == null ? file(Rows.A, Encoding.PLAIN) : last.body(), 64);
            }
            case 6 -> {
                InspectableS3.PendingPut upload = s3.startMultipartPut(INBOX, KEY, "application/x-ndjson", Map.of());
                sim.step("producer-completes-multipart", () -> {
                    clock.advanceMillis(1_500);
                    InMemoryObjectStore.Version v = upload.complete(file(Rows.B, Encoding.REORDERED), 64);
                    countWrite();
                    created.put(v.versionId(), v);
                    collectEvents();
                });
            }
            default -> {
                InMemoryObjectStore.Version last = s3.current(INBOX, KEY).filter(v -> !v.deleteMarker()).orElse(null);
                if (sim.chooseBoolean() || last == null) {
                    s3.delete(INBOX, KEY); // a delete marker
                } else {
                    s3.deleteVersion(INBOX, KEY, last.versionId()); // the previous version is current again
                }
                countWrite();
                collectEvents();
            }
        }
    }

    /** An operator's repair of the unit, its options chosen by the schedule. */
    RepairRequest randomRepair() {
        Map<String, Object> payload = new HashMap<>();
        payload.put("dataset", DATASET);
        payload.put("units", List.of(UNIT));
        payload.put("reason", "simulated");
        int action = sim.choose(6);
        if (action == 3) {
            payload.put("action", "omit");
        } else if (action >= 4) {
            payload.put("action", action == 4 ? "accept-empty" : "revoke-accept-empty");
            payload.put("dryRun", sim.choose(4) == 3);
        } else {
            payload.put("force", sim.chooseBoolean());
            payload.put("inputVersion", sim.chooseBoolean() ? "latest" : "recorded");
            payload.put("dryRun", sim.choose(4) == 3);
        }
        return RepairRequest.fromPayload(payload);
    }

    /** Ingests now, through the unstepped ports (setting a scenario's starting state). */
    void publishNow(InMemoryObjectStore.Version version) {
        ingest(s3, dynamo).ingest(IngestService.Request.event(current, UNIT, new InputRef(INBOX, version.key(), version.versionId(),
                version.etag(), version.size(), version.sequencer(), clock.instant()), runId(), io.landingledger.core.ingest.Deadline.NONE));
        pending.removeIf(e -> e.versionId().equals(version.versionId()));
        check();
    }

    /** The event S3 sent for this version, taken from pending. */
    InMemoryObjectStore.Event eventOf(InMemoryObjectStore.Version version) {
        for (InMemoryObjectStore.Event e : pending) {
            if (e.versionId().equals(version.versionId())) {
                return e;
            }
        }
        throw new IllegalStateException("no pending event for " + version);
    }

    void collectEvents() {
        List<InMemoryObjectStore.Event> all = s3.events();
        for (int i = eventsSeen; i < all.size(); i++) {
            InMemoryObjectStore.Event e = all.get(i);
            if (e.bucket().equals(INBOX) && e.type().startsWith("ObjectCreated:")) {
                pending.add(e);
            }
        }
        eventsSeen = all.size();
    }

    // ---- Lambda ----

    /** Delivers an S3 event to a validator run; Lambda retries a run that crashed or failed, twice. */
    void deliver(InMemoryObjectStore.Event event, int attempt) {
        deliveries++;
        InputRef input = new InputRef(event.bucket(), event.key(), event.versionId(), event.etag(), event.size(), event.sequencer(),
                event.eventTime());
        String runId = runId();
        Target target = targetOf(event.key());
        sim.task("validator[" + event.versionId() + "]", () -> {
            // S5: a replay of an event already handled, with nobody else writing meanwhile, writes nothing
            boolean replay = target.unit().equals(UNIT) && target.contract().dataset().equals(DATASET) && isReplay(event.key(), event.versionId());
            long totalBefore = writes;
            IngestOutcome outcome = ingest(store, ledger).ingest(IngestService.Request.event(target.contract(), target.unit(), input, runId,
                    io.landingledger.core.ingest.Deadline.NONE));
            outcomes.add(outcome);
            long own = writesBy.getOrDefault(sim.current().name(), 0L);
            if (replay && writes - totalBefore == own && own > 0) {
                throw new AssertionError("S5: the replay of " + event.key() + " " + event.versionId() + " wrote " + own + " time(s)");
            }
        }).onEnd(end -> {
            if (end.kind() == TaskEnd.Kind.THREW && end.thrown() instanceof AssertionError a) {
                throw a;
            }
            if (end.thrown() != null) {
                exceptionMessages.add(String.valueOf(end.thrown().getMessage()));
                if (!end.faulted() && !(end.thrown() instanceof RunSupersededException)) {
                    unexplained.add(end.thrown());
                }
            }
            if (!end.returned() && attempt < 2) {
                deliver(event, attempt + 1); // Lambda's asynchronous retry
            }
        });
    }

    /**
     * The ledger already says what this event makes it say (it names this version as the published input, or as a
     * refused one), and published/ holds the publish the ledger names (or nothing, when it names none): the model's
     * own statement of a replay (docs/design.md section 2, S5), not the production decision's.
     */
    private boolean isReplay(String key, String versionId) {
        LedgerItem item = dynamo.get(DATASET, UNIT).orElse(null);
        if (item == null) {
            return false;
        }
        InMemoryObjectStore.Version object = s3.current(LAKE, PUBLISHED_KEY).filter(v -> !v.deleteMarker()).orElse(null);
        String objectRun = object == null ? null : object.metadata().get("run-id");
        boolean consistent = item.published() == null ? object == null
                : object != null && objectRun != null && objectRun.equals(item.runId()) && object.etag().equals(item.publishedEtag());
        if (!consistent) {
            return false;
        }
        boolean publishedFromIt = item.status() == LedgerStatus.PUBLISHED && item.input() != null && item.input().key().equals(key)
                && versionId.equals(item.input().versionId());
        String[] refused = refusal(item);
        return publishedFromIt || (refused != null && refused[0].equals(key) && versionId.equals(refused[1]));
    }

    /** A step that delivers one pending event: in any order, duplicated, or lost. */
    void eventDeliverer(int maxDeliveries, boolean mayLose, boolean mayDuplicate) {
        sim.repeat("s3-events", () -> !pending.isEmpty() && deliveries < maxDeliveries, () -> {
            int which = sim.choose(pending.size());
            InMemoryObjectStore.Event event = pending.get(which);
            int fate = sim.choose(1 + (mayLose ? 1 : 0) + (mayDuplicate ? 1 : 0));
            boolean lose = mayLose && fate == 1;
            boolean duplicate = mayDuplicate && fate == (mayLose ? 2 : 1);
            if (!duplicate) {
                pending.remove(which);
            }
            if (lose) {
                sim.note("lost " + event.key() + " " + event.versionId());
                return;
            }
            deliver(event, 0);
        });
    }

    // ---- operators ----

    void sweepTask(boolean autoRedrive) {
        sim.task("sweep", () -> shardedSweep(store, ledger, withRedrive(current, autoRedrive), false))
                .onEnd(this::expectedEnd);
    }

    void repairTask(RepairRequest request) {
        String name = request.dryRun() ? "repair-dry-run" : "repair";
        sim.task(name, () -> {
            RepairResult result = repair(store, ledger).run(request, io.landingledger.core.ingest.Deadline.NONE, this::runId);
            for (RepairResult.UnitResult unit : result.units()) {
                String text = io.landingledger.core.json.JsonCodec.writeString(unit);
                assertNoPlanted("a repair result", text);
            }
        }).onEnd(end -> {
            // DryRun: a dry run writes nothing, whatever ran beside it, whether it finished, crashed or faulted
            long wrote = writesBy.getOrDefault(name, 0L);
            if (request.dryRun() && wrote > 0) {
                throw new AssertionError("DryRun: the dry run " + request.toJson() + " wrote " + wrote + " time(s)");
            }
            expectedEnd(end);
        });
    }

    private void expectedEnd(TaskEnd end) {
        if (end.thrown() instanceof AssertionError a) {
            throw a;
        }
        if (end.thrown() != null) {
            exceptionMessages.add(String.valueOf(end.thrown().getMessage()));
            if (!end.faulted() && !(end.thrown() instanceof RunSupersededException)) {
                unexplained.add(end.thrown());
            }
        }
    }

    static DatasetContract withRedrive(DatasetContract c, boolean autoRedrive) {
        return c.withUnit(c.unit().withAutoRedrive(autoRedrive));
    }

    // ---- the invariants ----

    @Override
    public void check() {
        if (!unexplained.isEmpty()) {
            Throwable t = unexplained.get(0);
            throw new AssertionError("a run threw what no injected fault explains: " + t, t);
        }
        checkPublished();
        checkLedger();
        checkTable();
        // a write is followed by a check before anything else happens: the views belong to it, or to nothing
        promoterView = null;
        promoterSawRunId = null;
        writerView = null;
        for (; messagesChecked < exceptionMessages.size(); messagesChecked++) {
            assertNoPlanted("an exception message", exceptionMessages.get(messagesChecked));
        }
        for (; outcomesChecked < outcomes.size(); outcomesChecked++) {
            assertNoPlanted("an outcome", outcomes.get(outcomesChecked).fields().toString());
        }
    }

    private int messagesChecked;
    private int outcomesChecked;

    /** Each run's last listing of the unit's versions, and the ones the last promote and ledger write decided on. */
    private final Map<String, List<ObjectStore.ListedVersion>> listings = new HashMap<>();
    List<ObjectStore.ListedVersion> promoterView;
    List<ObjectStore.ListedVersion> writerView;

    /** The run id each run last saw on the published object (a HEAD), and the one the last promote decided against. */
    private final Map<String, String> publishedSeen = new HashMap<>();
    String promoterSawRunId;
    /** Settled units whose object is an unrecorded republish of the standing bytes by a crashed run (see checkSettled). */
    static final java.util.concurrent.atomic.AtomicLong UNRECORDED_SAME_BYTES = new java.util.concurrent.atomic.AtomicLong();
    /** Every run id a ledger write ever named. */
    private final Set<String> everRecordedRun = new HashSet<>();
    /** Replacements S4 exempts: If-Match on an ETag that a newer publish of identical bytes had re-created. */
    static final java.util.concurrent.atomic.AtomicLong ETAG_ABA_REPLACEMENTS = new java.util.concurrent.atomic.AtomicLong();

    void sawPublished(String runId) {
        publishedSeen.put(sim.current().name(), runId);
    }

    String publishedSeenByCurrent() {
        return publishedSeen.get(sim.current().name());
    }

    void sawListing(List<ObjectStore.ListedVersion> listing) {
        listings.put(sim.current().name(), listing);
    }

    /** The listing the running actor last read (null when it read none: the drain, which runs alone). */
    List<ObjectStore.ListedVersion> viewOfCurrent() {
        return listings.get(sim.current().name());
    }

    private ReferenceInbox orderSeenBy(List<ObjectStore.ListedVersion> view) {
        return view == null ? inputsNow() : ReferenceInbox.ofListing(view, k -> k.equals(KEY) || k.equals(GZ));
    }

    /** The unit's inbox versions as S3 holds them now, ordered by the reference's rule (not UnitInputs). */
    ReferenceInbox inputsNow() {
        return ReferenceInbox.of(s3.allVersions(INBOX), k -> k.equals(KEY) || k.equals(GZ));
    }

    /** True when {@code (keyA, versionA)} is older than {@code (keyB, versionB)} by {@code order}. */
    private static boolean older(ReferenceInbox order, String keyA, String versionA, String keyB, String versionB) {
        return order.newer(keyB, versionB, keyA, versionA);
    }

    /** S1, and S4 on published/'s rows: checked whenever the published object changed. */
    private void checkPublished() {
        InMemoryObjectStore.Version object = s3.current(LAKE, PUBLISHED_KEY).filter(v -> !v.deleteMarker()).orElse(null);
        if (object == null) {
            // only an out-of-band delete empties published/ (the protocol never deletes it): a later publish replaces
            // nothing, so S4 on rows starts again from it; the sweep reports the drift and its re-drive repairs it (L1)
            lastPublishedBytes = null;
            lastPublishedMeta = null;
            lastPublishedVersion = null;
            return;
        }
        if (sameObject(object, lastPublishedVersion)) {
            return;
        }
        lastPublishedVersion = object;
        PublishMetadata meta = PublishMetadata.from(object.metadata());
        if (meta == null) {
            throw new AssertionError("S1: published/ holds an object without the protocol's metadata");
        }
        byte[] bytes = object.body();
        if (lastPublishedBytes != null && Arrays.equals(bytes, lastPublishedBytes) && meta.equals(lastPublishedMeta)) {
            return;
        }
        InMemoryObjectStore.Version input = version(meta.inputKey(), meta.inputVersionId());
        ReferenceValidator.Verdict expected = oracle(input.body(), meta.contractVersion());
        if (!expected.publishable()) {
            throw new AssertionError("S1: published/ holds a publish of " + meta.inputVersionId() + ", which is refused ("
                    + expected.refusals() + ")");
        }
        if (!Arrays.equals(bytes, expected.rows())) {
            throw new AssertionError("S1: published/ does not hold the canonical accepted rows of " + meta.inputVersionId());
        }
        ReferenceInbox promoterOrder = orderSeenBy(promoterView);
        boolean older = lastPublishedBytes != null && !Arrays.equals(bytes, lastPublishedBytes)
                && older(promoterOrder, meta.inputKey(), meta.inputVersionId(), lastPublishedMeta.inputKey(), lastPublishedMeta.inputVersionId());
        if (older && promoterView != null && !Objects.equals(promoterSawRunId, lastPublishedMeta.runId())) {
            // the documented limit of ETag conditions (docs/design.md): the run's If-Match named the ETag of a publish
            // it saw, and a newer publish of identical bytes had re-created that ETag; L1 checks the unit heals
            ETAG_ABA_REPLACEMENTS.incrementAndGet();
            older = false;
        }
        if (older) {
            throw new AssertionError("S4: published/'s rows of " + lastPublishedMeta.inputVersionId() + " were replaced by the rows of the older "
                    + meta.inputVersionId());
        }
        String content = sha256(bytes);
        if (!content.equals(meta.contentSha256())) {
            throw new AssertionError("S1: the publish of " + meta.inputVersionId() + " says content-sha256 " + meta.contentSha256()
                    + " but its bytes hash to " + content);
        }
        everPublished.add(object.etag() + "|" + meta.runId());
        contentOf.put(object.etag() + "|" + meta.runId(), content);
        publishedChanged = true;
        lastPublishedBytes = bytes;
        lastPublishedMeta = meta;
    }

    private int snapshotsChecked;

    /**
     * T1 (docs/design.md section 2): the table's partition for the unit only ever holds the rows of a publish the
     * ledger has recorded for it, now or before, and every snapshot's summary names the rows it really holds: checked
     * by hashing the committed bytes, never by trusting a summary.
     */
    private void checkTable() {
        List<InMemoryTablePort.Snapshot> snapshots = table.snapshots(DATASET);
        for (; snapshotsChecked < snapshots.size(); snapshotsChecked++) {
            InMemoryTablePort.Snapshot snapshot = snapshots.get(snapshotsChecked);
            InMemoryTablePort.Partition rows = snapshot.partitions().get(UNIT);
            if (!UNIT.equals(snapshot.unit()) || rows == null) {
                continue;
            }
            if (!everRecordedContent.contains(rows.sha256())) {
                throw new AssertionError("T1: snapshot " + snapshot.id() + " put rows " + rows.sha256()
                        + " in the unit's partition, which the ledger never recorded (it recorded "
                        + everRecordedContent + ")");
            }
            if (snapshot.summary() != null && !rows.sha256().equals(snapshot.summary().contentSha256())) {
                throw new AssertionError("T1: snapshot " + snapshot.id() + " says it holds " + snapshot.summary()
                        .contentSha256() + " (run " + snapshot.summary().runId() + ") but holds " + rows.sha256());
            }
        }
    }

    /**
     * T2 at quiescence: once the writer has run for the standing publish, the newest snapshot touching the unit
     * names the ledger's content (and holds it), and the ledger's table state names that snapshot; a second run
     * writes nothing. A unit whose published object is not the ledger's (drift, which L2 checked the sweep reports)
     * is left alone by the writer.
     */
    private void checkTableInStep() {
        TableWriter direct = tableWriter(s3, dynamo, table);
        TableWriteResult result = direct.write(DATASET, UNIT);
        check();
        LedgerItem item = dynamo.get(DATASET, UNIT).orElse(null);
        if (item == null || item.status() != LedgerStatus.PUBLISHED || item.published() == null) {
            if (result.outcome() != TableWriteResult.Outcome.SKIPPED) {
                throw new AssertionError("T2: the writer " + result + " for a unit with no standing publish: " + item);
            }
            return;
        }
        InMemoryObjectStore.Version object = s3.current(LAKE, PUBLISHED_KEY).filter(v -> !v.deleteMarker())
                .orElse(null);
        if (object == null || !object.etag().equals(item.publishedEtag())) {
            if (result.outcome() != TableWriteResult.Outcome.SKIPPED) {
                throw new AssertionError("T2: the writer " + result
                        + " although published/ is not the ledger's publish");
            }
            return;
        }
        String sha = item.published().contentSha256();
        List<TableSnapshot> snapshots = table.unitSnapshots(DATASET, UNIT);
        if (snapshots.isEmpty() || !sha.equals(snapshots.getFirst().contentSha256())
                || !table.partition(DATASET, UNIT).map(p -> p.sha256().equals(sha)).orElse(false)) {
            throw new AssertionError("T2: after the writer (" + result + ") the newest snapshot touching the unit is "
                    + (snapshots.isEmpty() ? "none" : snapshots.getFirst()) + ", not the ledger's content " + sha);
        }
        if (item.table() == null || !item.table().holds(item.runId(), sha)
                || item.table().snapshotId() != snapshots.getFirst().snapshotId()) {
            throw new AssertionError("T2: the ledger's table state " + item.table() + " does not name snapshot "
                    + snapshots.getFirst().snapshotId() + " for run " + item.runId());
        }
        int commits = table.commits(DATASET);
        TableWriteResult again = direct.write(DATASET, UNIT);
        if (again.outcome() != TableWriteResult.Outcome.IN_STEP || table.commits(DATASET) != commits) {
            throw new AssertionError("T2: a second writer run on a unit in step did " + again);
        }
    }

    /** S2, S3, S4 on the ledger, S6 on the ledger and quarantine: checked whenever the item changed. */
    private void checkLedger() {
        LedgerItem item = dynamo.get(DATASET, UNIT).orElse(null);
        if (item == null || (lastItem != null && item.revision() == lastItem.revision() && !publishedChanged)) {
            return;
        }
        publishedChanged = false;
        if (item.published() != null && !everPublished.contains(item.publishedEtag() + "|" + item.runId())) {
            throw new AssertionError("S2: the ledger names a publish (ETag " + item.publishedEtag() + ", run " + item.runId()
                    + ") that published/ never held");
        }
        if (item.input() != null && version(item.input().key(), item.input().versionId()) == null) {
            throw new AssertionError("S2: the ledger names an input S3 never held: " + item.input());
        }
        List<HistoryEntry> history = dynamo.history(DATASET, UNIT);
        long published = history.stream().filter(h -> "PUBLISHED".equals(h.action())).count();
        long distinct = history.stream().filter(h -> "PUBLISHED".equals(h.action())).map(HistoryEntry::runId).distinct().count();
        if (item.publishCount() != published || published != distinct) {
            throw new AssertionError("S3: publish_count " + item.publishCount() + ", PUBLISHED history items " + published
                    + ", distinct publishes " + distinct);
        }
        if (item.restatements() != restatements) {
            throw new AssertionError("S3: restatements " + item.restatements() + ", but the recorded publishes changed the rows "
                    + restatements + " times");
        }
        if (item.emptyAccepted() != null && (item.published() == null || item.published().accepted() != 0)) {
            throw new AssertionError("S3: an empty acceptance stands on a unit that is not published empty: " + item);
        }
        if (lastItem != null && item.emptyAccepted() != null && lastItem.published() != null && item.published() != null
                && !Objects.equals(contentOf.get(item.publishedEtag() + "|" + item.runId()),
                contentOf.get(lastItem.publishedEtag() + "|" + lastItem.runId()))) {
            throw new AssertionError("S3: an empty acceptance survived a change of rows");
        }
        // S4 by the order the writing run decided on: the inbox can change between a run's listing and its write (a
        // producer's new version, a delete), and no S3 condition fences a ledger write against that; the newer
        // input's own run then moves the unit on (L1)
        ReferenceInbox order = orderSeenBy(writerView);
        if (lastItem != null && lastItem.published() != null && item.published() != null && !sameInput(lastItem, item)
                && older(order, item.input().key(), item.input().versionId(), lastItem.input().key(), lastItem.input().versionId())) {
            throw new AssertionError("S4: the ledger's publish moved from the input " + lastItem.input().key() + " "
                    + lastItem.input().versionId() + " to the older " + item.input().key() + " " + item.input().versionId()
                    + " (by the listing the write decided on: " + order.all() + ")");
        }
        String[] refused = lastItem == null ? null : refusal(lastItem);
        String[] now = refusal(item);
        if (refused != null && item.published() != null
                && (now == null || older(order, now[0], now[1], refused[0], refused[1]))
                && older(order, item.input().key(), item.input().versionId(), refused[0], refused[1])) {
            throw new AssertionError("S4: the refusal of " + refused[1] + " was dropped for a publish of the older " + item.input().versionId()
                    + "\n  before: " + lastItem + "\n  after:  " + item + "\n  inbox:  " + order.all());
        }
        {
            assertNoPlanted("the ledger", item.toString());
            for (HistoryEntry h : history) {
                assertNoPlanted("the ledger history", h.toString());
            }
            if (item.published() != null && item.published().quarantineKey() != null) {
                s3.current(LAKE, item.published().quarantineKey()).ifPresent(q ->
                        assertNoPlanted("the quarantine", new String(q.body(), StandardCharsets.UTF_8)));
            }
        }
        lastItem = item;
    }

    /**
     * After every ledger write that took effect: S3 on content. The recorded publish's content hash is the hash of the
     * bytes published/ held for it, and a restatement is a newly recorded publish whose bytes differ from those of the
     * publish recorded before it.
     */
    private void ledgerWritten() {
        LedgerItem item = dynamo.items(DATASET, UNIT, UNIT).stream().findFirst().orElse(null);
        LedgerItem before = recorded;
        recorded = item;
        if (item != null && item.runId() != null) {
            everRecordedRun.add(item.runId());
        }
        if (item != null && item.published() != null && item.published().contentSha256() != null) {
            everRecordedContent.add(item.published().contentSha256());
        }
        if (item == null || item.published() == null || (before != null && item.publishCount() == before.publishCount())) {
            return;
        }
        String now = contentOfRecorded(item);
        if (!Objects.equals(now, item.published().contentSha256())) {
            throw new AssertionError("S3: the ledger records content " + item.published().contentSha256() + " for a publish whose bytes"
                    + " hash to " + now);
        }
        if (before != null && before.published() != null && !Objects.equals(now, contentOfRecorded(before))) {
            restatements++;
        }
        // L5: "content since" follows the rows: a new streak starts at the publish that changed them
        if (standingContent == null || !standingContent.equals(now)) {
            streak++;
            standingContent = now;
            contentSinceRun = item.runId();
            contentSinceAt = item.publishedAt();
        }
        if (!Objects.equals(item.contentRunId(), contentSinceRun) || !Objects.equals(item.contentPublishedAt(), contentSinceAt)) {
            throw new AssertionError("L5: the ledger says its rows stand since run " + item.contentRunId() + " at "
                    + item.contentPublishedAt() + ", but they first appeared with run " + contentSinceRun + " at " + contentSinceAt);
        }
    }

    /**
     * A consumer reads the unit: when the ledger and published/ agree (a reader follows the ledger), it records a
     * receipt naming the publish it read, a millisecond after anything before and before anything after.
     */
    void consumerReads(String consumer) {
        LedgerItem item = dynamo.get(DATASET, UNIT).orElse(null);
        InMemoryObjectStore.Version object = s3.current(LAKE, PUBLISHED_KEY).filter(v -> !v.deleteMarker()).orElse(null);
        if (item == null || item.published() == null || object == null || !object.etag().equals(item.publishedEtag())
                || !item.runId().equals(object.metadata().get("run-id"))) {
            return;
        }
        clock.advanceMillis(1);
        reads.add(new Read(new io.landingledger.core.consumers.ConsumerReceipt(DATASET, UNIT, consumer, item.runId(),
                clock.instant()), streak));
        clock.advanceMillis(1);
    }

    /** L5: a consumer is behind exactly when the rows changed (a new streak) after it read. */
    private void checkConsumersBehind() {
        LedgerItem item = dynamo.get(DATASET, UNIT).orElse(null);
        if (item == null || item.published() == null || reads.isEmpty()) {
            return;
        }
        Map<String, Read> last = new HashMap<>();
        for (Read read : reads) {
            last.put(read.receipt().consumer(), read);
        }
        Map<String, List<String>> behind = io.landingledger.core.consumers.ConsumersBehind.byUnit(List.of(item),
                last.values().stream().map(Read::receipt).toList());
        for (Read read : last.values()) {
            boolean expected = read.streak() != streak;
            boolean actual = behind.getOrDefault(UNIT, List.of()).contains(read.receipt().consumer());
            if (expected != actual) {
                throw new AssertionError("L5: consumer " + read.receipt().consumer() + " read the rows of streak " + read.streak()
                        + " (run " + read.receipt().publish() + "), the rows now are streak " + streak + ", and it is reported "
                        + (actual ? "behind" : "not behind"));
            }
        }
    }

    /**
     * Every dry run writes nothing: each action, mode, input version, force and target form, against the settled
     * world, counted on the stores themselves (DryRun: docs/design.md section 6).
     */
    private void checkDryRunsWriteNothing() {
        for (String action : List.of("repair", "omit", "accept-empty", "revoke-accept-empty")) {
            for (String mode : List.of("targeted", "forward")) {
                for (String version : List.of("recorded", "latest")) {
                    for (boolean force : List.of(false, true)) {
                        for (boolean range : List.of(false, true)) {
                            Map<String, Object> payload = new HashMap<>();
                            payload.put("dataset", DATASET);
                            payload.put("reason", "dry run audit");
                            payload.put("dryRun", true);
                            payload.put("action", action);
                            payload.put("mode", mode);
                            payload.put("inputVersion", version);
                            payload.put("force", force);
                            if (range) {
                                payload.put("from", UNIT);
                                payload.put("to", UNIT2);
                            } else {
                                payload.put("units", List.of(UNIT));
                            }
                            long before = storeWrites;
                            try {
                                repair(s3, dynamo).run(RepairRequest.fromPayload(payload), io.landingledger.core.ingest.Deadline.NONE,
                                        this::runId);
                            } catch (IllegalArgumentException refusedRequest) {
                                // a combination the request refuses: it must still write nothing
                            }
                            if (storeWrites != before) {
                                throw new AssertionError("DryRun: " + payload + " wrote " + (storeWrites - before) + " time(s)");
                            }
                        }
                    }
                }
            }
        }
    }

    /** The hash of the bytes of the publish {@code item} records (published/ may hold it still, unseen by a check). */
    private String contentOfRecorded(LedgerItem item) {
        String key = item.publishedEtag() + "|" + item.runId();
        String seen = contentOf.get(key);
        if (seen == null) {
            InMemoryObjectStore.Version object = s3.current(LAKE, PUBLISHED_KEY).filter(v -> !v.deleteMarker()).orElse(null);
            PublishMetadata meta = object == null ? null : PublishMetadata.from(object.metadata());
            if (meta != null && object.etag().equals(item.publishedEtag()) && meta.runId().equals(item.runId())) {
                seen = sha256(object.body());
                contentOf.put(key, seen);
            }
        }
        return seen;
    }

    /** The key and version whose refusal the item records, or null. */
    private static String[] refusal(LedgerItem item) {
        if (item.status() == LedgerStatus.REFUSED && item.input() != null) {
            return new String[] {item.input().key(), item.input().versionId()};
        }
        if (item.lastAttempt() != null && item.lastAttempt().outcome() == AttemptOutcome.REFUSED) {
            return new String[] {item.lastAttempt().inputKey(), item.lastAttempt().inputVersionId()};
        }
        return null;
    }

    private static boolean sameInput(LedgerItem a, LedgerItem b) {
        return a.input().key().equals(b.input().key()) && Objects.equals(a.input().versionId(), b.input().versionId());
    }

    static void assertNoPlanted(String where, String text) {
        for (String planted : PLANTED) {
            if (text.contains(planted)) {
                throw new AssertionError("S6: a planted row value reached " + where);
            }
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The same stored object: the in-memory S3 hands out one record per version, an emulator's reads build a new one
     * each time, so identity is not enough (every publish carries its own run id in its metadata).
     */
    private static boolean sameObject(InMemoryObjectStore.Version a, InMemoryObjectStore.Version b) {
        return a == b || (a != null && b != null && a.deleteMarker() == b.deleteMarker()
                && Objects.equals(a.versionId(), b.versionId()) && Objects.equals(a.etag(), b.etag())
                && a.metadata().equals(b.metadata())
                && Objects.equals(a.lastModified(), b.lastModified()));
    }

    /** Any version S3 ever held (deleted ones included), or null. */
    private InMemoryObjectStore.Version version(String key, String versionId) {
        InMemoryObjectStore.Version v = created.get(versionId);
        return v != null && v.key().equals(key) ? v : null;
    }

    /**
     * What the reference (not the production validator) makes of these bytes under that contract version: the
     * canonical rows S1 and L1 compare against.
     */
    ReferenceValidator.Verdict oracle(byte[] body, int contractVersion) {
        String key = contractVersion + ":" + java.util.HexFormat.of().formatHex(body);
        return oracle.computeIfAbsent(key, k -> ReferenceValidator.judge(referenceContracts.get(contractVersion), body));
    }

    // ---- quiescence ----

    @Override
    public void checkFinal() {
        check();
        // drain: every event still pending is delivered once, then the sweep re-drives to a fixpoint; nothing crashes now
        ObjectStore rawStore = s3;
        IngestService direct = ingest(rawStore, dynamo);
        checkDriftIsReported();
        for (InMemoryObjectStore.Event e : List.copyOf(pending)) {
            Target target = targetOf(e.key());
            InputRef input = new InputRef(e.bucket(), e.key(), e.versionId(), e.etag(), e.size(), e.sequencer(), e.eventTime());
            direct.ingest(IngestService.Request.event(target.contract(), target.unit(), input, runId(),
                    io.landingledger.core.ingest.Deadline.NONE));
            check();
        }
        pending.clear();
        // the neighbours' lost events: re-driven as the sweep re-drives the unit's (that path is checked on the unit)
        for (String key : List.of(KEY2, KEY3)) {
            s3.current(INBOX, key).filter(v -> !v.deleteMarker()).ifPresent(v -> direct.ingest(IngestService.Request.event(
                    targetOf(key).contract(), targetOf(key).unit(), new InputRef(INBOX, key, v.versionId(), v.etag(), v.size(),
                            v.sequencer(), clock.instant()), runId(), io.landingledger.core.ingest.Deadline.NONE)));
        }
        check();
        // a fixpoint: a sweep whose re-drives (if any) change nothing, in the ledger or in published/
        DatasetReport report = null;
        boolean changed = true;
        for (int round = 0; round < 4 && changed; round++) {
            long revision = dynamo.get(DATASET, UNIT).map(LedgerItem::revision).orElse(0L);
            InMemoryObjectStore.Version object = s3.current(LAKE, PUBLISHED_KEY).orElse(null);
            report = shardedSweep(rawStore, dynamo, withRedrive(current, true));
            check();
            changed = revision != dynamo.get(DATASET, UNIT).map(LedgerItem::revision).orElse(0L)
                    || !sameObject(object, s3.current(LAKE, PUBLISHED_KEY).orElse(null));
        }
        if (changed) {
            throw new AssertionError("L2: the sweep's re-drive did not reach a fixpoint: " + report.redrives());
        }
        ReferenceInbox inputs = inputsNow();
        LedgerItem item = dynamo.get(DATASET, UNIT).orElse(null);
        UnitReport unit = report.units().get(0);
        checkNewestIsRecorded(inputs, item, unit);
        checkSettled("after the sweep's fixpoint", inputs);
        checkEmptyCloses(unit);
        checkForcedRepair(inputs);
        checkEmptyAcceptanceSurvivesTheSameRows();
        checkSettled("after the forced repair", inputsNow());
        checkConsumersBehind();
        checkNeighbour(KEY2, DATASET, UNIT2);
        checkNeighbour(KEY3, DATASET2, UNIT);
        if (auditDryRuns) {
            checkDryRunsWriteNothing();
        }
        checkTableInStep();
    }

    /**
     * L4, a settled unit's three records agree, each read from its own store and none trusted: the ledger's input, the
     * input the published object's metadata names (the same version, or an earlier version with the same stored bytes,
     * which a byte-identical re-upload records without republishing), and the inbox (ordered by the reference). The ledger's publish is
     * the object in published/ (ETag, run id, content hash, counts), whose bytes hash to that content and are the
     * reference's rows of the recorded input (its stored bytes hash to the input hash both records carry) under the
     * contract version both name; and that input is the inbox's newest when the newest validates under the contract the
     * unit was last judged by (a newest input refused stays named by the ledger's refusal, and the publish stands on an
     * older input). An object deleted out of band, or a ledger item lost, is not settled: the sweep must have said so.
     */
    private void checkSettled(String when, ReferenceInbox inputs) {
        LedgerItem item = dynamo.get(DATASET, UNIT).orElse(null);
        InMemoryObjectStore.Version object = s3.current(LAKE, PUBLISHED_KEY).filter(v -> !v.deleteMarker()).orElse(null);
        if (item == null || item.status() == LedgerStatus.OMITTED) {
            return;
        }
        String where = "L4 (" + when + "): ";
        if (item.published() == null) {
            if (object != null) {
                throw new AssertionError(where + "published/ holds an object (run " + object.metadata().get("run-id")
                        + ") the ledger does not name");
            }
            return;
        }
        if (object == null) {
            return; // deleted out of band and not rebuildable under today's contract: L2 checked the sweep says LEDGER_DRIFT
        }
        PublishMetadata meta = PublishMetadata.from(object.metadata());
        // a run that republished the standing bytes (same ETag) and crashed before its ledger write leaves the ledger on
        // the earlier run: the sweep compares ETags and cannot see it, the rows are the ones the ledger vouches for, and
        // the next ingest or repair of the unit records it (counted and printed, not a violation: see docs/testing.md)
        boolean unrecordedSameBytes = meta != null && object.etag().equals(item.publishedEtag()) && !meta.runId().equals(item.runId())
                && Objects.equals(meta.contentSha256(), item.published().contentSha256()) && !everRecordedRun.contains(meta.runId());
        if (unrecordedSameBytes) {
            UNRECORDED_SAME_BYTES.incrementAndGet();
            return;
        }
        if (meta == null || !object.etag().equals(item.publishedEtag()) || !meta.runId().equals(item.runId())) {
            throw new AssertionError(where + "the ledger names the publish " + item.publishedEtag() + " of run " + item.runId()
                    + ", published/ holds " + object.etag() + " of run " + (meta == null ? null : meta.runId()));
        }
        // the same input, or a byte-identical later version of it (recorded without republishing: the same rows)
        InMemoryObjectStore.Version ledgerInput = version(item.input().key(), item.input().versionId());
        boolean sameVersion = meta.inputKey().equals(item.input().key()) && Objects.equals(meta.inputVersionId(), item.input().versionId());
        if ((!sameVersion && (ledgerInput == null || !sha256(ledgerInput.body()).equals(meta.inputSha256())))
                || !Objects.equals(meta.inputSha256(), item.input().sha256()) || meta.contractVersion() != item.contractVersion()) {
            throw new AssertionError(where + "the ledger's input " + item.input().key() + " " + item.input().versionId() + " (contract "
                    + item.contractVersion() + ") is not the input the published object records, " + meta.inputKey() + " "
                    + meta.inputVersionId() + " (contract " + meta.contractVersion() + ")");
        }
        InMemoryObjectStore.Version input = version(meta.inputKey(), meta.inputVersionId());
        if (input == null || !sha256(input.body()).equals(meta.inputSha256())) {
            throw new AssertionError(where + "the recorded input hash is not the hash of " + meta.inputVersionId() + "'s stored bytes");
        }
        ReferenceValidator.Verdict expected = oracle(input.body(), meta.contractVersion());
        String content = sha256(object.body());
        if (!Arrays.equals(object.body(), expected.rows()) || !content.equals(meta.contentSha256())
                || !content.equals(item.published().contentSha256()) || item.published().accepted() != expected.accepted()
                || meta.accepted() != expected.accepted() || item.published().rejected() != expected.rejected()
                || item.published().duplicates() != expected.duplicates()) {
            throw new AssertionError(where + "published/'s bytes or counts are not the reference's rows of the recorded input "
                    + meta.inputVersionId());
        }
        ReferenceInbox.Version newest = inputs.newest().orElse(null);
        if (newest == null || (newest.key().equals(item.input().key()) && newest.versionId().equals(item.input().versionId()))) {
            return;
        }
        InMemoryObjectStore.Version newestVersion = version(newest.key(), newest.versionId());
        String[] refused = refusal(item);
        boolean newestRefusedOnRecord = refused != null && refused[0].equals(newest.key()) && refused[1].equals(newest.versionId());
        if (!newestRefusedOnRecord || oracle(newestVersion.body(), current.version()).publishable()) {
            throw new AssertionError(where + "the ledger and published/ stand on " + item.input().key() + " " + item.input().versionId()
                    + " but the inbox's newest input is " + newest.key() + " " + newest.versionId() + " ("
                    + (newestRefusedOnRecord ? "refused on record, but it validates under contract " + current.version()
                    : "no refusal of it on record") + ")");
        }
    }

    /**
     * LEDGER_DRIFT: when the publish the ledger names is gone from published/ (an out-of-band delete), a sweep
     * without re-drive says so before anything repairs it.
     */
    private void checkDriftIsReported() {
        LedgerItem item = dynamo.get(DATASET, UNIT).orElse(null);
        if (item == null || item.published() == null || item.status() == LedgerStatus.OMITTED
                || s3.current(LAKE, PUBLISHED_KEY).filter(v -> !v.deleteMarker()).isPresent()) {
            return;
        }
        UnitReport unit = shardedSweep(s3, dynamo, withRedrive(current, false)).units().get(0);
        check();
        if (unit.status() != UnitStatus.LEDGER_DRIFT) {
            throw new AssertionError("LEDGER_DRIFT: published/ lost the publish the ledger names and the sweep says " + unit.status());
        }
    }

    /**
     * L4 for a neighbour (another unit of the dataset, the same day of another dataset), whose files always validate:
     * its ledger item, its published object's recorded input and its inbox key agree, and its bytes are the reference's
     * rows of the newest version, whatever raced on the unit next door.
     */
    private void checkNeighbour(String key, String dataset, String unit) {
        ReferenceInbox inbox = ReferenceInbox.of(s3.allVersions(INBOX), key::equals);
        ReferenceInbox.Version newest = inbox.newest().orElse(null);
        if (newest == null) {
            return;
        }
        String where = "L4 (" + dataset + " " + unit + "): ";
        LedgerItem item = dynamo.get(dataset, unit).orElseThrow(() -> new AssertionError(where + "no ledger item"));
        InMemoryObjectStore.Version object = s3.current(LAKE, LakeLayout.publishedKey(dataset, unit)).filter(v -> !v.deleteMarker())
                .orElseThrow(() -> new AssertionError(where + "nothing published"));
        PublishMetadata meta = PublishMetadata.from(object.metadata());
        if (item.status() != LedgerStatus.PUBLISHED || !item.input().key().equals(key) || !newest.versionId().equals(item.input().versionId())
                || !meta.inputKey().equals(key) || !newest.versionId().equals(meta.inputVersionId()) || !meta.runId().equals(item.runId())
                || !object.etag().equals(item.publishedEtag())) {
            throw new AssertionError(where + "the ledger (" + item.status() + " " + item.input() + ") and published/ (" + meta.inputKey()
                    + " " + meta.inputVersionId() + ", run " + meta.runId() + ") do not both name the newest input " + newest.versionId());
        }
        if (!Arrays.equals(object.body(), oracle(version(key, newest.versionId()).body(), 1).rows())) {
            throw new AssertionError(where + "published/ does not hold the reference's rows of " + newest.versionId());
        }
    }

    /** L2: an EMPTY unit closes by an operator's acceptance, and the acceptance is reversible. */
    private void checkEmptyCloses(UnitReport unit) {
        if (unit.status() != UnitStatus.EMPTY) {
            return;
        }
        RepairResult accepted = repair(s3, dynamo).run(RepairRequest.fromPayload(Map.of("dataset", DATASET, "units", List.of(UNIT),
                "action", "accept-empty", "reason", "L2")), io.landingledger.core.ingest.Deadline.NONE, this::runId);
        check();
        UnitStatus after = sweep(s3, dynamo).sweep(current, UNIT, UNIT).units().get(0).status();
        if (!"accepted_empty".equals(accepted.units().get(0).action()) || after != UnitStatus.EMPTY_ACCEPTED || after.failsCompleteness()) {
            throw new AssertionError("L2: accepting an EMPTY unit did not close it: " + accepted.units().get(0).action() + ", then " + after);
        }
    }

    /** A republish of the same rows (the forced repair L3 made) keeps an acceptance; other rows drop it. */
    private void checkEmptyAcceptanceSurvivesTheSameRows() {
        LedgerItem item = dynamo.get(DATASET, UNIT).orElse(null);
        if (item == null || item.published() == null || item.published().accepted() != 0 || lastAccepted == null) {
            return;
        }
        boolean sameRows = Objects.equals(item.published().contentSha256(), lastAccepted.published().contentSha256());
        if (sameRows != (item.emptyAccepted() != null)) {
            throw new AssertionError("L2: after a republish of " + (sameRows ? "the same" : "other") + " rows the empty acceptance is "
                    + item.emptyAccepted());
        }
    }

    /** L1 and L2. */
    private void checkNewestIsRecorded(ReferenceInbox inputs, LedgerItem item, UnitReport unit) {
        ReferenceInbox.Version newest = inputs.newest().orElse(null);
        if (newest == null) {
            return; // nothing in the inbox: whatever was published stays, nothing to compare with
        }
        if (item == null) {
            throw new AssertionError("L1: the inbox holds " + newest.versionId() + " and the ledger has no item (sweep: " + unit.status() + ")");
        }
        if (item.status() == LedgerStatus.OMITTED) {
            return;
        }
        InMemoryObjectStore.Version newestVersion = version(newest.key(), newest.versionId());
        boolean named = item.input() != null && item.input().key().equals(newest.key()) && newest.versionId().equals(item.input().versionId());
        boolean refusedNewest = item.lastAttempt() != null && item.lastAttempt().outcome() == AttemptOutcome.REFUSED
                && item.lastAttempt().read(newest.key(), newest.versionId());
        if (item.status() == LedgerStatus.PUBLISHED && named && refusedNewest) {
            // the recorded input, refused under today's contract (a forced repair, or its re-delivery after a contract
            // change): the publish stands if it is there; if it was deleted, nothing can rebuild it but a repair under
            // a contract that accepts it, and the sweep says LEDGER_DRIFT
            InMemoryObjectStore.Version object = s3.current(LAKE, PUBLISHED_KEY).orElse(null);
            boolean drift = object == null || !object.etag().equals(item.publishedEtag());
            UnitStatus want = drift ? UnitStatus.LEDGER_DRIFT : UnitStatus.REFUSED;
            if (unit.status() != want) {
                throw new AssertionError("L2: the sweep says " + unit.status() + " " + unit.reason() + ", expected " + want);
            }
        } else if (item.status() == LedgerStatus.PUBLISHED && named) {
            ReferenceValidator.Verdict expected = oracle(newestVersion.body(), item.contractVersion());
            InMemoryObjectStore.Version object = s3.current(LAKE, PUBLISHED_KEY).orElseThrow(() -> new AssertionError("L1: published/ is empty"));
            if (!Arrays.equals(object.body(), expected.rows()) || item.published().accepted() != expected.accepted()
                    || item.published().rejected() != expected.rejected()
                    || item.published().duplicates() != expected.duplicates() || !object.etag().equals(item.publishedEtag())) {
                throw new AssertionError("L1: the ledger's counts or published/ do not describe the newest input " + newest.versionId());
            }
            if (expected.rejected() > 0) {
                byte[] quarantine = s3.current(LAKE, item.published().quarantineKey()).map(InMemoryObjectStore.Version::body).orElse(null);
                if (!Arrays.equals(quarantine, expected.quarantine())) {
                    throw new AssertionError("L1: the quarantine the ledger names does not describe the newest input");
                }
            }
            // RESTATED only when the rows changed; an empty unit fails until accepted
            UnitStatus want = expected.accepted() == 0 ? (item.emptyAccepted() != null ? UnitStatus.EMPTY_ACCEPTED : UnitStatus.EMPTY)
                    : restatements > 0 ? UnitStatus.RESTATED : UnitStatus.OK;
            if (unit.status() != want) {
                throw new AssertionError("L2: the sweep says " + unit.status() + " " + unit.reason() + ", expected " + want);
            }
        } else if ((item.status() == LedgerStatus.REFUSED && named) || (item.status() == LedgerStatus.PUBLISHED && refusedNewest)) {
            if (oracle(newestVersion.body(), 1).publishable() && oracle(newestVersion.body(), 2).publishable()) {
                throw new AssertionError("L1: the ledger records a refusal of " + newest.versionId() + ", which validates");
            }
            InMemoryObjectStore.Version object = s3.current(LAKE, PUBLISHED_KEY).orElse(null);
            boolean drift = item.published() != null && (object == null || !object.etag().equals(item.publishedEtag()));
            UnitStatus want = drift ? UnitStatus.LEDGER_DRIFT : UnitStatus.REFUSED;
            if (unit.status() != want) {
                throw new AssertionError("L2: the sweep says " + unit.status() + " " + unit.reason() + ", expected " + want);
            }
        } else {
            throw new AssertionError("L1: the ledger (" + item.status() + ", input " + (item.input() == null ? null : item.input().versionId())
                    + ") does not name the newest input " + newest.key() + " " + newest.versionId() + " (sweep: " + unit.status() + " "
                    + unit.reason() + ")");
        }
    }

    /** L3: a forced repair of the recorded input republishes under the current contract, or says why not. */
    private void checkForcedRepair(ReferenceInbox inputs) {
        LedgerItem before = dynamo.get(DATASET, UNIT).orElse(null);
        lastAccepted = before != null && before.emptyAccepted() != null ? before : null;
        if (before == null || before.status() == LedgerStatus.OMITTED) {
            return;
        }
        RepairResult result = repair(s3, dynamo).run(RepairRequest.fromPayload(Map.of("dataset", DATASET, "units", List.of(UNIT),
                "force", true, "reason", "L3")), io.landingledger.core.ingest.Deadline.NONE, this::runId);
        check();
        RepairResult.UnitResult unit = result.units().get(0);
        LedgerItem after = dynamo.get(DATASET, UNIT).orElseThrow();
        boolean held = before.input() != null && inputs.holds(before.input().key(), before.input().versionId());
        if (!held) {
            if (unit.succeeded()) {
                throw new AssertionError("L3: the repair of a version the inbox no longer holds says it succeeded: " + unit.action());
            }
            return;
        }
        ReferenceValidator.Verdict expected = oracle(version(before.input().key(), before.input().versionId()).body(), current.version());
        if (expected.publishable()) {
            InMemoryObjectStore.Version object = s3.current(LAKE, PUBLISHED_KEY).orElseThrow();
            PublishMetadata meta = PublishMetadata.from(object.metadata());
            if (!"published".equals(unit.action()) || meta.contractVersion() != current.version() || !meta.runId().equals(after.runId())
                    || !Arrays.equals(object.body(), expected.rows())) {
                throw new AssertionError("L3: a forced repair did not republish under contract " + current.version() + ": " + unit.action()
                        + " " + unit.detail());
            }
        } else if (unit.succeeded()) {
            throw new AssertionError("L3: a forced repair of an input the current contract refuses says it succeeded");
        }
    }
}
