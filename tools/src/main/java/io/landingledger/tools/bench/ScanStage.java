package io.landingledger.tools.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.GZIPInputStream;

/**
 * The floor: read the file, SHA-256 the stored bytes, inflate gzip, find every line end. No parsing. It reads in
 * the validator's chunk size and inflates with its gzip buffer, so the difference between the two is the work of
 * validation and nothing else.
 */
final class ScanStage implements BenchStage {
    private static final int READ_CHUNK = 256 * 1024;
    private static final int GZIP_BUFFER = 64 * 1024;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
    private static final long LOW_SEVEN_BITS = 0x7F7F7F7F7F7F7F7FL;

    @Override
    public String name() {
        return "scan";
    }

    @Override
    public String description() {
        return "read + SHA-256 + line split";
    }

    @Override
    public Pass run(BenchFile file) throws IOException {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        byte[] buffer = new byte[READ_CHUNK];
        long bytes = 0;
        long newlines = 0;
        byte last = '\n';
        long started = System.nanoTime();
        try (InputStream stored = Files.newInputStream(file.path());
             InputStream hashed = new DigestInputStream(stored, sha256);
             InputStream text = file.gzip() ? new GZIPInputStream(hashed, GZIP_BUFFER) : hashed) {
            for (int n = text.read(buffer, 0, buffer.length); n >= 0; n = text.read(buffer, 0, buffer.length)) {
                if (n == 0) {
                    continue;
                }
                newlines += countNewlines(buffer, n);
                bytes += n;
                last = buffer[n - 1];
            }
            // like the validator, hash every stored byte, also any after the gzip trailer
            hashed.transferTo(OutputStream.nullOutputStream());
        }
        long nanos = System.nanoTime() - started;
        long lines = newlines + (last != '\n' ? 1 : 0);
        return new Pass(nanos, bytes, lines, HexFormat.of().formatHex(sha256.digest()), null);
    }

    /**
     * Counts {@code '\n'} bytes eight at a time (an exact SWAR zero-byte test: no false positives), so the floor
     * is set by the read and the hash, not by a byte loop.
     */
    static long countNewlines(byte[] b, int length) {
        long count = 0;
        int i = 0;
        for (int end = length - 7; i < end; i += Long.BYTES) {
            long x = (long) LONGS.get(b, i) ^ NEWLINES;
            long y = (x & LOW_SEVEN_BITS) + LOW_SEVEN_BITS;
            count += Long.bitCount(~(y | x | LOW_SEVEN_BITS));
        }
        for (; i < length; i++) {
            if (b[i] == '\n') {
                count++;
            }
        }
        return count;
    }
}
