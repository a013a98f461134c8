package io.landingledger.core.testing;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Returns at most {@code maxPerRead} bytes per read and answers {@code available()} with 0, as a socket or an S3
 * response stream may, so chunk-boundary bugs in streaming code show up (the project runs streaming tests on whole, 1-byte, 7-byte and
 * 8 KiB reads).
 */
public final class ThrottledInputStream extends FilterInputStream {
    /** The read sizes every streaming test runs with. */
    public static final int[] READ_SIZES = {Integer.MAX_VALUE, 1, 7, 8 * 1024};

    private final int maxPerRead;

    public ThrottledInputStream(InputStream in, int maxPerRead) {
        super(in);
        if (maxPerRead < 1) {
            throw new IllegalArgumentException("maxPerRead must be at least 1, not " + maxPerRead);
        }
        this.maxPerRead = maxPerRead;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        return in.read(b, off, Math.min(len, maxPerRead));
    }

    @Override
    public long skip(long n) throws IOException {
        return in.skip(Math.min(n, maxPerRead));
    }

    @Override
    public int available() {
        return 0;
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    /** A human name for a read size in test messages. */
    public static String describe(int readSize) {
        return readSize == Integer.MAX_VALUE ? "whole reads" : readSize + "-byte reads";
    }
}
