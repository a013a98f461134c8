package io.landingledger.core.validate;

import static io.landingledger.core.validate.Events.event;
import static io.landingledger.core.validate.Events.lines;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.testing.TestContracts;
import io.landingledger.core.validate.Validation.Outcome;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

/** The resource limits: lines longer than maxLineBytes and values nested deeper than maxNestingDepth. */
class LimitsTest {
    private static final DatasetContract EVENTS = TestContracts.progressEvents();
    private static final ValidationLimits SMALL_LINES = ValidationLimits.builder().maxLineBytes(256).build();

    /** A valid event line of exactly {@code bytes} bytes (learner_id is padded). */
    private static String eventOfLength(String id, int bytes) {
        String base = event(id).text("learner_id", "").line();
        String line = event(id).text("learner_id", "x".repeat(bytes - base.length())).line();
        assertEquals(bytes, line.length());
        return line;
    }

    private static String tooLong(long line, long bytes, int max) {
        return "{\"line\":" + line + ",\"reason\":\"LINE_TOO_LONG\",\"detail\":\"line is " + bytes + " bytes, above maxLineBytes (" + max + ")\"}";
    }

    @Test
    void validate_whenLineIsExactlyMaxLineBytes_accepts() {
        Outcome outcome = Validation.validate(EVENTS, SMALL_LINES, lines(eventOfLength("e1", 256)));
        assertEquals(1, outcome.result().accepted(), outcome.rejectsText());
    }

    @Test
    void validate_whenLineIsExactlyMaxLineBytesWithCrlf_acceptsBecauseTerminatorDoesNotCount() {
        Outcome outcome = Validation.validate(EVENTS, SMALL_LINES, eventOfLength("e1", 256) + "\r\n" + eventOfLength("e2", 256) + "\r\n");
        assertEquals(2, outcome.result().accepted(), outcome.rejectsText());
    }

    @Test
    void validate_whenLineIsOneByteOverMaxLineBytes_rejectsLineTooLongNamingTheKnob() {
        Outcome outcome = Validation.validate(EVENTS, SMALL_LINES,
                lines(event("e1").line(), eventOfLength("e2", 257), event("e3").line()));
        assertNull(outcome.refusal());
        assertEquals(List.of(Events.canonical("e1"), Events.canonical("e3")), outcome.acceptedLines());
        assertEquals(List.of(tooLong(2, 257, 256)), outcome.rejectLines());
        assertEquals(Map.of(ReasonCode.LINE_TOO_LONG, 1L), outcome.result().reasons());
    }

    @Test
    void validate_whenLineIsLongerThanWholeReadBuffer_skipsItAndKeepsCounting() {
        // the reader's buffer is maxLineBytes + 1 + 256 KiB: this line cannot be held at all
        int length = 600_000;
        String huge = eventOfLength("e2", length);
        Outcome outcome = Validation.validate(EVENTS, SMALL_LINES,
                event("e1").line() + "\n" + huge + "\r\n" + event("e3").line() + "\n" + huge + "\n" + huge);
        assertEquals(List.of(Events.canonical("e1"), Events.canonical("e3")), outcome.acceptedLines());
        assertEquals(List.of(tooLong(2, length, 256), tooLong(4, length, 256), tooLong(5, length, 256)), outcome.rejectLines());
        assertEquals(5, outcome.result().lines());
        assertNull(outcome.refusal());
    }

    @Test
    void validate_whenManyShortLinesFollowLongOnes_numbersEveryLine() {
        StringBuilder input = new StringBuilder();
        for (int i = 1; i <= 30; i++) {
            input.append(i % 3 == 0 ? eventOfLength("e" + i, 257 + i * 1000) : event("e" + i).line()).append('\n');
        }
        Outcome outcome = Validation.validate(TestContracts.progressEvents(c -> c.put("maxRejectedLines", 100)), SMALL_LINES, input.toString());
        assertEquals(20, outcome.result().accepted());
        assertEquals(10, outcome.result().rejected());
        for (int k = 0; k < 10; k++) {
            int line = (k + 1) * 3;
            assertEquals(tooLong(line, 257 + line * 1000, 256), outcome.rejectLines().get(k));
        }
    }

    @Test
    void validate_whenLineAtDefaultLimit_acceptsAndOneMoreByteRejects() {
        int max = ValidationLimits.DEFAULT_MAX_LINE_BYTES;
        Outcome outcome = Validation.validate(EVENTS, lines(eventOfLength("e1", max), eventOfLength("e2", max + 1)));
        assertEquals(1, outcome.result().accepted());
        assertEquals(List.of(tooLong(2, max + 1, max)), outcome.rejectLines());
    }

    // ---- NESTING_TOO_DEEP ----

    private static String nested(int depth, String open, String close, String inner) {
        return open.repeat(depth) + inner + close.repeat(depth);
    }

    @Test
    void validate_whenFieldValueNested10000Deep_rejectsNestingTooDeep() {
        String line = event("e2").raw("checkpoint", nested(10_000, "[", "]", "1")).line();
        assertLineRejected(line, "{\"line\":2,\"reason\":\"NESTING_TOO_DEEP\"}");
    }

    @Test
    void validate_whenUnknownFieldNested10000DeepInObjects_rejectsNestingTooDeep() {
        String line = event("e2").raw("extra", nested(10_000, "{\"a\":", "}", "1")).line();
        assertLineRejected(line, "{\"line\":2,\"reason\":\"NESTING_TOO_DEEP\"}");
    }

    @Test
    void validate_whenLineIsArrayNested10000Deep_rejectsNestingTooDeep() {
        assertLineRejected(nested(10_000, "[", "]", ""), "{\"line\":2,\"reason\":\"NESTING_TOO_DEEP\"}");
    }

    @Test
    void validate_whenNestingAtMaxNestingDepth_judgesValueAndOneDeeperIsTooDeep() {
        ValidationLimits depth3 = ValidationLimits.builder().maxNestingDepth(3).build();
        // the line's object is level 1: [[1]] reaches level 3, within the limit, so the value itself is judged
        Outcome atLimit = Validation.validate(EVENTS, depth3, lines(event("e2").raw("checkpoint", "[[1]]").line()));
        assertEquals(List.of("{\"line\":1,\"reason\":\"TYPE_MISMATCH\",\"field\":\"checkpoint\"}"), atLimit.rejectLines());
        Outcome beyond = Validation.validate(EVENTS, depth3, lines(event("e2").raw("checkpoint", "[[[1]]]").line()));
        assertEquals(List.of("{\"line\":1,\"reason\":\"NESTING_TOO_DEEP\"}"), beyond.rejectLines());
    }

    private static void assertLineRejected(String bad, String record) {
        Outcome outcome = Validation.validate(EVENTS, lines(event("e1").line(), bad, event("e3").line()));
        assertNull(outcome.refusal());
        assertEquals(List.of(Events.canonical("e1"), Events.canonical("e3")), outcome.acceptedLines());
        assertEquals(List.of(record), outcome.rejectLines());
    }

    // ---- the builder ----

    @Test
    void builder_whenValueOutOfRange_throwsNamingTheKnob() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ValidationLimits.builder().maxLineBytes(8));
        assertTrue(e.getMessage().contains("maxLineBytes"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ValidationLimits.builder().maxNestingDepth(0));
        assertTrue(e.getMessage().contains("maxNestingDepth"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ValidationLimits.builder().maxCompressionRatio(0));
        assertTrue(e.getMessage().contains("maxCompressionRatio"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ValidationLimits.builder().compressionRatioGraceBytes(-1));
        assertTrue(e.getMessage().contains("compressionRatioGraceBytes"), e.getMessage());
    }

    @Test
    void defaults_whenNotConfigured_allowOneMebibyteLines() {
        // the default: lines up to 1 MiB
        assertEquals(1 << 20, ValidationLimits.defaults().maxLineBytes());
    }
}
