package io.landingledger.core.validate;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The duplicate-key index's sorted runs on local disk, and the k-way merge that finds a key repeated across them.
 *
 * <p>A run is one spill of {@link DuplicateKeyIndex}: its distinct keys as fixed-width records (fingerprint low and
 * high half, payload hash, first line: {@value #RECORD_BYTES} bytes) sorted by fingerprint. Runs cover successive
 * stretches of the file, so of the records of one key the one from the earliest run is its first occurrence. The
 * files live in one fresh directory under the spill directory; {@link #close} deletes them, whatever happened.
 *
 * <p>Disk use is bounded by {@code diskLimit} and by the free space of the spill directory when the first run is
 * written; a run that would pass the bound is not written ({@link #write} returns false) and the file is refused.
 */
final class SpilledKeyRuns implements AutoCloseable {
    /** Bytes per key on disk. */
    static final int RECORD_BYTES = 4 * Long.BYTES;
    private static final int BUFFER_BYTES = 1 << 16;
    private static final String DIRECTORY_PREFIX = "landing-key-index-";

    private final Path parent;
    private final long diskLimit;
    private final List<Path> files = new ArrayList<>();
    private final List<Integer> sizes = new ArrayList<>();
    private Path directory;
    private long limit = -1;
    private long diskBytes;
    private long records;

    /**
     * @param parent    where the run directory is created (Lambda: /tmp, the function's ephemeral storage)
     * @param diskLimit bytes the runs may take at most
     */
    SpilledKeyRuns(Path parent, long diskLimit) {
        this.parent = parent;
        this.diskLimit = diskLimit;
    }

    /** Runs written so far. */
    int count() {
        return files.size();
    }

    /** Bytes the runs take on disk. */
    long diskBytes() {
        return diskBytes;
    }

    /** Records in all runs: each key once per run it appears in. */
    long records() {
        return records;
    }

    /** The bound on {@link #diskBytes()}: the configured limit, or the free space found at the first run if smaller. */
    long limit() {
        return limit < 0 ? diskLimit : limit;
    }

    /** Where the runs go. */
    Path parent() {
        return parent;
    }

    /**
     * Writes {@code sorted} as the next run; false, writing nothing, when it would pass {@link #limit()}.
     *
     * @throws IOException the directory or the file could not be written
     */
    boolean write(DuplicateKeyIndex.Sorted sorted) throws IOException {
        if (limit < 0) {
            limit = Math.min(diskLimit, Files.getFileStore(parent).getUsableSpace());
        }
        long bytes = (long) sorted.size() * RECORD_BYTES;
        if (diskBytes + bytes > limit) {
            return false;
        }
        if (directory == null) {
            directory = Files.createTempDirectory(parent, DIRECTORY_PREFIX);
        }
        Path file = directory.resolve("run-" + files.size());
        files.add(file); // before writing: close() deletes a half-written run too
        sizes.add(sorted.size());
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(
                Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), BUFFER_BYTES))) {
            for (int k = 0; k < sorted.size(); k++) {
                out.writeLong(sorted.lo(k));
                out.writeLong(sorted.hi(k));
                out.writeLong(sorted.payload(k));
                out.writeLong(sorted.line(k));
            }
        }
        diskBytes += bytes;
        records += sorted.size();
        return true;
    }

    /**
     * What the merge found.
     *
     * @param repeatedLines     lines whose key and payload equal an earlier run's: identical duplicates that were
     *                          written to the accepted stream before their first occurrence was known
     * @param repeats           records beyond the first of their key (identical or not)
     * @param conflictFirstLine the first line of the key of {@code conflictLine}, or 0
     * @param conflictLine      the earliest line whose key an earlier run holds with another payload, or 0
     * @param keyFirstLine      the first line of the key asked for, or 0 when no run holds it
     */
    record Merged(BitSet repeatedLines, long repeats, long conflictFirstLine, long conflictLine, long keyFirstLine) {
    }

    /**
     * Merges the runs with {@code remainder} (the entries still in memory, the latest stretch of the file) in one
     * sequential read of each run.
     *
     * @param keyHi fingerprint high half of a key whose first line is wanted (an inline conflict), with keyLo
     */
    Merged merge(DuplicateKeyIndex.Sorted remainder, long keyHi, long keyLo) throws IOException {
        List<Cursor> cursors = new ArrayList<>();
        PriorityQueue<Cursor> queue = new PriorityQueue<>((a, b) -> {
            int byLo = Long.compareUnsigned(a.lo, b.lo);
            if (byLo != 0) {
                return byLo;
            }
            int byHi = Long.compareUnsigned(a.hi, b.hi);
            return byHi != 0 ? byHi : Integer.compare(a.ordinal, b.ordinal);
        });
        try {
            for (int r = 0; r < files.size(); r++) {
                cursors.add(new FileCursor(r, files.get(r), sizes.get(r)));
            }
            cursors.add(new MemoryCursor(files.size(), remainder));
            for (Cursor cursor : cursors) {
                if (cursor.advance()) {
                    queue.add(cursor);
                }
            }
            BitSet repeated = new BitSet();
            long repeats = 0;
            long conflictFirstLine = 0;
            long conflictLine = 0;
            long keyFirstLine = 0;
            while (!queue.isEmpty()) {
                // the first of a key comes from the earliest run (ties break on the run's ordinal): its first line
                Cursor first = queue.poll();
                long lo = first.lo;
                long hi = first.hi;
                long payload = first.payload;
                long firstLine = first.line;
                if (lo == keyLo && hi == keyHi) {
                    keyFirstLine = firstLine;
                }
                if (first.advance()) {
                    queue.add(first);
                }
                while (!queue.isEmpty() && queue.peek().lo == lo && queue.peek().hi == hi) {
                    Cursor later = queue.poll();
                    repeats++;
                    if (later.payload == payload) {
                        repeated.set(LineSet.index(later.line));
                    } else if (conflictLine == 0 || later.line < conflictLine) {
                        conflictLine = later.line;
                        conflictFirstLine = firstLine;
                    }
                    if (later.advance()) {
                        queue.add(later);
                    }
                }
            }
            return new Merged(repeated, repeats, conflictFirstLine, conflictLine, keyFirstLine);
        } finally {
            for (Cursor cursor : cursors) {
                cursor.close();
            }
        }
    }

    /** Deletes every run and the directory. Failing to delete is reported, never hidden (disk would leak). */
    @Override
    public void close() {
        IOException failure = null;
        for (Path file : files) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                failure = e;
            }
        }
        try {
            if (directory != null) {
                Files.deleteIfExists(directory);
            }
        } catch (IOException e) {
            failure = e;
        }
        files.clear();
        directory = null;
        if (failure != null) {
            throw new UncheckedIOException("could not delete the duplicate-key index's runs under " + parent, failure);
        }
    }

    /**
     * Deletes run directories that a process killed mid-validation left under {@code parent}: a Lambda that timed out
     * never reached {@link #close}, and its /tmp outlives it into the next environment's init. Only for where no
     * validation can be running (a function's init); returns how many directories were removed.
     */
    static int deleteLeftovers(Path parent) throws IOException {
        int removed = 0;
        if (!Files.isDirectory(parent)) {
            return 0;
        }
        try (var entries = Files.newDirectoryStream(parent, DIRECTORY_PREFIX + "*")) {
            for (Path directory : entries) {
                if (!Files.isDirectory(directory, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                try (var runs = Files.newDirectoryStream(directory)) {
                    for (Path run : runs) {
                        Files.deleteIfExists(run);
                    }
                }
                Files.deleteIfExists(directory);
                removed++;
            }
        }
        return removed;
    }

    /** One sorted source of the merge: its current record. */
    private abstract static class Cursor {
        final int ordinal;
        long lo;
        long hi;
        long payload;
        long line;

        Cursor(int ordinal) {
            this.ordinal = ordinal;
        }

        /** Moves to the next record; false at the end. */
        abstract boolean advance() throws IOException;

        void close() throws IOException {
        }
    }

    private static final class FileCursor extends Cursor {
        private final DataInputStream in;
        private int left;

        FileCursor(int ordinal, Path file, int size) throws IOException {
            super(ordinal);
            this.in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), BUFFER_BYTES));
            this.left = size;
        }

        @Override
        boolean advance() throws IOException {
            if (left == 0) {
                return false;
            }
            left--;
            lo = in.readLong();
            hi = in.readLong();
            payload = in.readLong();
            line = in.readLong();
            return true;
        }

        @Override
        void close() throws IOException {
            in.close();
        }
    }

    private static final class MemoryCursor extends Cursor {
        private final DuplicateKeyIndex.Sorted sorted;
        private int next;

        MemoryCursor(int ordinal, DuplicateKeyIndex.Sorted sorted) {
            super(ordinal);
            this.sorted = sorted;
        }

        @Override
        boolean advance() {
            if (next == sorted.size()) {
                return false;
            }
            lo = sorted.lo(next);
            hi = sorted.hi(next);
            payload = sorted.payload(next);
            line = sorted.line(next);
            next++;
            return true;
        }
    }
}
