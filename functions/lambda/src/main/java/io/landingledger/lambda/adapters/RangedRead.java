package io.landingledger.lambda.adapters;

import software.amazon.awssdk.http.Abortable;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * One object version read as consecutive byte ranges fetched concurrently and handed out in order, so the hash and the
 * decoder see exactly the bytes of one GetObject. At most {@link Settings#rangesInFlight()} ranges are fetched or
 * waiting at a time, each buffered whole: the read holds at most {@code rangesInFlight x rangeBytes} of heap (64 MiB
 * at the defaults). Range 0 is read from the body of the plain GetObject that opened the object (so its metadata, its
 * size and an object smaller than one range are exactly the single GetObject's read); a range that fails (a broken body, or an SDK
 * fault after the SDK's own retries) is fetched once more from the byte where it broke, and a second failure fails the
 * read with that fault (an infrastructure fault: the run throws and Lambda retries it).
 */
public final class RangedRead extends InputStream {

    /** Fetches bytes {@code first..last} (inclusive) of the pinned version. */
    @FunctionalInterface
    interface RangeSource {
        InputStream open(long first, long last) throws IOException;
    }

    /**
     * @param rangesInFlight K, the ranges fetched at the same time (1: one GetObject, as before ranged reads)
     * @param rangeBytes     the size of one range
     */
    public record Settings(int rangesInFlight, long rangeBytes) {
        public static final int DEFAULT_RANGES_IN_FLIGHT = 8;
        public static final long DEFAULT_RANGE_BYTES = 8L << 20;
        public static final Settings DEFAULT = new Settings(DEFAULT_RANGES_IN_FLIGHT, DEFAULT_RANGE_BYTES);
        /** One GetObject, no ranges. */
        public static final Settings SINGLE = new Settings(1, DEFAULT_RANGE_BYTES);

        public Settings {
            if (rangesInFlight < 1 || rangesInFlight > 64) {
                throw new IllegalArgumentException("rangesInFlight must be 1-64, not " + rangesInFlight);
            }
            if (rangeBytes < 1 || rangeBytes > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("rangeBytes must be 1 to 2 GiB, not " + rangeBytes);
            }
        }

        /** Whether an object of {@code size} bytes is read in ranges. */
        public boolean ranged(long size) {
            return rangesInFlight > 1 && size > rangeBytes;
        }
    }

    private final RangeSource source;
    private final ExecutorService executor;
    private final long size;
    private final long rangeBytes;
    private final int inFlight;
    private final ArrayDeque<Future<byte[]>> pending = new ArrayDeque<>();
    private long nextStart;
    private byte[] current = new byte[0];
    private int position;
    private boolean holding;
    private boolean closed;
    private final InputStream initialBody;

    /**
     * @param first the body of the GetObject that opened the version, read for range 0 (and then aborted)
     */
    RangedRead(RangeSource source, ExecutorService executor, Settings settings, long size, InputStream first) {
        this.source = source;
        this.executor = executor;
        this.size = size;
        this.rangeBytes = settings.rangeBytes();
        this.inFlight = settings.rangesInFlight();
        this.initialBody = first;
        submit(first);
        while (pending.size() < inFlight && nextStart < size) {
            submit(null);
        }
    }

    private void submit(InputStream initial) {
        long first = nextStart;
        long last = Math.min(size, first + rangeBytes) - 1;
        nextStart = last + 1;
        pending.add(executor.submit(() -> fetch(first, last, initial)));
    }

    private byte[] fetch(long first, long last, InputStream initial) throws IOException {
        byte[] buffer = new byte[(int) (last - first + 1)];
        int filled = 0;
        Exception failure = null;
        for (int attempt = 0; attempt < 2; attempt++) {
            InputStream in = null;
            try {
                in = attempt == 0 && initial != null ? initial : source.open(first + filled, last);
                while (filled < buffer.length) {
                    int n = in.read(buffer, filled, buffer.length - filled);
                    if (n < 0) {
                        throw new EOFException("bytes " + first + "-" + last + " ended after " + filled + " bytes");
                    }
                    filled += n;
                }
                return buffer;
            } catch (InterruptedIOException e) {
                if (Thread.currentThread().isInterrupted()) {
                    throw e; // closed: no retry
                }
                failure = keep(failure, e);
            } catch (S3Exception e) {
                if (e.statusCode() >= 400 && e.statusCode() < 500) {
                    throw e; // 404, 412: not a fault a retry mends
                }
                failure = keep(failure, e);
            } catch (IOException | RuntimeException e) {
                failure = keep(failure, e);
            } finally {
                if (in != null && (filled < buffer.length || in == initial)) {
                    abortQuietly(in);
                } else if (in != null) {
                    closeQuietly(in);
                }
            }
        }
        if (failure instanceof IOException io) {
            throw io;
        }
        throw (RuntimeException) failure;
    }

    private static Exception keep(Exception first, Exception next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    private static void abortQuietly(InputStream in) {
        if (in instanceof Abortable abortable) {
            try {
                abortable.abort();
            } catch (RuntimeException e) {
                // closing below
            }
        }
        closeQuietly(in);
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException | RuntimeException e) {
            // the bytes are read or the read has failed already
        }
    }

    private boolean advance() throws IOException {
        while (position == current.length) {
            if (holding) {
                // the range just read gives its slot to the next one: K buffers at most, the one being read among them
                holding = false;
                current = new byte[0];
                position = 0;
                if (nextStart < size) {
                    submit(null);
                }
            }
            Future<byte[]> next = pending.poll();
            if (next == null) {
                return false;
            }
            try {
                current = next.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for a range");
            } catch (CancellationException e) {
                throw new IOException("the ranged read was closed", e);
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof IOException io) {
                    throw io;
                }
                if (cause instanceof RuntimeException runtime) {
                    throw runtime;
                }
                throw new IOException(cause);
            }
            position = 0;
            holding = true;
        }
        return true;
    }

    @Override
    public int read() throws IOException {
        ensureOpen();
        if (!advance()) {
            return -1;
        }
        return current[position++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        ensureOpen();
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        if (!advance()) {
            return -1;
        }
        int n = Math.min(len, current.length - position);
        System.arraycopy(current, position, b, off, n);
        position += n;
        return n;
    }

    @Override
    public int available() {
        return current.length - position;
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("closed");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        current = new byte[0];
        position = 0;
        for (Future<byte[]> future : pending) {
            future.cancel(true);
        }
        pending.clear();
        abortQuietly(initialBody); // a no-op once range 0 is read; else the cancelled task never opened it
    }
}
