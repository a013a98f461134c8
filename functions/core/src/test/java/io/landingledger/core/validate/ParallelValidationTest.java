package io.landingledger.core.validate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.testing.Gzip;
import io.landingledger.core.testing.TestContracts;
import io.landingledger.core.validate.Validation.Outcome;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files of many reads (a read is the chunk the workers parse), where what the file decides lies several chunks in:
 * whatever the worker count, the decision, the counts, where reading stopped and every output byte are those of one
 * thread. {@link Validation} compares 1, 2 and 4 workers on whole and 7-byte reads for each.
 */
class ParallelValidationTest {
    private static final DatasetContract EVENTS = TestContracts.progressEvents();
    private static final DatasetContract TRANSACTIONS = TestContracts.transactions();
    /** Lines enough for about ten 256 KiB reads. */
    private static final int LINES = 12_000;

    @Test
    void largeFile_withTwoWorkers_writesWhatOneThreadWrites() {
        byte[] file = events(LINES, -1, null);
        Outcome parallel = once(EVENTS, ValidationLimits.defaults().withWorkers(2), file);
        Outcome single = once(EVENTS, ValidationLimits.defaults().withWorkers(1), file);
        assertEquals(single.result(), parallel.result());
        assertArrayEquals(single.accepted(), parallel.accepted());
        assertEquals(LINES, parallel.result().accepted());
    }

    @Test
    void keyConflictChunksIntoAGzipFile_stopsWhereOneThreadStops() {
        int conflictAt = LINES * 2 / 3;
        Outcome outcome = Validation.validate(EVENTS, Gzip.gzip(events(LINES, conflictAt, null)));
        assertEquals(RefusalCode.KEY_CONFLICT, outcome.refusalCode());
        assertEquals(conflictAt, outcome.result().lines());
        assertTrue(outcome.result().decodedBytes() < events(LINES, -1, null).length,
                "reading stopped at the conflict, not at the end: " + outcome.result().decodedBytes());
    }

    @Test
    void gzipCutChunksIn_isRefusedUnreadableAtTheSameLine() {
        byte[] gzip = Gzip.gzip(events(LINES, -1, null));
        Outcome outcome = Validation.validate(EVENTS, Arrays.copyOf(gzip, gzip.length * 3 / 4));
        assertEquals(RefusalCode.UNREADABLE, outcome.refusalCode());
        assertTrue(outcome.result().lines() > LINES / 2, "lines before the cut were read: " + outcome.result().lines());
    }

    @Test
    void compressionRatioPassedChunksIn_isRefusedWithTheSameCounts() {
        ValidationLimits limits = ValidationLimits.builder().maxCompressionRatio(20).compressionRatioGraceBytes(1 << 20).build();
        StringBuilder same = new StringBuilder();
        for (int i = 0; i < LINES; i++) {
            same.append(eventLine("e-" + (i % 7), "L1")).append('\n'); // identical repeats: compresses far past 20:1
        }
        Outcome outcome = Validation.validate(EVENTS, limits, Gzip.gzip(same.toString().getBytes(StandardCharsets.UTF_8)));
        assertEquals(RefusalCode.DECOMPRESSION_RATIO, outcome.refusalCode());
    }

    @Test
    void prohibitedFieldChunksIn_refusesAtItsLine() {
        int at = LINES - 5;
        Outcome outcome = Validation.validate(EVENTS, events(LINES, -1, at));
        assertEquals(RefusalCode.PROHIBITED_FIELD, outcome.refusalCode());
        assertEquals(at, outcome.result().lines());
    }

    @Test
    void rejectCapReachedChunksIn_refusesAtTheLineOverTheCap() {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= LINES; i++) {
            text.append(i % 1000 == 0 ? "{\"event_id\":" : eventLine("e-" + i, "L1")).append('\n'); // 12 rejects, cap 10
        }
        Outcome outcome = Validation.validate(EVENTS, text.toString());
        assertEquals(RefusalCode.REJECT_CAP, outcome.refusalCode());
        assertEquals(11_000, outcome.result().lines());
    }

    @Test
    void csvRecordsWithLineBreaksAcrossChunks_areJoinedAsOneThreadJoinsThem() {
        DatasetContract uncapped = TestContracts.transactions(c -> c.put("maxRejectedLines", 1_000_000));
        StringBuilder text = new StringBuilder("txn_id,account_id,business_date,amount,batch_date\r\n");
        for (int i = 1; i <= LINES; i++) {
            switch (i % 5) {
                case 0 -> text.append("T").append(i).append(",\"A\n").append(i).append("\nB\",2026-10-01,1.5,2026-10-02\n");
                case 1 -> text.append("T").append(i).append(",\"A,\"\"").append(i).append("\",2026-10-01,2,2026-10-02\r\n");
                case 2 -> text.append("T").append(i).append(",A").append(i).append(",2026-10-01,x,2026-10-02\n"); // TYPE_MISMATCH
                default -> text.append("T").append(i).append(",A").append(i).append(",2026-10-01,").append(i).append(",2026-10-02\n");
            }
        }
        text.append("T-last,\"never closed\n,2026-10-01,1,2026-10-02\n");
        Outcome outcome = Validation.validate(uncapped, text.toString());
        assertNull(outcome.refusal());
        assertEquals(LINES / 5 * 4, outcome.result().accepted());
        assertEquals(LINES / 5 + 1, outcome.result().rejected()); // the type mismatches and the record the file ends in
        assertEquals(1 + LINES + 2 * (LINES / 5) + 2, outcome.result().lines());
        assertEquals(TRANSACTIONS.dataset(), outcome.result().dataset());
    }

    @Test
    void spilledKeyIndex_dropsTheSameRowsOnTheSecondPassWhateverTheWorkers(@TempDir Path spill) throws IOException {
        ValidationLimits tiny = ValidationLimits.builder().keyIndexMemoryBytes(1).spillDirectory(spill).build();
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= LINES; i++) {
            text.append(eventLine("e-" + i, "L1")).append('\n');
        }
        for (int i = 1; i <= LINES; i += 97) {
            text.append(eventLine("e-" + i, "L1")).append('\n'); // identical repeats of keys in earlier runs
        }
        byte[] file = text.toString().getBytes(StandardCharsets.UTF_8);
        Outcome single = Validation.validate(EVENTS, tiny, file);
        assertTrue(single.result().keyIndexRuns() > 0 && !single.result().rowsToDrop().isEmpty());
        byte[] expected = second(tiny.withWorkers(1), file, single.result().rowsToDrop());
        for (int workers : Validation.WORKERS) {
            assertArrayEquals(expected, second(tiny.withWorkers(workers), file, single.result().rowsToDrop()), workers + " workers");
        }
    }

    private static byte[] second(ValidationLimits limits, byte[] file, LineSet dropRows) throws IOException {
        ByteArrayOutputStream accepted = new ByteArrayOutputStream();
        new StreamingValidator(EVENTS, limits).validate(new ByteArrayInputStream(file), accepted, OutputStream.nullOutputStream(), dropRows);
        return accepted.toByteArray();
    }

    private static Outcome once(DatasetContract contract, ValidationLimits limits, byte[] file) {
        return Validation.once(new StreamingValidator(contract, limits), file, Integer.MAX_VALUE);
    }

    /** {@code lines} distinct events; line {@code conflictAt} repeats line 1's key with another payload, line {@code prohibitedAt} names an email. */
    private static byte[] events(int lines, int conflictAt, Integer prohibitedAt) {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= lines; i++) {
            String line = i == conflictAt ? eventLine("e-1", "L-other") : eventLine("e-" + i, "L" + (i % 50));
            if (prohibitedAt != null && i == prohibitedAt) {
                line = line.replace("{", "{\"email\":\"x\",");
            }
            text.append(line).append('\n');
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String eventLine(String id, String learner) {
        return "{\"event_id\":\"" + id + "\",\"learner_id\":\"" + learner + "\",\"lesson_id\":\"lesson-3\",\"event_type\":\"checkpoint\","
                + "\"attempt_number\":2,\"event_time\":\"2026-03-02T14:02:11Z\",\"checkpoint\":4}";
    }
}
