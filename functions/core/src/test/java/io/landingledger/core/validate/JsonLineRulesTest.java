package io.landingledger.core.validate;

import static io.landingledger.core.validate.Events.event;
import static io.landingledger.core.validate.Events.lines;
import static io.landingledger.core.validate.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.testing.TestContracts;
import io.landingledger.core.validate.Validation.Outcome;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every line-level rule of seed 002 and docs/design.md section 3: each {@link ReasonCode} a JSONL line can get, with the
 * quarantine record it produces. Each bad line sits between two good ones, so the test also pins the line number,
 * that the good neighbours are still accepted, and that the file is still published.
 */
class JsonLineRulesTest {
    private static final DatasetContract EVENTS = TestContracts.progressEvents();
    private static final DatasetContract ALL_TYPES = TestContracts.allTypes();
    private static final String ALL_TYPES_GOOD = "{\"id\":\"g1\"}";
    private static final String ALL_TYPES_GOOD_CANONICAL = "{\"amount\":null,\"at\":null,\"big\":null,\"code\":null,\"count\":null,"
            + "\"day\":null,\"flag\":null,\"id\":\"g1\",\"kind\":null,\"note\":null,\"ratio\":null}";

    // ---- the shared check ----

    /** {@code bad} between two good events is rejected with this reason and field, and nothing else changes. */
    private static Outcome assertEventLineRejected(byte[] bad, ReasonCode reason, String field) {
        Outcome outcome = Validation.validate(EVENTS, lines(event("e1").bytes(), bad, event("e3").bytes()));
        assertNull(outcome.refusal(), "a rejected line must not refuse the file");
        assertEquals(List.of(Events.canonical("e1"), Events.canonical("e3")), outcome.acceptedLines());
        assertEquals(1, outcome.result().rejected());
        assertEquals(Map.of(reason, 1L), outcome.result().reasons());
        assertEquals(List.of(QuarantineRecords.record(2, reason, field)), outcome.rejectLines());
        return outcome;
    }

    private static Outcome assertEventLineRejected(String bad, ReasonCode reason, String field) {
        return assertEventLineRejected(utf8(bad), reason, field);
    }

    private static void assertAllTypesLineRejected(String bad, ReasonCode reason, String field) {
        Outcome outcome = Validation.validate(ALL_TYPES, lines(ALL_TYPES_GOOD, bad));
        assertNull(outcome.refusal());
        assertEquals(List.of(ALL_TYPES_GOOD_CANONICAL), outcome.acceptedLines());
        assertEquals(Map.of(reason, 1L), outcome.result().reasons());
        assertEquals(List.of(QuarantineRecords.record(2, reason, field)), outcome.rejectLines());
    }

    /** An event whose learner_id string holds these raw bytes. */
    private static byte[] eventWithLearnerIdBytes(int... raw) {
        String line = event("e2").text("learner_id", "L@").line();
        int at = line.indexOf("L@") + 1;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(utf8(line.substring(0, at)));
        for (int b : raw) {
            out.write(b);
        }
        out.writeBytes(utf8(line.substring(at + 1)));
        return out.toByteArray();
    }

    // ---- INVALID_UTF8 ----

    static Stream<Arguments> invalidUtf8() {
        return Stream.of(
                Arguments.of("a byte that is never UTF-8 (FF)", new int[] {0xFF}),
                Arguments.of("a lone continuation byte (80)", new int[] {0x80}),
                Arguments.of("an overlong two-byte '/' (C0 AF)", new int[] {0xC0, 0xAF}),
                Arguments.of("an overlong two-byte 'a' (C1 A1)", new int[] {0xC1, 0xA1}),
                Arguments.of("an overlong three-byte '/' (E0 80 AF)", new int[] {0xE0, 0x80, 0xAF}),
                Arguments.of("an overlong four-byte '/' (F0 80 80 AF)", new int[] {0xF0, 0x80, 0x80, 0xAF}),
                Arguments.of("an encoded high surrogate U+D800 (ED A0 80)", new int[] {0xED, 0xA0, 0x80}),
                Arguments.of("an encoded low surrogate U+DFFF (ED BF BF)", new int[] {0xED, 0xBF, 0xBF}),
                Arguments.of("a code point above U+10FFFF (F4 90 80 80)", new int[] {0xF4, 0x90, 0x80, 0x80}),
                Arguments.of("a five-byte form (F8 88 80 80 80)", new int[] {0xF8, 0x88, 0x80, 0x80, 0x80}),
                Arguments.of("a truncated three-byte sequence (E2 82)", new int[] {0xE2, 0x82}),
                Arguments.of("a Latin-1 e-acute (E9)", new int[] {0xE9}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidUtf8")
    void validate_whenLineIsNotValidUtf8_rejectsInvalidUtf8(String description, int[] raw) {
        assertEventLineRejected(eventWithLearnerIdBytes(raw), ReasonCode.INVALID_UTF8, null);
    }

    @Test
    void validate_whenLineHasFourByteCharacter_accepts() {
        // the contrast to the cases above: U+1F600 as its proper four bytes is valid
        Outcome outcome = Validation.validate(EVENTS, lines(eventWithLearnerIdBytes(0xF0, 0x9F, 0x98, 0x80)));
        assertEquals(1, outcome.result().accepted());
        assertTrue(outcome.acceptedText().contains("\"learner_id\":\"L\uD83D\uDE00\""));
    }

    // ---- INVALID_UNICODE ----

    @ParameterizedTest(name = "{0}")
    @MethodSource("loneSurrogateEscapes")
    void validate_whenStringEscapesLoneSurrogate_rejectsInvalidUnicode(String escaped) {
        assertEventLineRejected(event("e2").raw("learner_id", "\"L" + escaped + "\"").line(), ReasonCode.INVALID_UNICODE, "learner_id");
    }

    static Stream<String> loneSurrogateEscapes() {
        return Stream.of("\\ud800", "\\uDBFF", "\\udc00", "\\udc00\\ud800", "\\ud800x", "\\ud800\\u0041");
    }

    @Test
    void validate_whenStringEscapesSurrogatePair_acceptsTheCharacter() {
        Outcome outcome = Validation.validate(EVENTS, lines(event("e2").raw("learner_id", "\"L\\ud83d\\ude00\"").line()));
        assertEquals(1, outcome.result().accepted());
        assertTrue(outcome.acceptedText().contains("\"learner_id\":\"L\uD83D\uDE00\""));
    }

    // ---- INVALID_JSON ----

    static Stream<Arguments> invalidJson() {
        String good = event("e2").line();
        return Stream.of(
                Arguments.of("a truncated object", utf8(good.substring(0, good.length() - 10))),
                Arguments.of("text after the object", utf8(good + " x")),
                Arguments.of("a second object after the first", utf8(good + event("e9").line())),
                Arguments.of("a comment after the object", utf8(good + " // note")),
                Arguments.of("a trailing comma", utf8(good.substring(0, good.length() - 1) + ",}")),
                Arguments.of("single quotes", utf8(good.replace('"', '\''))),
                Arguments.of("an unquoted key", utf8(good.replace("\"event_id\"", "event_id"))),
                Arguments.of("NaN", utf8(event("e2").raw("attempt_number", "NaN").line())),
                Arguments.of("a leading zero", utf8(event("e2").raw("attempt_number", "01").line())),
                Arguments.of("a lone closing brace", utf8("}")),
                Arguments.of("a raw NUL inside a string", eventWithLearnerIdBytes(0x00)),
                Arguments.of("a raw tab inside a string", eventWithLearnerIdBytes('\t')),
                Arguments.of("a NUL between tokens", utf8(good.replace(",\"learner_id\"", ",\u0000\"learner_id\""))),
                Arguments.of("a NUL before the object", utf8("\u0000" + good)),
                Arguments.of("a NUL after the object", utf8(good + "\u0000")),
                Arguments.of("the event encoded as UTF-16LE (valid UTF-8 bytes, but NUL bytes in JSON)", good.getBytes(StandardCharsets.UTF_16LE)),
                Arguments.of("the event encoded as UTF-16BE", good.getBytes(StandardCharsets.UTF_16BE)),
                Arguments.of("the event encoded as UTF-32LE", good.getBytes(java.nio.charset.Charset.forName("UTF-32LE"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidJson")
    void validate_whenLineIsNotJson_rejectsInvalidJson(String description, byte[] bad) {
        assertEventLineRejected(bad, ReasonCode.INVALID_JSON, null);
    }

    // ---- NOT_AN_OBJECT ----

    @ParameterizedTest(name = "{0}")
    @MethodSource("notObjects")
    void validate_whenLineIsJsonButNotObject_rejectsNotAnObject(String bad) {
        assertEventLineRejected(bad, ReasonCode.NOT_AN_OBJECT, null);
    }

    static Stream<String> notObjects() {
        return Stream.of("[1,2]", "[]", "42", "-1.5", "\"text\"", "true", "null", "[" + event("e2").line() + "]");
    }

    // ---- DUPLICATE_FIELD ----

    @Test
    void validate_whenFieldRepeatsWithAnotherValue_rejectsDuplicateField() {
        String line = event("e2").line().replaceFirst("\\{", "{\"event_id\":\"a\",");
        assertTrue(line.startsWith("{\"event_id\":\"a\",\"event_id\":\"e2\""));
        assertEventLineRejected(line, ReasonCode.DUPLICATE_FIELD, "event_id");
    }

    @Test
    void validate_whenFieldRepeatsWithSameValue_rejectsDuplicateField() {
        String line = event("e2").line().replaceFirst("\\{", "{\"attempt_number\":1,");
        assertEventLineRejected(line, ReasonCode.DUPLICATE_FIELD, "attempt_number");
    }

    @Test
    void validate_whenNullableFieldRepeats_rejectsDuplicateField() {
        String line = event("e2").raw("checkpoint", "null").line().replaceFirst("\\{", "{\"checkpoint\":3,");
        assertEventLineRejected(line, ReasonCode.DUPLICATE_FIELD, "checkpoint");
    }

    // ---- UNKNOWN_FIELD ----

    static Stream<Arguments> unknownFields() {
        // an undeclared name is never written, whether or not it looks like a field name: only its hash (issue 30, item 6)
        return Stream.of(
                Arguments.of("extra", "1", "extra"),
                Arguments.of("Event_ID", "\"e2\"", "Event_ID"),
                Arguments.of("emails", "[\"x\"]", "emails"),
                Arguments.of("email_verified", "true", "email_verified"),
                Arguments.of("nested", "{\"a\":{\"b\":1}}", "nested"),
                Arguments.of("my field", "1", "my field"),
                Arguments.of("x-PLANTED", "1", "x-PLANTED"),
                Arguments.of("k".repeat(65), "1", "k".repeat(65)),
                Arguments.of("caf\u00e9", "1", "caf\u00e9"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unknownFields")
    void validate_whenLineHasFieldContractDoesNotName_rejectsUnknownFieldWithTheNamesHash(String key, String value, String name) {
        Outcome outcome = assertEventLineRejected(event("e2").raw(key, value).line(), ReasonCode.UNKNOWN_FIELD, UnknownFieldName.hash(name));
        assertFalse(outcome.rejectsText().contains(name), outcome.rejectsText());
    }

    @Test
    void validate_whenUnknownKeyIsEscaped_hashesTheKeyAsJsonDecodesIt() {
        String line = "{\"\\u0065xtra\":1," + event("e2").line().substring(1);
        assertEventLineRejected(line, ReasonCode.UNKNOWN_FIELD, UnknownFieldName.hash("extra"));
    }

    @Test
    void unknownFieldName_isSha256PrefixAndTheFirst16HexOfTheNamesUtf8Sha256() {
        // printf '%s' extra | sha256sum
        assertEquals("sha256:c8dee78f8c7b466c", UnknownFieldName.hash("extra"));
    }

    // ---- MISSING_FIELD ----

    @Test
    void validate_whenRequiredFieldAbsent_rejectsMissingFieldNamingIt() {
        assertEventLineRejected(event("e2").without("learner_id").line(), ReasonCode.MISSING_FIELD, "learner_id");
        assertEventLineRejected(event("e2").without("event_time").line(), ReasonCode.MISSING_FIELD, "event_time");
    }

    @Test
    void validate_whenObjectIsEmpty_rejectsMissingFieldNamingFirstInKeyOrder() {
        assertEventLineRejected("{}", ReasonCode.MISSING_FIELD, "attempt_number");
    }

    @Test
    void validate_whenOptionalFieldAbsent_accepts() {
        Outcome outcome = Validation.validate(EVENTS, lines(event("e2").without("checkpoint").line()));
        assertEquals(0, outcome.result().rejected());
        assertEquals(1, outcome.result().accepted());
    }

    // ---- NULL_NOT_ALLOWED ----

    @ParameterizedTest(name = "{0}")
    @MethodSource("notNullableFields")
    void validate_whenNotNullableFieldIsNull_rejectsNullNotAllowed(String field) {
        assertEventLineRejected(event("e2").raw(field, "null").line(), ReasonCode.NULL_NOT_ALLOWED, field);
    }

    static Stream<String> notNullableFields() {
        return Stream.of("event_id", "learner_id", "event_type", "attempt_number", "event_time");
    }

    @Test
    void validate_whenOptionalNotNullableFieldIsNull_rejectsNullNotAllowed() {
        assertAllTypesLineRejected("{\"id\":\"x\",\"count\":null}", ReasonCode.NULL_NOT_ALLOWED, "count");
    }

    // ---- TYPE_MISMATCH ----

    static Stream<Arguments> typeMismatches() {
        return Stream.of(
                Arguments.of("attempt_number", "true"),
                Arguments.of("attempt_number", "false"),
                Arguments.of("attempt_number", "\"3\""),
                Arguments.of("attempt_number", "3.0"),
                Arguments.of("attempt_number", "3e0"),
                Arguments.of("attempt_number", "3.5"),
                Arguments.of("attempt_number", "{\"n\":3}"),
                Arguments.of("attempt_number", "[3]"),
                Arguments.of("event_id", "5"),
                Arguments.of("event_id", "{\"id\":\"e2\"}"),
                Arguments.of("learner_id", "false"),
                Arguments.of("lesson_id", "[\"lesson-7\"]"),
                Arguments.of("event_time", "1772460131"),
                Arguments.of("event_type", "[\"checkpoint\"]"),
                Arguments.of("checkpoint", "\"3\""));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("typeMismatches")
    void validate_whenValueHasWrongJsonType_rejectsTypeMismatch(String field, String value) {
        assertEventLineRejected(event("e2").raw(field, value).line(), ReasonCode.TYPE_MISMATCH, field);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("allTypesMismatches")
    void validate_whenTypedFieldHasWrongJsonType_rejectsTypeMismatch(String field, String value) {
        assertAllTypesLineRejected("{\"id\":\"x\",\"" + field + "\":" + value + "}", ReasonCode.TYPE_MISMATCH, field);
    }

    static Stream<Arguments> allTypesMismatches() {
        return Stream.of(
                Arguments.of("flag", "\"true\""),
                Arguments.of("flag", "1"),
                Arguments.of("ratio", "\"1.5\""),
                Arguments.of("ratio", "true"),
                Arguments.of("count", "1.5"),
                Arguments.of("day", "20260302"),
                Arguments.of("at", "{}"));
    }

    // ---- ENUM_MISMATCH ----

    @ParameterizedTest(name = "\"{0}\"")
    @MethodSource("enumMisses")
    void validate_whenValueNotInEnum_rejectsEnumMismatch(String value) {
        assertEventLineRejected(event("e2").text("event_type", value).line(), ReasonCode.ENUM_MISMATCH, "event_type");
    }

    static Stream<String> enumMisses() {
        return Stream.of("started", "Checkpoint", "checkpoint ", "", "COMPLETED");
    }

    // ---- OUT_OF_RANGE ----

    @ParameterizedTest(name = "attempt_number = {0}")
    @MethodSource("belowMinimum")
    void validate_whenIntegerBelowMin_rejectsOutOfRange(String value) {
        assertEventLineRejected(event("e2").raw("attempt_number", value).line(), ReasonCode.OUT_OF_RANGE, "attempt_number");
    }

    static Stream<String> belowMinimum() {
        return Stream.of("0", "-1", "-0", "-9223372036854775808");
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("allTypesOutOfRange")
    void validate_whenNumberOutsideMinMax_rejectsOutOfRange(String field, String value) {
        assertAllTypesLineRejected("{\"id\":\"x\",\"" + field + "\":" + value + "}", ReasonCode.OUT_OF_RANGE, field);
    }

    static Stream<Arguments> allTypesOutOfRange() {
        return Stream.of(
                Arguments.of("count", "1001"),
                Arguments.of("count", "-1"),
                Arguments.of("amount", "100.51"),
                Arguments.of("amount", "-100.6"),
                Arguments.of("amount", "101"),
                Arguments.of("amount", "1e3"));
    }

    @Test
    void validate_whenNumbersOnTheirBounds_accepts() {
        Outcome outcome = Validation.validate(ALL_TYPES, lines(
                "{\"id\":\"a\",\"count\":0,\"amount\":-100.5}",
                "{\"id\":\"b\",\"count\":1000,\"amount\":100.50}"));
        assertEquals(2, outcome.result().accepted(), outcome.rejectsText());
    }

    // ---- NUMBER_OVERFLOW ----

    @ParameterizedTest(name = "attempt_number = {0}")
    @MethodSource("beyondInt64")
    void validate_whenIntegerBeyondInt64_rejectsNumberOverflow(String value) {
        assertEventLineRejected(event("e2").raw("attempt_number", value).line(), ReasonCode.NUMBER_OVERFLOW, "attempt_number");
    }

    static Stream<String> beyondInt64() {
        return Stream.of("9223372036854775808", "-9223372036854775809", "99999999999999999999999", "1" + "0".repeat(1200));
    }

    @ParameterizedTest(name = "ratio = {0}")
    @MethodSource("infiniteNumbers")
    void validate_whenNumberIsNotFiniteAsDouble_rejectsNumberOverflow(String value) {
        assertAllTypesLineRejected("{\"id\":\"x\",\"ratio\":" + value + "}", ReasonCode.NUMBER_OVERFLOW, "ratio");
    }

    static Stream<String> infiniteNumbers() {
        return Stream.of("1e400", "-1e400", "1E+400", "2e308");
    }

    @Test
    void validate_whenIntegerIsInt64Max_accepts() {
        Outcome outcome = Validation.validate(EVENTS, lines(event("e2").raw("attempt_number", "9223372036854775807").line()));
        assertEquals(1, outcome.result().accepted(), outcome.rejectsText());
        assertTrue(outcome.acceptedText().startsWith("{\"attempt_number\":9223372036854775807,"));
    }

    // ---- STRING_LENGTH ----

    @Test
    void validate_whenStringShorterThanMinLength_rejectsStringLength() {
        assertEventLineRejected(event("e2").text("learner_id", "").line(), ReasonCode.STRING_LENGTH, "learner_id");
        assertEventLineRejected(event("").line(), ReasonCode.STRING_LENGTH, "event_id");
    }

    @Test
    void validate_whenStringLongerThanMaxLength_rejectsStringLength() {
        assertAllTypesLineRejected("{\"id\":\"x\",\"code\":\"abcd\"}", ReasonCode.STRING_LENGTH, "code");
        assertAllTypesLineRejected("{\"id\":\"x\",\"code\":\"\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00\"}", ReasonCode.STRING_LENGTH, "code");
    }

    @Test
    void validate_whenStringLengthCountedInCharacters_acceptsThreeEmoji() {
        // maxLength counts code points: three emoji are 6 UTF-16 units and 12 bytes, but 3 characters
        Outcome outcome = Validation.validate(ALL_TYPES, lines("{\"id\":\"x\",\"code\":\"\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00\"}"));
        assertEquals(1, outcome.result().accepted(), outcome.rejectsText());
    }

    // ---- TIMESTAMP_NO_OFFSET / TIMESTAMP_INVALID ----

    @ParameterizedTest(name = "\"{0}\"")
    @MethodSource("naiveTimestamps")
    void validate_whenTimestampHasNoOffset_rejectsTimestampNoOffset(String value) {
        assertEventLineRejected(event("e2").text("event_time", value).line(), ReasonCode.TIMESTAMP_NO_OFFSET, "event_time");
    }

    static Stream<String> naiveTimestamps() {
        return Stream.of("2026-03-02T14:02:11", "2026-03-02T14:02:11.120", "2026-03-02");
    }

    @ParameterizedTest(name = "\"{0}\"")
    @MethodSource("invalidTimestamps")
    void validate_whenTimestampIsNotRfc3339Instant_rejectsTimestampInvalid(String value) {
        assertEventLineRejected(event("e2").text("event_time", value).line(), ReasonCode.TIMESTAMP_INVALID, "event_time");
    }

    static Stream<String> invalidTimestamps() {
        return Stream.of(
                "2026-13-02T14:02:11Z",          // month 13
                "2026-00-02T14:02:11Z",
                "2026-02-30T14:02:11Z",          // no such day
                "2026-03-02T23:59:60Z",          // leap second
                "2026-03-02T24:00:00Z",
                "2026-03-02T14:60:11Z",
                "2026-03-02T14:02:11+25:00",     // bad offsets
                "2026-03-02T14:02:11+05:60",
                "2026-03-02T14:02:11+05",
                "2026-03-02T14:02:11+0500",
                "2026-03-02T14:02:11 +05:00",
                "2026-03-02T14:02:11ZZ",
                "2026-03-02 14:02:11Z",          // space for T
                "2026-03-02T14:02Z",
                "2026-03-02T14:02:11.Z",         // empty fraction
                "2026-03-02T14:02:11.1234567890Z", // more than nanoseconds
                "0000-01-01T00:00:00+00:01",     // before year 0 in UTC
                "9999-12-31T23:59:59-00:01",     // after year 9999 in UTC
                "yesterday",
                "",
                "2026-03-02X14:02:11Z",
                "20260302T140211Z");
    }

    // ---- DATE_INVALID ----

    @ParameterizedTest(name = "\"{0}\"")
    @MethodSource("invalidDates")
    void validate_whenDateIsNotCalendarDay_rejectsDateInvalid(String value) {
        assertAllTypesLineRejected("{\"id\":\"x\",\"day\":\"" + value + "\"}", ReasonCode.DATE_INVALID, "day");
    }

    static Stream<String> invalidDates() {
        return Stream.of("2026-02-30", "2025-02-29", "1900-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-2-3",
                "20260302", "2026-03-02T00:00:00Z", "2026/03/02", "", "2026-03-0x");
    }

    @Test
    void validate_whenDateIsLeapDay_accepts() {
        Outcome outcome = Validation.validate(ALL_TYPES, lines("{\"id\":\"x\",\"day\":\"2024-02-29\"}", "{\"id\":\"y\",\"day\":\"2000-02-29\"}"));
        assertEquals(2, outcome.result().accepted(), outcome.rejectsText());
    }

    // ---- which reason a line with several problems gets ----

    @Test
    void validate_whenLineHasSeveralProblems_reportsTheFirstOneInTheLine() {
        assertEventLineRejected(event("e2").raw("attempt_number", "true").raw("extra", "1").line(), ReasonCode.TYPE_MISMATCH, "attempt_number");
        assertEventLineRejected(event("e2").without("learner_id").raw("extra", "1").line(), ReasonCode.UNKNOWN_FIELD, UnknownFieldName.hash("extra"));
    }
}
