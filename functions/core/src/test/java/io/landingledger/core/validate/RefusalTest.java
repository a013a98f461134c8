package io.landingledger.core.validate;

import static io.landingledger.core.validate.Events.event;
import static io.landingledger.core.validate.Events.lines;
import static io.landingledger.core.validate.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.testing.Gzip;
import io.landingledger.core.testing.TestContracts;
import io.landingledger.core.validate.Validation.Outcome;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every file-level refusal ({@link RefusalCode}) the validator can produce, and the line numbers and details it
 * reports. A refusal publishes nothing; these tests pin what decides one. (TOO_MANY_KEYS needs 134 million distinct
 * keys and is left to the index's own limit.)
 */
class RefusalTest {
    private static final DatasetContract EVENTS = TestContracts.progressEvents();
    /** progress_events with a cap high enough that only the refusal under test can end the file. */
    private static final DatasetContract EVENTS_NO_CAP = TestContracts.progressEvents(c -> c.put("maxRejectedLines", 1_000_000));

    // ---- PROHIBITED_FIELD ----

    static Stream<Arguments> prohibitedLines() {
        String good = event("e2").line();
        return Stream.of(
                Arguments.of("top level", event("e2").text("email", "jane@example.com").line(), "email"),
                Arguments.of("another letter case: Email", event("e2").text("Email", "jane@example.com").line(), "email"),
                Arguments.of("another letter case: EMAIL", event("e2").text("EMAIL", "jane@example.com").line(), "email"),
                Arguments.of("another letter case: Payment_Token", event("e2").text("Payment_Token", "tok").line(), "payment_token"),
                Arguments.of("name", event("e2").text("name", "Jane Doe").line(), "name"),
                Arguments.of("a null value: the key alone refuses", event("e2").raw("email", "null").line(), "email"),
                Arguments.of("nested 3 levels deep in an unknown field", event("e2").raw("meta",
                        "{\"profile\":{\"contact\":{\"Email\":\"jane@example.com\"}}}").line(), "email"),
                Arguments.of("nested 3 levels deep in a contract field of the wrong type", event("e2").raw("lesson_id",
                        "{\"a\":{\"b\":{\"name\":\"Jane\"}}}").line(), "name"),
                Arguments.of("inside an array", event("e2").raw("tags", "[1,{\"name\":\"Jane\"}]").line(), "name"),
                Arguments.of("inside nested arrays", event("e2").raw("tags", "[[[{\"payment_token\":\"tok\"}]]]").line(), "payment_token"),
                Arguments.of("a line that is an array of objects", "[" + event("e2").text("email", "x@y.z").line() + "]", "email"),
                Arguments.of("after a field of the wrong type", event("e2").raw("attempt_number", "true").text("email", "x@y.z").line(), "email"),
                Arguments.of("after an unknown field", event("e2").raw("extra", "1").text("email", "x@y.z").line(), "email"),
                Arguments.of("in a line missing a required field", event("e2").without("learner_id").text("email", "x@y.z").line(), "email"),
                Arguments.of("after a duplicate field", good.replaceFirst("\\{", "{\"event_id\":\"a\",").replace("}", ",\"email\":\"x@y.z\"}"), "email"),
                Arguments.of("in a second object on the same line", good + "{\"email\":\"x@y.z\"}", "email"),
                Arguments.of("below the nesting limit (the line is walked on past it)", event("e2").raw("meta",
                        "[".repeat(ValidationLimits.DEFAULT_MAX_NESTING_DEPTH + 5) + "{\"Email\":1}"
                                + "]".repeat(ValidationLimits.DEFAULT_MAX_NESTING_DEPTH + 5)).line(), "email"),
                Arguments.of("after the nesting limit was passed", event("e2").raw("meta",
                        "[".repeat(ValidationLimits.DEFAULT_MAX_NESTING_DEPTH + 5) + "]".repeat(ValidationLimits.DEFAULT_MAX_NESTING_DEPTH + 5))
                        .text("name", "Jane").line(), "name"),
                Arguments.of("after a number too long to parse", event("e2").raw("attempt_number", "9".repeat(1_200)).text("email", "x").line(), "email"),
                Arguments.of("spelled with escapes", good.replace("}", ",\"em\\u0061il\":1}"), "email"),
                Arguments.of("spelled with the Kelvin sign, which lower-cases to k", event("e2").raw("payment_to\u212Aen", "1").line(), "payment_token"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("prohibitedLines")
    void validate_whenProhibitedFieldAnywhereInLine_refusesFile(String description, String line, String prohibited) {
        Outcome outcome = Validation.validate(EVENTS, lines(event("e1").line(), line, event("e3").line()));
        assertEquals(new Refusal(RefusalCode.PROHIBITED_FIELD, "line 2 has the prohibited field " + prohibited, List.of(2L)), outcome.refusal());
        assertFalse(outcome.result().publishable());
        assertEquals("refuse", outcome.result().decision());
    }

    @Test
    void validate_whenProhibitedKeyPrecedesInvalidUtf8_refusesFile() {
        // a Latin-1 export that joined a profile: the name is prohibited however its value is encoded
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        line.writeBytes(utf8(event("e2").line().replace("}", ",\"name\":\"Zo")));
        line.write(0xEB); // e-diaeresis in Latin-1: not UTF-8
        line.writeBytes(utf8("\"}"));
        Outcome outcome = Validation.validate(EVENTS, lines(event("e1").bytes(), line.toByteArray()));
        assertEquals(RefusalCode.PROHIBITED_FIELD, outcome.refusalCode());
        assertEquals(List.of(2L), outcome.refusal().lines());
    }

    @Test
    void validate_whenProhibitedNameIsOnlyAValueOrPartOfAKey_doesNotRefuse() {
        Outcome outcome = Validation.validate(EVENTS, lines(
                event("e1").text("learner_id", "email").line(),
                event("e2").raw("email_address", "\"x\"").line()));
        assertNull(outcome.refusal());
        assertEquals(1, outcome.result().accepted());
        assertEquals(List.of("{\"line\":2,\"reason\":\"UNKNOWN_FIELD\",\"field\":\"sha256:e2ef8579aa7f9f6d\"}"), outcome.rejectLines());
    }

    @Test
    void validate_whenProhibitedFieldOnFirstLineOfLargeFile_hashesEveryStoredByte() {
        StringBuilder text = new StringBuilder(event("e0").text("email", "x@y.z").line()).append('\n');
        for (int i = 1; i < 20_000; i++) {
            text.append(event("e" + i).line()).append('\n');
        }
        byte[] plain = utf8(text.toString());
        for (byte[] stored : List.of(plain, Gzip.gzip(plain))) {
            Outcome outcome = Validation.validate(EVENTS, stored);
            assertEquals(RefusalCode.PROHIBITED_FIELD, outcome.refusalCode());
            assertEquals(Gzip.sha256(stored), outcome.result().sha256());
            assertEquals(stored.length, outcome.result().storedBytes());
        }
    }

    // ---- KEY_CONFLICT ----

    @Test
    void validate_whenKeyRepeatsWithDifferentPayload_refusesNamingBothLinesAndNotTheKey() {
        Outcome outcome = Validation.validate(EVENTS, lines(
                event("PLANTED-KEY-1").line(),
                event("e2").line(),
                event("PLANTED-KEY-1").line(),                            // identical: collapses
                event("e4").line(),
                event("PLANTED-KEY-1").text("learner_id", "L2").line())); // same key, other payload
        assertEquals(new Refusal(RefusalCode.KEY_CONFLICT,
                "the event_id on line 5 repeats the one on line 1 with a different payload", List.of(1L, 5L)), outcome.refusal());
        assertFalse(outcome.refusal().detail().contains("PLANTED-KEY-1"));
    }

    @Test
    void validate_whenKeyConflictIsFollowedByMoreLines_endsTheFileAtTheConflictingLine() {
        // rows are offered to the key index in small groups, after their lines were read: whatever the conflict's
        // place in a group and whatever line comes next, the result must be that of reading stopping at its line
        List<byte[]> nextLines = List.of(utf8(event("r2").raw("attempt_number", "0").line()), utf8(""), utf8("  "),
                utf8("{\"email\":\"x\"}"), utf8("{\"client\":1}"), utf8("[1]"), utf8("x".repeat(600)),
                new byte[] {'{', '"', (byte) 0xC0, (byte) 0xAF, '"', '}'}, utf8(event("r1").line()), utf8(event("new").line()));
        ValidationLimits shortLines = ValidationLimits.builder().maxLineBytes(512).build();
        for (byte[] next : nextLines) {
            for (int conflictLine = 2; conflictLine <= 40; conflictLine++) {
                ByteArrayOutputStream file = new ByteArrayOutputStream();
                StringBuilder accepted = new StringBuilder();
                long rejected = 0;
                long blank = 0;
                for (int line = 1; line < conflictLine; line++) {
                    String text;
                    if (line % 7 == 3) {
                        text = event("r" + line).raw("attempt_number", "0").line(); // rejected: OUT_OF_RANGE
                        rejected++;
                    } else if (line % 11 == 5) {
                        text = "  ";
                        blank++;
                    } else if (line % 5 == 4) {
                        text = event("r1").line();                                 // repeats line 1: collapses
                    } else {
                        text = event("r" + line).line();
                        accepted.append(Events.canonical("r" + line)).append('\n');
                    }
                    file.writeBytes(utf8(text + "\n"));
                }
                file.writeBytes(utf8(event("r1").text("learner_id", "L2").line() + "\n")); // conflicts with line 1
                for (int row = 0; row < conflictLine % 3; row++) {
                    file.writeBytes(utf8(event("after" + row).line() + "\n"));          // new rows, never published
                }
                file.writeBytes(next);
                file.writeBytes(utf8("\n" + event("last").line() + "\n"));
                Outcome outcome = Validation.validate(EVENTS_NO_CAP, shortLines, file.toByteArray());
                String at = "conflict on line " + conflictLine + ", then " + (conflictLine % 3) + " rows and "
                        + new String(next, java.nio.charset.StandardCharsets.UTF_8);
                assertEquals(new Refusal(RefusalCode.KEY_CONFLICT, "the event_id on line " + conflictLine
                        + " repeats the one on line 1 with a different payload", List.of(1L, (long) conflictLine)), outcome.refusal(), at);
                assertEquals(conflictLine, outcome.result().lines(), at);
                assertEquals(rejected, outcome.result().rejected(), at);
                assertEquals(blank, outcome.result().blankLines(), at);
                assertEquals(accepted.toString(), new String(outcome.accepted(), java.nio.charset.StandardCharsets.UTF_8), at);
                assertEquals(rejected, new String(outcome.rejects(), java.nio.charset.StandardCharsets.UTF_8).lines().count(), at);
            }
        }
    }

    @Test
    void validate_whenGzipKeyConflictIsFollowedByMoreRows_decodesNoFurtherThanReadingRowByRowWould() {
        // 1,000-byte lines: the reader's first 256 KiB read ends inside line 263. Rows are settled against the key
        // index before the reader reads on, so the conflict on line 262 ends the input within that first read, as
        // when each row was judged on its own: no more is decompressed or counted.
        StringBuilder text = new StringBuilder();
        for (int line = 1; line <= 300; line++) {
            String id = line == 262 ? "r1" : "r" + line;
            String learner = line == 262 ? "other" : "L1";
            String row = event(id).text("learner_id", learner).line();
            row = event(id).text("learner_id", learner + "x".repeat(999 - row.length())).line();
            text.append(row).append('\n');
        }
        assertEquals(300_000, text.length());
        Outcome outcome = Validation.validate(EVENTS_NO_CAP, Gzip.gzip(utf8(text.toString())));
        assertEquals(List.of(1L, 262L), outcome.refusal().lines());
        assertEquals(262, outcome.result().lines());
        assertEquals(256 * 1024, outcome.result().decodedBytes());
    }

    @Test
    void validate_whenKeyRepeatsWithAnotherInstant_refuses() {
        Outcome outcome = Validation.validate(EVENTS, lines(
                event("e1").line(),
                event("e1").text("event_time", "2026-03-02T14:02:12Z").line()));
        assertEquals(RefusalCode.KEY_CONFLICT, outcome.refusalCode());
        assertEquals(List.of(1L, 2L), outcome.refusal().lines());
    }

    @Test
    void validate_whenConflictingLinesAreFarApart_namesTheFirstLine() {
        StringBuilder text = new StringBuilder();
        text.append(event("k").line()).append("\n\n\n");                 // lines 1-3 (two blank)
        for (int i = 0; i < 40_000; i++) {
            text.append(event("e" + i).line()).append('\n');             // lines 4 .. 40003
        }
        text.append(event("k").raw("attempt_number", "2").line()).append('\n'); // line 40004
        Outcome outcome = Validation.validate(EVENTS, text.toString());
        assertEquals(List.of(1L, 40_004L), outcome.refusal().lines());
        assertEquals(RefusalCode.KEY_CONFLICT, outcome.refusalCode());
    }

    @Test
    void validate_whenEarlierLineWithKeyWasRejected_acceptsLaterLineWithoutConflict() {
        // a rejected line is not a row, so its key is not remembered
        Outcome outcome = Validation.validate(EVENTS, lines(
                event("e1").raw("attempt_number", "0").line(),
                event("e1").line()));
        assertNull(outcome.refusal());
        assertEquals(List.of(Events.canonical("e1")), outcome.acceptedLines());
    }

    // ---- REJECT_CAP ----

    private static String withRejects(int rejects) {
        StringBuilder text = new StringBuilder(event("good-1").line()).append('\n');
        for (int i = 0; i < rejects; i++) {
            text.append(event("bad-" + i).raw("attempt_number", "\"" + i + "\"").line()).append('\n');
        }
        return text.append(event("good-2").line()).append('\n').toString();
    }

    @Test
    void validate_whenRejectsEqualMaxRejectedLines_accepts() {
        Outcome outcome = Validation.validate(EVENTS, withRejects(10));
        assertNull(outcome.refusal());
        assertEquals(10, outcome.result().rejected());
        assertEquals(2, outcome.result().accepted());
        assertEquals(10, outcome.rejectLines().size());
    }

    @Test
    void validate_whenRejectsExceedMaxRejectedLinesByOne_refusesRejectCap() {
        Outcome outcome = Validation.validate(EVENTS, withRejects(11));
        assertEquals(new Refusal(RefusalCode.REJECT_CAP, "11 lines rejected, above maxRejectedLines (10)", List.of(12L)), outcome.refusal());
        assertEquals(11, outcome.result().rejected());
    }

    @Test
    void validate_whenMaxRejectedLinesIsZero_refusesOnFirstReject() {
        DatasetContract strict = TestContracts.progressEvents(c -> c.put("maxRejectedLines", 0));
        assertNull(Validation.validate(strict, withRejects(0)).refusal());
        assertEquals(RefusalCode.REJECT_CAP, Validation.validate(strict, withRejects(1)).refusalCode());
    }

    @Test
    void validate_whenLinesAreBlankOrIdenticalDuplicates_doesNotCountThemTowardTheCap() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            text.append(event("same").line()).append("\n \n\n");
        }
        Outcome outcome = Validation.validate(EVENTS, text + withRejects(10));
        assertNull(outcome.refusal());
        assertEquals(49, outcome.result().duplicates());
        assertEquals(100, outcome.result().blankLines());
        assertEquals(10, outcome.result().rejected());
    }

    // ---- UNKNOWN_FIELD with refuse-file ----

    @Test
    void validate_whenUnknownFieldAndPolicyRefuseFile_refusesFile() {
        DatasetContract refuseFile = TestContracts.progressEvents(c -> c.put("unknownFields", "refuse-file"));
        String input = lines(event("e1").line(), event("e2").raw("extra", "1").line(), event("e3").line());
        Outcome outcome = Validation.validate(refuseFile, input);
        assertEquals(RefusalCode.UNKNOWN_FIELD, outcome.refusalCode());
        assertEquals(List.of(2L), outcome.refusal().lines());
        assertTrue(outcome.refusal().detail().contains("refuse-file"), outcome.refusal().detail());

        Outcome rejectLine = Validation.validate(EVENTS, input);
        assertNull(rejectLine.refusal());
        assertEquals(Map.of(ReasonCode.UNKNOWN_FIELD, 1L), rejectLine.result().reasons());
    }

    // ---- EMPTY ----

    @Test
    void validate_whenNoRowAcceptedAndAllowEmptyFalse_refusesEmpty() {
        DatasetContract noEmpty = TestContracts.progressEvents(c -> c.put("allowEmpty", false));
        for (String input : List.of("", "\n", "\n \t\n\r\n", lines(event("e1").raw("attempt_number", "0").line()))) {
            Outcome outcome = Validation.validate(noEmpty, input);
            assertEquals(RefusalCode.EMPTY, outcome.refusalCode(), () -> "input " + input);
            assertTrue(outcome.refusal().detail().contains("allowEmpty"));
        }
        assertEquals(RefusalCode.EMPTY, Validation.validate(noEmpty, Gzip.gzip(new byte[0])).refusalCode());
        assertNull(Validation.validate(noEmpty, lines(event("e1").line())).refusal());
    }

    @Test
    void validate_whenFileEmptyAndContractAllowsEmpty_acceptsEmptyUnit() {
        Outcome outcome = Validation.validate(EVENTS, "");
        assertNull(outcome.refusal());
        assertEquals(0, outcome.result().accepted());
        assertEquals(0, outcome.result().lines());
        assertEquals(Gzip.sha256(new byte[0]), outcome.result().sha256());
    }

    // ---- UNREADABLE ----

    private static byte[] someGzip() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 2_000; i++) {
            text.append(event("e" + i).raw("attempt_number", Integer.toString(i + 1)).line()).append('\n');
        }
        return Gzip.gzip(utf8(text.toString()));
    }

    static Stream<Arguments> unreadableGzip() {
        byte[] gz = someGzip();
        byte[] badCrc = gz.clone();
        badCrc[gz.length - 8] ^= 0x01;
        byte[] badSize = gz.clone();
        badSize[gz.length - 1] ^= 0x01;
        byte[] badMethod = gz.clone();
        badMethod[2] = 7;
        byte[] corrupt = gz.clone();
        corrupt[gz.length / 2] ^= (byte) 0xFF;
        corrupt[gz.length / 2 + 1] ^= (byte) 0xFF;
        return Stream.of(
                Arguments.of("only the magic bytes", Arrays.copyOf(gz, 2)),
                Arguments.of("only the header", Arrays.copyOf(gz, 10)),
                Arguments.of("cut in the middle", Arrays.copyOf(gz, gz.length / 2)),
                Arguments.of("cut inside the trailer", Arrays.copyOf(gz, gz.length - 4)),
                Arguments.of("no trailer", Arrays.copyOf(gz, gz.length - 8)),
                Arguments.of("a wrong CRC", badCrc),
                Arguments.of("a wrong size", badSize),
                Arguments.of("an unknown compression method", badMethod),
                Arguments.of("corrupt deflate data", corrupt));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unreadableGzip")
    void validate_whenGzipCorruptOrTruncated_refusesUnreadableAndHashesEveryByte(String description, byte[] stored) {
        Outcome outcome = Validation.validate(EVENTS_NO_CAP, stored);
        assertEquals(RefusalCode.UNREADABLE, outcome.refusalCode(), () -> String.valueOf(outcome.refusal()));
        assertTrue(outcome.result().gzip());
        assertEquals(Gzip.sha256(stored), outcome.result().sha256());
        assertEquals(stored.length, outcome.result().storedBytes());
    }

    // ---- GZIP_TRAILING_BYTES ----

    private static byte[] append(byte[] first, byte[] second) {
        byte[] joined = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, joined, first.length, second.length);
        return joined;
    }

    static Stream<Arguments> bytesAfterLastMember() {
        byte[] small = Gzip.gzip(utf8(lines(event("e1").line())));
        byte[] large = someGzip(); // longer than one 64 KiB read of the inflater
        byte[] members = Gzip.gzipMembers(utf8(lines(event("e1").line())), utf8(lines(event("e2").line())));
        byte[] many = new byte[100_000];
        Arrays.fill(many, (byte) 'x');
        return Stream.of(
                Arguments.of("one byte", small, new byte[] {'x'}),
                Arguments.of("a newline", small, new byte[] {'\n'}),
                Arguments.of("zero padding", small, new byte[512]),
                Arguments.of("100,000 bytes", small, many),
                Arguments.of("a plain-text line appended", small, utf8(lines(event("e2").line()))),
                Arguments.of("only the magic bytes of a next member", small, new byte[] {0x1f, (byte) 0x8b}),
                Arguments.of("a next member cut inside its header", small, Arrays.copyOf(small, 6)),
                Arguments.of("one byte after a long member", large, new byte[] {'x'}),
                Arguments.of("bytes after two concatenated members", members, new byte[] {'x', 'y', 'z'}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bytesAfterLastMember")
    void validate_whenBytesFollowLastGzipMember_refusesNamingTheirOffset(String description, byte[] gzipMembers, byte[] after) {
        byte[] stored = append(gzipMembers, after);
        Outcome outcome = Validation.validate(EVENTS_NO_CAP, stored);
        assertEquals(RefusalCode.GZIP_TRAILING_BYTES, outcome.refusalCode(), () -> String.valueOf(outcome.refusal()));
        assertEquals("the last complete gzip member ends at byte offset " + gzipMembers.length + " of " + stored.length
                + " stored bytes, and the bytes after it do not start another gzip member", outcome.refusal().detail());
        assertEquals(Gzip.sha256(stored), outcome.result().sha256());
        assertEquals(stored.length, outcome.result().storedBytes());
    }

    @Test
    void validate_whenLastTrailerEndsAroundAnInflaterReadBoundary_findsTheExactEndOfTheMember() {
        // The inflater reads 64 KiB at a time after the 10-byte header; the trailer may lie wholly inside one read,
        // straddle two, or start the next. Stored deflate blocks make the member size step one byte at a time.
        byte[] events = utf8(lines(event("e1").line()));
        int boundary = 10 + 64 * 1024;
        int checked = 0;
        for (int blank = boundary - 1000; blank < boundary; blank++) {
            byte[] plain = append(events, utf8("\n".repeat(blank)));
            byte[] gz = Gzip.gzipStored(plain);
            if (Math.abs(gz.length - 8 - boundary) > 12) {
                continue;
            }
            checked++;
            assertNull(Validation.validate(EVENTS, gz).refusal(), "a member ending at " + gz.length);
            Outcome trailing = Validation.validate(EVENTS, append(gz, new byte[] {'x'}));
            assertEquals(RefusalCode.GZIP_TRAILING_BYTES, trailing.refusalCode(), "a member ending at " + gz.length);
            assertTrue(trailing.refusal().detail().contains("ends at byte offset " + gz.length + " of"), trailing.refusal().detail());
        }
        assertTrue(checked >= 20, "members ending on both sides of the boundary were built: " + checked);
    }

    // ---- DECOMPRESSION_RATIO ----

    @Test
    void validate_whenGzipExpandsBeyondMaxCompressionRatio_refusesDecompressionRatio() {
        byte[] gz = someGzip();
        ValidationLimits tight = ValidationLimits.builder().maxCompressionRatio(3).compressionRatioGraceBytes(1024).build();
        Outcome outcome = Validation.validate(EVENTS, tight, gz);
        assertEquals(RefusalCode.DECOMPRESSION_RATIO, outcome.refusalCode());
        assertTrue(outcome.refusal().detail().contains("maxCompressionRatio (3)"), outcome.refusal().detail());
        assertEquals(Gzip.sha256(gz), outcome.result().sha256());

        assertNull(Validation.validate(EVENTS, gz).refusal(), "the default ratio admits an ordinary file");
        ValidationLimits generousGrace = ValidationLimits.builder().maxCompressionRatio(3).build();
        assertNull(Validation.validate(EVENTS, generousGrace, gz).refusal(), "below the grace bytes the ratio is not judged");
    }

    @Test
    void validate_whenPlainInputIsHighlyRepetitive_neverJudgesRatio() {
        String text = lines(event("e1").text("learner_id", "x".repeat(100_000)).line());
        ValidationLimits tight = ValidationLimits.builder().maxCompressionRatio(1).compressionRatioGraceBytes(0).build();
        assertNull(Validation.validate(EVENTS, tight, text).refusal());
    }
}
