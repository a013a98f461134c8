package io.landingledger.lambda.testing;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.Supplier;

/** Passes {@code afterBytes} bytes through, then throws the fault on every read. */
public final class BreakingStream extends FilterInputStream {
    private final long afterBytes;
    private final Supplier<? extends IOException> fault;
    private long passed;

    public BreakingStream(InputStream in, long afterBytes, Supplier<? extends IOException> fault) {
        super(in);
        this.afterBytes = afterBytes;
        this.fault = fault;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (passed >= afterBytes) {
            throw fault.get();
        }
        int n = in.read(b, off, (int) Math.min(len, afterBytes - passed));
        if (n > 0) {
            passed += n;
        }
        return n;
    }
}
