package io.landingledger.core.testing;

import java.io.IOException;
import java.io.InputStream;

/**
 * Serves {@code bytes} and throws {@link #failure} on the read that would go past {@code failAfter} bytes: an
 * infrastructure fault of the source (a reset connection), not corrupt content. By default every later read fails
 * too; {@link #failingOnce} makes it fail once and then serve the rest, as a retrying client might, so a reader that
 * swallowed the failure would go on as if nothing happened.
 */
public final class FailingInputStream extends InputStream {
    public final IOException failure = new IOException("connection reset (injected by the test)");
    private final byte[] bytes;
    private final int failAfter;
    private final boolean once;
    private boolean failed;
    private int pos;

    public FailingInputStream(byte[] bytes, int failAfter) {
        this(bytes, failAfter, false);
    }

    private FailingInputStream(byte[] bytes, int failAfter, boolean once) {
        this.bytes = bytes;
        this.failAfter = failAfter;
        this.once = once;
    }

    /** Fails the first read past {@code failAfter}, then serves the remaining bytes. */
    public static FailingInputStream failingOnce(byte[] bytes, int failAfter) {
        return new FailingInputStream(bytes, failAfter, true);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (pos >= failAfter && !(once && failed)) {
            failed = true;
            throw failure;
        }
        int limit = once && failed ? bytes.length : Math.min(failAfter, bytes.length);
        int n = Math.min(len, limit - pos);
        if (n <= 0) {
            return -1;
        }
        System.arraycopy(bytes, pos, b, off, n);
        pos += n;
        return n;
    }
}
