package io.landingledger.tools.bench;

import io.landingledger.core.validate.ValidationResult;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One measured way through the bench file. {@link BenchCommand#stages} lists the stages a run measures: the scan
 * baseline first (every ratio is taken against it), then the validator core, then unless skipped the end-to-end
 * stage ({@link EndToEndStage}: GetObject from the embedded S3 by version, validate, multipart staging upload,
 * promote, ledger). The runner, the table and the JSON take each stage alike.
 */
interface BenchStage {
    /** Short name for the table and the JSON, e.g. {@code scan}. */
    String name();

    /** What the stage does, in a few words. */
    String description();

    /** Runs one pass over the whole file and times it. */
    Pass run(BenchFile file) throws IOException;

    /**
     * One timed pass.
     *
     * @param nanos      wall time of the pass
     * @param bytes      decoded (text) bytes processed: the MB/s figures are over these, so plain and gzip files compare
     * @param lines      lines seen
     * @param sha256     SHA-256 of the stored bytes, hex: every stage must agree
     * @param validation the validator's result, or null for a stage that does not validate
     * @param publish    what the end-to-end path published and when each of its steps ended, or null for the others
     * @param cpuNanos   CPU time the whole process spent during the pass (all threads: GC and JIT too), or -1 when
     *                   not measured; on a busy machine it shows what the wall time would be without the other load
     * @param peakRssBytes the process's peak resident set during the pass ({@link ResidentMemory}), or -1 when not
     *                   measured
     * @param inOrderCpuNanos CPU time of the thread that ran the pass, or -1: for the validator that is the in-order
     *                   thread (it reads, hashes, splits, decides and writes), whose CPU per byte bounds the validator
     *                   however many workers parse
     */
    record Pass(long nanos, long bytes, long lines, String sha256, ValidationResult validation, EndToEndStage.Publish publish,
                long cpuNanos, long peakRssBytes, long inOrderCpuNanos) {
        Pass(long nanos, long bytes, long lines, String sha256, ValidationResult validation) {
            this(nanos, bytes, lines, sha256, validation, null, -1, -1, -1);
        }

        double seconds() {
            return nanos / 1e9;
        }

        Pass withCpuNanos(long cpu) {
            return new Pass(nanos, bytes, lines, sha256, validation, publish, cpu, peakRssBytes, inOrderCpuNanos);
        }

        Pass withPeakRssBytes(long peak) {
            return new Pass(nanos, bytes, lines, sha256, validation, publish, cpuNanos, peak, inOrderCpuNanos);
        }

        Pass withPublish(EndToEndStage.Publish published) {
            return new Pass(nanos, bytes, lines, sha256, validation, published, cpuNanos, peakRssBytes, inOrderCpuNanos);
        }

        Pass withInOrderCpuNanos(long cpu) {
            return new Pass(nanos, bytes, lines, sha256, validation, publish, cpuNanos, peakRssBytes, cpu);
        }
    }

    /** The file under test. */
    record BenchFile(Path path, long storedBytes, boolean gzip) {
        static BenchFile of(Path path) throws IOException {
            byte[] magic = new byte[2];
            int n;
            try (InputStream in = Files.newInputStream(path)) {
                n = in.readNBytes(magic, 0, 2);
            }
            return new BenchFile(path, Files.size(path), n == 2 && magic[0] == (byte) 0x1f && magic[1] == (byte) 0x8b);
        }
    }
}
