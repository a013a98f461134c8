package io.landingledger.core.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.landingledger.core.validate.DuplicateKeyIndex.Offered;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The index behind duplicate collapse and KEY_CONFLICT: exact on 128-bit fingerprints, first-seen line numbers kept
 * through chunk boundaries and line gaps of any size, nothing lost when the table grows, and its size budget (a
 * measured bytes-per-key figure, because a peak day holds 50 million keys).
 */
class DuplicateKeyIndexTest {
    private static final int CHUNK = 1 << 14;

    /** Deterministic pseudo-random 128-bit fingerprints, as MurmurHash3 would spread them. */
    private static long[][] keys(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[][] keys = new long[count][];
        for (int i = 0; i < count; i++) {
            keys[i] = new long[] {random.nextLong(), random.nextLong()};
        }
        return keys;
    }

    @TempDir
    Path spill;

    @Test
    void offer_whenKeyRepeats_returnsNewThenSameOrConflict() throws IOException {
        DuplicateKeyIndex index = new DuplicateKeyIndex();
        assertEquals(Offered.NEW, index.offer(1, 2, 100, 7));
        assertEquals(Offered.SAME, index.offer(1, 2, 100, 9));
        assertEquals(Offered.CONFLICT, index.offer(1, 2, 101, 12));
        assertEquals(7, index.conflictFirstLine);
        assertEquals(1, index.size());
    }

    @Test
    void offer_whenKeysShareHalfTheirFingerprint_keepsThemApart() throws IOException {
        // the table position comes from the low half and the slot tag from the top bits of the high half
        DuplicateKeyIndex index = new DuplicateKeyIndex();
        long hi = 0xF800_0000_0000_0001L;
        long lo = 0x1234_5678_9ABC_DEF0L;
        assertEquals(Offered.NEW, index.offer(hi, lo, 1, 1));
        assertEquals(Offered.NEW, index.offer(hi, lo + 1, 1, 2));
        assertEquals(Offered.NEW, index.offer(hi + 1, lo, 1, 3));
        assertEquals(Offered.NEW, index.offer(hi ^ 0x0000_0000_0000_1000L, lo, 2, 4)); // same tag, same position
        assertEquals(Offered.NEW, index.offer(0, 0, 0, 5));
        assertEquals(Offered.SAME, index.offer(hi, lo, 1, 6));
        assertEquals(Offered.CONFLICT, index.offer(hi + 1, lo, 2, 7));
        assertEquals(3, index.conflictFirstLine);
        assertEquals(Offered.SAME, index.offer(0, 0, 0, 8));
        assertEquals(5, index.size());
    }

    @Test
    void offer_whenLinesGapAndEntriesCrossChunks_remembersEveryFirstLine() throws IOException {
        // gaps around the one-byte delta limit (254, 255, 256) and far beyond it take the exception path;
        // 3.5 chunks of entries put several keys on each chunk boundary
        int count = CHUNK * 3 + CHUNK / 2;
        long[][] keys = keys(count, 1);
        long[] gaps = {1, 2, 254, 255, 256, 1, 1, 1000, 3, 1_000_000, 1, 1L << 40, 254};
        long[] lines = new long[count];
        DuplicateKeyIndex index = new DuplicateKeyIndex(16);
        long line = 0;
        for (int i = 0; i < count; i++) {
            line += gaps[(i * 7 + i / CHUNK) % gaps.length];
            lines[i] = line;
            assertEquals(Offered.NEW, index.offer(keys[i][0], keys[i][1], i, line));
        }
        // lineOf walks a chunk's deltas (it only runs for a refusal), so check every entry of the first chunk and
        // a spread of the others rather than all of them
        for (int i = 0; i < count; i += i < CHUNK ? 1 : 13) {
            assertEquals(Offered.CONFLICT, index.offer(keys[i][0], keys[i][1], -i - 1, line + 1), "entry " + i);
            assertEquals(lines[i], index.conflictFirstLine, "first line of entry " + i);
        }
        for (int boundary = CHUNK; boundary < count; boundary += CHUNK) {
            for (int i = boundary - 2; i <= boundary + 1; i++) {
                index.offer(keys[i][0], keys[i][1], -1, line + 2);
                assertEquals(lines[i], index.conflictFirstLine, "entry " + i + " next to a chunk boundary");
            }
        }
    }

    @Test
    void offer_whenTableGrowsManyTimes_keepsEveryEntry() throws IOException {
        int count = 300_000;
        long[][] keys = keys(count, 2);
        DuplicateKeyIndex index = new DuplicateKeyIndex(16);
        for (int i = 0; i < count; i++) {
            assertEquals(Offered.NEW, index.offer(keys[i][0], keys[i][1], i * 31L, i + 1));
        }
        assertEquals(count, index.size());
        for (int i = 0; i < count; i++) {
            assertEquals(Offered.SAME, index.offer(keys[i][0], keys[i][1], i * 31L, count + 1L));
        }
        long[][] others = keys(1000, 3);
        for (long[] key : others) {
            assertEquals(Offered.NEW, index.offer(key[0], key[1], 0, count + 2L));
        }
        assertEquals(count + 1000, index.size());
    }

    @Test
    void bytes_whenTwoMillionDistinctKeys_staysWithin32BytesPerKey() throws IOException {
        int count = 2_000_000;
        SplittableRandom random = new SplittableRandom(4);
        DuplicateKeyIndex index = new DuplicateKeyIndex();
        long line = 0;
        for (int i = 0; i < count; i++) {
            line += 1 + (i % 1000 == 0 ? 300 : 0); // mostly adjacent lines, some gaps on the exception path
            assertEquals(Offered.NEW, index.offer(random.nextLong(), random.nextLong(), random.nextLong(), line));
        }
        double perKey = (double) index.bytes() / index.size();
        System.out.printf("DuplicateKeyIndex: %d distinct keys in %d bytes = %.2f bytes per key%n", index.size(), index.bytes(), perKey);
        assertEquals(count, index.size());
        assertTrue(perKey <= 32, "bytes per key " + perKey + " is above the budget of 32");
        // the figure is the arrays' real size, not an estimate from the count
        assertTrue(index.bytes() >= (long) count * (3 * Long.BYTES + 1 + Integer.BYTES), "bytes() must count every entry and slot");
    }

    @Test
    void reserve_whenTheEstimateIsRight_holdsTheKeysWithoutGrowingWithin32BytesPerKey() throws IOException {
        int count = 2_000_000;
        SplittableRandom random = new SplittableRandom(4);
        DuplicateKeyIndex index = new DuplicateKeyIndex();
        index.reserve(count);
        long reserved = index.bytes();
        for (int i = 0; i < count; i++) {
            assertEquals(Offered.NEW, index.offer(random.nextLong(), random.nextLong(), random.nextLong(), i + 1));
        }
        long added = index.bytes() - reserved; // entry chunks (and their 8-byte first lines), not a larger table
        long chunks = count / CHUNK + 1;
        assertTrue(added > 0 && added <= chunks * CHUNK * (3 * Long.BYTES + 1) + 2 * chunks * Long.BYTES,
                "the reserved table grew: " + reserved + " bytes reserved, " + index.bytes() + " at the end");
        double perKey = (double) index.bytes() / index.size();
        assertTrue(perKey <= 32, "bytes per key " + perKey + " is above the budget of 32");
        for (long[] key : keys(1000, 3)) {
            assertEquals(Offered.NEW, index.offer(key[0], key[1], 0, count + 1L)); // more than estimated: it grows on
        }
        assertEquals(count + 1000, index.size());
    }

    @Test
    void reserve_whenTheEstimateIsPastTheMemoryBudget_reservesOnlyWhatTheBudgetAllows() throws IOException {
        long budget = 4L << 20;
        SpilledKeyRuns runs = new SpilledKeyRuns(spill, Long.MAX_VALUE);
        DuplicateKeyIndex index = new DuplicateKeyIndex(1024, budget, runs);
        index.reserve(50_000_000); // a size hint that lies, or a day far larger than the budget
        assertTrue(index.bytes() <= budget, "index holds " + index.bytes() + " bytes, above its budget " + budget);
        long[][] keys = keys(400_000, 8);
        for (int i = 0; i < keys.length; i++) {
            assertEquals(Offered.NEW, index.offer(keys[i][0], keys[i][1], i, i + 1));
            assertTrue(index.bytes() <= budget, "index holds " + index.bytes() + " bytes, above its budget " + budget);
        }
        assertTrue(runs.count() >= 1, "runs: " + runs.count());
        runs.close();
    }

    private List<Path> runFiles() throws IOException {
        try (Stream<Path> files = Files.walk(spill)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        }
    }

    @Test
    void offer_whenPastTheMemoryBudget_spillsSortedFixedWidthRunsAndStaysWithinIt() throws IOException {
        int count = 200_000;
        long budget = 2L << 20;
        long[][] keys = keys(count, 5);
        Map<Long, Integer> byLow = new HashMap<>();
        SpilledKeyRuns runs = new SpilledKeyRuns(spill, Long.MAX_VALUE);
        DuplicateKeyIndex index = new DuplicateKeyIndex(1024, budget, runs);
        for (int i = 0; i < count; i++) {
            byLow.put(keys[i][1], i);
            assertEquals(Offered.NEW, index.offer(keys[i][0], keys[i][1], i * 31L, 2L * i + 1));
            assertTrue(index.bytes() <= budget, "index holds " + index.bytes() + " bytes, above its budget " + budget);
        }
        assertTrue(runs.count() >= 3, "runs: " + runs.count());
        List<Path> files = runFiles();
        assertEquals(runs.count(), files.size());
        long onDisk = 0;
        long records = 0;
        for (Path file : files) {
            onDisk += Files.size(file);
            try (InputStream raw = Files.newInputStream(file); DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(raw))) {
                long previousLo = 0;
                long previousHi = 0;
                for (long r = 0; r < Files.size(file) / SpilledKeyRuns.RECORD_BYTES; r++, records++) {
                    long lo = in.readLong();
                    long hi = in.readLong();
                    long payload = in.readLong();
                    long line = in.readLong();
                    if (r > 0) {
                        int byLo = Long.compareUnsigned(previousLo, lo);
                        assertTrue(byLo < 0 || byLo == 0 && Long.compareUnsigned(previousHi, hi) < 0, "run " + file + " is not sorted at " + r);
                    }
                    int i = byLow.get(lo);
                    assertEquals(keys[i][0], hi);
                    assertEquals(i * 31L, payload);
                    assertEquals(2L * i + 1, line);
                    previousLo = lo;
                    previousHi = hi;
                }
            }
        }
        assertEquals(runs.diskBytes(), onDisk, "disk bytes as reported");
        assertEquals(runs.records(), records);
        assertEquals(records * SpilledKeyRuns.RECORD_BYTES, onDisk);
        assertEquals(count, records + index.size(), "every key is in one run or in memory");

        SpilledKeyRuns.Merged merged = runs.merge(index.sorted(), 0, 0);
        assertEquals(0, merged.repeats());
        assertEquals(0, merged.conflictLine());
        runs.close();
        assertEquals(List.of(), runFiles());
    }

    @Test
    void merge_whenKeysRepeatAcrossRuns_findsIdenticalRepeatsAndTheEarliestConflict() throws IOException {
        int count = 3000; // runs of 820 keys with a 1-byte budget
        long[][] keys = keys(count, 6);
        SpilledKeyRuns runs = new SpilledKeyRuns(spill, Long.MAX_VALUE);
        DuplicateKeyIndex index = new DuplicateKeyIndex(1024, 1, runs);
        long line = 0;
        for (int i = 0; i < count; i++) {
            assertEquals(Offered.NEW, index.offer(keys[i][0], keys[i][1], i, ++line));
        }
        BitSet expectedRepeats = new BitSet();
        List<Long> conflicts = new ArrayList<>();
        for (int i = 0; i < 500; i += 10) {
            line++;
            // keys 0..499 were in the first run: here the index does not know them
            if (i % 100 == 50) {
                assertEquals(Offered.NEW, index.offer(keys[i][0], keys[i][1], -1, line));
                conflicts.add(line);
            } else {
                assertEquals(Offered.NEW, index.offer(keys[i][0], keys[i][1], i, line));
                expectedRepeats.set((int) line);
            }
        }
        SpilledKeyRuns.Merged merged = runs.merge(index.sorted(), keys[30][0], keys[30][1]);
        assertEquals(expectedRepeats, merged.repeatedLines());
        assertEquals(50, merged.repeats());
        assertEquals(conflicts.get(0), merged.conflictLine());
        assertEquals(51, merged.conflictFirstLine(), "key 50 was first seen on line 51");
        assertEquals(31, merged.keyFirstLine());
        runs.close();
    }
}
