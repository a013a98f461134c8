package io.landingledger.tools.bench;

import static io.landingledger.tools.bench.FigureMath.round;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The peak day on Lambda, on paper: what the figures measured here predict for a 50-million-line, 12.5 GB file on a
 * function of a given memory size. An estimate from a stated model, never a measurement: it exists so that a run on
 * this machine says what it implies for the deployed function, with every input named so a reader can redo the sum.
 *
 * <p>The model: one thread reads, hashes and splits the file in order, and decides every line in order, so the
 * validator can never go faster than that thread's bytes over its CPU time measured here with workers parsing (the
 * scan's rate where no worker count above 1 was timed); S3 sends at most K ranges x a connection's rate; between the two, the parse runs at
 * the rate measured here at that many workers, or past the counts measured at the per-worker rate of the largest
 * count measured. A Lambda function gets one vCPU per 1,769 MB (6 at 10,240 MB) and the validator's default workers
 * are its processors. Memory: the duplicate index holds bytes-per-key x 49 M keys; the heap is taken as 85% of the
 * function's memory and the index's default budget as half the heap; past the budget it spills 32-byte records to
 * /tmp, and identical repeats across runs can cost a second pass.
 */
final class LambdaEstimate {
    static final long DAY_LINES = 50_000_000L;
    static final double DAY_BYTES = 12.5e9;
    static final long DAY_KEYS = 49_000_000L;
    /**
     * The index's bytes per key measured on the whole generated peak day (docs/performance.md: 30.44 on 49,000,815
     * keys), used for files of fewer than {@link #KEYS_FOR_A_FIGURE} keys, where the index's fixed first chunk and
     * table (~410 KB) would inflate the figure.
     */
    static final double DAY_BYTES_PER_KEY = 30.44;
    static final long DAY_KEYS_MEASURED = 49_000_815L;
    static final long KEYS_FOR_A_FIGURE = 1_000_000L;
    /** Lambda: about one vCPU per 1,769 MB of memory, at most 6 (at 10,240 MB). */
    static final int MB_PER_VCPU = 1_769;
    static final int MAX_MEMORY_MB = 10_240;
    static final int MAX_VCPUS = 6;
    /** Assumed: the share of the function's memory the Java runtime gives the heap (docs/operations.md, Limits). */
    static final double HEAP_SHARE = 0.85;
    /** The index's default budget: half the heap (ValidationLimits.DEFAULT_KEY_INDEX_MEMORY_BYTES). */
    static final double BUDGET_SHARE = 0.5;
    /** A spilled key's record on disk (SpilledKeyRuns.RECORD_BYTES). */
    static final int SPILL_RECORD_BYTES = 32;
    /** Lambda's default and SnapStart's ephemeral storage, MB. */
    static final int DEFAULT_EPHEMERAL_MB = 512;
    static final int TIMEOUT_SECONDS = 900;
    /** The memory sizes printed: 1, 2, 4 and 6 vCPUs. */
    static final List<Integer> MEMORY_SIZES_MB = List.of(MB_PER_VCPU, 2 * MB_PER_VCPU, 4 * MB_PER_VCPU, MAX_MEMORY_MB);

    /**
     * What the model is fed, all measured by this run but the connection rate and K.
     *
     * @param medianMBpsByWorkers the validator core's median MB/s at each worker count timed here
     * @param inOrderMBps         the in-order thread's ceiling, MB/s: bytes over its CPU time at the most workers timed
     *                            (or the scan's median when only 1 worker was timed)
     * @param ranges              K, byte ranges the function reads at once
     * @param connectionMBps      what one S3 connection carries, MB/s
     * @param bytesPerKey         the duplicate index's bytes per distinct key, measured on {@code measuredKeys} keys
     */
    record Inputs(Map<Integer, Double> medianMBpsByWorkers, double inOrderMBps, int ranges, double connectionMBps, double bytesPerKey,
                  long measuredKeys) {
        Inputs {
            if (medianMBpsByWorkers.isEmpty()) {
                throw new IllegalArgumentException("at least one worker count must be measured");
            }
            medianMBpsByWorkers = new TreeMap<>(medianMBpsByWorkers);
        }

        /** The largest worker count measured and its per-worker rate, which the model extends past it. */
        int largestMeasured() {
            return ((NavigableMap<Integer, Double>) medianMBpsByWorkers).lastKey();
        }

        double perWorkerMBps() {
            return medianMBpsByWorkers.get(largestMeasured()) / largestMeasured();
        }
    }

    /** One memory size's estimate. */
    record Row(int memoryMb, int vcpus, int workers, double parseMBps, boolean parseMeasured, double s3MBps, double rateMBps,
               String boundBy, double seconds, double indexBytes, double heapBytes, double budgetBytes, boolean spills,
               double tmpBytes, int ephemeralMb, double worstSeconds) {
        boolean withinTimeout() {
            return worstSeconds <= TIMEOUT_SECONDS;
        }
    }

    private LambdaEstimate() {
    }

    static int vcpus(int memoryMb) {
        return Math.max(1, Math.min(MAX_VCPUS, (int) Math.round((double) memoryMb / MB_PER_VCPU)));
    }

    static Row estimate(Inputs in, int memoryMb) {
        int vcpus = vcpus(memoryMb);
        int workers = vcpus; // the validator's default: the processors the function has
        Double measured = in.medianMBpsByWorkers().get(workers);
        double parse = measured != null ? measured : in.perWorkerMBps() * Math.min(MAX_VCPUS, workers);
        double s3 = in.ranges() * in.connectionMBps();
        double rate = Math.min(parse, Math.min(in.inOrderMBps(), s3));
        String bound = rate == parse ? "parse" : rate == in.inOrderMBps() ? "in-order" : "S3";
        double seconds = DAY_BYTES / 1e6 / rate;
        double index = in.bytesPerKey() * DAY_KEYS;
        double heap = HEAP_SHARE * memoryMb * (1 << 20);
        double budget = BUDGET_SHARE * heap;
        boolean spills = index > budget;
        // every key written once is the most the runs hold (docs/operations.md, Limits)
        double tmp = spills ? (double) SPILL_RECORD_BYTES * DAY_KEYS : 0;
        int ephemeral = Math.max(DEFAULT_EPHEMERAL_MB, (int) Math.ceil(tmp / (1 << 20)));
        return new Row(memoryMb, vcpus, workers, parse, measured != null, s3, rate, bound, seconds, index, heap, budget, spills, tmp,
                ephemeral, spills ? 2 * seconds : seconds);
    }

    /** The smallest memory size (MB) whose default budget holds the day's index: no spill. */
    static int smallestMemoryHoldingTheIndexMb(Inputs in) {
        return (int) Math.ceil(in.bytesPerKey() * DAY_KEYS / BUDGET_SHARE / HEAP_SHARE / (1 << 20));
    }

    /** The estimate for every printed memory size, with the model and its inputs, for the JSON report. */
    static Map<String, Object> report(Inputs in) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("estimate", "on paper, from the model below and the inputs measured by this run; not a measurement");
        r.put("model", model());
        Map<String, Object> inputs = new LinkedHashMap<>();
        inputs.put("dayLines", DAY_LINES);
        inputs.put("dayBytes", DAY_BYTES);
        inputs.put("dayDistinctKeys", DAY_KEYS);
        inputs.put("medianMBpsByWorkers", in.medianMBpsByWorkers().entrySet().stream()
                .map(e -> Map.of("workers", e.getKey(), "medianMBps", round(e.getValue(), 1))).toList());
        inputs.put("perWorkerMBpsPastMeasured", round(in.perWorkerMBps(), 1));
        inputs.put("inOrderMBps", round(in.inOrderMBps(), 1));
        inputs.put("ranges", in.ranges());
        inputs.put("connectionMBps", in.connectionMBps());
        inputs.put("bytesPerKey", in.bytesPerKey());
        inputs.put("bytesPerKeyMeasuredOnKeys", in.measuredKeys());
        inputs.put("heapShareOfMemory", HEAP_SHARE);
        inputs.put("mbPerVcpu", MB_PER_VCPU);
        r.put("inputs", inputs);
        List<Object> rows = new ArrayList<>();
        for (int mb : MEMORY_SIZES_MB) {
            Row row = estimate(in, mb);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("memoryMb", row.memoryMb());
            m.put("vcpus", row.vcpus());
            m.put("workers", row.workers());
            m.put("parseMBps", round(row.parseMBps(), 1));
            m.put("parseMeasuredAtThisCount", row.parseMeasured());
            m.put("s3MBps", round(row.s3MBps(), 1));
            m.put("rateMBps", round(row.rateMBps(), 1));
            m.put("boundBy", row.boundBy());
            m.put("seconds", round(row.seconds(), 1));
            m.put("indexBytes", row.indexBytes());
            m.put("defaultBudgetBytes", row.budgetBytes());
            m.put("spills", row.spills());
            m.put("tmpBytes", row.tmpBytes());
            m.put("ephemeralStorageMb", row.ephemeralMb());
            m.put("worstSeconds", round(row.worstSeconds(), 1));
            m.put("withinTimeout", row.withinTimeout());
            rows.add(m);
        }
        r.put("byMemory", rows);
        r.put("smallestMemoryHoldingTheIndexMb", smallestMemoryHoldingTheIndexMb(in));
        return r;
    }

    static String model() {
        return "time = 12.5 GB / rate; rate = min(parse, in-order, S3): parse = the validator core's median here at the"
                + " function's workers (= its vCPUs), past the counts timed the per-worker rate of the largest count x workers;"
                + " in-order = the bytes over the CPU time of the one thread that reads, hashes, splits and decides in order,"
                + " measured here at the most workers timed (the scan's median if only 1 was); S3 = K ranges x a connection's"
                + " MB/s. vCPUs = memory / 1,769 MB, at most 6 (10,240 MB); one Lambda vCPU taken as one core of this machine."
                + " Memory: index = B/key x 49 M keys; heap = 85% of memory (assumed); default index budget = half the heap;"
                + " past it 32-byte records spill to /tmp (at most 49 M x 32 B) and a second pass may follow (worst = 2 x time)."
                + " Not modelled: what follows the last row (the last part, the promote's copy, the ledger write) and the JVM's start.";
    }
}
