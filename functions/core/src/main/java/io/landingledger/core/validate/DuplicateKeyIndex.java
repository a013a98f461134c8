package io.landingledger.core.validate;

import java.io.IOException;
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
 * low, payload hash, side by side so that checking a candidate costs one cache miss, two when it straddles a line)
 * plus one byte of line delta (lines of successive new keys are usually adjacent; larger gaps
 * go to an exception list). An {@code int[]} open-addressing table (linear probing, load 0.64-0.8 when grown by
 * 1.25x, up to 0.75 at the estimate when {@link #reserve}d)
 * points at them; each slot keeps 5 fingerprint bits as a tag so probes rarely touch an entry that does not match.
 * Growing rehashes every entry, so a caller that can estimate the key count {@link #reserve}s the table once.
 *
 * <p>Memory budget: when the next growth would take the index past {@code memoryBudget} (counting the old and the
 * new table side by side while it is rebuilt, and the entries it would hold until the growth after), the entries are
 * written to {@link SpilledKeyRuns} as one run sorted by fingerprint and the index starts over, keeping its arrays.
 * A key is then compared inline only with the keys of the current run; {@link SpilledKeyRuns#merge} finds the repeats
 * across runs at the end. Without runs (the constructors without them) it never spills.
 */
final class DuplicateKeyIndex {
    /** What {@link #offer} found for a key offered to the index. */
    enum Offered { NEW, SAME, CONFLICT, FULL }

    private static final int CHUNK_BITS = 14;
    private static final int CHUNK = 1 << CHUNK_BITS;
    private static final int ENTRY_BITS = 27;
    private static final int ENTRY_MASK = (1 << ENTRY_BITS) - 1;
    /** Entries are stored +1 so that 0 marks an empty slot. */
    static final int MAX_ENTRIES = ENTRY_MASK - 1;
    private static final double MAX_LOAD = 0.8;
    /** The load a {@link #reserve}d table reaches at the expected key count: below MAX_LOAD, so no growth then. */
    private static final double RESERVED_LOAD = 0.75;
    private static final int NO_DELTA = 255;
    /** Heap per entry in the chunks: fingerprint high and low, payload hash, line delta. */
    private static final int ENTRY_BYTES = 3 * Long.BYTES + 1;

    private final long memoryBudget;
    private final SpilledKeyRuns runs;

    private int[] table;
    private int growAt;
    private int size;

    /** Per chunk, three longs per entry: fingerprint high, fingerprint low, payload hash. */
    private long[][] entries = new long[16][];
    private byte[][] deltas = new byte[16][];
    private long[] chunkFirstLine = new long[16];
    private int chunks;

    private long[] exceptionEntry = new long[16];
    private long[] exceptionLine = new long[16];
    private int exceptions;
    private long lastLine;

    /** Set by {@link #offer} when it returns {@link Offered#CONFLICT}: the line the key was first seen on. */
    long conflictFirstLine;

    DuplicateKeyIndex() {
        this(1024);
    }

    DuplicateKeyIndex(int initialCapacity) {
        this(initialCapacity, Long.MAX_VALUE, null);
    }

    /**
     * @param memoryBudget bytes the index may hold; it never holds less than its first chunk and table (~410 KB)
     * @param runs         where it spills past the budget, or null to grow until {@link #MAX_ENTRIES}
     */
    DuplicateKeyIndex(int initialCapacity, long memoryBudget, SpilledKeyRuns runs) {
        this.memoryBudget = memoryBudget;
        this.runs = runs;
        table = new int[Math.max(16, initialCapacity)];
        growAt = (int) (table.length * MAX_LOAD);
    }

    int size() {
        return size;
    }

    /**
     * Records the key {@code (hi, lo)} with its payload hash, first seen on {@code line} (lines must increase).
     * NEW: first time. SAME: seen before with the same payload. CONFLICT: seen before with another payload
     * ({@link #conflictFirstLine} says where, within the current run). FULL: the key is new and the index can
     * neither grow nor spill (it holds {@link #MAX_ENTRIES} without runs, or the runs' disk limit is reached).
     *
     * @throws IOException writing a spilled run failed
     */
    Offered offer(long hi, long lo, long payload, long line) throws IOException {
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
                long[] chunk = entries[c];
                if (chunk[3 * i] == hi && chunk[3 * i + 1] == lo) {
                    if (chunk[3 * i + 2] == payload) {
                        return Offered.SAME;
                    }
                    conflictFirstLine = lineOf(e);
                    return Offered.CONFLICT;
                }
            }
            if (++pos == capacity) {
                pos = 0;
            }
        }
        if (size >= MAX_ENTRIES) {
            return Offered.FULL;
        }
        int e = append(hi, lo, payload, line);
        t[pos] = (tag << ENTRY_BITS) | (e + 1);
        if (size > growAt) {
            return growOrSpill() ? Offered.NEW : Offered.FULL;
        }
        return Offered.NEW;
    }

    /**
     * Sizes the table for {@code expectedKeys} at once, so that reaching them rehashes nothing; the usual growth
     * (and spilling) goes on from there if more come. Only within the memory budget: an estimate past it reserves
     * what the budget allows.
     */
    void reserve(long expectedKeys) {
        long wanted = Math.min((long) (expectedKeys / RESERVED_LOAD) + 1, (long) (MAX_ENTRIES / MAX_LOAD));
        if (wanted <= table.length) {
            return;
        }
        int capacity = (int) wanted;
        while (runs != null && capacity > table.length && peakBytesWhenGrownTo(capacity) > memoryBudget) {
            capacity -= capacity >> 3;
        }
        if (capacity > table.length) {
            grow(capacity);
        }
    }

    /** Sum of the slots {@link #warm} read: kept so that the reads are not optimised away. */
    private int warmed;

    /**
     * Reads the home slot of each of the next {@code count} keys {@code (los[k])} before they are offered. The reads
     * do not depend on one another, so the processor overlaps their cache misses, where offering the keys one by one
     * waits for each miss in turn (the table is far larger than the caches on a big file). Changes nothing.
     */
    void warm(long[] los, int count) {
        int[] t = table;
        int capacity = t.length;
        int sum = 0;
        for (int k = 0; k < count; k++) {
            sum += t[(int) Math.unsignedMultiplyHigh(los[k], capacity)];
        }
        warmed += sum;
    }

    /** Grows the table, or spills when growing would pass the budget; false when neither is possible. */
    private boolean growOrSpill() throws IOException {
        int capacity = table.length + (table.length >> 2) + 1;
        if (runs == null || (int) (capacity * MAX_LOAD) < MAX_ENTRIES && peakBytesWhenGrownTo(capacity) <= memoryBudget) {
            grow(capacity);
            return true;
        }
        if (!runs.write(sorted())) {
            return false;
        }
        clear();
        return true;
    }

    /**
     * The most this index would hold from a growth to {@code capacity} until the growth after it: both tables while
     * rebuilding, and the entry chunks for the entries that fill the new table. A spill instead needs the current
     * table and one int per entry ({@link #sorted}), which is no more than the old table the last growth held.
     */
    private long peakBytesWhenGrownTo(int capacity) {
        long entries = (long) (capacity * MAX_LOAD) + 1;
        long chunksNeeded = Math.max(chunks, (entries + CHUNK - 1) >>> CHUNK_BITS);
        return chunksNeeded * CHUNK * ENTRY_BYTES + (long) (table.length + capacity) * Integer.BYTES
                + (long) chunkFirstLine.length * Long.BYTES + (long) exceptionEntry.length * 2 * Long.BYTES;
    }

    /** Forgets every entry but keeps the table and the chunks, so the next run fills them without allocating. */
    private void clear() {
        Arrays.fill(table, 0);
        size = 0;
        exceptions = 0;
        lastLine = 0;
    }

    private int append(long hi, long lo, long payload, long line) {
        int e = size++;
        int c = e >>> CHUNK_BITS;
        int i = e & (CHUNK - 1);
        if (i == 0) {
            if (c == chunks) {
                allocateChunk(c); // after a spill the chunks of the earlier run are reused
            }
            chunkFirstLine[c] = line;
        } else {
            long delta = line - lastLine;
            if (delta > 0 && delta < NO_DELTA) {
                deltas[c][i] = (byte) delta;
            } else {
                deltas[c][i] = (byte) NO_DELTA;
                addException(e, line);
            }
        }
        long[] chunk = entries[c];
        chunk[3 * i] = hi;
        chunk[3 * i + 1] = lo;
        chunk[3 * i + 2] = payload;
        lastLine = line;
        return e;
    }

    private void allocateChunk(int c) {
        if (c == entries.length) {
            int n = entries.length * 2;
            entries = Arrays.copyOf(entries, n);
            deltas = Arrays.copyOf(deltas, n);
            chunkFirstLine = Arrays.copyOf(chunkFirstLine, n);
        }
        entries[c] = new long[3 * CHUNK];
        deltas[c] = new byte[CHUNK];
        chunks++;
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

    private void grow(int capacity) {
        int[] t = new int[capacity];
        // Rebuild from the entries in order: sequential reads, and each entry's slot is recomputed exactly.
        for (int e = 0; e < size; e++) {
            long hi = hi(e);
            int pos = (int) Math.unsignedMultiplyHigh(lo(e), capacity);
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
        long chunkBytes = (long) chunks * CHUNK * ENTRY_BYTES;
        return (long) table.length * Integer.BYTES + chunkBytes + (long) chunkFirstLine.length * Long.BYTES
                + (long) exceptionEntry.length * 2 * Long.BYTES;
    }

    /**
     * The entries sorted by fingerprint (low half, then high half, both unsigned), for a spilled run or the final
     * merge. Uses the table as the permutation, so the index holds no entry afterwards until {@link #clear}.
     *
     * <p>Why it is cheap: a key's home slot is {@code unsignedMultiplyHigh(lo, capacity)}, which rises with
     * {@code lo}, and linear probing only moves a key forward within its cluster of occupied slots. Read in slot
     * order the entries are already sorted but inside clusters (a few entries at load 0.8) and for the cluster that
     * wraps past the last slot; the wrapped entries are moved to the end and an insertion sort fixes the rest.
     */
    Sorted sorted() {
        int[] t = table;
        int capacity = t.length;
        int firstEmpty = 0;
        while (t[firstEmpty] != 0) {
            firstEmpty++; // the load stays below 1, so an empty slot exists
        }
        int[] wrapped = new int[16];
        int wrappedCount = 0;
        int n = 0;
        for (int pos = 0; pos < capacity; pos++) {
            int slot = t[pos];
            if (slot == 0) {
                continue;
            }
            int e = (slot & ENTRY_MASK) - 1;
            if (pos < firstEmpty && (int) Math.unsignedMultiplyHigh(lo(e), capacity) > pos) {
                if (wrappedCount == wrapped.length) {
                    wrapped = Arrays.copyOf(wrapped, wrappedCount * 2);
                }
                wrapped[wrappedCount++] = e;
                continue;
            }
            t[n++] = e; // n <= pos: only slots already read are overwritten
        }
        for (int w = 0; w < wrappedCount; w++) {
            t[n++] = wrapped[w];
        }
        for (int k = 1; k < n; k++) {
            int e = t[k];
            long lo = lo(e);
            long hi = hi(e);
            int j = k - 1;
            while (j >= 0 && isAfter(t[j], lo, hi)) {
                t[j + 1] = t[j];
                j--;
            }
            t[j + 1] = e;
        }
        return new Sorted(t, n, lineOffsets(n));
    }

    private boolean isAfter(int e, long lo, long hi) {
        int byLo = Long.compareUnsigned(lo(e), lo);
        return byLo > 0 || byLo == 0 && Long.compareUnsigned(hi(e), hi) > 0;
    }

    private long hi(int e) {
        return entries[e >>> CHUNK_BITS][3 * (e & (CHUNK - 1))];
    }

    private long lo(int e) {
        return entries[e >>> CHUNK_BITS][3 * (e & (CHUNK - 1)) + 1];
    }

    private long payload(int e) {
        return entries[e >>> CHUNK_BITS][3 * (e & (CHUNK - 1)) + 2];
    }

    /** Every entry's line, minus the first entry's, decoded in one sequential walk over the deltas. */
    private int[] lineOffsets(int n) {
        int[] offsets = new int[n];
        long base = n == 0 ? 0 : chunkFirstLine[0];
        long line = base;
        int exception = 0;
        for (int e = 0; e < n; e++) {
            int c = e >>> CHUNK_BITS;
            int i = e & (CHUNK - 1);
            if (i == 0) {
                line = chunkFirstLine[c];
            } else {
                int d = deltas[c][i] & 0xFF;
                line = d == NO_DELTA ? exceptionLine[exception++] : line + d;
            }
            // a run spanning 2^31 lines would be a file of some 500 GB, far past what one function reads
            offsets[e] = Math.toIntExact(line - base);
        }
        return offsets;
    }

    /** Entries in fingerprint order: {@code k} is the rank, from 0 to {@link #size()} - 1. */
    final class Sorted {
        private final int[] order;
        private final int size;
        private final int[] lineOffsets;
        private final long baseLine;

        private Sorted(int[] order, int size, int[] lineOffsets) {
            this.order = order;
            this.size = size;
            this.lineOffsets = lineOffsets;
            this.baseLine = size == 0 ? 0 : chunkFirstLine[0];
        }

        int size() {
            return size;
        }

        long lo(int k) {
            return DuplicateKeyIndex.this.lo(order[k]);
        }

        long hi(int k) {
            return DuplicateKeyIndex.this.hi(order[k]);
        }

        long payload(int k) {
            return DuplicateKeyIndex.this.payload(order[k]);
        }

        long line(int k) {
            return baseLine + lineOffsets[order[k]];
        }
    }
}
