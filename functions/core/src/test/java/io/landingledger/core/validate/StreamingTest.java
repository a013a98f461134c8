package io.landingledger.core.validate;

import static io.landingledger.core.validate.Events.event;
import static io.landingledger.core.validate.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.testing.Gzip;
import io.landingledger.core.testing.TestContracts;
import io.landingledger.core.testing.ThrottledInputStream;
import io.landingledger.core.validate.Validation.Outcome;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The byte-level contract of the stream: chunking never changes a result, line endings and a BOM do not matter,
 * blank lines are skipped, gzip is found by its magic bytes (one member or many), and the hash is of the stored bytes.
 * (Every test in this package also runs its input through whole, 1-, 7- and 8 KiB reads: see {@link Validation}.)
 */
class StreamingTest {
    private static final DatasetContract EVENTS = TestContracts.progressEvents(c -> c.put("maxRejectedLines", 1000));
    private static final ValidationLimits SMALL_LINES = ValidationLimits.builder().maxLineBytes(512).build();

    /** A day with a bit of everything: rows, duplicates, rejects, blank lines, CRLF, long lines, bad bytes. */
    static byte[] mixedDay(int rows) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < rows; i++) {
            String line = switch (i % 11) {
                case 0 -> event("d" + (i / 2)).line() + "\r\n";                                   // CRLF
                case 1 -> "\n";                                                                    // blank
                case 2 -> event("e" + i).raw("attempt_number", "true").line() + "\n";             // reject
                case 3 -> event("e" + i).text("learner_id", "x".repeat(300 + i % 700)).line() + "\n"; // long (some)
                case 4 -> event("d" + ((i - 4) / 2)).line() + "\n";                                // maybe duplicate
                case 5 -> "  \t \r\n";                                                             // blank, CRLF
                case 6 -> event("e" + i).text("event_time", "2026-03-02T14:02:11.12" + i % 10 + "-05:00").line() + "\n";
                case 7 -> "[1,2,3]\n";
                default -> event("e" + i).line() + "\n";
            };
            out.writeBytes(utf8(line));
            if (i % 97 == 0) {
                out.writeBytes(new byte[] {'{', '"', (byte) 0xC0, (byte) 0xAF, '"', '}', '\n'});   // invalid UTF-8
            }
        }
        out.writeBytes(utf8(event("last").line()));                                                // no final newline
        return out.toByteArray();
    }

    @Test
    void validate_whenReadInAnyChunkSize_givesIdenticalResultAndBytes() {
        // Validation.validate fails unless whole, 1-byte, 7-byte and 8 KiB reads agree on the result and every byte out
        Outcome outcome = Validation.validate(EVENTS, SMALL_LINES, mixedDay(500));
        assertNull(outcome.refusal());
        assertTrue(outcome.result().accepted() > 100);
        assertTrue(outcome.result().blankLines() > 50);
        assertTrue(outcome.result().reasons().keySet().containsAll(
                List.of(ReasonCode.TYPE_MISMATCH, ReasonCode.LINE_TOO_LONG, ReasonCode.NOT_AN_OBJECT, ReasonCode.INVALID_UTF8)));
    }

    @Test
    void validate_whenGzipReadInAnyChunkSize_givesIdenticalResultAndBytes() {
        byte[] plain = mixedDay(3000);
        Outcome fromPlain = Validation.validate(EVENTS, SMALL_LINES, plain);
        Outcome fromGzip = Validation.validate(EVENTS, SMALL_LINES, Gzip.gzip(plain));
        assertArrayEquals(fromPlain.accepted(), fromGzip.accepted());
        assertArrayEquals(fromPlain.rejects(), fromGzip.rejects());
        assertEquals(fromPlain.result().reasons(), fromGzip.result().reasons());
    }

    @Test
    void validate_whenToldAStoredSize_givesTheSameResultAndBytesWhateverTheSize(@TempDir Path spill) throws IOException {
        // the size only presizes the duplicate-key index (after 4,096 lines): a right, a wrong or no size, plain or
        // gzip, in memory or spilled, never changes a row, a count or a reason
        byte[] day = mixedDay(12_000);
        byte[] resent = mixedDay(6_000); // its rows again: repeats of keys first seen long before the estimate
        byte[] plain = java.util.Arrays.copyOf(day, day.length + 1 + resent.length);
        plain[day.length] = '\n';
        System.arraycopy(resent, 0, plain, day.length + 1, resent.length);
        ValidationLimits spilling = ValidationLimits.builder().maxLineBytes(512).keyIndexMemoryBytes(1).spillDirectory(spill).build();
        DatasetContract events = TestContracts.progressEvents(c -> c.put("maxRejectedLines", 100_000));
        for (ValidationLimits limits : List.of(SMALL_LINES, spilling)) {
            for (byte[] stored : List.of(plain, Gzip.gzip(plain))) {
                StreamingValidator validator = new StreamingValidator(events, limits);
                Outcome unknown = sized(validator, stored, StreamingValidator.UNKNOWN_SIZE);
                assertNull(unknown.result().refusal());
                assertTrue(unknown.result().lines() > 16_000 && unknown.result().duplicates() > 3_000 && unknown.result().rejected() > 0);
                for (long size : List.of((long) stored.length, 1L, 100L * stored.length, 1L << 40)) {
                    Outcome told = sized(validator, stored, size);
                    String how = "stored size " + size + " for " + stored.length + " bytes, " + limits.keyIndexMemoryBytes() + " bytes of index";
                    assertEquals(withoutIndexFigures(unknown.result()), withoutIndexFigures(told.result()), how);
                    assertArrayEquals(unknown.accepted(), told.accepted(), how);
                    assertArrayEquals(unknown.rejects(), told.rejects(), how);
                }
            }
        }
    }

    private static Outcome sized(StreamingValidator validator, byte[] stored, long storedBytes) throws IOException {
        ByteArrayOutputStream accepted = new ByteArrayOutputStream();
        ByteArrayOutputStream rejects = new ByteArrayOutputStream();
        ValidationResult result = validator.validate(new ByteArrayInputStream(stored), storedBytes, accepted, rejects, LineSet.empty());
        return new Outcome(result, accepted.toByteArray(), rejects.toByteArray());
    }

    /** The result less the index's own size figures, which a presized table changes by design. */
    private static ValidationResult withoutIndexFigures(ValidationResult r) {
        return r.toBuilder().keyIndexBytes(0).keyIndexRuns(0).keyIndexDiskBytes(0).build();
    }

    @Test
    void validate_whenNonAsciiBytesSitAnywhereNearALineEnd_judgesEachLineByItsOwnBytes() {
        // lines are split eight bytes at a time and checked for ASCII on the way: a byte of one line must never
        // count for its neighbour, at any offset from the newline, on any read size (Validation.validate)
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        int invalid = 0;
        StringBuilder accepted = new StringBuilder();
        for (int pad = 0; pad < 20; pad++) {
            String id = "e" + "x".repeat(pad);
            file.writeBytes(utf8(event(id + "-\u00e9").line() + "\n"));                  // valid two-byte UTF-8 at the end
            accepted.append(Events.canonical(id + "-\u00e9")).append('\n');
            byte[] bad = utf8(event(id + "-bad").line());
            file.writeBytes(java.util.Arrays.copyOf(bad, bad.length - 2 - pad % 3));        // cut short ...
            file.write(0xFF);                                                             // ... then a byte never valid
            file.writeBytes(utf8("\n"));
            invalid++;
            file.write(0xC3);                                                             // a line that starts badly
            file.writeBytes(utf8("\n"));
            invalid++;
            file.writeBytes(utf8(event(id).line() + "\n"));
            accepted.append(Events.canonical(id)).append('\n');
        }
        Outcome outcome = Validation.validate(TestContracts.progressEvents(c -> c.put("maxRejectedLines", 1000)), file.toByteArray());
        assertNull(outcome.refusal());
        assertEquals(Map.of(ReasonCode.INVALID_UTF8, (long) invalid), outcome.result().reasons());
        assertEquals(accepted.toString(), new String(outcome.accepted(), java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void validate_whenRunTwiceOnSameValidator_writesByteIdenticalOutput() {
        byte[] day = mixedDay(400);
        StreamingValidator validator = new StreamingValidator(EVENTS, SMALL_LINES);
        Outcome first = Validation.once(validator, day, Integer.MAX_VALUE);
        Outcome second = Validation.once(validator, day, Integer.MAX_VALUE);
        assertEquals(first.result(), second.result());
        assertArrayEquals(first.accepted(), second.accepted());
        assertArrayEquals(first.rejects(), second.rejects());
        assertTrue(first.accepted().length > 0 && first.rejects().length > 0);
    }

    @Test
    void validate_whenLinesEndWithCrlf_writesSameBytesAsLf() {
        String lf = Events.lines(event("e1").line(), event("e2").raw("attempt_number", "0").line(), "", event("e3").line());
        Outcome withLf = Validation.validate(EVENTS, lf);
        Outcome withCrlf = Validation.validate(EVENTS, lf.replace("\n", "\r\n"));
        assertArrayEquals(withLf.accepted(), withCrlf.accepted());
        assertArrayEquals(withLf.rejects(), withCrlf.rejects());
        assertEquals(withLf.result().lines(), withCrlf.result().lines());
        assertEquals(withLf.result().blankLines(), withCrlf.result().blankLines());
        assertEquals(2, withCrlf.result().accepted());
    }

    @Test
    void validate_whenFileStartsWithUtf8Bom_toleratesIt() {
        Outcome outcome = Validation.validate(EVENTS, "\uFEFF" + Events.lines(event("e1").line(), event("e2").line()));
        assertEquals(List.of(Events.canonical("e1"), Events.canonical("e2")), outcome.acceptedLines());
        assertEquals(0, outcome.result().rejected());

        Outcome bomThenBlank = Validation.validate(EVENTS, "\uFEFF\r\n" + event("e1").line());
        assertEquals(1, bomThenBlank.result().blankLines());
        assertEquals(1, bomThenBlank.result().accepted());
    }

    @Test
    void validate_whenLastLineHasNoNewline_acceptsIt() {
        Outcome outcome = Validation.validate(EVENTS, event("e1").line() + "\n" + event("e2").line());
        assertEquals(2, outcome.result().accepted());
        assertEquals(2, outcome.result().lines());
        Outcome crAtEnd = Validation.validate(EVENTS, event("e1").line() + "\r");
        assertEquals(1, crAtEnd.result().accepted());
    }

    @Test
    void validate_whenBlankLinesPresent_ignoresAndCountsThemAndKeepsLineNumbers() {
        String input = "\n" + event("e1").line() + "\n   \n\t\n\r\n \t \n" + event("e2").raw("attempt_number", "0").line() + "\n\n";
        Outcome outcome = Validation.validate(EVENTS, input);
        assertEquals(8, outcome.result().lines()); // the final "\n\n" ends line 7 and an empty line 8
        assertEquals(6, outcome.result().blankLines());
        assertEquals(1, outcome.result().accepted());
        assertEquals(List.of("{\"line\":7,\"reason\":\"OUT_OF_RANGE\",\"field\":\"attempt_number\"}"), outcome.rejectLines());
    }

    @Test
    void validate_whenInputIsGzip_detectsItByMagicBytesAndHashesStoredBytes() {
        byte[] plain = utf8(Events.lines(event("e1").line(), event("e2").line(), event("e1").line()));
        byte[] gz = Gzip.gzip(plain);
        Outcome fromPlain = Validation.validate(EVENTS, plain);
        Outcome fromGzip = Validation.validate(EVENTS, gz);

        assertTrue(fromGzip.result().gzip());
        assertFalse(fromPlain.result().gzip());
        assertEquals(Gzip.sha256(gz), fromGzip.result().sha256());
        assertEquals(Gzip.sha256(plain), fromPlain.result().sha256());
        assertEquals(gz.length, fromGzip.result().storedBytes());
        assertEquals(plain.length, fromGzip.result().decodedBytes());
        assertEquals(plain.length, fromPlain.result().decodedBytes());
        assertArrayEquals(fromPlain.accepted(), fromGzip.accepted());
        assertEquals(1, fromGzip.result().duplicates());
    }

    @Test
    void validate_whenGzipHasSeveralMembers_readsEveryMember() {
        byte[] part1 = utf8(Events.lines(event("e1").line(), event("e2").line()));
        byte[] part2 = utf8(Events.lines(event("e3").line()));
        byte[] part3 = utf8(event("e4").line()); // the last member ends without a newline
        byte[] stored = Gzip.gzipMembers(part1, part2, new byte[0], part3);
        Outcome outcome = Validation.validate(EVENTS, stored);
        assertNull(outcome.refusal(), "concatenated complete members are one valid file");
        assertEquals(List.of(Events.canonical("e1"), Events.canonical("e2"), Events.canonical("e3"), Events.canonical("e4")), outcome.acceptedLines());
        assertEquals(part1.length + part2.length + part3.length, outcome.result().decodedBytes());
        assertEquals(Gzip.sha256(stored), outcome.result().sha256());
    }

    @Test
    void validate_whenEveryLineIsItsOwnGzipMember_readsEveryLine() {
        // bgzip and parallel compressors write many members; a line may also straddle two of them
        int lines = 700;
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            text.append(event("e" + i).line()).append('\n');
        }
        byte[] plain = utf8(text.toString());
        byte[][] parts = new byte[lines][];
        int chunk = plain.length / lines + 13; // members cut across line boundaries
        int count = 0;
        for (int at = 0; at < plain.length; at += chunk) {
            parts[count++] = java.util.Arrays.copyOfRange(plain, at, Math.min(plain.length, at + chunk));
        }
        byte[] stored = Gzip.gzipMembers(java.util.Arrays.copyOf(parts, count));
        Outcome outcome = Validation.validate(EVENTS, stored);
        assertNull(outcome.refusal());
        assertEquals(lines, outcome.result().accepted());
        assertArrayEquals(Validation.validate(EVENTS, plain).accepted(), outcome.accepted());
    }

    @Test
    void validate_whenFileStartsWithOnlyFirstGzipMagicByte_treatsItAsText() {
        Outcome outcome = Validation.validate(EVENTS, new byte[] {0x1f, '{', '}', '\n'});
        assertFalse(outcome.result().gzip());
        assertEquals(Map.of(ReasonCode.INVALID_JSON, 1L), outcome.result().reasons());
    }

    @Test
    void throttledInputStream_whenReading_returnsAtMostTheLimitAndReportsNothingAvailable() throws Exception {
        ThrottledInputStream in = new ThrottledInputStream(new java.io.ByteArrayInputStream(new byte[100]), 7);
        byte[] buffer = new byte[50];
        assertEquals(7, in.read(buffer, 0, 50));
        assertEquals(0, in.available());
        int total = 7;
        for (int n; (n = in.read(buffer, 0, 50)) > 0; ) {
            assertTrue(n <= 7);
            total += n;
        }
        assertEquals(100, total);
    }
}
