package io.landingledger.core.validate;

import java.util.Arrays;

/**
 * Remembers every distinct key of a file as a 128-bit fingerprint with a 64-bit hash of its canonical payload and
 * the line it first appeared on, in about 27-31 bytes per key (measured by {@link #bytes()}).
 *
 * <p>Why this shape: at 50 million keys a 64-bit fingerprint has a ~7e-5 chance of two keys colliding, too high for
 * a publish decision; 128 bits make it ~4e-24 (n^2 / 2^129). Payloads are compared by hash only for keys that
 * match, so the 64-bit payload hash errs once in 2^64 duplicate pairs.
 *
 * <p>Layout: entries are appended in first-seen order to chunked primitive arrays (24 bytes: fingerprint high and
 * low, payload hash) plus one byte of line delta (lines of successive new keys are usually adjacent; larger gaps
 * go to an exception list). An {@code int[]} open-addressing table (linear probing, load 0.64-0.8, grown by 1.25x)
 * points at them; each slot keeps 5 fingerprint bits as a tag so probes rarely touch an entry that does not match.
 */
final class DuplicateKeyIndex {
    enum Outcome { NEW, SAME, CONFLICT, FULL }

    private static final int CHUNK_BITS = 14;
    private static final int CHUNK = 1 << CHUNK_BITS;
    private static final int ENTRY_BITS = 27;
    private static final int ENTRY_MASK = (1 << ENTRY_BITS) - 1;
    /** Entries are stored +1 so that 0 marks an empty slot. */
    static final int MAX_ENTRIES = ENTRY_MASK - 1;
    private static final double MAX_LOAD = 0.8;
    private static final int NO_DELTA = 255;

    private int[] table;
    private int growAt;
    private int size;

    private long[][] his = new long[16][];
    private long[][] los = new long[16][];
    private long[][] payloads = new long[16][];
    private byte[][] deltas = new byte[16][];
    private long[] chunkFirstLine = new long[16];
    private int chunks;

    private long[] exceptionEntry = new long[16];
    private long[] exceptionLine = new long[16];
    private int exceptions;
    private long lastLine;

    /** Set by {@link #offer} when it returns {@link Outcome#CONFLICT}: the line the key was first seen on. */
    long conflictFirstLine;

    DuplicateKeyIndex() {
        this(1024);
    }

    DuplicateKeyIndex(int initialCapacity) {
        table = new int[Math.max(16, initialCapacity)];
        growAt = (int) (table.length * MAX_LOAD);
    }

    int size() {
        return size;
    }

    /**
     * Records the key {@code (hi, lo)} with its payload hash, first seen on {@code line} (lines must increase).
     * NEW: first time. SAME: seen before with the same payload. CONFLICT: seen before with another payload
     * ({@link #conflictFirstLine} says where). FULL: the key is new and the index holds {@link #MAX_ENTRIES}.
     */
    Outcome offer(long hi, long lo, long payload, long line) {
        int tag = (int) (hi >>> (64 - (32 - ENTRY_BITS)));
        int[] t = table;
        int capacity = t.length;
        int pos = (int) Math.unsignedMultiplyHigh(lo, capacity);
        while (true) {
            int slot = t[pos];
            if (slot == 0) {
                break;
            }
            if ((slot >>> ENTRY_BITS) == tag) {
                int e = (slot & ENTRY_MASK) - 1;
                int c = e >>> CHUNK_BITS;
                int i = e & (CHUNK - 1);
                if (his[c][i] == hi && los[c][i] == lo) {
                    if (payloads[c][i] == payload) {
                        return Outcome.SAME;
                    }
                    conflictFirstLine = lineOf(e);
                    return Outcome.CONFLICT;
                }
            }
            if (++pos == capacity) {
                pos = 0;
            }
        }
        if (size >= MAX_ENTRIES) {
            return Outcome.FULL;
        }
        int e = append(hi, lo, payload, line);
        t[pos] = (tag << ENTRY_BITS) | (e + 1);
        if (size > growAt) {
            grow();
        }
        return Outcome.NEW;
    }

    private int append(long hi, long lo, long payload, long line) {
        int e = size++;
        int c = e >>> CHUNK_BITS;
        int i = e & (CHUNK - 1);
        if (i == 0) {
            if (c == his.length) {
                int n = his.length * 2;
                his = Arrays.copyOf(his, n);
                los = Arrays.copyOf(los, n);
                payloads = Arrays.copyOf(payloads, n);
                deltas = Arrays.copyOf(deltas, n);
                chunkFirstLine = Arrays.copyOf(chunkFirstLine, n);
            }
            his[c] = new long[CHUNK];
            los[c] = new long[CHUNK];
            payloads[c] = new long[CHUNK];
            deltas[c] = new byte[CHUNK];
            chunkFirstLine[c] = line;
            chunks++;
        } else {
            long delta = line - lastLine;
            if (delta > 0 && delta < NO_DELTA) {
                deltas[c][i] = (byte) delta;
            } else {
                deltas[c][i] = (byte) NO_DELTA;
                addException(e, line);
            }
        }
        his[c][i] = hi;
        los[c][i] = lo;
        payloads[c][i] = payload;
        lastLine = line;
        return e;
    }

    private void addException(int entry, long line) {
        if (exceptions == exceptionEntry.length) {
            exceptionEntry = Arrays.copyOf(exceptionEntry, exceptions * 2);
            exceptionLine = Arrays.copyOf(exceptionLine, exceptions * 2);
        }
        exceptionEntry[exceptions] = entry;
        exceptionLine[exceptions++] = line;
    }

    /** The line entry {@code e} was first seen on (walks its chunk's deltas: only used for a refusal message). */
    long lineOf(int e) {
        int c = e >>> CHUNK_BITS;
        int start = c << CHUNK_BITS;
        long line = chunkFirstLine[c];
        for (int k = start + 1; k <= e; k++) {
            int d = deltas[c][k & (CHUNK - 1)] & 0xFF;
            if (d == NO_DELTA) {
                line = exceptionLine[Arrays.binarySearch(exceptionEntry, 0, exceptions, k)];
            } else {
                line += d;
            }
        }
        return line;
    }

    private void grow() {
        int capacity = table.length + (table.length >> 2) + 1;
        int[] t = new int[capacity];
        // Rebuild from the entries in order: sequential reads, and each entry's slot is recomputed exactly.
        for (int e = 0; e < size; e++) {
            int c = e >>> CHUNK_BITS;
            int i = e & (CHUNK - 1);
            long hi = his[c][i];
            int pos = (int) Math.unsignedMultiplyHigh(los[c][i], capacity);
            while (t[pos] != 0) {
                if (++pos == capacity) {
                    pos = 0;
                }
            }
            t[pos] = ((int) (hi >>> (64 - (32 - ENTRY_BITS))) << ENTRY_BITS) | (e + 1);
        }
        table = t;
        growAt = (int) (capacity * MAX_LOAD);
    }

    /** Bytes of heap the index holds: the table, the entry chunks and the line exceptions. */
    long bytes() {
        long chunkBytes = (long) chunks * CHUNK * (3 * Long.BYTES + 1);
        return (long) table.length * Integer.BYTES + chunkBytes + (long) chunkFirstLine.length * Long.BYTES
                + (long) exceptionEntry.length * 2 * Long.BYTES;
    }
}
