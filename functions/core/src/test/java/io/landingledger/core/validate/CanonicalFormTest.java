package io.landingledger.core.validate;

import static io.landingledger.core.validate.Events.event;
import static io.landingledger.core.validate.Events.lines;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.testing.TestContracts;
import io.landingledger.core.validate.Validation.Outcome;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Locale;

/**
 * The published form: sorted keys, compact JSON, every contract field present, timestamps in UTC with the
 * sub-second digits given, and equal meaning giving equal bytes, so that a retry written by another encoder collapses
 * as a duplicate instead of refusing the file as a key conflict.
 */
class CanonicalFormTest {
    private static final DatasetContract EVENTS = TestContracts.progressEvents();
    private static final DatasetContract ALL_TYPES = TestContracts.allTypes();

    private static String published(DatasetContract contract, String line) {
        Outcome outcome = Validation.validate(contract, lines(line));
        assertEquals(1, outcome.result().accepted(), () -> "expected the line to be accepted, rejects: " + outcome.rejectsText());
        return outcome.acceptedLines().get(0);
    }

    @Test
    void validate_whenKeysUnorderedAndSpaced_publishesSortedCompactRow() {
        String line = " { \"lesson_id\" : \"lesson-7\",\t\"event_time\":\"2026-03-02T14:02:11Z\" , \"checkpoint\" : 3,"
                + "\"learner_id\":\"L1\",\"event_type\":\"checkpoint\",\"attempt_number\":1,\"event_id\":\"e1\" }  ";
        assertEquals(Events.canonical("e1"), published(EVENTS, line));
    }

    @Test
    void validate_whenOptionalFieldAbsent_publishesItAsNull() {
        assertEquals("{\"attempt_number\":1,\"checkpoint\":null,\"event_id\":\"e1\",\"event_time\":\"2026-03-02T14:02:11Z\","
                + "\"event_type\":\"checkpoint\",\"learner_id\":\"L1\",\"lesson_id\":\"lesson-7\"}", published(EVENTS, event("e1").without("checkpoint").line()));
        assertEquals("{\"amount\":null,\"at\":null,\"big\":null,\"code\":null,\"count\":null,\"day\":null,\"flag\":null,\"id\":\"x\","
                + "\"kind\":null,\"note\":null,\"ratio\":null}", published(ALL_TYPES, "{\"id\":\"x\"}"));
    }

    @Test
    void validate_whenEveryTypeGiven_publishesTypedValues() {
        String line = "{\"note\":null,\"kind\":\"b\",\"id\":\"x\",\"flag\":false,\"day\":\"2026-03-02\",\"count\":7,\"code\":\"abc\","
                + "\"big\":-9223372036854775808,\"at\":\"2026-03-02T14:02:11.5+01:00\",\"amount\":-100.50,\"ratio\":2.50e1}";
        assertEquals("{\"amount\":-100.5,\"at\":\"2026-03-02T13:02:11.500Z\",\"big\":-9223372036854775808,\"code\":\"abc\",\"count\":7,"
                + "\"day\":\"2026-03-02\",\"flag\":false,\"id\":\"x\",\"kind\":\"b\",\"note\":null,\"ratio\":25}", published(ALL_TYPES, line));
    }

    // ---- timestamps ----

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "2026-03-02T14:02:11.120-05:00, 2026-03-02T19:02:11.120Z",
            "2026-03-02T14:02:11+00:00,     2026-03-02T14:02:11Z",
            "2026-03-02T14:02:11-00:00,     2026-03-02T14:02:11Z",
            "2026-03-02T14:02:11z,          2026-03-02T14:02:11Z",
            "2026-03-02t14:02:11Z,          2026-03-02T14:02:11Z",
            "2026-03-02T00:30:00+14:00,     2026-03-01T10:30:00Z",
            "2026-03-02T23:30:00-12:00,     2026-03-03T11:30:00Z",
            "2026-03-02T14:02:11.000001+05:30, 2026-03-02T08:32:11.000001Z",
            "2026-03-02T14:02:11.5Z,        2026-03-02T14:02:11.500Z",
            "2026-03-02T14:02:11.12+00:00,  2026-03-02T14:02:11.120Z",
            "2026-03-02T14:02:11.120000Z,   2026-03-02T14:02:11.120Z",
            "2026-03-02T14:02:11.1234Z,     2026-03-02T14:02:11.123400Z",
            "2026-03-02T14:02:11.012050Z,   2026-03-02T14:02:11.012050Z",
            "2026-03-02T14:02:11.0000010Z,  2026-03-02T14:02:11.000001Z",
            "2026-03-02T14:02:11.000Z,      2026-03-02T14:02:11Z",
            "2026-03-02T14:02:11.0Z,        2026-03-02T14:02:11Z",
            "2024-02-29T23:30:00-01:00,     2024-03-01T00:30:00Z",
            "2027-01-01T00:30:00+01:00,     2026-12-31T23:30:00Z",
            "2026-03-01T00:00:00+00:01,     2026-02-28T23:59:00Z",
            "0001-01-01T00:00:00Z,          0001-01-01T00:00:00Z",
            "9999-12-31T23:59:59.999999Z,   9999-12-31T23:59:59.999999Z"})
    void validate_whenTimestampHasOffset_publishesUtcZAsInstantToStringPrintsIt(String given, String expected) {
        String row = published(EVENTS, event("e1").text("event_time", given).line());
        assertEquals("\"event_time\":\"" + expected + "\"", row.substring(row.indexOf("\"event_time\""), row.indexOf(",\"event_type\"")));
        // the same instant as java.time reads it, printed as java.time prints it
        Instant instant = OffsetDateTime.parse(given.toUpperCase(Locale.ROOT)).toInstant();
        assertEquals(instant, Instant.parse(expected));
        assertEquals(instant.toString(), expected);
    }

    // ---- duplicates: the same event written another way ----

    private static void assertCollapse(DatasetContract contract, String... sameEvent) {
        Outcome outcome = Validation.validate(contract, lines(sameEvent));
        assertNull(outcome.refusal(), () -> "refused: " + outcome.refusal());
        assertEquals(1, outcome.result().accepted());
        assertEquals(sameEvent.length - 1, outcome.result().duplicates());
        assertEquals(0, outcome.result().rejected());
        assertEquals(1, outcome.result().distinctKeys());
        assertEquals(1, outcome.acceptedLines().size());
    }

    @Test
    void validate_whenSameEventInOtherKeyOrderAndWhitespace_collapsesAsDuplicate() {
        assertCollapse(EVENTS,
                event("e1").line(),
                "{\"checkpoint\":3,\"attempt_number\":1,\"event_type\":\"checkpoint\",\"lesson_id\":\"lesson-7\",\"learner_id\":\"L1\","
                        + "\"event_time\":\"2026-03-02T14:02:11Z\",\"event_id\":\"e1\"}",
                "  {  \"event_id\" :\"e1\" ,\"learner_id\":\"L1\",\t\"lesson_id\":\"lesson-7\",\"event_type\":\"checkpoint\","
                        + "\"attempt_number\" : 1,\"event_time\":\"2026-03-02T14:02:11Z\",\"checkpoint\":3}\t");
    }

    @Test
    void validate_whenSameInstantWithOtherOffsets_collapsesAsDuplicate() {
        assertCollapse(EVENTS,
                event("e1").text("event_time", "2026-03-02T14:02:11Z").line(),
                event("e1").text("event_time", "2026-03-02T14:02:11+00:00").line(),
                event("e1").text("event_time", "2026-03-02T15:02:11+01:00").line(),
                event("e1").text("event_time", "2026-03-02T09:02:11-05:00").line(),
                event("e1").text("event_time", "2026-03-03T04:02:11+14:00").line(),
                event("e1").text("event_time", "2026-03-02t14:02:11z").line());
    }

    @Test
    void validate_whenSameInstantWithOtherFractionDigits_collapsesAsDuplicate() {
        assertCollapse(EVENTS,
                event("e1").text("event_time", "2026-03-02T10:00:00.12+00:00").line(),
                event("e1").text("event_time", "2026-03-02T10:00:00.120Z").line(),
                event("e1").text("event_time", "2026-03-02T10:00:00.120000000Z").line(),
                event("e1").text("event_time", "2026-03-02T12:00:00.1200+02:00").line());
        assertCollapse(EVENTS,
                event("e1").text("event_time", "2026-03-02T10:00:00Z").line(),
                event("e1").text("event_time", "2026-03-02T10:00:00.0Z").line(),
                event("e1").text("event_time", "2026-03-02T10:00:00.000000-00:00").line());
    }

    @Test
    void validate_whenSameStringWithOtherEscapes_collapsesAsDuplicate() {
        assertCollapse(EVENTS,
                event("e1").text("learner_id", "Zo\u00eb/1").line(),
                event("e1").raw("learner_id", "\"Zo\\u00eb\\/1\"").line(),
                event("e1").raw("learner_id", "\"\\u005Ao\\u00EB/1\"").line());
    }

    @Test
    void validate_whenOptionalFieldNullOrAbsent_collapsesAsDuplicate() {
        assertCollapse(EVENTS, event("e1").raw("checkpoint", "null").line(), event("e1").without("checkpoint").line());
    }

    @Test
    void validate_whenSameNumberWrittenOtherwise_collapsesAsDuplicate() {
        assertCollapse(ALL_TYPES, "{\"id\":\"x\",\"ratio\":1.5,\"big\":0}", "{\"id\":\"x\",\"ratio\":1.50,\"big\":-0}",
                "{\"id\":\"x\",\"ratio\":15e-1,\"big\":0}", "{\"id\":\"x\",\"ratio\":0.15E+1,\"big\":0}");
    }

    // ---- numbers ----

    @ParameterizedTest(name = "big = {0} -> {1}")
    @CsvSource({
            "0, 0",
            "-0, 0",
            "9007199254740993, 9007199254740993",        // beyond double precision: kept exact
            "-9007199254740993, -9007199254740993",
            "9223372036854775807, 9223372036854775807",
            "-9223372036854775808, -9223372036854775808"})
    void validate_whenIntegerGiven_publishesExactDecimal(String given, String expected) {
        assertEquals("\"big\":" + expected, field(published(ALL_TYPES, "{\"id\":\"x\",\"big\":" + given + "}"), "big"));
    }

    @ParameterizedTest(name = "ratio = {0} -> {1}")
    @CsvSource({
            "1.50, 1.5",
            "1.0, 1",
            "100, 100",
            "1e2, 100",
            "-0.0, 0",
            "0.000001, 0.000001",
            "1e-7, 0.0000001",
            "1e-8, 1e-8",
            "123e-2, 1.23",
            "1e21, 1e+21",
            "12345678901234567890.5, 12345678901234567890.5",
            "9007199254740993, 9007199254740993",
            "0.1, 0.1"})
    void validate_whenNumberGiven_publishesEverySignificantDigitWithoutTrailingZeros(String given, String expected) {
        assertEquals("\"ratio\":" + expected, field(published(ALL_TYPES, "{\"id\":\"x\",\"ratio\":" + given + "}"), "ratio"));
    }

    // ---- strings ----

    @Test
    void validate_whenStringHasEscapesAndUnicode_publishesMinimalEscapes() {
        String row = published(ALL_TYPES, "{\"id\":\"x\",\"note\":\"q\\\"b\\\\s\\n\\t\\u0001\\u001f \\u00e9\\u2028\\ud83d\\ude00\"}");
        String expected = "\"note\":\"q\\\"b\\\\s\\n\\t\\u0001\\u001f \u00e9\u2028\uD83D\uDE00\"";
        assertEquals(expected, field(row, "note"));
        // non-ASCII is written as UTF-8 bytes, not escapes
        assertEquals(expected.getBytes(StandardCharsets.UTF_8).length, field(row, "note").getBytes(StandardCharsets.UTF_8).length);
    }

    /** {@code "name":value} out of a published row (values here hold no {@code ,"}). */
    private static String field(String row, String name) {
        int start = row.indexOf("\"" + name + "\":");
        int end = row.indexOf(",\"", start + 1);
        return row.substring(start, end < 0 ? row.length() - 1 : end);
    }

    @Test
    void validate_whenSameEventValidatedAgain_publishesSameBytes() {
        String input = lines(event("e1").line(), event("e2").text("event_time", "2026-03-02T14:02:11.120-05:00").line());
        List<String> first = Validation.validate(EVENTS, input).acceptedLines();
        assertEquals(first, Validation.validate(TestContracts.progressEvents(), input).acceptedLines());
    }
}
