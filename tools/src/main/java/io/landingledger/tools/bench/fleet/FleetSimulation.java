package io.landingledger.tools.bench.fleet;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.consumers.ConsumerReceipt;
import io.landingledger.core.consumers.ConsumerReceipts;
import io.landingledger.core.ingest.Deadline;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.IngestPath;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.LakeSweepChanges;
import io.landingledger.core.sweep.ShardBudget;
import io.landingledger.core.sweep.ShardTask;
import io.landingledger.core.sweep.ShardedSweep;
import io.landingledger.core.sweep.SweepAssembler;
import io.landingledger.core.sweep.SweepChanges;
import io.landingledger.core.sweep.SweepMode;
import io.landingledger.core.sweep.SweepPlan;
import io.landingledger.core.sweep.SweepRequest;
import io.landingledger.core.sweep.SweepShard;
import io.landingledger.core.sweep.SweepShardRunner;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One simulated day of a fleet: a full sweep to begin with, then an hour of producers (each dataset's file, re-sends,
 * refusals, lost events, the re-drives the last sweep submitted) and a sweep, 24 times: incremental every hour, full at
 * {@link Config#fullHour}. Each sweep runs the real planner, shard runner and assembler in this process on the
 * fleet's generated ports, one shard at a time, metered per shard; the wall time is modelled ({@link AwsFigures}).
 */
final class FleetSimulation {
    /**
     * @param concurrency the worker's MaximumConcurrency (the SQS event source mapping's)
     * @param fullHour    the hour (UTC) the full reconciliation runs instead of an incremental sweep
     */
    record Config(int datasets, int units, long seed, int concurrency, ShardBudget budget, int fullHour, int hours) {
    }

    /** One sweep's figures. */
    record SweepFigures(String label, SweepMode mode, Instant asOf, int datasetsRead, int shards, Meter total, double slowestShardMs,
                        double slowestShardPessimisticMs, double wallMs, double wallPessimisticMs, double lambdaGbSeconds,
                        long sqsRequests, boolean finished, Map<String, Object> summary, Map<String, Long> reasons) {
        double dollars() {
            return total.requestDollars() + lambdaGbSeconds * AwsFigures.LAMBDA_PER_GB_SECOND
                    + (shards + 1) * AwsFigures.LAMBDA_PER_REQUEST + sqsRequests * AwsFigures.SQS_PER_REQUEST;
        }
    }

    /** The day: the first full sweep, the hourly sweeps, the change records made, and the heap a dataset's sweep holds. */
    record Day(Fleet fleet, SweepFigures initialFull, List<SweepFigures> hourly, long changeRecords, long retainedReportBytes,
               long transientReportBytes) {
    }

    private final Config config;
    private final SettableClock clock = new SettableClock(Instant.parse("2026-12-30T23:05:00Z"));
    private final List<String[]> submitted = new ArrayList<>();
    private final AtomicLong changeRecords = new AtomicLong();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    FleetSimulation(Config config) {
        this.config = config;
    }

    Day run(DatasetContract template) {
        Fleet fleet = new Fleet(config.datasets(), config.units(), template, Fleet.Rates.realistic(), config.seed());
        fleet.now = clock.instant();
        LakeSweepChanges markers = new LakeSweepChanges(fleet.store, Fleet.LAKE);
        SweepChanges changes = new SweepChanges() {
            @Override
            public void record(String dataset, Instant at) {
                changeRecords.incrementAndGet();
                markers.record(dataset, at);
            }

            @Override
            public java.util.Set<String> changedSince(Instant since, Instant until) {
                return markers.changedSince(since, until);
            }
        };
        Map<String, DatasetContract> byName = new java.util.HashMap<>();
        fleet.contracts.forEach(c -> byName.put(c.dataset(), c));
        // the deployed sweep hands each re-drive to the validator function (an Event invoke): it runs after the sweep
        IngestPath redrive = new IngestPath() {
            @Override
            public IngestOutcome ingest(io.landingledger.core.ingest.IngestService.Request request) {
                fleet.meter.lambdaInvoke();
                synchronized (submitted) {
                    submitted.add(new String[] {request.contract().dataset(), request.unit()});
                }
                return IngestOutcome.submitted(request, "fleet-sim");
            }

            @Override
            public boolean reportsOutcomes() {
                return true;
            }
        };
        ConsumerReceipts consumers = new ConsumerReceipts() {
            @Override
            public boolean record(ConsumerReceipt receipt) {
                throw new UnsupportedOperationException();
            }

            @Override
            public List<ConsumerReceipt> forUnits(String dataset, String fromUnit, String toUnit) {
                fleet.meter.dynamoQuery(0, 0); // the Consumers table's Query: no receipts in this fleet
                return List.of();
            }
        };
        AtomicLong runs = new AtomicLong();
        CompletenessSweep sweep = new CompletenessSweep(fleet.store, fleet.ledger, redrive, new UnitRouter(new ContractRegistry(byName)),
                Fleet.INBOX, Fleet.LAKE, clock, () -> "run-" + runs.incrementAndGet(), consumers);
        ShardedSweep sharded = new ShardedSweep(sweep, fleet.store, Fleet.LAKE, changes, config.budget(), n -> Optional.ofNullable(byName.get(n)));
        SweepRequest request = new SweepRequest(fleet.contracts, null, null);

        SweepFigures initial = sweep(sharded, request, SweepMode.FULL, "full", fleet);
        long[] heap = retainedReport(sweep, fleet);
        Random random = new Random(config.seed() + 1);
        List<SweepFigures> hourly = new ArrayList<>();
        Instant day = Instant.parse("2026-12-31T00:00:00Z");
        for (int h = 0; h < config.hours(); h++) {
            clock.set(day.plusSeconds(h * 3600L));
            fleet.now = clock.instant();
            produce(fleet, changes, random, h);
            clock.set(day.plusSeconds(h * 3600L + 300));
            fleet.now = clock.instant();
            SweepMode mode = h == config.fullHour() ? SweepMode.FULL : SweepMode.INCREMENTAL;
            hourly.add(sweep(sharded, request, mode, String.format("%02d:05 %s", h, mode.lowerCase()), fleet));
        }
        return new Day(fleet, initial, hourly, changeRecords.get(), heap[0], heap[1]);
    }

    /** An hour of producers: the day's files that land this hour, re-sends, and the validator's runs of the re-drives. */
    private void produce(Fleet fleet, SweepChanges changes, Random random, int hour) {
        int u = config.units() - 2; // the unit of the day before: its files land today, before each dataset's deadline
        for (int d = 0; d < fleet.datasets; d++) {
            String name = Fleet.name(d);
            if (fleet.arrivalHour[d] == hour && random.nextDouble() >= fleet.rates.missing()) {
                if (fleet.arrive(d * fleet.units + u, random, true)) {
                    changes.record(name, clock.instant()); // the ledger write, through the stream
                }
                changes.record(name, clock.instant()); // the inbox version, through EventBridge
            }
            if (random.nextDouble() < fleet.rates.resendPerUnitDay() / 24) {
                int older = Math.max(0, u - random.nextInt(7)); // a producer re-sends one of its last week's units
                if (fleet.arrive(d * fleet.units + older, random, true)) {
                    changes.record(name, clock.instant());
                }
                changes.record(name, clock.instant());
            }
        }
        synchronized (submitted) {
            for (String[] r : submitted) {
                fleet.redrive(r[0], r[1], random);
                changes.record(r[0], clock.instant());
            }
            submitted.clear();
        }
    }

    private SweepFigures sweep(ShardedSweep sharded, SweepRequest request, SweepMode mode, String label, Fleet fleet) {
        Meter planner = new Meter();
        fleet.meter = planner;
        long cpu = threads.getCurrentThreadCpuTime();
        SweepPlan plan = sharded.plan(mode, request, SweepAssembler.MetricsSink.NONE);
        planner.cpuNanos = threads.getCurrentThreadCpuTime() - cpu;

        List<Meter> shards = new ArrayList<>();
        Meter assembler = new Meter();
        for (SweepShard shard : plan.shards()) {
            Meter meter = new Meter();
            fleet.meter = meter;
            cpu = threads.getCurrentThreadCpuTime();
            sharded.runShard(ShardTask.of(plan, shard), 1, Deadline.NONE, NO_LISTENER);
            meter.cpuNanos = threads.getCurrentThreadCpuTime() - cpu;
            shards.add(meter);
        }
        fleet.meter = assembler;
        cpu = threads.getCurrentThreadCpuTime();
        Optional<SweepAssembler.Assembly> assembly = plan.shards().isEmpty() ? Optional.empty()
                : sharded.assembleIfComplete(plan.sweepId(), SweepAssembler.MetricsSink.NONE);
        assembler.cpuNanos = threads.getCurrentThreadCpuTime() - cpu;

        Meter total = new Meter();
        total.add(planner);
        shards.forEach(total::add);
        total.add(assembler);
        double slowest = shards.stream().mapToDouble(m -> m.wallMs(false)).max().orElse(0);
        double slowestPessimistic = shards.stream().mapToDouble(m -> m.wallMs(true)).max().orElse(0);
        double wall = wall(planner, shards, assembler, false);
        double wallPessimistic = wall(planner, shards, assembler, true);
        // GB-s: each shard's time and a cold start per concurrent slot, the planner's, the assembler's (in a worker); all at 512 MB
        int slots = Math.min(config.concurrency(), Math.max(1, shards.size()));
        double workerMs = shards.stream().mapToDouble(m -> m.wallMs(false)).sum() + slots * AwsFigures.LAMBDA_COLD_START_MS
                + assembler.wallMs(false);
        double gbSeconds = (workerMs + planner.wallMs(false) + AwsFigures.LAMBDA_COLD_START_MS) * AwsFigures.WORKER_MEMORY_MB / 1024.0 / 1000.0;
        // SendMessageBatch by ten; each message received and deleted once (batch size 1)
        long sqs = (shards.size() + 9) / 10 + 2L * shards.size();
        int datasetsRead = plan.datasetCount();
        Map<String, Object> summary = assembly.map(SweepAssembler.Assembly::summary).orElse(Map.of());
        Map<String, Long> reasons = new java.util.TreeMap<>();
        plan.reasons().values().forEach(r -> reasons.merge(r, 1L, Long::sum));
        return new SweepFigures(label, mode, plan.asOf(), datasetsRead, shards.size(), total, slowest, slowestPessimistic, wall,
                wallPessimistic, gbSeconds, sqs, assembly.map(SweepAssembler.Assembly::finished).orElse(true), summary, reasons);
    }

    /**
     * The sweep's modelled wall time: the planner, a message's delivery, the shards on the worker's slots (a slot
     * opens as the event source mapping scales up; its first shard pays a cold start), then the assembly in the last
     * worker.
     */
    double wall(Meter planner, List<Meter> shards, Meter assembler, boolean pessimistic) {
        double start = AwsFigures.LAMBDA_COLD_START_MS + planner.wallMs(pessimistic) + AwsFigures.SQS_DELIVERY_MS;
        if (shards.isEmpty()) {
            return start - AwsFigures.SQS_DELIVERY_MS;
        }
        int slots = Math.min(config.concurrency(), shards.size());
        PriorityQueue<double[]> free = new PriorityQueue<>(Comparator.comparingDouble(s -> s[0]));
        for (int k = 0; k < slots; k++) {
            double opens = k < AwsFigures.SQS_START_CONCURRENCY ? 0 : (k - AwsFigures.SQS_START_CONCURRENCY + 1) / AwsFigures.SQS_SCALE_UP_PER_SECOND * 1000;
            free.add(new double[] {start + opens, 1}); // {free at, cold}
        }
        double end = 0;
        for (Meter shard : shards) {
            double[] slot = free.poll();
            double finish = slot[0] + (slot[1] == 1 ? AwsFigures.LAMBDA_COLD_START_MS : 0) + shard.wallMs(pessimistic);
            end = Math.max(end, finish);
            free.add(new double[] {finish, 0});
        }
        return end + assembler.wallMs(pessimistic);
    }

    /**
     * The heap one dataset's sweep holds: the largest dataset swept alone, its report kept, after a GC, against the
     * heap after it is dropped; and the bytes of its JSON, HTML and status table, which exist while they are written.
     */
    private long[] retainedReport(CompletenessSweep sweep, Fleet fleet) {
        DatasetContract contract = fleet.contracts.get(0);
        fleet.meter = new Meter();
        Runtime runtime = Runtime.getRuntime();
        gc();
        long before = runtime.totalMemory() - runtime.freeMemory();
        DatasetReport report = sweep.sweep(contract, null, null);
        gc();
        long held = runtime.totalMemory() - runtime.freeMemory();
        long written = fleet.meter.s3BytesWritten;
        long retained = Math.max(0, held - before);
        if (report.units().isEmpty()) {
            throw new IllegalStateException("the dataset had no units");
        }
        return new long[] {retained, written};
    }

    private static void gc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
    }

    private static final CompletenessSweep.ReportListener NO_LISTENER = new CompletenessSweep.ReportListener() {
        @Override
        public void redriveRan(IngestOutcome outcome) {
        }

        @Override
        public void swept(DatasetReport report) {
        }
    };

    /** A clock the day moves. */
    static final class SettableClock extends Clock {
        private volatile Instant now;

        SettableClock(Instant start) {
            this.now = start;
        }

        void set(Instant to) {
            now = to;
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    /** Unused: the margin a worker keeps (for the record in the printout). */
    static long marginSeconds() {
        return SweepShardRunner.DEFAULT_MARGIN.toSeconds();
    }
}
