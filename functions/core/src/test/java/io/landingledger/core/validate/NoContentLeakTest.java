package io.landingledger.core.validate;

import static io.landingledger.core.validate.Events.event;
import static io.landingledger.core.validate.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * docs/design.md invariant 7: no row content reaches the quarantine or an error message. Distinctive values are planted
 * in rejected and refused lines; neither the rejects stream, nor a refusal's detail, nor the result as the CLI prints
 * it may contain them. (A JSON key the contract does not declare is reported as UNKNOWN_FIELD's field only as its hash:
 * producers use identifiers as keys. CSV header cells that are not contract fields are reported by column number.)
 */
class NoContentLeakTest {
    private static final String SECRET = "PLANTED-SECRET-123";
    private static final String EMAIL = "jane.doe@example.com";
    private static final String WORD_SECRET = "PLANTED_SECRET_456"; // looks like a field name, in case names are echoed
    private static final List<String> PLANTED = List.of(SECRET, EMAIL, WORD_SECRET, "jane.doe", "PLANTED");

    @SuppressWarnings("unchecked")
    private static final DatasetContract EVENTS = TestContracts.progressEvents(c -> {
        c.put("maxRejectedLines", 1000);
        ((java.util.Map<String, Object>) c.get("fields")).put("score",
                new java.util.LinkedHashMap<>(java.util.Map.of("type", "number", "precision", 4, "scale", 1)));
    });

    private static void assertNothingPlanted(Outcome outcome) {
        String rejects = outcome.rejectsText();
        String result = io.landingledger.core.json.JsonCodec.writeString(outcome.result().document());
        String detail = outcome.refusal() == null ? "" : outcome.refusal().detail();
        for (String planted : PLANTED) {
            assertFalse(rejects.contains(planted), () -> "the quarantine holds " + planted + ": " + rejects);
            assertFalse(result.contains(planted), () -> "the result holds " + planted + ": " + result);
            assertFalse(detail.contains(planted), () -> "the refusal detail holds " + planted + ": " + detail);
        }
    }

    /** One line per reason code, each carrying the planted values. */
    private static byte[] everyRejectReason() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> lines = List.of(
                event("ok").line(),
                event(SECRET).raw("attempt_number", "true").text("learner_id", EMAIL).line(),        // TYPE_MISMATCH
                event(SECRET + "-2").text("event_type", SECRET).line(),                                  // ENUM_MISMATCH
                event(SECRET + "-3").raw("attempt_number", "0").text("lesson_id", EMAIL).line(),        // OUT_OF_RANGE
                event(SECRET + "-4").raw("attempt_number", "99999999999999999999").line(),              // NUMBER_OVERFLOW
                event(SECRET + "-5").text("event_time", "2026-03-02T14:02:11 " + SECRET).line(),        // TIMESTAMP_INVALID
                event(SECRET + "-6").text("event_time", "2026-03-02T14:02:11").text("learner_id", EMAIL).line(), // NO_OFFSET
                // TIMESTAMP_PRECISION, DECIMAL_SCALE, DECIMAL_PRECISION
                event(SECRET + "-6b").text("event_time", "2026-03-02T14:02:11.1234567Z").text("lesson_id", EMAIL).line(),
                event(SECRET + "-6c").raw("score", "1.25").text("lesson_id", EMAIL).line(),
                event(SECRET + "-6d").raw("score", "1234.5").text("lesson_id", EMAIL).line(),
                event(SECRET + "-7").raw("extra", "\"" + WORD_SECRET + "\"").line(),                       // UNKNOWN_FIELD
                event(SECRET + "-8").raw("x " + SECRET, "1").line(),                                     // a key that is not a name: withheld
                event(SECRET + "-8b").raw(EMAIL, "1").line(),
                event(SECRET + "-9").without("learner_id").text("lesson_id", EMAIL).line(),             // MISSING_FIELD
                event(SECRET + "-10").raw("learner_id", "null").line(),                                  // NULL_NOT_ALLOWED
                event("").text("lesson_id", SECRET).line(),                                              // STRING_LENGTH
                event(SECRET + "-11").raw("learner_id", "\"" + SECRET + "\\ud800\"").line(),            // INVALID_UNICODE
                "{\"event_id\":\"" + SECRET + "\",\"event_id\":\"" + EMAIL + "\"}",                     // DUPLICATE_FIELD
                "[\"" + SECRET + "\",\"" + EMAIL + "\"]",                                                // NOT_AN_OBJECT
                "{\"event_id\":\"" + SECRET + "\" " + EMAIL,                                             // INVALID_JSON
                event(SECRET + "-12").raw("checkpoint", "[".repeat(100) + "\"" + EMAIL + "\"" + "]".repeat(100)).line(), // NESTING
                event(SECRET + "-13").text("learner_id", EMAIL + " " + SECRET.repeat(100)).line());     // LINE_TOO_LONG
        for (String line : lines) {
            out.writeBytes(utf8(line));
            out.write('\n');
        }
        out.writeBytes(utf8("{\"event_id\":\"" + SECRET + "\",\"learner_id\":\"" + EMAIL));        // INVALID_UTF8
        out.write(0xFF);
        out.writeBytes(utf8("\"}\n"));
        return out.toByteArray();
    }

    @Test
    void validate_whenRejectedLinesCarryValues_quarantineHoldsNoneOfThem() {
        Outcome outcome = Validation.validate(EVENTS, ValidationLimits.builder().maxLineBytes(1024).build(), everyRejectReason());
        assertNothingPlanted(outcome);
        Set<ReasonCode> expected = EnumSet.allOf(ReasonCode.class);
        expected.removeAll(List.of(ReasonCode.CSV_COLUMN_COUNT, ReasonCode.CSV_MALFORMED, ReasonCode.DATE_INVALID));
        assertEquals(expected, outcome.result().reasons().keySet(), "every JSONL reason is exercised here");
        assertEquals(1, outcome.result().accepted());
    }

    @Test
    void validate_whenCsvRowsRejectedOrHeaderWrong_neitherQuarantineNorDetailHoldsValues() {
        DatasetContract transactions = TestContracts.transactions(c -> c.put("maxRejectedLines", 100));
        String header = "txn_id,account_id,business_date,amount,batch_date\n";
        Outcome rows = Validation.validate(transactions, header
                + SECRET + "," + EMAIL + ",2026-02-30,1,2026-10-02\n"
                + SECRET + "," + EMAIL + ",2026-10-01," + WORD_SECRET + ",2026-10-02\n"
                + SECRET + "," + EMAIL + "\n"
                + SECRET + ",\"" + EMAIL + "\"x,2026-10-01,1,2026-10-02\n");
        assertNothingPlanted(rows);
        assertEquals(4, rows.result().rejected());
        Outcome headerless = Validation.validate(transactions, WORD_SECRET + "," + EMAIL + ",2026-10-01,1," + SECRET + "\n");
        assertEquals(RefusalCode.CSV_HEADER_MISMATCH, headerless.refusalCode());
        assertNothingPlanted(headerless);
        Outcome extraColumn = Validation.validate(transactions, header.trim() + "," + WORD_SECRET + "\n");
        assertEquals(RefusalCode.CSV_HEADER_MISMATCH, extraColumn.refusalCode());
        assertNothingPlanted(extraColumn);
    }

    static Stream<Arguments> refusals() {
        byte[] gz = Gzip.gzip(utf8((event(SECRET).text("learner_id", EMAIL).line() + "\n").repeat(3000)
                .replace(SECRET, SECRET))); // same key, same payload: duplicates only
        byte[] truncated = Arrays.copyOf(gz, gz.length / 2);
        return Stream.of(
                Arguments.of(RefusalCode.PROHIBITED_FIELD, EVENTS, ValidationLimits.defaults(),
                        utf8(event(SECRET).text("email", EMAIL).line() + "\n")),
                Arguments.of(RefusalCode.PROHIBITED_FIELD, EVENTS, ValidationLimits.defaults(),
                        utf8(event(SECRET).raw("meta", "{\"a\":{\"Email\":\"" + EMAIL + "\"}}").line() + "\n")),
                Arguments.of(RefusalCode.KEY_CONFLICT, EVENTS, ValidationLimits.defaults(),
                        utf8(event(SECRET).text("learner_id", EMAIL).line() + "\n" + event(SECRET).line() + "\n")),
                Arguments.of(RefusalCode.REJECT_CAP, TestContracts.progressEvents(), ValidationLimits.defaults(),
                        utf8((event(SECRET).raw("attempt_number", "\"" + EMAIL + "\"").line() + "\n").repeat(11))),
                Arguments.of(RefusalCode.UNKNOWN_FIELD, TestContracts.progressEvents(c -> c.put("unknownFields", "refuse-file")),
                        ValidationLimits.defaults(), utf8(event(SECRET).text(WORD_SECRET, EMAIL).line() + "\n")),
                Arguments.of(RefusalCode.EMPTY, TestContracts.progressEvents(c -> c.put("allowEmpty", false)), ValidationLimits.defaults(),
                        utf8(event(SECRET).text("event_time", EMAIL).line() + "\n")),
                Arguments.of(RefusalCode.UNREADABLE, EVENTS, ValidationLimits.defaults(), truncated),
                Arguments.of(RefusalCode.DECOMPRESSION_RATIO, EVENTS,
                        ValidationLimits.builder().maxCompressionRatio(2).compressionRatioGraceBytes(0).build(), gz));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void validate_whenFileRefused_refusalAndQuarantineHoldNoValues(RefusalCode code, DatasetContract contract, ValidationLimits limits, byte[] stored) {
        Outcome outcome = Validation.validate(contract, limits, stored);
        assertEquals(code, outcome.refusalCode());
        assertNothingPlanted(outcome);
        // the planted values really were in the input (for gzip, in the decompressed text)
        assertTrue(new String(stored, StandardCharsets.ISO_8859_1).contains(SECRET) || outcome.result().gzip());
    }

    /**
     * Issue 30, item 6: a producer that uses identifiers as keys must not leak them into the quarantine. A marker planted
     * as a key (JSONL: in every spelling and position a line can carry it; CSV: as a header column) appears nowhere;
     * the quarantine holds its hash.
     */
    @Test
    void anUnknownFieldName_neverReachesTheQuarantine_onlyItsHash() {
        String marker = "ZQX_LEAKMARKER_ACCT_77310";
        String hash = UnknownFieldName.hash(marker);
        String lines = String.join("\n",
                event("ok").line(),
                event("e2").raw(marker, "1").line(),                                         // a field-like key
                "{\"\\u005aQX_LEAKMARKER_ACCT_77310\":1," + event("e3").line().substring(1), // its first letter escaped
                event("e4").raw(marker + " " + SECRET, "1").line(),                          // a key that is free text
                event("e5").raw(marker, "2").raw("meta", "{\"" + marker + "\":1}").line(),   // top level and nested
                event("e6").raw("attempt_number", "true").raw(marker, "1").line(),         // another reason first
                event("e7").without("learner_id").raw(marker, "1").line())                 // before a missing field
                + "\n";
        Outcome rejected = Validation.validate(EVENTS, lines);
        assertEquals(Set.of(ReasonCode.UNKNOWN_FIELD, ReasonCode.TYPE_MISMATCH), rejected.result().reasons().keySet());
        assertEquals(6, rejected.result().rejected());
        assertNoMarker(marker, rejected);
        assertEquals(List.of(
                QuarantineRecords.record(2, ReasonCode.UNKNOWN_FIELD, hash),
                QuarantineRecords.record(3, ReasonCode.UNKNOWN_FIELD, hash),
                QuarantineRecords.record(4, ReasonCode.UNKNOWN_FIELD, UnknownFieldName.hash(marker + " " + SECRET)),
                QuarantineRecords.record(5, ReasonCode.UNKNOWN_FIELD, hash),
                QuarantineRecords.record(6, ReasonCode.TYPE_MISMATCH, "attempt_number"),
                QuarantineRecords.record(7, ReasonCode.UNKNOWN_FIELD, hash)), rejected.rejectLines());

        Outcome refused = Validation.validate(TestContracts.progressEvents(c -> c.put("unknownFields", "refuse-file")),
                event("e2").raw(marker, "1").line() + "\n");
        assertEquals(RefusalCode.UNKNOWN_FIELD, refused.refusalCode());
        assertNoMarker(marker, refused);

        DatasetContract transactions = TestContracts.transactions(c -> c.put("maxRejectedLines", 100));
        Outcome csv = Validation.validate(transactions, "txn_id,account_id,business_date,amount,batch_date," + marker + "\n"
                + "T-1,A-1,2026-10-01,1,2026-10-02,x\n");
        assertEquals(RefusalCode.CSV_HEADER_MISMATCH, csv.refusalCode());
        assertTrue(csv.refusal().detail().contains("column 6 is not a contract field"), csv.refusal().detail());
        assertNoMarker(marker, csv);
    }

    private static void assertNoMarker(String marker, Outcome outcome) {
        String rejects = outcome.rejectsText();
        String result = io.landingledger.core.json.JsonCodec.writeString(outcome.result().document());
        String detail = outcome.refusal() == null ? "" : outcome.refusal().detail();
        for (String part : List.of(marker, "LEAKMARKER", SECRET)) {
            assertFalse(rejects.contains(part), () -> "the quarantine holds " + part + ": " + rejects);
            assertFalse(result.contains(part), () -> "the result holds " + part + ": " + result);
            assertFalse(detail.contains(part), () -> "the refusal detail holds " + part + ": " + detail);
        }
    }
}
