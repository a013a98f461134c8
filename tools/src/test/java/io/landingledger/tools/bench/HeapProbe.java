package io.landingledger.tools.bench;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.contract.ContractLoader;
import io.landingledger.core.validate.StreamingValidator;
import io.landingledger.core.validate.ValidationResult;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The child JVM of {@link ValidatorHeapIT}: validates a synthetic input of about {@code bytes} bytes, made on the
 * fly by repeating one generated block whose events recur as canonical duplicates, so the duplicate index stays a
 * few thousand keys however long the input is. Prints one JSON object: what the validator found, what the input
 * held, and the heap the validator held at the end of the input.
 *
 * <p>Usage: {@code HeapProbe CONTRACT BYTES}
 */
public final class HeapProbe {
    /** Lines of the repeated block; about 1 MB. */
    static final int BLOCK_LINES = 4_000;
    /** Three lines in four of the first block already repeat an earlier event (other order, offset, whitespace...). */
    static final double BLOCK_DUPLICATE_SHARE = 0.75;

    private HeapProbe() {
    }

    public static void main(String[] args) throws IOException {
        Path contract = Path.of(args[0]);
        long target = Long.parseLong(args[1]);

        ByteArrayOutputStream blockOut = new ByteArrayOutputStream();
        PeakFileGenerator.Summary block = new PeakFileGenerator(new PeakFileGenerator.Options(BLOCK_LINES, 42, BLOCK_DUPLICATE_SHARE,
                PeakFileGenerator.DEFAULT_LATE_SHARE, 0, PeakFileGenerator.DEFAULT_DAY)).write(blockOut);
        byte[] bytes = blockOut.toByteArray();
        long repeats = Math.max(1, (target + bytes.length - 1) / bytes.length);

        StreamingValidator validator = new StreamingValidator(ContractLoader.load(contract));
        HeapGauge.AtEndOfInput input = new HeapGauge.AtEndOfInput(new RepeatingInputStream(bytes, repeats));
        long started = System.nanoTime();
        ValidationResult result = validator.validate(input, OutputStream.nullOutputStream(), OutputStream.nullOutputStream());
        double seconds = (System.nanoTime() - started) / 1e9;

        Map<String, Object> report = new LinkedHashMap<>();
        report.put("decision", result.decision());
        report.put("storedBytes", result.storedBytes());
        report.put("lines", result.lines());
        report.put("accepted", result.accepted());
        report.put("duplicates", result.duplicates());
        report.put("rejected", result.rejected());
        report.put("distinctKeys", result.distinctKeys());
        report.put("keyIndexBytes", result.keyIndexBytes());
        report.put("expectedBytes", repeats * bytes.length);
        report.put("expectedLines", repeats * BLOCK_LINES);
        report.put("expectedDistinct", block.distinct());
        report.put("seconds", seconds);
        report.put("heapAtEndOfInputBytes", input.usedAtEnd());
        report.put("heapAfterBytes", HeapGauge.usedAfterGc());
        report.put("maxHeapBytes", HeapGauge.maxHeap());
        System.out.println(JSON.std.asString(report));
    }

    /** {@code block} {@code repeats} times over, served from the one array: nothing is written to disk. */
    static final class RepeatingInputStream extends InputStream {
        private final byte[] block;
        private long remaining;
        private int position;

        RepeatingInputStream(byte[] block, long repeats) {
            this.block = block;
            this.remaining = repeats;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            if (remaining == 0) {
                return -1;
            }
            int n = Math.min(len, block.length - position);
            System.arraycopy(block, position, b, off, n);
            position += n;
            if (position == block.length) {
                position = 0;
                remaining--;
            }
            return n;
        }
    }
}
