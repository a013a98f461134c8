package io.landingledger.tools.bench;

import static io.landingledger.tools.bench.FigureMath.median;
import static io.landingledger.tools.bench.FigureMath.round;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.tools.bench.BenchStage.BenchFile;
import io.landingledger.tools.bench.BenchStage.Pass;
import io.landingledger.core.contract.ContractLoader;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.InvalidContractException;
import io.landingledger.core.ingest.IngestAction;
import io.landingledger.core.validate.LineSet;
import io.landingledger.core.validate.StreamingValidator;
import io.landingledger.core.validate.ValidationLimits;
import io.landingledger.core.validate.ValidationResult;
import io.landingledger.lambda.adapters.MultipartStreamingUpload;
import io.landingledger.lambda.adapters.RangedRead;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.ToLongFunction;

/**
 * {@code landing bench}: measures, in one JVM and on one file, the scan baseline (read + SHA-256 + line split), the
 * validator core and the end-to-end path on the embedded emulators ({@link EndToEndStage}), each after a warm-up
 * pass and then {@code --repeat} times, interleaved so that all see the same machine; then the duplicate index's bytes per distinct key and the heap. Prints a table, or one JSON object
 * with {@code --json}. Every figure in docs/performance.md comes from this command.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Benchmark the validator, and the validator function end to end on the embedded S3 and DynamoDB",
                "emulators, against the scan floor (read + SHA-256 + line split) on one file.",
                "Without --file, generates a peak-shaped progress_events file of --lines lines first (see landing gen).",
                "Run it through ./landing (Serial GC, as the function). MB are 10^6 bytes of text (decompressed).",
                "Exit status: 0 measured, 1 a consistency check failed (passes or stages disagree), 2 usage or I/O error."})
public final class BenchCommand implements Callable<Integer> {
    static final int OK = 0;
    static final int INCONSISTENT = 1;
    static final int ERROR = 2;
    /** The dataset {@link PeakFileGenerator} writes. */
    static final String GENERATED_DATASET = "progress_events";

    @ArgGroup(exclusive = true)
    Source source = new Source();

    static final class Source {
        @Option(names = "--file", paramLabel = "FILE", description = "The file to measure (plain or gzip).")
        Path file;

        @Option(names = "--lines", paramLabel = "N",
                description = "Generate a file of N lines to measure (default when no --file: " + PeakFileGenerator.DEFAULT_LINES + ").")
        Long lines;
    }

    @Option(names = "--repeat", paramLabel = "K", description = "Timed passes per stage, after one warm-up pass (default: ${DEFAULT-VALUE}).")
    int repeat = 3;

    @Option(names = "--json", description = "Print one JSON object instead of the table.")
    boolean json;

    @Option(names = "--contract", paramLabel = "FILE",
            description = "The dataset contract (default: ${DEFAULT-VALUE}); a bare name means datasets/<name>.json.")
    String contract = "datasets/progress_events.json";

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the generated file (default: ${DEFAULT-VALUE}).")
    long seed = PeakFileGenerator.DEFAULT_SEED;

    @Option(names = "--duplicate-share", paramLabel = "SHARE", description = "Duplicate share of the generated file (default: ${DEFAULT-VALUE}).")
    double duplicateShare = PeakFileGenerator.DEFAULT_DUPLICATE_SHARE;

    @Option(names = "--gzip", description = "Gzip the generated file.")
    boolean gzip;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where the generated file and the accepted output go; kept afterwards. Default: a temporary directory, deleted.")
    Path workDir;

    @Option(names = "--no-file-output",
            description = "Skip the one validator pass that writes the accepted rows to a file in the work directory.")
    boolean noFileOutput;

    @Option(names = "--key-index-memory-mb", paramLabel = "MIB",
            description = {"Heap for the duplicate-key index before it spills sorted runs to java.io.tmpdir (default: half the heap).",
                    "A validator pass that must drop rows found at the merge includes its second pass over the file."})
    Long keyIndexMemoryMb;

    @Option(names = "--no-end-to-end",
            description = "Skip the end-to-end stage (the validator function's handler on the embedded S3 and DynamoDB emulators).")
    boolean noEndToEnd;

    @Option(names = "--s3-storage", paramLabel = "WHERE",
            description = "End to end: where the embedded S3 keeps objects, MEMORY or DISK (a temporary directory; default: ${DEFAULT-VALUE}).")
    EndToEndStage.S3Storage s3Storage = EndToEndStage.S3Storage.MEMORY;

    @Option(names = "--part-mib", paramLabel = "MIB",
            description = "End to end: staging upload part size in MiB (default: the function's, ${DEFAULT-VALUE}; S3's minimum is 5).")
    int partMib = MultipartStreamingUpload.Settings.DEFAULT.partBytes() >> 20;

    @Option(names = "--parts-in-flight", paramLabel = "N",
            description = "End to end: staging parts uploading at once (default: the function's, ${DEFAULT-VALUE}).")
    int partsInFlight = MultipartStreamingUpload.Settings.DEFAULT.maxPartsInFlight();

    @Option(names = "--s3-connection-mbps", paramLabel = "MB/S",
            description = "End to end: hold each S3 connection to this many MB/s from S3 to the function (a throttling proxy on"
                    + " loopback in front of the embedded S3, a model of S3's per-connection limit; 0: the emulator's own speed;"
                    + " default: ${DEFAULT-VALUE}).")
    double s3ConnectionMbps = 85;

    @Option(names = "--s3-read-ranges", paramLabel = "K",
            description = "End to end: byte ranges of the inbox object read at once (default: the function's, ${DEFAULT-VALUE});"
                    + " a pass with K=1 (one GetObject) is timed too.")
    int s3ReadRanges = RangedRead.Settings.DEFAULT_RANGES_IN_FLIGHT;

    @Option(names = "--s3-read-range-mib", paramLabel = "MIB",
            description = "End to end: size of one range in MiB (default: the function's, ${DEFAULT-VALUE}).")
    int s3ReadRangeMib = (int) (RangedRead.Settings.DEFAULT_RANGE_BYTES >> 20);

    @Option(names = "--s3-read-ranges-sweep", paramLabel = "K,K", split = ",",
            description = "End to end: also time these K (e.g. 2,4,16), each a stage of its own.")
    List<Integer> s3ReadRangesSweep = new ArrayList<>();

    @Option(names = "--workers-sweep", paramLabel = "N,N", split = ",",
            description = {"The validator core at each of these parse thread counts, a stage each (e.g. 1,2,4; default: 1, 2 and"
                    + " this machine's processors).",
                    "1 is always timed: the speed-up and the efficiency per worker are over it. The other stages run at the"
                    + " default count (-D" + ValidationLimits.WORKERS_PROPERTY + ", else the processors)."})
    List<Integer> workersSweep = new ArrayList<>();

    @Option(names = "--no-retained-heap",
            description = "Skip the one untimed validator pass that measures the heap it holds at the end of the input.")
    boolean noRetainedHeap;

    @Mixin
    ColdStartStage.Options coldStart = new ColdStartStage.Options();

    @Option(names = "--peers",
            description = {"Instead of the stages: the --file through four whole programs, --repeat times each in rounds:"
                    + " landing validate, DuckDB (JDBC) and seed 002's rules in Python (" + Peers.SEED_RULES + "), streamed and"
                    + " as its walkthrough is written;",
                    "wall time, MB/s, CPU, peak resident memory and accepted rows, against the goals (3x DuckDB, 20x the streamed"
                    + " seed rules)."})
    boolean peers;

    @Option(names = "--no-seed-as-written",
            description = {"Peers: leave out the seed as its walkthrough is written, which holds every accepted row in memory",
                    "(about 1.5 GB a million rows: 3 GB for 2M lines, far more than a machine has for a whole peak day)."})
    boolean noSeedAsWritten;

    @Option(names = "--peer-workers", paramLabel = "N", description = "Peers: landing validate --workers (default: its default, the processors).")
    Integer peerWorkers;

    @Option(names = "--duckdb-jar", paramLabel = "JAR",
            description = "Peers: the duckdb_jdbc jar (default: Maven's copy of the test dependency, ~/.m2/repository/org/duckdb/duckdb_jdbc/"
                    + Peers.DUCKDB_VERSION + "/).")
    Path duckDbJar;

    @Option(names = "--duckdb-threads", paramLabel = "N", description = "Peers: DuckDB's threads (default: the processors).")
    Integer duckDbThreads;

    @Option(names = "--python", paramLabel = "PYTHON", description = "Peers: the Python 3.11+ that runs the seed rules (default: ${DEFAULT-VALUE}).")
    String python = "python3";

    @Option(names = "--seed-rules", paramLabel = "FILE",
            description = "Peers: the seed rules script (default: " + Peers.SEED_RULES + " of the repository, found from here or the jar).")
    Path seedRules;

    private final PrintStream out;
    private final PrintStream err;

    public BenchCommand() {
        this(System.out, System.err);
    }

    BenchCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /**
     * The stages timed {@code --repeat} times: the scan first, since every ratio is against it, then the validator
     * core at each worker count of the sweep (fewest first), then the end-to-end path on the emulators when there is one.
     */
    static List<BenchStage> stages(Map<Integer, StreamingValidator> validators, List<EndToEndStage> endToEnd) {
        List<BenchStage> stages = new ArrayList<>(List.of(new ScanStage()));
        validators.forEach((workers, validator) -> stages.add(ValidatorStage.discarding(validator, workers)));
        stages.addAll(endToEnd);
        return stages;
    }

    /**
     * The worker counts to time, fewest first, each once: always 1 (what the speed-up is over), then the requested
     * counts, or by default 2 and the processors.
     */
    static List<Integer> workerCounts(List<Integer> requested, int processors) {
        java.util.TreeSet<Integer> counts = new java.util.TreeSet<>(List.of(1));
        for (int n : requested.isEmpty() ? List.of(2, processors) : requested) {
            if (n < 1 || n > ValidationLimits.MAX_WORKERS) {
                throw new IllegalArgumentException("--workers-sweep: each count must be from 1 to " + ValidationLimits.MAX_WORKERS + ", not " + n);
            }
            counts.add(n);
        }
        return List.copyOf(counts);
    }

    /** The end-to-end stage at K, then K=1 and the sweep's K on the same emulators (none with --no-end-to-end). */
    private List<EndToEndStage> endToEndStages(EndToEndStage endToEnd) {
        List<EndToEndStage> stages = new ArrayList<>();
        if (endToEnd == null) {
            return stages;
        }
        stages.add(endToEnd);
        java.util.Set<Integer> timed = new java.util.TreeSet<>(List.of(endToEnd.reads().rangesInFlight()));
        List<Integer> others = new ArrayList<>(List.of(1));
        others.addAll(s3ReadRangesSweep);
        for (int k : others) {
            if (timed.add(k)) {
                stages.add(endToEnd.withReads(new RangedRead.Settings(k, endToEnd.reads().rangeBytes())));
            }
        }
        return stages;
    }

    /** The figures of one stage over its timed passes. */
    record StageFigures(BenchStage stage, List<Pass> passes) {
        long bestNanos() {
            return passes.stream().mapToLong(Pass::nanos).min().orElseThrow();
        }

        long medianNanos() {
            return median(passes.stream().mapToLong(Pass::nanos).toArray());
        }

        /** Median process CPU time of the passes, or -1 when the JVM cannot measure it. */
        long medianCpuNanos() {
            return medianOfMeasured(Pass::cpuNanos);
        }

        /** Median CPU time of the thread that ran each pass (the validator's in-order thread), or -1 when not measured. */
        long medianInOrderCpuNanos() {
            return medianOfMeasured(Pass::inOrderCpuNanos);
        }

        /**
         * What the validator could reach if its in-order thread never waited: the bytes over that thread's median CPU
         * time; -1 when it was not measured.
         */
        double inOrderCeilingMBps() {
            long inOrder = medianInOrderCpuNanos();
            return inOrder <= 0 ? -1 : megabytesPerSecond(inOrder);
        }

        /** The median of a figure every pass measured (-1 in a pass that could not), or -1 when a pass lacks it. */
        private long medianOfMeasured(ToLongFunction<Pass> figure) {
            return passes.stream().anyMatch(p -> figure.applyAsLong(p) < 0) ? -1
                    : median(passes.stream().mapToLong(figure).toArray());
        }

        Pass last() {
            return passes.getLast();
        }

        double megabytesPerSecond(long nanos) {
            return last().bytes() / 1e6 / (nanos / 1e9);
        }

        double linesPerSecond(long nanos) {
            return last().lines() / (nanos / 1e9);
        }
    }

    @Override
    public Integer call() {
        if (repeat < 1) {
            err.println("landing bench: --repeat must be at least 1, not " + repeat);
            return ERROR;
        }
        if (coldStart.enabled) {
            return coldStart();
        }
        if (peers) {
            return peers();
        }
        long heapAtStart = HeapGauge.usedAfterGc();
        double loadAtStart = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        DatasetContract dataset;
        try {
            dataset = ContractLoader.load(GenerateCommand.contractPath(contract));
        } catch (InvalidContractException e) {
            err.println("landing bench: invalid contract: " + e.getMessage());
            return ERROR;
        }
        ValidationLimits.Builder limits = ValidationLimits.builder();
        try {
            if (keyIndexMemoryMb != null) {
                limits.keyIndexMemoryBytes(Math.multiplyExact(keyIndexMemoryMb, 1L << 20));
            }
        } catch (IllegalArgumentException | ArithmeticException e) {
            err.println("landing bench: --key-index-memory-mb: " + e.getMessage());
            return ERROR;
        }
        // one validator per worker count of the sweep, and the default count's for the file pass and the heap
        Map<Integer, StreamingValidator> sweep = new LinkedHashMap<>();
        StreamingValidator validator;
        try {
            for (int n : workerCounts(workersSweep, Runtime.getRuntime().availableProcessors())) {
                sweep.put(n, new StreamingValidator(dataset, limits.workers(n).build()));
            }
            validator = new StreamingValidator(dataset, limits.workers(ValidationLimits.DEFAULT_WORKERS).build());
        } catch (IllegalArgumentException e) {
            err.println("landing bench: " + e.getMessage());
            return ERROR;
        }
        Path dir = null;
        Path generatedFile = null;
        Path acceptedFile = null;
        EndToEndStage endToEnd = null;
        try {
            if (!noEndToEnd) {
                if (s3ConnectionMbps < 0) {
                    throw new IllegalArgumentException("--s3-connection-mbps must be 0 (no limit) or more, not " + s3ConnectionMbps);
                }
                endToEnd = new EndToEndStage(dataset, new MultipartStreamingUpload.Settings(partMib << 20, partsInFlight), s3Storage,
                        new RangedRead.Settings(s3ReadRanges, (long) s3ReadRangeMib << 20), s3ConnectionMbps * 1e6, err);
            }
            dir = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("landing-bench");
            GenerateCommand.Written generated = null;
            double generateSeconds = 0;
            BenchFile file;
            if (source.file != null) {
                file = BenchFile.of(source.file);
            } else {
                if (!GENERATED_DATASET.equals(dataset.dataset())) {
                    err.println("landing bench: --lines generates " + GENERATED_DATASET + " lines, which the " + dataset.dataset()
                            + " contract would refuse; measure one of its files with --file instead");
                    return ERROR;
                }
                generatedFile = dir.resolve("progress-" + PeakFileGenerator.DEFAULT_DAY + ".jsonl" + (gzip ? ".gz" : ""));
                long started = System.nanoTime();
                generated = generate(generatedFile, dataset.maxRejectedLines());
                generateSeconds = (System.nanoTime() - started) / 1e9;
                file = BenchFile.of(generatedFile);
            }

            List<BenchStage> timed = stages(sweep, endToEndStages(endToEnd));
            List<StageFigures> figures = new ArrayList<>();
            for (BenchStage stage : timed) {
                err.printf(Locale.ROOT, "landing bench: warm-up %s%n", stage.name());
                measure(stage, file);
                figures.add(new StageFigures(stage, new ArrayList<>()));
            }
            for (int round = 1; round <= repeat; round++) {
                for (StageFigures f : figures) {
                    Pass pass = measure(f.stage(), file);
                    f.passes().add(pass);
                    err.printf(Locale.ROOT, "landing bench: pass %d/%d %-14s %.3f s (cpu %.3f s)%n", round, repeat, f.stage().name(),
                            pass.seconds(), pass.cpuNanos() / 1e9);
                }
            }
            if (endToEnd != null) {
                endToEnd.close(); // before the heap figures: the in-memory S3 holds the file and a pass's output
            }
            if (!noFileOutput) {
                acceptedFile = dir.resolve("accepted.jsonl");
                BenchStage stage = ValidatorStage.toFile(validator, ValidationLimits.DEFAULT_WORKERS, acceptedFile);
                Pass pass = measure(stage, file);
                err.printf(Locale.ROOT, "landing bench: once   %-14s %.3f s (cpu %.3f s)%n", stage.name(), pass.seconds(), pass.cpuNanos() / 1e9);
                figures.add(new StageFigures(stage, List.of(pass)));
            }
            // the heap the validator holds when the input ends, at each count of the sweep and at the default
            Map<Integer, Long> heapAtEndOfInputByWorkers = new LinkedHashMap<>();
            if (!noRetainedHeap) {
                for (Map.Entry<Integer, StreamingValidator> e : sweep.entrySet()) {
                    heapAtEndOfInputByWorkers.put(e.getKey(), heapAtEndOfInput(e.getValue(), file));
                }
                if (!heapAtEndOfInputByWorkers.containsKey(ValidationLimits.DEFAULT_WORKERS)) {
                    heapAtEndOfInputByWorkers.put(ValidationLimits.DEFAULT_WORKERS, heapAtEndOfInput(validator, file));
                }
            }
            long heapAtEndOfInput = heapAtEndOfInputByWorkers.getOrDefault(ValidationLimits.DEFAULT_WORKERS, -1L);
            long heapAtEnd = HeapGauge.usedAfterGc();

            List<String> problems = checks(figures, generated);
            problems.forEach(p -> err.println("landing bench: CHECK FAILED: " + p));
            Map<String, Object> report = report(file, generated, generateSeconds, figures, heapAtStart, heapAtEndOfInput, heapAtEnd, problems);
            report.put("workers", workers(figures, heapAtEndOfInputByWorkers));
            LambdaEstimate.Inputs onPaper = lambdaInputs(figures);
            if (onPaper != null) {
                report.put("onPaper", LambdaEstimate.report(onPaper));
            }
            Map<String, Object> machine = new LinkedHashMap<>();
            // other processes on the machine stretch wall times; the cpu figures do not include their time
            machine.put("loadAverageAtStart", round(loadAtStart, 2));
            machine.put("loadAverageAtEnd", round(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), 2));
            report.put("machine", machine);
            if (json) {
                out.println(JSON.std.asString(report));
            } else {
                printTable(report, figures, onPaper);
            }
            out.flush();
            return problems.isEmpty() ? OK : INCONSISTENT;
        } catch (IOException e) {
            err.println("landing bench: I/O error: " + e);
            return ERROR;
        } catch (IllegalArgumentException e) {
            err.println("landing bench: " + e.getMessage());
            return ERROR;
        } finally {
            if (endToEnd != null) {
                endToEnd.close();
            }
            cleanUp(dir, generatedFile, acceptedFile);
        }
    }

    /** {@code --cold-start}: the functions' init in fresh JVMs instead of the file stages. */
    private int coldStart() {
        ColdStartStage stage = new ColdStartStage(coldStart, err);
        try {
            stage.printTable(stage.measure(), out);
            out.flush();
            return OK;
        } catch (IOException e) {
            err.println("landing bench: cold start: " + e.getMessage());
            return ERROR;
        } catch (IllegalArgumentException e) {
            err.println("landing bench: " + e.getMessage());
            return ERROR;
        }
    }

    /** {@code --peers}: the file through landing validate, DuckDB and the seed rules, whole processes. */
    @SuppressWarnings("unchecked")
    private int peers() {
        if (source.file == null) {
            err.println("landing bench: --peers measures a --file (make one with landing gen)");
            return ERROR;
        }
        Path jar = duckDbJar != null ? duckDbJar : Peers.defaultDuckDbJar();
        Path script = seedRules != null ? seedRules : Peers.findSeedRules();
        if (!Files.isRegularFile(jar)) {
            err.println("landing bench: --peers: no duckdb_jdbc jar at " + jar + " (a build with tests fetches it: mvn -pl cli -am test-compile;"
                    + " or pass --duckdb-jar)");
            return ERROR;
        }
        if (script == null || !Files.isRegularFile(script)) {
            err.println("landing bench: --peers: " + Peers.SEED_RULES + " not found; pass --seed-rules");
            return ERROR;
        }
        Path dir = null;
        try {
            DatasetContract dataset = ContractLoader.load(GenerateCommand.contractPath(contract));
            BenchFile file = BenchFile.of(source.file);
            // also what warms the page cache for every program
            Pass scanned = new ScanStage().run(file);
            dir = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("landing-peers");
            int threads = duckDbThreads != null ? duckDbThreads : Runtime.getRuntime().availableProcessors();
            Peers.Settings settings = new Peers.Settings(file.path(), scanned.bytes(), GenerateCommand.contractPath(contract),
                    dataset.maxRejectedLines(), repeat, dir, jar, threads, python, script, peerWorkers, !noSeedAsWritten);
            Map<String, Object> report = new Peers(settings, err).measure();
            if (json) {
                out.println(JSON.std.asString(report));
            } else {
                Peers.printTable(report, out);
            }
            out.flush();
            return (boolean) ((Map<String, Object>) report.get("checks")).get("ok") ? OK : INCONSISTENT;
        } catch (InvalidContractException e) {
            err.println("landing bench: invalid contract: " + e.getMessage());
            return ERROR;
        } catch (IOException e) {
            err.println("landing bench: peers: " + e);
            return ERROR;
        } finally {
            if (workDir == null && dir != null) {
                try {
                    Files.deleteIfExists(dir);
                } catch (IOException e) {
                    err.println("landing bench: could not remove " + dir + ": " + e);
                }
            }
        }
    }

    /** Writes the peak-shaped file, with as many malformed lines as the contract's reject cap allows. */
    private GenerateCommand.Written generate(Path target, long rejectCap) throws IOException {
        long lines = source.lines != null ? source.lines : PeakFileGenerator.DEFAULT_LINES;
        PeakFileGenerator.Options options = new PeakFileGenerator.Options(lines, seed, duplicateShare,
                PeakFileGenerator.DEFAULT_LATE_SHARE, Math.min(lines, rejectCap), PeakFileGenerator.DEFAULT_DAY);
        err.printf(Locale.ROOT, "landing bench: generating %,d lines into %s%n", lines, target);
        try (OutputStream sink = Files.newOutputStream(target)) {
            return GenerateCommand.write(options, sink, gzip);
        }
    }

    /** One untimed validator pass: the heap live after a full collection when the input ends, the validator still live. */
    private static long heapAtEndOfInput(StreamingValidator validator, BenchFile file) throws IOException {
        try (InputStream in = Files.newInputStream(file.path())) {
            HeapGauge.AtEndOfInput gauge = new HeapGauge.AtEndOfInput(in);
            validator.validate(gauge, Files.size(file.path()), OutputStream.nullOutputStream(), OutputStream.nullOutputStream(), LineSet.empty());
            return gauge.usedAtEnd();
        }
    }

    /** Runs one pass and adds the process CPU time it took and the process's peak resident set during it. */
    static Pass measure(BenchStage stage, BenchFile file) throws IOException {
        boolean peakReset = ResidentMemory.resetPeak();
        long before = ThreadCpuGauge.processCpuNanos();
        Pass pass = stage.run(file);
        long after = ThreadCpuGauge.processCpuNanos();
        Pass measured = before < 0 || after < 0 ? pass : pass.withCpuNanos(after - before);
        return peakReset ? measured.withPeakRssBytes(ResidentMemory.peakBytes()) : measured;
    }

    /** Every pass must see the same bytes and reach the same result; a generated file must give what was generated. */
    static List<String> checks(List<StageFigures> figures, GenerateCommand.Written generated) {
        List<String> problems = new ArrayList<>();
        Pass reference = figures.getFirst().last();
        ValidationResult first = null;
        ValidationResult core = figures.stream().flatMap(f -> f.passes().stream()).map(Pass::validation)
                .filter(Objects::nonNull).findFirst().orElse(null);
        for (StageFigures f : figures) {
            for (Pass p : f.passes()) {
                // a refusal stops decoding at the refusing line (the stored bytes are still all hashed)
                boolean wholeFile = p.validation() == null || p.validation().publishable();
                if (!p.sha256().equals(reference.sha256()) || wholeFile && (p.bytes() != reference.bytes() || p.lines() != reference.lines())) {
                    problems.add(f.stage().name() + " saw sha256=" + p.sha256() + " bytes=" + p.bytes() + " lines=" + p.lines()
                            + ", " + figures.getFirst().stage().name() + " saw sha256=" + reference.sha256() + " bytes="
                            + reference.bytes() + " lines=" + reference.lines());
                }
                if (p.publish() != null && core != null && !publishedWhatTheCoreFound(p.publish(), core)) {
                    problems.add(f.stage().name() + " ended " + p.publish().action() + " (refusal " + p.publish().refusalCode() + ", "
                            + p.publish().accepted() + " accepted, " + p.publish().duplicates() + " duplicates, " + p.publish().rejected()
                            + " rejected, " + p.publish().publishedBytes() + " bytes published) but the validator core found "
                            + io.landingledger.core.json.JsonCodec.writeString(core.document()));
                }
                ValidationResult r = p.validation();
                if (r == null) {
                    continue;
                }
                if (first == null) {
                    first = r;
                } else if (!sameOutcome(first, r)) {
                    problems.add(f.stage().name() + " reached another result: " + io.landingledger.core.json.JsonCodec.writeString(r.document()) + " vs "
                            + io.landingledger.core.json.JsonCodec.writeString(first.document()));
                }
            }
        }
        if (generated != null && first != null) {
            PeakFileGenerator.Summary s = generated.summary();
            if (!first.publishable() || first.accepted() != s.distinct() || first.duplicates() != s.duplicates()
                    || first.rejected() != s.malformed() || first.lines() != s.lines()) {
                problems.add("the generator wrote lines=" + s.lines() + " distinct=" + s.distinct() + " duplicates=" + s.duplicates()
                        + " malformed=" + s.malformed() + " but the validator found decision=" + first.decision() + " lines="
                        + first.lines() + " accepted=" + first.accepted() + " duplicates=" + first.duplicates() + " rejected=" + first.rejected());
            }
        }
        return problems;
    }

    /** The handler published the core's rows byte for byte, or refused with the core's code. */
    private static boolean publishedWhatTheCoreFound(EndToEndStage.Publish publish, ValidationResult core) {
        if (!core.publishable()) {
            return publish.action() == IngestAction.REFUSED && core.refusal().code().name().equals(publish.refusalCode());
        }
        return publish.action() == IngestAction.PUBLISHED && publish.accepted() == core.accepted()
                && publish.duplicates() == core.duplicates() && publish.rejected() == core.rejected()
                && publish.publishedBytes() == core.acceptedBytes();
    }

    private static boolean sameOutcome(ValidationResult a, ValidationResult b) {
        return a.decision().equals(b.decision()) && a.accepted() == b.accepted() && a.duplicates() == b.duplicates()
                && a.rejected() == b.rejected() && a.acceptedBytes() == b.acceptedBytes() && a.distinctKeys() == b.distinctKeys()
                && a.keyIndexBytes() == b.keyIndexBytes();
    }

    private Map<String, Object> report(BenchFile file, GenerateCommand.Written generated, double generateSeconds,
                                       List<StageFigures> figures, long heapAtStart, long heapAtEndOfInput, long heapAtEnd,
                                       List<String> problems) {
        Map<String, Object> report = new LinkedHashMap<>();
        Pass reference = figures.getFirst().last();
        report.put("file", file.path().toString());
        report.put("storedBytes", file.storedBytes());
        report.put("decodedBytes", reference.bytes());
        report.put("gzip", file.gzip());
        report.put("lines", reference.lines());
        if (generated != null) {
            PeakFileGenerator.Summary s = generated.summary();
            Map<String, Object> g = new LinkedHashMap<>();
            g.put("seed", seed);
            g.put("duplicateShare", duplicateShare);
            g.put("distinct", s.distinct());
            g.put("duplicates", s.duplicates());
            g.put("late", s.late());
            g.put("malformed", s.malformed());
            g.put("bytesPerLine", round(s.lines() == 0 ? 0 : (double) s.bytes() / s.lines(), 1));
            g.put("seconds", round(generateSeconds, 3));
            report.put("generated", g);
        }
        report.put("warmupPasses", 1);
        report.put("timedPasses", repeat);
        report.put("jvm", jvm());

        long scanMedian = figures.getFirst().medianNanos();
        long scanBest = figures.getFirst().bestNanos();
        StageFigures core = coreAtDefaultWorkers(figures);
        List<Object> stages = new ArrayList<>();
        for (StageFigures f : figures) {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("name", f.stage().name());
            s.put("description", f.stage().description());
            s.put("passes", f.passes().stream().map(p -> round(p.seconds(), 4)).toList());
            s.put("bestSeconds", round(f.bestNanos() / 1e9, 4));
            s.put("medianSeconds", round(f.medianNanos() / 1e9, 4));
            s.put("bestMBps", round(f.megabytesPerSecond(f.bestNanos()), 1));
            s.put("medianMBps", round(f.megabytesPerSecond(f.medianNanos()), 1));
            s.put("bestLinesPerSecond", Math.round(f.linesPerSecond(f.bestNanos())));
            s.put("medianLinesPerSecond", Math.round(f.linesPerSecond(f.medianNanos())));
            // throughput ratio to the scan: scan time / stage time (1.0 would be validation for free)
            s.put("ratioToScanBest", round((double) scanBest / f.bestNanos(), 3));
            s.put("ratioToScanMedian", round((double) scanMedian / f.medianNanos(), 3));
            s.put("ratioToValidatorMedian", round((double) core.medianNanos() / f.medianNanos(), 3));
            if (f.medianCpuNanos() > 0) {
                s.put("passesCpu", f.passes().stream().map(p -> round(p.cpuNanos() / 1e9, 4)).toList());
                s.put("medianCpuSeconds", round(f.medianCpuNanos() / 1e9, 4));
                s.put("medianMBpsCpu", round(f.megabytesPerSecond(f.medianCpuNanos()), 1));
            }
            stages.add(s);
        }
        report.put("stages", stages);
        figures.stream().filter(f -> f.stage() instanceof EndToEndStage).findFirst()
                .ifPresent(f -> report.put("endToEnd", endToEnd(f, core)));
        List<StageFigures> reads = figures.stream().filter(f -> f.stage() instanceof EndToEndStage).toList();
        if (!reads.isEmpty()) {
            report.put("rangedReads", rangedReads(reads));
        }

        ValidationResult r = figures.stream().flatMap(f -> f.passes().stream()).map(Pass::validation)
                .filter(Objects::nonNull).findFirst().orElse(null);
        if (r != null) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("decision", r.decision());
            if (r.refusal() != null) {
                v.put("refusal", r.refusal().code().name());
            }
            v.put("sha256", r.sha256());
            v.put("accepted", r.accepted());
            v.put("duplicates", r.duplicates());
            v.put("rejected", r.rejected());
            v.put("acceptedBytes", r.acceptedBytes());
            v.put("distinctKeys", r.distinctKeys());
            v.put("keyIndexBytes", r.keyIndexBytes());
            v.put("keyIndexBytesPerKey", round(r.keyIndexBytesPerKey(), 2));
            v.put("keyIndexRuns", r.keyIndexRuns());
            v.put("keyIndexDiskBytes", r.keyIndexDiskBytes());
            v.put("keyIndexDiskBytesPerKey", round(r.keyIndexDiskBytesPerKey(), 2));
            report.put("validation", v);
        }
        Map<String, Object> heap = new LinkedHashMap<>();
        heap.put("usedAfterGcAtStartBytes", heapAtStart);
        if (heapAtEndOfInput >= 0) {
            // the validator (line buffer, parser, duplicate index) is live at this point
            heap.put("usedAfterGcAtEndOfInputBytes", heapAtEndOfInput);
        }
        heap.put("usedAfterGcAtEndBytes", heapAtEnd);
        heap.put("maxBytes", HeapGauge.maxHeap());
        report.put("heap", heap);
        Map<String, Object> checks = new LinkedHashMap<>();
        checks.put("ok", problems.isEmpty());
        checks.put("problems", problems);
        report.put("checks", checks);
        return report;
    }

    /**
     * The validator core stage to compare the end-to-end path with: the one at the default worker count, which the
     * function runs too, else (a sweep without it) the one at 1 worker.
     */
    static StageFigures coreAtDefaultWorkers(List<StageFigures> figures) {
        List<StageFigures> sweep = sweep(figures);
        return sweep.stream().filter(f -> ((ValidatorStage) f.stage()).workers() == ValidationLimits.DEFAULT_WORKERS).findFirst()
                .orElse(sweep.getFirst());
    }

    /** The validator core's stages of the worker sweep, fewest workers first. */
    static List<StageFigures> sweep(List<StageFigures> figures) {
        return figures.stream().filter(f -> f.stage() instanceof ValidatorStage v && !v.writesFile())
                .sorted(java.util.Comparator.comparingInt(f -> ((ValidatorStage) f.stage()).workers())).toList();
    }

    /**
     * The scaling curve: per worker count the throughput, the speed-up over 1 worker (its median time over this
     * count's) and the efficiency per worker (speed-up / workers; 1.0 is perfect scaling), the process's peak
     * resident set over the passes, the key index's bytes per distinct key, and the heap live at the end of the input.
     */
    static Map<String, Object> workers(List<StageFigures> figures, Map<Integer, Long> heapAtEndOfInput) {
        Map<String, Object> w = new LinkedHashMap<>();
        w.put("default", ValidationLimits.DEFAULT_WORKERS);
        w.put("processors", Runtime.getRuntime().availableProcessors());
        w.put("residentMemory", "peak resident set of the whole benchmark JVM during each pass (VmHWM of /proc/self/status,"
                + " reset before the pass through /proc/self/clear_refs); max over the timed passes");
        List<StageFigures> sweep = sweep(figures);
        StageFigures one = sweep.getFirst();
        List<Object> byWorkers = new ArrayList<>();
        for (StageFigures f : sweep) {
            int n = ((ValidatorStage) f.stage()).workers();
            double speedUp = (double) one.medianNanos() / f.medianNanos();
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("workers", n);
            c.put("stage", f.stage().name());
            c.put("bestMBps", round(f.megabytesPerSecond(f.bestNanos()), 1));
            c.put("medianMBps", round(f.megabytesPerSecond(f.medianNanos()), 1));
            c.put("bestLinesPerSecond", Math.round(f.linesPerSecond(f.bestNanos())));
            c.put("medianLinesPerSecond", Math.round(f.linesPerSecond(f.medianNanos())));
            c.put("speedUp", round(speedUp, 3));
            c.put("efficiency", round(speedUp / n, 3));
            c.put("medianCpuSeconds", f.medianCpuNanos() < 0 ? null : round(f.medianCpuNanos() / 1e9, 4));
            long inOrder = f.medianInOrderCpuNanos();
            c.put("medianInOrderCpuSeconds", inOrder < 0 ? null : round(inOrder / 1e9, 4));
            c.put("inOrderCeilingMBps", f.inOrderCeilingMBps() < 0 ? null : round(f.inOrderCeilingMBps(), 1));
            long peak = f.passes().stream().mapToLong(Pass::peakRssBytes).max().orElse(-1);
            c.put("peakRssBytes", peak < 0 ? null : peak);
            ValidationResult r = f.last().validation();
            c.put("distinctKeys", r.distinctKeys());
            c.put("keyIndexBytesPerKey", round(r.keyIndexBytesPerKey(), 2));
            c.put("heapAtEndOfInputBytes", heapAtEndOfInput.get(n));
            byWorkers.add(c);
        }
        w.put("byWorkers", byWorkers);
        return w;
    }

    /**
     * The end-to-end passes step by step (seconds from the handler's call to the end of each step), with the
     * median pass (by wall time) first: how much of the staging upload ran while the validator was still parsing.
     */
    private static Map<String, Object> endToEnd(StageFigures f, StageFigures core) {
        Map<String, Object> e = new LinkedHashMap<>();
        List<Pass> byTime = f.passes().stream().sorted(java.util.Comparator.comparingLong(Pass::nanos)).toList();
        Pass median = byTime.get((byTime.size() - 1) / 2);
        EndToEndStage.Publish p = median.publish();
        e.put("action", p.action().name());
        if (p.refusalCode() != null) {
            e.put("refusal", p.refusalCode());
        }
        e.put("accepted", p.accepted());
        e.put("publishedBytes", p.publishedBytes());
        e.put("ratioToValidatorMedian", round((double) core.medianNanos() / f.medianNanos(), 3));
        // the handler builds its validator with the default limits, so it parses at the default worker count
        e.put("workers", ValidationLimits.defaults().workers());
        e.put("validatorStage", core.stage().name());
        e.put("medianPass", steps(p));
        e.put("passes", f.passes().stream().map(pass -> steps(pass.publish())).toList());
        return e;
    }

    /**
     * The end-to-end stages side by side, one per K: the median MB/s, the most S3 connections sending at once, and the ratio to
     * the K=1 stage's median (one GetObject, the function's read before ranged reads).
     */
    private static Map<String, Object> rangedReads(List<StageFigures> stages) {
        Map<String, Object> r = new LinkedHashMap<>();
        EndToEndStage first = (EndToEndStage) stages.getFirst().stage();
        r.put("connectionMBps", round(first.connectionBytesPerSecond() / 1e6, 1));
        r.put("rangeBytes", first.reads().rangeBytes());
        StageFigures single = stages.stream().filter(f -> ((EndToEndStage) f.stage()).reads().rangesInFlight() == 1).findFirst().orElse(null);
        List<Object> byK = new ArrayList<>();
        for (StageFigures f : stages.stream().sorted(java.util.Comparator.comparingInt(f -> ((EndToEndStage) f.stage()).reads().rangesInFlight())).toList()) {
            Map<String, Object> k = new LinkedHashMap<>();
            k.put("ranges", ((EndToEndStage) f.stage()).reads().rangesInFlight());
            k.put("stage", f.stage().name());
            k.put("medianMBps", round(f.megabytesPerSecond(f.medianNanos()), 1));
            k.put("bestMBps", round(f.megabytesPerSecond(f.bestNanos()), 1));
            k.put("maxS3ConnectionsSending", f.passes().stream().mapToInt(p -> p.publish().s3Connections()).max().orElse(-1));
            k.put("medianFirstByteToLastRowSeconds", round(f.passes().stream()
                    .mapToDouble(p -> (p.publish().parsedNanos() - p.publish().firstByteNanos()) / 1e9).sorted()
                    .skip((f.passes().size() - 1) / 2).findFirst().orElse(-1), 3));
            if (single != null) {
                k.put("ratioToOneGetObject", round((double) single.medianNanos() / f.medianNanos(), 2));
            }
            byK.add(k);
        }
        r.put("byRanges", byK);
        return r;
    }

    private static Map<String, Object> steps(EndToEndStage.Publish p) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("firstByteSeconds", seconds(p.firstByteNanos()));
        s.put("lastRowParsedSeconds", seconds(p.parsedNanos()));
        s.put("stagedSeconds", seconds(p.stagedNanos()));
        s.put("promotedSeconds", seconds(p.promotedNanos()));
        s.put("ledgerWrittenSeconds", seconds(p.ledgerNanos()));
        s.put("totalSeconds", seconds(p.totalNanos()));
        s.put("tailAfterLastRowSeconds", p.parsedNanos() < 0 ? null : seconds(p.totalNanos() - p.parsedNanos()));
        s.put("parts", p.parts());
        s.put("partsDoneBeforeLastRowParsed", p.partsBeforeParsed());
        s.put("maxPartsInFlight", p.maxPartsInFlight());
        s.put("handlerThreadCpuSeconds", seconds(p.handlerCpuNanos()));
        Map<String, Object> byThreads = new LinkedHashMap<>();
        p.cpuByThreads().forEach((group, nanos) -> byThreads.put(group, seconds(nanos)));
        s.put("cpuByThreadsSeconds", byThreads);
        s.put("maxS3ConnectionsSending", p.s3Connections());
        return s;
    }

    /** Seconds with four decimals, or null for a step the pass never reached (-1). */
    private static Double seconds(long nanos) {
        return nanos < 0 ? null : round(nanos / 1e9, 4);
    }

    private static Map<String, Object> jvm() {
        Map<String, Object> jvm = new LinkedHashMap<>();
        jvm.put("version", System.getProperty("java.vm.version"));
        jvm.put("vendor", System.getProperty("java.vm.vendor"));
        jvm.put("gc", HeapGauge.collectors());
        jvm.put("processors", Runtime.getRuntime().availableProcessors());
        jvm.put("arguments", ManagementFactory.getRuntimeMXBean().getInputArguments());
        return jvm;
    }

    @SuppressWarnings("unchecked")
    private void printTable(Map<String, Object> report, List<StageFigures> figures, LambdaEstimate.Inputs onPaper) {
        out.printf(Locale.ROOT, "file        %s%n", report.get("file"));
        out.printf(Locale.ROOT, "            %,d bytes stored%s, %,d bytes of text, %,d lines%n", (long) report.get("storedBytes"),
                (boolean) report.get("gzip") ? " (gzip)" : "", (long) report.get("decodedBytes"), (long) report.get("lines"));
        Map<String, Object> g = (Map<String, Object>) report.get("generated");
        if (g != null) {
            out.printf(Locale.ROOT, "generated   seed %d: %,d distinct, %,d duplicates, %,d late, %,d malformed, %.1f bytes a line, in %.2f s%n",
                    (long) g.get("seed"), (long) g.get("distinct"), (long) g.get("duplicates"), (long) g.get("late"),
                    (long) g.get("malformed"), (double) g.get("bytesPerLine"), (double) g.get("seconds"));
        }
        Map<String, Object> jvm = (Map<String, Object>) report.get("jvm");
        out.printf(Locale.ROOT, "jvm         %s %s, gc %s, %d CPUs, max heap %,d MB, args %s%n", jvm.get("vendor"), jvm.get("version"),
                jvm.get("gc"), (int) jvm.get("processors"), HeapGauge.maxHeap() / 1_000_000, String.join(" ", (List<String>) jvm.get("arguments")));
        Map<String, Object> machine = (Map<String, Object>) report.get("machine");
        out.printf(Locale.ROOT, "machine     load average %.2f at the start, %.2f at the end, for %d CPUs%n", (double) machine.get("loadAverageAtStart"),
                (double) machine.get("loadAverageAtEnd"), (int) jvm.get("processors"));
        out.printf(Locale.ROOT, "passes      1 warm-up, then %d timed per stage (interleaved); MB = 10^6 bytes of text%n%n", repeat);
        out.printf(Locale.ROOT, "%-15s %-41s %8s %9s %10s %11s %13s %13s %8s %10s %9s%n", "stage", "what", "best s", "median s", "MB/s best",
                "MB/s median", "lines/s best", "lines/s med.", "vs scan", "cpu s med.", "MB/s cpu");
        List<Map<String, Object>> stages = (List<Map<String, Object>>) report.get("stages");
        for (int i = 0; i < stages.size(); i++) {
            Map<String, Object> s = stages.get(i);
            boolean once = figures.get(i).passes().size() == 1 && repeat > 1;
            boolean cpu = s.containsKey("medianCpuSeconds");
            out.printf(Locale.ROOT, "%-15s %-41s %8.3f %9s %10.1f %11s %,13d %13s %8.3f %10s %9s%n", s.get("name"), s.get("description"),
                    (double) s.get("bestSeconds"), once ? "(once)" : String.format(Locale.ROOT, "%.3f", (double) s.get("medianSeconds")),
                    (double) s.get("bestMBps"), once ? "" : String.format(Locale.ROOT, "%.1f", (double) s.get("medianMBps")),
                    (long) s.get("bestLinesPerSecond"), once ? "" : String.format(Locale.ROOT, "%,d", (long) s.get("medianLinesPerSecond")),
                    (double) (once ? s.get("ratioToScanBest") : s.get("ratioToScanMedian")),
                    cpu ? String.format(Locale.ROOT, "%.3f", (double) s.get("medianCpuSeconds")) : "-",
                    cpu ? String.format(Locale.ROOT, "%.1f", (double) s.get("medianMBpsCpu")) : "-");
        }
        out.println("(vs scan: stage throughput / scan throughput, medians; best for a stage run once."
                + " cpu: process CPU time of the pass, all threads: the wall time a machine without other load would show)");
        out.println();
        printWorkers((Map<String, Object>) report.get("workers"));
        Map<String, Object> e = (Map<String, Object>) report.get("endToEnd");
        if (e != null) {
            Map<String, Object> m = (Map<String, Object>) e.get("medianPass");
            out.printf(Locale.ROOT, "end to end  %s%s, %,d rows, %,d bytes published; %.3f of the validator core's throughput (medians, %s)%n",
                    e.get("action"), e.containsKey("refusal") ? " (" + e.get("refusal") + ")" : "", (long) e.get("accepted"),
                    (long) e.get("publishedBytes"), (double) e.get("ratioToValidatorMedian"), e.get("validatorStage"));
            out.printf(Locale.ROOT, "            the handler's validator parses with %d workers (the default: -D%s, else the processors)%n",
                    (int) e.get("workers"), ValidationLimits.WORKERS_PROPERTY);
            out.printf(Locale.ROOT, "            median pass, s from the S3 event: GetObject %s, last row parsed %s, staged %s, promoted %s,"
                            + " ledger written %s, done %s%n", m.get("firstByteSeconds"), m.get("lastRowParsedSeconds"), m.get("stagedSeconds"),
                    m.get("promotedSeconds"), m.get("ledgerWrittenSeconds"), m.get("totalSeconds"));
            out.printf(Locale.ROOT, "            after the last row: %s s (staging's last parts and complete, promote, ledger, cleanup);"
                            + " staging %d parts, %d done before the last row was parsed, at most %d in flight%n",
                    m.get("tailAfterLastRowSeconds"), (int) m.get("parts"), (int) m.get("partsDoneBeforeLastRowParsed"),
                    (int) m.get("maxPartsInFlight"));
            out.printf(Locale.ROOT, "            cpu: the handler's thread %s s of the pass's process cpu (the rest: part uploads, the in-process"
                    + " S3 emulator, GC)%n", m.get("handlerThreadCpuSeconds"));
            Map<String, Object> byThreads = (Map<String, Object>) m.get("cpuByThreadsSeconds");
            if (!byThreads.isEmpty()) {
                double total = byThreads.values().stream().mapToDouble(v -> (double) v).sum();
                StringBuilder line = new StringBuilder();
                byThreads.forEach((group, secs) -> line.append(line.isEmpty() ? "" : ", ").append(group).append(' ')
                        .append(String.format(Locale.ROOT, "%.2f", (double) secs)));
                out.printf(Locale.ROOT, "            cpu by thread, s (%.2f s in all; moto's DynamoDB is a process of its own, not counted): %s%n",
                        total, line);
            }
        }
        Map<String, Object> ranged = (Map<String, Object>) report.get("rangedReads");
        if (ranged != null) {
            double limit = (double) ranged.get("connectionMBps");
            out.printf(Locale.ROOT, "ranged reads  the inbox object in K concurrent ranges of %d MiB; S3 %s%n",
                    (long) ranged.get("rangeBytes") >> 20, limit > 0 ? String.format(Locale.ROOT,
                            "held to %.1f MB/s a connection (throttling proxy, --s3-connection-mbps)", limit) : "at the emulator's own speed");
            for (Map<String, Object> k : (List<Map<String, Object>>) ranged.get("byRanges")) {
                out.printf(Locale.ROOT, "            K=%-3d %7.1f MB/s median (best %.1f), %s x one GetObject; first byte to last row %.3f s;"
                                + " at most %s S3 connections sending at once%n", (int) k.get("ranges"), (double) k.get("medianMBps"), (double) k.get("bestMBps"),
                        k.containsKey("ratioToOneGetObject") ? String.format(Locale.ROOT, "%.2f", (double) k.get("ratioToOneGetObject")) : "-",
                        (double) k.get("medianFirstByteToLastRowSeconds"),
                        (int) k.get("maxS3ConnectionsSending") < 0 ? "-" : Integer.toString((int) k.get("maxS3ConnectionsSending")));
            }
        }
        Map<String, Object> v = (Map<String, Object>) report.get("validation");
        if (v != null) {
            out.printf(Locale.ROOT, "validator   decision %s%s: %,d accepted, %,d duplicates, %,d rejected%n", v.get("decision"),
                    v.containsKey("refusal") ? " (" + v.get("refusal") + ")" : "", (long) v.get("accepted"), (long) v.get("duplicates"),
                    (long) v.get("rejected"));
            out.printf(Locale.ROOT, "key index   %,d bytes for %,d distinct keys: %.2f bytes per key%n", (long) v.get("keyIndexBytes"),
                    (long) v.get("distinctKeys"), (double) v.get("keyIndexBytesPerKey"));
            if ((int) v.get("keyIndexRuns") > 0) {
                out.printf(Locale.ROOT, "            spilled %d sorted runs, %,d bytes on disk: %.2f bytes per distinct key%n",
                        (int) v.get("keyIndexRuns"), (long) v.get("keyIndexDiskBytes"), (double) v.get("keyIndexDiskBytesPerKey"));
            }
        }
        Map<String, Object> heap = (Map<String, Object>) report.get("heap");
        out.printf(Locale.ROOT, "heap        used after a full GC: at start %.1f MB, %sat end %.1f MB (max %,d MB)%n",
                (long) heap.get("usedAfterGcAtStartBytes") / 1e6,
                heap.containsKey("usedAfterGcAtEndOfInputBytes")
                        ? String.format(Locale.ROOT, "at the end of the input with the validator live %.1f MB, ",
                        (long) heap.get("usedAfterGcAtEndOfInputBytes") / 1e6) : "",
                (long) heap.get("usedAfterGcAtEndBytes") / 1e6, HeapGauge.maxHeap() / 1_000_000);
        if (onPaper != null) {
            printEstimate(onPaper);
        }
        List<String> problems = (List<String>) ((Map<String, Object>) report.get("checks")).get("problems");
        out.println("checks      " + (!problems.isEmpty() ? problems.size() + " FAILED (see stderr)" : "ok: every pass saw the same bytes"
                + " and reached the same result" + (g != null ? ", the one the generator wrote" : "")));
    }

    /** What S3 is taken to carry a connection in the estimate: AWS's planning figure when the run has no throttle. */
    static final double PLANNING_CONNECTION_MBPS = 85;

    /** The estimate's inputs from this run: the sweep's medians, the scan's, K and the index's bytes per key; null for a file without keys. */
    private LambdaEstimate.Inputs lambdaInputs(List<StageFigures> figures) {
        List<StageFigures> sweep = sweep(figures);
        ValidationResult r = sweep.getFirst().last().validation();
        if (r.distinctKeys() == 0) {
            return null;
        }
        Map<Integer, Double> byWorkers = new LinkedHashMap<>();
        for (StageFigures f : sweep) {
            byWorkers.put(((ValidatorStage) f.stage()).workers(), f.megabytesPerSecond(f.medianNanos()));
        }
        StageFigures scan = figures.getFirst();
        double scanMBps = scan.megabytesPerSecond(scan.medianNanos());
        // the in-order thread's ceiling where workers parse (at the most workers timed); the scan's where none was timed
        double inOrderMBps = scanMBps;
        for (StageFigures f : sweep) {
            if (((ValidatorStage) f.stage()).workers() > 1 && f.inOrderCeilingMBps() > 0) {
                inOrderMBps = Math.min(scanMBps, f.inOrderCeilingMBps());
            }
        }
        // the index's first chunk and table weigh on a small file's figure: below a million keys take the one measured on a whole day
        boolean enoughKeys = r.distinctKeys() >= LambdaEstimate.KEYS_FOR_A_FIGURE;
        return new LambdaEstimate.Inputs(byWorkers, inOrderMBps, s3ReadRanges,
                s3ConnectionMbps > 0 ? s3ConnectionMbps : PLANNING_CONNECTION_MBPS,
                enoughKeys ? r.keyIndexBytesPerKey() : LambdaEstimate.DAY_BYTES_PER_KEY, enoughKeys ? r.distinctKeys() : LambdaEstimate.DAY_KEYS_MEASURED);
    }

    /** The peak day on Lambda from this run's figures, labelled as the estimate it is, with the model and its inputs. */
    private void printEstimate(LambdaEstimate.Inputs in) {
        out.printf(Locale.ROOT, "on paper    AN ESTIMATE FROM A MODEL, not a measurement: a %,d-line, %.1f GB day with %,d distinct keys on Lambda,"
                + " from this run's figures%n", LambdaEstimate.DAY_LINES, LambdaEstimate.DAY_BYTES / 1e9, LambdaEstimate.DAY_KEYS);
        for (String line : wrap("model: " + LambdaEstimate.model(), 118)) {
            out.println("            " + line);
        }
        StringBuilder measured = new StringBuilder();
        in.medianMBpsByWorkers().forEach((n, mbps) -> measured.append(measured.isEmpty() ? "" : ", ")
                .append(String.format(Locale.ROOT, "%.1f MB/s at %d worker%s", mbps, n, n == 1 ? "" : "s")));
        String inputs = String.format(Locale.ROOT, "inputs (measured here unless named): validator core medians %s, so %.1f MB/s"
                        + " a worker past %d; in-order (its bytes over the in-order thread's CPU time with workers, else the scan's median) %.1f MB/s; S3 K=%d (--s3-read-ranges) x %.1f MB/s a connection"
                        + " (--s3-connection-mbps; 85 is AWS's planning figure) = %.1f MB/s; index %.2f B/key (measured on %,d keys%s)",
                measured, in.perWorkerMBps(), in.largestMeasured(), in.inOrderMBps(), in.ranges(), in.connectionMBps(),
                in.ranges() * in.connectionMBps(), in.bytesPerKey(), in.measuredKeys(),
                in.measuredKeys() == LambdaEstimate.DAY_KEYS_MEASURED ? ": docs/performance.md's whole peak day, this file has under "
                        + String.format(Locale.ROOT, "%,d", LambdaEstimate.KEYS_FOR_A_FIGURE) : ", this file's");
        for (String line : wrap(inputs, 118)) {
            out.println("            " + line);
        }
        out.printf(Locale.ROOT, "            %9s %5s %7s %16s %9s %8s %8s %8s %9s %6s %12s %8s %9s%n", "memory MB", "vCPUs", "workers",
                "parse MB/s", "rate MB/s", "bound by", "time s", "index GB", "budget GB", "spills", "ephemeral MB", "worst s", "in 15 min");
        for (int mb : LambdaEstimate.MEMORY_SIZES_MB) {
            LambdaEstimate.Row row = LambdaEstimate.estimate(in, mb);
            out.printf(Locale.ROOT, "            %,9d %5d %7d %16s %9.1f %8s %8.1f %8.2f %9.2f %6s %,12d %8.1f %9s%n", row.memoryMb(), row.vcpus(),
                    row.workers(), String.format(Locale.ROOT, "%.1f %s", row.parseMBps(), row.parseMeasured() ? "(timed)" : "(extended)"),
                    row.rateMBps(), row.boundBy(), row.seconds(), row.indexBytes() / 1e9, row.budgetBytes() / 1e9, row.spills() ? "yes" : "no",
                    row.ephemeralMb(), row.worstSeconds(), row.withinTimeout() ? "yes" : "NO");
        }
        LambdaEstimate.Row max = LambdaEstimate.estimate(in, LambdaEstimate.MAX_MEMORY_MB);
        String needs = String.format(Locale.ROOT, "at %,d MB (%d vCPUs): about %.0f s (%.1f min) for the day, %,.0f lines/s, bound by %s. Settings it needs:"
                        + " MemorySize %d; KEY_INDEX_MEMORY_MB at least %,d (the default, half the heap, is about %,d)%s;"
                        + " the index stays in memory from about %,d MB up",
                LambdaEstimate.MAX_MEMORY_MB, max.vcpus(), max.seconds(), max.seconds() / 60, LambdaEstimate.DAY_LINES / max.seconds(),
                max.boundBy(), LambdaEstimate.MAX_MEMORY_MB, (long) Math.ceil(max.indexBytes() / (1 << 20)),
                (long) (max.budgetBytes() / (1 << 20)),
                max.spills() ? String.format(Locale.ROOT, "; it spills: ephemeral storage at least %,d MB (SnapStart off: with it /tmp is 512 MB)",
                        max.ephemeralMb()) : "; ephemeral storage 512 MB, the default (nothing spills)",
                LambdaEstimate.smallestMemoryHoldingTheIndexMb(in));
        for (String line : wrap(needs, 118)) {
            out.println("            " + line);
        }
    }

    /** Splits text into lines of at most {@code width} characters at spaces. */
    static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (!line.isEmpty() && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            line.append(line.isEmpty() ? "" : " ").append(word);
        }
        if (!line.isEmpty()) {
            lines.add(line.toString());
        }
        return lines;
    }

    /** The scaling curve's table: one row per worker count of the sweep. */
    @SuppressWarnings("unchecked")
    private void printWorkers(Map<String, Object> w) {
        out.printf(Locale.ROOT, "workers     the validator core by parse threads (default %d, %d processors); speed-up: the 1-worker median time"
                + " / this count's; efficiency: speed-up / workers (1.00 is perfect scaling)%n", (int) w.get("default"), (int) w.get("processors"));
        out.printf(Locale.ROOT, "            %7s %10s %11s %13s %13s %9s %10s %10s %11s %12s %12s %7s %10s%n", "workers", "MB/s best", "MB/s median",
                "lines/s best", "lines/s med.", "speed-up", "efficiency", "cpu s med.", "in-order s", "in-order MB/s", "peak RSS MB", "B/key",
                "heap MB");
        for (Map<String, Object> c : (List<Map<String, Object>>) w.get("byWorkers")) {
            Object cpu = c.get("medianCpuSeconds");
            Object inOrder = c.get("medianInOrderCpuSeconds");
            Object ceiling = c.get("inOrderCeilingMBps");
            Object rss = c.get("peakRssBytes");
            Object heap = c.get("heapAtEndOfInputBytes");
            out.printf(Locale.ROOT, "            %7d %10.1f %11.1f %,13d %,13d %8.2fx %10.2f %10s %11s %13s %12s %7.2f %10s%n", (int) c.get("workers"),
                    (double) c.get("bestMBps"), (double) c.get("medianMBps"), (long) c.get("bestLinesPerSecond"),
                    (long) c.get("medianLinesPerSecond"), (double) c.get("speedUp"), (double) c.get("efficiency"),
                    cpu == null ? "-" : String.format(Locale.ROOT, "%.3f", (double) cpu),
                    inOrder == null ? "-" : String.format(Locale.ROOT, "%.3f", (double) inOrder),
                    ceiling == null ? "-" : String.format(Locale.ROOT, "%.1f", (double) ceiling),
                    rss == null ? "-" : String.format(Locale.ROOT, "%.1f", (long) rss / 1e6),
                    (double) c.get("keyIndexBytesPerKey"),
                    heap == null ? "-" : String.format(Locale.ROOT, "%.1f", (long) heap / 1e6));
        }
        out.println("            (in-order s: CPU time of the thread that reads, hashes, splits, decides and writes in input order;"
                + " in-order MB/s: the bytes over it, the most the validator reaches at any worker count unless that thread gets faster)");
        out.println("            (peak RSS: " + w.get("residentMemory") + "; B/key: the duplicate index's bytes per distinct key;"
                + " heap MB: live after a full GC at the end of the input, one untimed pass; '-' with --no-retained-heap)");
        out.println();
    }

    private void cleanUp(Path dir, Path generatedFile, Path acceptedFile) {
        try {
            if (acceptedFile != null) {
                Files.deleteIfExists(acceptedFile);
            }
            if (workDir == null && dir != null) {
                if (generatedFile != null) {
                    Files.deleteIfExists(generatedFile);
                }
                Files.deleteIfExists(dir);
            }
        } catch (IOException e) {
            err.println("landing bench: could not clean up " + dir + ": " + e);
        }
    }
}
