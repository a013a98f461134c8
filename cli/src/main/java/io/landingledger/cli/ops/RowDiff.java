package io.landingledger.cli.ops;

import com.fasterxml.jackson.jr.ob.JSON;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Map;
import java.util.stream.Stream;

/**
 * How many rows a republish would add, remove and change against the current publish, by key hashes, in bounded
 * memory. Both sides are streams of canonical rows (JSON lines: the published object, and the candidate input's
 * accepted stream as the validator writes it). Each line becomes 16 bytes, a 64-bit hash of its key and a 64-bit
 * hash of the whole row, appended to one of {@code P} partition files per side by the key hash; then each partition
 * is compared on its own: the current side's entries of the partition go into an open-addressing table, the
 * candidate's are streamed against it.
 *
 * <p>Memory bound: {@code P} is chosen so that a partition holds about {@value #ENTRIES_PER_PARTITION} entries of
 * the current publish (its row count is known from the ledger), so the table is at most ~2 x 16 bytes x that
 * (about 8 MB) plus {@code 2P} write buffers of {@value #BUFFER} bytes (P at most {@value #MAX_PARTITIONS}: 8 MB);
 * disk: 16 bytes per row of each side, deleted at the end. Hash collisions (64 bits) can miscount by one with
 * probability about n^2 / 2^65: negligible below billions of rows.
 */
final class RowDiff implements AutoCloseable {
    static final int ENTRIES_PER_PARTITION = 1 << 18;
    static final int MAX_PARTITIONS = 256;
    static final int BUFFER = 16 * 1024;

    /** The counts. */
    record Counts(long current, long candidate, long added, long removed, long changed, long unchanged, int partitions) {
    }

    private final String keyField;
    private final Path directory;
    private final int partitions;
    private final DataOutputStream[][] sides;

    RowDiff(String keyField, long expectedRows) throws IOException {
        this.keyField = keyField;
        this.partitions = (int) Math.min(MAX_PARTITIONS, Math.max(1, (expectedRows + ENTRIES_PER_PARTITION - 1) / ENTRIES_PER_PARTITION));
        this.directory = Files.createTempDirectory("landing-rowdiff-");
        this.sides = new DataOutputStream[2][partitions];
        for (int side = 0; side < 2; side++) {
            for (int p = 0; p < partitions; p++) {
                sides[side][p] = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file(side, p)), BUFFER));
            }
        }
    }

    private Path file(int side, int partition) {
        return directory.resolve((side == 0 ? "current-" : "candidate-") + partition);
    }

    /** A sink for the current publish's lines. */
    OutputStream current() {
        return new LineSink(0);
    }

    /** A sink for the candidate's canonical rows (the validator's accepted stream). */
    OutputStream candidate() {
        return new LineSink(1);
    }

    /** Streams the current publish into {@link #current()}. */
    void readCurrent(InputStream published) throws IOException {
        try (OutputStream sink = current(); InputStream in = new BufferedInputStream(published)) {
            in.transferTo(sink);
        }
    }

    Counts compare() throws IOException {
        for (DataOutputStream[] side : sides) {
            for (DataOutputStream stream : side) {
                stream.close();
            }
        }
        long current = 0;
        long candidate = 0;
        long added = 0;
        long changed = 0;
        long unchanged = 0;
        long matchedCurrent = 0;
        for (int p = 0; p < partitions; p++) {
            long entries = Files.size(file(0, p)) / 16;
            current += entries;
            HashTable table = new HashTable((int) Math.max(16, entries));
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file(0, p)), BUFFER))) {
                for (long i = 0; i < entries; i++) {
                    table.put(in.readLong(), in.readLong());
                }
            }
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file(1, p)), BUFFER))) {
                while (true) {
                    long key;
                    try {
                        key = in.readLong();
                    } catch (EOFException end) {
                        break;
                    }
                    long row = in.readLong();
                    int slot = table.find(key);
                    if (slot < 0) {
                        if (table.addSeen(key)) { // a key twice in the candidate (an identical duplicate) counts once
                            candidate++;
                            added++;
                        }
                        continue;
                    }
                    if (table.seen[slot]) {
                        continue;
                    }
                    table.seen[slot] = true;
                    candidate++;
                    matchedCurrent++;
                    if (table.rows[slot] == row) {
                        unchanged++;
                    } else {
                        changed++;
                    }
                }
            }
        }
        return new Counts(current, candidate, added, current - matchedCurrent, changed, unchanged, partitions);
    }

    @Override
    public void close() throws IOException {
        for (DataOutputStream[] side : sides) {
            for (DataOutputStream stream : side) {
                try {
                    stream.close();
                } catch (IOException ignored) {
                    // closing twice
                }
            }
        }
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    /** Splits a byte stream into lines and appends each line's two hashes to its partition. */
    private final class LineSink extends OutputStream {
        private final int side;
        private byte[] line = new byte[1024];
        private int length;

        LineSink(int side) {
            this.side = side;
        }

        @Override
        public void write(int b) throws IOException {
            if (b == '\n') {
                flushLine();
                return;
            }
            if (length == line.length) {
                line = Arrays.copyOf(line, line.length * 2);
            }
            line[length++] = (byte) b;
        }

        @Override
        public void write(byte[] bytes, int offset, int count) throws IOException {
            for (int i = offset; i < offset + count; i++) {
                write(bytes[i]);
            }
        }

        private void flushLine() throws IOException {
            if (length == 0) {
                return;
            }
            long rowHash = hash(line, 0, length);
            Object key = JSON.std.mapFrom(new String(line, 0, length, StandardCharsets.UTF_8)).get(keyField);
            byte[] keyBytes = String.valueOf(key).getBytes(StandardCharsets.UTF_8);
            long keyHash = hash(keyBytes, 0, keyBytes.length);
            int partition = (int) Long.remainderUnsigned(keyHash * 0x9E3779B97F4A7C15L >>> 1, partitions);
            sides[side][partition].writeLong(keyHash);
            sides[side][partition].writeLong(rowHash);
            length = 0;
            if (line.length > 1 << 20) {
                line = new byte[1024]; // do not keep one huge line's buffer
            }
        }

        @Override
        public void close() throws IOException {
            flushLine();
        }
    }

    /** 64-bit FNV-1a with a final avalanche (splitmix64's): fast, no allocation, good spread for partitioning. */
    static long hash(byte[] bytes, int offset, int length) {
        long h = 0xcbf29ce484222325L;
        for (int i = offset; i < offset + length; i++) {
            h ^= bytes[i] & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 30;
        h *= 0xbf58476d1ce4e5b9L;
        h ^= h >>> 27;
        h *= 0x94d049bb133111ebL;
        return h ^ (h >>> 31);
    }

    /** keyHash -> rowHash, open addressing, plus the candidate's keys not in the current side (to count each once). */
    private static final class HashTable {
        final long[] keys;
        final long[] rows;
        final boolean[] used;
        final boolean[] seen;
        private final HashSet<Long> extra = new HashSet<>();

        HashTable(int entries) {
            int capacity = Integer.highestOneBit(Math.max(16, entries * 2 - 1)) << 1;
            keys = new long[capacity];
            rows = new long[capacity];
            used = new boolean[capacity];
            seen = new boolean[capacity];
        }

        void put(long key, long row) {
            int mask = keys.length - 1;
            int i = (int) (key ^ (key >>> 32)) & mask;
            while (used[i] && keys[i] != key) {
                i = (i + 1) & mask;
            }
            used[i] = true;
            keys[i] = key;
            rows[i] = row;
        }

        int find(long key) {
            int mask = keys.length - 1;
            int i = (int) (key ^ (key >>> 32)) & mask;
            while (used[i]) {
                if (keys[i] == key) {
                    return i;
                }
                i = (i + 1) & mask;
            }
            return -1;
        }

        /** True the first time a key absent from the current side is seen. */
        boolean addSeen(long key) {
            return extra.add(key);
        }
    }

    static Map<String, Object> toMap(Counts counts) {
        return Map.of("current_rows", counts.current(), "candidate_rows", counts.candidate(), "add", counts.added(),
                "remove", counts.removed(), "change", counts.changed(), "unchanged", counts.unchanged());
    }
}
