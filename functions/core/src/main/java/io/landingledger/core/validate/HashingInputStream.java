package io.landingledger.core.validate;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Counts and SHA-256-hashes the stored bytes as they pass, so the input identity costs no second read.
 * Failures of the wrapped source are marked as {@link SourceReadException}.
 */
final class HashingInputStream extends FilterInputStream {
    private final MessageDigest digest;
    private long count;
    private IOException failure;

    HashingInputStream(InputStream in) {
        super(in);
        try {
            this.digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    @Override
    public int read() throws IOException {
        int b;
        try {
            b = in.read();
        } catch (IOException e) {
            throw failed(e);
        }
        if (b >= 0) {
            digest.update((byte) b);
            count++;
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n;
        try {
            n = in.read(buffer, offset, length);
        } catch (IOException e) {
            throw failed(e);
        }
        if (n > 0) {
            digest.update(buffer, offset, n);
            count += n;
        }
        return n;
    }

    private SourceReadException failed(IOException e) {
        if (failure == null) {
            failure = e;
        }
        return new SourceReadException(e);
    }

    /**
     * The first failure of the source, or null. Kept because a reader above may swallow it: GZIPInputStream catches
     * any IOException while it looks for another concatenated member and reports the end of the file instead.
     */
    IOException failure() {
        return failure;
    }

    @Override
    public long skip(long n) throws IOException {
        // Skipped bytes would escape the hash: read them instead.
        return skipByReading(this, n);
    }

    /** Skips by reading through {@code in}'s own read, so whatever it does per byte (hashing, counting) still happens. */
    static long skipByReading(InputStream in, long n) throws IOException {
        byte[] scratch = new byte[(int) Math.min(Math.max(n, 0), 8192)];
        long skipped = 0;
        while (skipped < n) {
            int r = in.read(scratch, 0, (int) Math.min(scratch.length, n - skipped));
            if (r < 0) {
                break;
            }
            skipped += r;
        }
        return skipped;
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    /** Reads the rest of the source so the hash covers every stored byte. */
    void drain() throws IOException {
        byte[] scratch = new byte[64 * 1024];
        while (read(scratch, 0, scratch.length) >= 0) {
            // hashing happens in read
        }
    }

    long count() {
        return count;
    }

    String sha256Hex() {
        return HexFormat.of().formatHex(digest.digest());
    }
}
