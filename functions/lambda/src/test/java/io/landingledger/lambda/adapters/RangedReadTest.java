package io.landingledger.lambda.adapters;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link RangedRead}: the bytes (and SHA-256) of one GetObject, for every size around the range, with faults. */
class RangedReadTest {
    private static final int RANGE = 1000;
    private static final RangedRead.Settings SETTINGS = new RangedRead.Settings(4, RANGE);
    private static final ExecutorService POOL = Executors.newFixedThreadPool(4);

    @AfterAll
    static void shutdown() {
        POOL.shutdownNow();
    }

    private static byte[] object(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }

    /** What the store does: one plain GET, then ranges when the object is larger than one range. */
    private static InputStream open(byte[] object, RangedRead.RangeSource source, InputStream first) {
        return SETTINGS.ranged(object.length) ? new RangedRead(source, POOL, SETTINGS, object.length, first) : first;
    }

    private static RangedRead.RangeSource exact(byte[] object, List<String> asked) {
        return (first, last) -> {
            asked.add(first + "-" + last);
            return new ByteArrayInputStream(object, (int) first, (int) (last - first + 1));
        };
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    /** Reads in odd-sized chunks and single bytes, as a decoder might. */
    private static byte[] readAll(InputStream in) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] chunk = new byte[337];
        for (int i = 0; ; i++) {
            if (i % 7 == 0) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                out.write(b);
            } else {
                int n = in.read(chunk, 0, chunk.length);
                if (n < 0) {
                    break;
                }
                out.write(chunk, 0, n);
            }
        }
        return out.toByteArray();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, RANGE - 1, RANGE, RANGE + 1, 2 * RANGE, 7 * RANGE + 13, 40 * RANGE - 1})
    void readsTheBytesOfOneGetObject(int size) throws Exception {
        byte[] object = object(size);
        List<String> asked = Collections.synchronizedList(new ArrayList<>());
        byte[] read;
        try (InputStream in = open(object, exact(object, asked), new ByteArrayInputStream(object))) {
            read = readAll(in);
            assertEquals(-1, in.read(), "the end stays the end");
            assertEquals(-1, in.read(new byte[10], 0, 10));
        }
        assertEquals(sha256(object), sha256(read));
        assertArrayEquals(object, read);
        int ranges = size <= RANGE ? 0 : (size + RANGE - 1) / RANGE - 1; // range 0 comes from the plain GET
        assertEquals(ranges, asked.size(), "ranges asked: " + asked);
    }

    @Test
    void aRangeFailingOnce_isFetchedAgain_fromWhereItBroke() throws Exception {
        byte[] object = object(5 * RANGE + 17);
        List<String> asked = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger breaks = new AtomicInteger();
        AtomicInteger resets = new AtomicInteger();
        RangedRead.RangeSource source = (first, last) -> {
            asked.add(first + "-" + last);
            InputStream in = new ByteArrayInputStream(object, (int) first, (int) (last - first + 1));
            if (first == 2 * RANGE && breaks.getAndIncrement() == 0) {
                return breaking(in, 300); // range 2 breaks after 300 bytes
            }
            if (first == 3 * RANGE && resets.getAndIncrement() == 0) {
                throw new IOException("connection reset (injected)"); // range 3 fails to open once
            }
            return in;
        };
        byte[] read;
        // and range 0, read from the plain GET's body, breaks after 100 bytes
        try (InputStream in = open(object, source, breaking(new ByteArrayInputStream(object), 100))) {
            read = readAll(in);
        }
        assertEquals(sha256(object), sha256(read));
        assertArrayEquals(object, read);
        assertTrue(asked.contains("100-999"), "range 0 resumed at the break: " + asked);
        assertTrue(asked.contains("2300-2999"), "range 2 resumed at the break: " + asked);
        assertEquals(2, asked.stream().filter("3000-3999"::equals).count(), "range 3 asked twice: " + asked);
    }

    @Test
    void aRangeFailingTwice_failsTheRead_withItsFault() throws Exception {
        byte[] object = object(5 * RANGE);
        RangedRead.RangeSource source = (first, last) -> {
            if (first >= 3 * RANGE && first < 4 * RANGE) {
                return breaking(new ByteArrayInputStream(object, (int) first, (int) (last - first + 1)), 10);
            }
            return new ByteArrayInputStream(object, (int) first, (int) (last - first + 1));
        };
        byte[] prefix = new byte[3 * RANGE];
        try (InputStream in = open(object, source, new ByteArrayInputStream(object))) {
            int n = 0;
            while (n < prefix.length) {
                n += in.read(prefix, n, prefix.length - n);
            }
            assertArrayEquals(Arrays.copyOf(object, 3 * RANGE), prefix, "the ranges before the failed one, in order");
            SocketTimeoutException thrown = assertThrows(SocketTimeoutException.class, () -> readAll(in));
            assertEquals(1, thrown.getSuppressed().length, "the retry's fault is kept with the first: " + Arrays.toString(thrown.getSuppressed()));
        }
    }

    @Test
    void aRangeThatEndsEarly_isAFault_neverShortBytes() throws Exception {
        byte[] object = object(3 * RANGE);
        RangedRead.RangeSource source = (first, last) -> new ByteArrayInputStream(object, (int) first, (int) (last - first));
        try (InputStream in = open(object, source, new ByteArrayInputStream(object))) {
            assertThrows(java.io.EOFException.class, () -> readAll(in));
        }
    }

    @Test
    void anObjectNoLargerThanOneRange_isThePlainGet() {
        InputStream first = new ByteArrayInputStream(object(RANGE));
        assertSame(first, open(object(RANGE), (a, b) -> {
            throw new AssertionError("no range for an object of one range");
        }, first));
        assertTrue(new RangedRead.Settings(1, RANGE).ranged(RANGE + 1) == false, "K = 1 is one GetObject");
    }

    private static InputStream breaking(InputStream in, int after) {
        return new FilterInputStream(in) {
            private int read;

            @Override
            public int read() throws IOException {
                if (read >= after) {
                    throw new SocketTimeoutException("Read timed out (injected)");
                }
                read++;
                return super.read();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (read >= after) {
                    throw new SocketTimeoutException("Read timed out (injected)");
                }
                int n = super.read(b, off, Math.min(len, after - read));
                if (n > 0) {
                    read += n;
                }
                return n;
            }
        };
    }
}
