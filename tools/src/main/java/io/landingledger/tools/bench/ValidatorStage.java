package io.landingledger.tools.bench;

import io.landingledger.core.validate.LineSet;
import io.landingledger.core.validate.StreamingValidator;
import io.landingledger.core.validate.ValidationResult;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The validator core on the file: SHA-256, gzip, line split, parse, every contract check, canonical output and
 * the duplicate index, exactly as {@code landing validate} runs it (a second pass included when the spilled index asks for one). Accepted rows go to a discarding stream, or
 * with {@link #toFile} to a real file (buffered as {@code landing validate} buffers it, not synced).
 */
final class ValidatorStage implements BenchStage {
    private static final int OUTPUT_BUFFER = 1 << 16;

    private final StreamingValidator validator;
    private final int workers;
    private final Path acceptedFile;

    private ValidatorStage(StreamingValidator validator, int workers, Path acceptedFile) {
        this.validator = validator;
        this.workers = workers;
        this.acceptedFile = acceptedFile;
    }

    /** Accepted rows are counted and discarded; {@code workers} is the count the validator's limits give it. */
    static ValidatorStage discarding(StreamingValidator validator, int workers) {
        return new ValidatorStage(validator, workers, null);
    }

    /** Accepted rows are written to {@code acceptedFile} (replaced on every pass). */
    static ValidatorStage toFile(StreamingValidator validator, int workers, Path acceptedFile) {
        return new ValidatorStage(validator, workers, acceptedFile);
    }

    /** Threads that parse lines in this stage's passes. */
    int workers() {
        return workers;
    }

    /** The file-writing stage runs once and is not part of the worker sweep. */
    boolean writesFile() {
        return acceptedFile != null;
    }

    /** {@code validator w2}: the sweep's stages are told apart by their worker count. */
    @Override
    public String name() {
        return acceptedFile == null ? "validator w" + workers : "validator+file";
    }

    @Override
    public String description() {
        String threads = workers == 1 ? "1 worker" : workers + " workers";
        return acceptedFile == null ? "validator core, " + threads + ", rows discarded" : "validator core, " + threads + ", rows to a file";
    }

    /**
     * One pass, plus the second pass the result asks for when the spilled key index found rows to drop. The pass runs
     * on this thread, the validator's in-order thread, so this thread's CPU time is the in-order thread's.
     */
    @Override
    public Pass run(BenchFile file) throws IOException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        boolean cpuTimed = threads.isCurrentThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled();
        long cpuBefore = cpuTimed ? threads.getCurrentThreadCpuTime() : -1;
        long started = System.nanoTime();
        ValidationResult result = once(file, LineSet.empty());
        if (result.publishable() && !result.acceptedFinal()) {
            result = once(file, result.rowsToDrop());
        }
        long nanos = System.nanoTime() - started;
        Pass pass = new Pass(nanos, result.decodedBytes(), result.lines(), result.sha256(), result);
        return cpuTimed ? pass.withInOrderCpuNanos(threads.getCurrentThreadCpuTime() - cpuBefore) : pass;
    }

    private ValidationResult once(BenchFile file, LineSet dropRows) throws IOException {
        try (InputStream in = Files.newInputStream(file.path());
             OutputStream accepted = acceptedFile == null ? OutputStream.nullOutputStream()
                     : new BufferedOutputStream(Files.newOutputStream(acceptedFile), OUTPUT_BUFFER)) {
            return validator.validate(in, Files.size(file.path()), accepted, OutputStream.nullOutputStream(), dropRows);
        }
    }
}
