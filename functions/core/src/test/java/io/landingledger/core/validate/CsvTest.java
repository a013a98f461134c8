package io.landingledger.core.validate;

import static io.landingledger.core.validate.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** CSV input (the transactions contract, seed 001): header mapping, typed JSON rows, CSV-only reasons and refusals. */
class CsvTest {
    private static final String HEADER = "txn_id,account_id,business_date,amount,batch_date";
    private static final DatasetContract TRANSACTIONS = TestContracts.transactions();
    private static final DatasetContract TRANSACTIONS_CAP = TestContracts.transactions(c -> c.put("maxRejectedLines", 100));
    private static final DatasetContract TYPES = TestContracts.csvTypes();

    private static String csv(String... lines) {
        return Events.lines(lines);
    }

    private static String row(String txn, String amount) {
        return "{\"account_id\":\"A1\",\"amount\":" + amount + ",\"batch_date\":\"2026-10-02\",\"business_date\":\"2026-10-01\",\"txn_id\":\"" + txn + "\"}";
    }

    @Test
    void validate_whenCsvRowsValid_publishesTypedJsonLinesWithSortedKeys() {
        Outcome outcome = Validation.validate(TRANSACTIONS, csv(HEADER,
                "T-0101,A1,2026-10-01,12.50,2026-10-02",
                "T-0105,A1,2026-10-01,-3,2026-10-02",
                "T-0106,A1,2026-10-01,1e3,2026-10-02"));
        assertNull(outcome.refusal());
        assertEquals(List.of(row("T-0101", "12.5"), row("T-0105", "-3"), row("T-0106", "1000")), outcome.acceptedLines());
        assertEquals(4, outcome.result().lines());
    }

    @Test
    void validate_whenHeaderInAnotherOrder_mapsColumnsByName() {
        Outcome outcome = Validation.validate(TRANSACTIONS, csv("amount,batch_date,txn_id,business_date,account_id",
                "12.50,2026-10-02,T-0101,2026-10-01,A1"));
        assertEquals(List.of(row("T-0101", "12.5")), outcome.acceptedLines());
    }

    @Test
    void validate_whenCellsQuoted_unquotesAndEscapesForJson() {
        Outcome outcome = Validation.validate(TRANSACTIONS, csv(HEADER,
                "\"T,1\",\"A \"\"quoted\"\" \\ name\",2026-10-01,\"12.50\",2026-10-02"));
        assertEquals(List.of("{\"account_id\":\"A \\\"quoted\\\" \\\\ name\",\"amount\":12.5,\"batch_date\":\"2026-10-02\","
                + "\"business_date\":\"2026-10-01\",\"txn_id\":\"T,1\"}"), outcome.acceptedLines());
    }

    @Test
    void validate_whenQuotedCellSpansLines_joinsThemAndKeepsLineNumbers() {
        String input = csv(HEADER,
                "T1,\"first",            // line 2
                "",                      // line 3, inside the quotes
                "last\",2026-10-01,1,2026-10-02", // line 4
                "T2,A1,2026-10-01,x,2026-10-02"); // line 5: rejected
        Outcome outcome = Validation.validate(TRANSACTIONS_CAP, input);
        assertEquals(List.of("{\"account_id\":\"first\\n\\nlast\",\"amount\":1,\"batch_date\":\"2026-10-02\",\"business_date\":\"2026-10-01\",\"txn_id\":\"T1\"}"),
                outcome.acceptedLines());
        assertEquals(List.of("{\"line\":5,\"reason\":\"TYPE_MISMATCH\",\"field\":\"amount\"}"), outcome.rejectLines());
        assertEquals(5, outcome.result().lines());
        assertArrayEquals(outcome.accepted(), Validation.validate(TRANSACTIONS_CAP, input.replace("\n", "\r\n")).accepted());
    }

    @Test
    void validate_countsRecordsApartFromLines_andEveryReasonNamesItsRecordsFirstLine() {
        String input = csv(HEADER,
                "T1,\"first",                         // line 2: record 1 starts
                "second\",2026-10-01,x,2026-10-02",   // line 3: record 1 ends, its amount mistyped
                "",                                     // line 4: blank
                "T2,\"a",                              // line 5: record 2 starts
                "b",                                    // line 6
                "c\",2026-10-01,1,2026-10-02,extra",  // line 7: record 2 ends, one cell too many
                "T3,A1,2026-10-01,2,2026-10-02");      // line 8: record 3
        Outcome outcome = Validation.validate(TRANSACTIONS_CAP, input);
        assertEquals(3, outcome.result().records(), "the header, the blank line and the quoted line breaks are not records");
        assertEquals(8, outcome.result().lines(), "physical lines, which line numbers count");
        assertEquals(1, outcome.result().blankLines());
        assertEquals(List.of("{\"line\":2,\"reason\":\"TYPE_MISMATCH\",\"field\":\"amount\"}",
                "{\"line\":5,\"reason\":\"CSV_COLUMN_COUNT\"}"), outcome.rejectLines(), "each reason names its record's first line");
        assertEquals(3L, outcome.result().records());
    }

    @Test
    void validate_records_stopAtARefusal_withTheLines() {
        Outcome outcome = Validation.validate(TRANSACTIONS, csv(HEADER,
                "T1,A1,2026-10-01,1,2026-10-02",
                "T1,A1,2026-10-01,2,2026-10-02",   // line 3: the same key, another payload
                "T2,A1,2026-10-01,1,2026-10-02"));
        assertEquals(RefusalCode.KEY_CONFLICT, outcome.refusalCode());
        assertEquals(3, outcome.result().lines());
        assertEquals(2, outcome.result().records(), "counts cover what was read before the refusal");
    }

    @Test
    void validate_whenTypedCells_publishesJsonTypes() {
        String header = "id,qty,price,ok,at,label";
        Outcome outcome = Validation.validate(TYPES, csv(header,
                "1,-0,1.50,true,2026-03-02T14:02:11.120-05:00,\"\"",
                "9007199254740993,,0,false,2026-03-02T14:02:11Z,",
                "-9223372036854775808,7,-2.5e-3,true,,plain"));
        assertEquals(List.of(
                "{\"at\":\"2026-03-02T19:02:11.120Z\",\"id\":1,\"label\":\"\",\"ok\":true,\"price\":1.5,\"qty\":0}",
                "{\"at\":\"2026-03-02T14:02:11Z\",\"id\":9007199254740993,\"label\":null,\"ok\":false,\"price\":0,\"qty\":null}",
                "{\"at\":null,\"id\":-9223372036854775808,\"label\":\"plain\",\"ok\":true,\"price\":-0.0025,\"qty\":7}"),
                outcome.acceptedLines());
    }

    @Test
    void validate_whenOptionalColumnAbsentFromHeader_publishesNull() {
        Outcome outcome = Validation.validate(TYPES, csv("id", "5"));
        assertEquals(List.of("{\"at\":null,\"id\":5,\"label\":null,\"ok\":null,\"price\":null,\"qty\":null}"), outcome.acceptedLines());
    }

    static Stream<Arguments> badTypedCells() {
        return Stream.of(
                Arguments.of("id", "3.0", ReasonCode.TYPE_MISMATCH),
                Arguments.of("id", "abc", ReasonCode.TYPE_MISMATCH),
                Arguments.of("id", "+3", ReasonCode.TYPE_MISMATCH),
                Arguments.of("id", "03", ReasonCode.TYPE_MISMATCH),
                Arguments.of("id", "1e2", ReasonCode.TYPE_MISMATCH),
                Arguments.of("id", " 3", ReasonCode.TYPE_MISMATCH),
                Arguments.of("id", "9223372036854775808", ReasonCode.NUMBER_OVERFLOW),
                Arguments.of("id", "", ReasonCode.MISSING_FIELD),
                Arguments.of("ok", "TRUE", ReasonCode.TYPE_MISMATCH),
                Arguments.of("ok", "1", ReasonCode.TYPE_MISMATCH),
                Arguments.of("price", "abc", ReasonCode.TYPE_MISMATCH),
                Arguments.of("price", "1,5", null),  // two cells: the column count is wrong instead
                Arguments.of("price", "NaN", ReasonCode.TYPE_MISMATCH),
                Arguments.of("price", "1e400", ReasonCode.NUMBER_OVERFLOW),
                Arguments.of("at", "2026-03-02T14:02:11", ReasonCode.TIMESTAMP_NO_OFFSET),
                Arguments.of("at", "2026-03-02T25:02:11Z", ReasonCode.TIMESTAMP_INVALID));
    }

    @ParameterizedTest(name = "{0} = \"{1}\"")
    @MethodSource("badTypedCells")
    void validate_whenCellDoesNotFitItsField_rejectsLineNamingField(String field, String cell, ReasonCode reason) {
        List<String> columns = List.of("id", "qty", "price", "ok", "at", "label");
        List<String> good = List.of("1", "2", "3.5", "true", "2026-03-02T14:02:11Z", "x");
        String[] cells = good.toArray(new String[0]);
        cells[columns.indexOf(field)] = cell.contains(",") ? cell : cell;
        Outcome outcome = Validation.validate(TYPES, csv(String.join(",", columns), "2,2,2,true,,y", String.join(",", cells)));
        assertEquals(1, outcome.result().accepted());
        if (reason == null) {
            assertEquals(List.of("{\"line\":3,\"reason\":\"CSV_COLUMN_COUNT\"}"), outcome.rejectLines());
        } else {
            assertEquals(List.of(QuarantineRecords.record(3, reason, field)), outcome.rejectLines());
        }
    }

    @Test
    void validate_whenAnAmountHasAnExponentBeyondBigDecimal_rejectsTheLineAsNumberOverflowLikeJson() {
        // 1e9999999999 is a JSON number whose exponent no BigDecimal holds: BigDecimal throws NumberFormatException for
        // it, which out of the validator would be a stack trace from landing validate and a poison record in the
        // function instead of a decision
        Outcome outcome = Validation.validate(TRANSACTIONS_CAP, csv(HEADER,
                "T1,A1,2026-10-01,1e9999999999,2026-10-02",
                "T2,A1,2026-10-01,-1E+9999999999,2026-10-02",
                "T3,A1,2026-10-01,1e-9999999999,2026-10-02",
                "T4,A1,2026-10-01,1." + "0".repeat(JsonLineParser.MAX_NUMBER_LENGTH) + ",2026-10-02",
                "T5,A1,2026-10-01,12.50,2026-10-02"));
        assertNull(outcome.refusal());
        assertEquals(List.of(
                QuarantineRecords.record(2, ReasonCode.NUMBER_OVERFLOW, "amount"),
                QuarantineRecords.record(3, ReasonCode.NUMBER_OVERFLOW, "amount"),
                QuarantineRecords.record(4, ReasonCode.NUMBER_OVERFLOW, "amount"),
                QuarantineRecords.record(5, ReasonCode.NUMBER_OVERFLOW, "amount")), outcome.rejectLines());
        assertEquals(List.of(row("T5", "12.5")), outcome.acceptedLines());
    }

    @Test
    void validate_whenTheTransactionsCapIsZero_refusesAnAmountBeyondBigDecimalAsRejectCap() {
        // the shipped contract: the reject of line 2 is a refusal, a decision, not an exception
        Outcome outcome = Validation.validate(TRANSACTIONS, csv(HEADER, "T1,A1,2026-10-01,1e9999999999,2026-10-02"));
        assertEquals(RefusalCode.REJECT_CAP, outcome.refusalCode());
        assertEquals(Map.of(ReasonCode.NUMBER_OVERFLOW, 1L), outcome.result().reasons());
    }

    /** A JSONL contract with csvTypes' fields, so a CSV cell and the same text as a JSON value meet the same rules. */
    private static final DatasetContract TYPES_AS_JSONL = TestContracts.csvTypesAsJsonl();

    static Stream<Arguments> numberTexts() {
        String longZeros = "0".repeat(JsonLineParser.MAX_NUMBER_LENGTH);
        return Stream.of("1e9999999999", "-1e9999999999", "1E+9999999999", "1e-9999999999", "0e9999999999", "1e2147483647",
                "1e-2147483647", "1e-2147483648", "10e2147483647", "1e400", "-1e400", "1e-400", "2.5E-3", "1e3", "-0", "0.0",
                "9223372036854775808", "-9223372036854775809", "1" + longZeros, "1" + longZeros.substring(1),
                "0." + longZeros.substring(3) + "1", "0." + longZeros.substring(2) + "1", "-1." + longZeros, "1." + longZeros + "e5"
        ).flatMap(number -> Stream.of(Arguments.of("price", number), Arguments.of("qty", number)));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("numberTexts")
    void validate_whenTheSameNumberIsACsvCellOrAJsonValue_decidesAlike(String field, String number) {
        Outcome csv = Validation.validate(TYPES, csv("id," + field, "1," + number));
        Outcome json = Validation.validate(TYPES_AS_JSONL, Events.lines("{\"id\":1,\"" + field + "\":" + number + "}"));
        assertNull(csv.refusal());
        assertNull(json.refusal());
        assertEquals(json.result().reasons(), csv.result().reasons());
        assertEquals(json.acceptedText(), csv.acceptedText());
    }

    @Test
    void validate_whenRequiredCellEmptyOrDateInvalid_rejectsLine() {
        Outcome outcome = Validation.validate(TRANSACTIONS_CAP, csv(HEADER,
                ",A1,2026-10-01,1,2026-10-02",
                "\"\",A1,2026-10-01,1,2026-10-02",
                "T3,A1,2026-02-30,1,2026-10-02",
                "T4,A1,2026-10-01,,2026-10-02"));
        assertEquals(List.of(
                QuarantineRecords.record(2, ReasonCode.MISSING_FIELD, "txn_id"),
                QuarantineRecords.record(3, ReasonCode.STRING_LENGTH, "txn_id"),
                QuarantineRecords.record(4, ReasonCode.DATE_INVALID, "business_date"),
                QuarantineRecords.record(5, ReasonCode.MISSING_FIELD, "amount")), outcome.rejectLines());
    }

    @Test
    void validate_whenRowHasTooFewOrTooManyCells_rejectsCsvColumnCount() {
        Outcome outcome = Validation.validate(TRANSACTIONS_CAP, csv(HEADER,
                "T1,A1,2026-10-01,1",
                "T2,A1,2026-10-01,1,2026-10-02,extra",
                "T3,A1,2026-10-01,1,2026-10-02,",
                "T4,A1,2026-10-01,1,2026-10-02"));
        assertEquals(List.of(
                "{\"line\":2,\"reason\":\"CSV_COLUMN_COUNT\"}",
                "{\"line\":3,\"reason\":\"CSV_COLUMN_COUNT\"}",
                "{\"line\":4,\"reason\":\"CSV_COLUMN_COUNT\"}"), outcome.rejectLines());
        assertEquals(1, outcome.result().accepted());
    }

    @Test
    void validate_whenQuotingBroken_rejectsCsvMalformed() {
        Outcome outcome = Validation.validate(TRANSACTIONS_CAP, csv(HEADER,
                "T1,A\"1,2026-10-01,1,2026-10-02",
                "\"T2\"x,A1,2026-10-01,1,2026-10-02",
                "T3,A1,2026-10-01,1,2026-10-02",
                "T4,\"A1,2026-10-01,1,2026-10-02"));   // the quote never closes: the file ends inside it
        assertEquals(List.of(
                "{\"line\":2,\"reason\":\"CSV_MALFORMED\"}",
                "{\"line\":3,\"reason\":\"CSV_MALFORMED\"}",
                "{\"line\":5,\"reason\":\"CSV_MALFORMED\"}"), outcome.rejectLines());
        assertEquals(1, outcome.result().accepted());
    }

    @Test
    void validate_whenRowNotUtf8_rejectsInvalidUtf8() {
        ByteArrayOutputStream input = new ByteArrayOutputStream();
        input.writeBytes(utf8(csv(HEADER)));
        input.writeBytes(utf8("T1,Zo"));
        input.write(0xEB);
        input.writeBytes(utf8(",2026-10-01,1,2026-10-02\n"));
        Outcome outcome = Validation.validate(TRANSACTIONS_CAP, input.toByteArray());
        assertEquals(List.of("{\"line\":2,\"reason\":\"INVALID_UTF8\"}"), outcome.rejectLines());
    }

    @Test
    void validate_whenTransactionsRowRejected_refusesBecauseCapIsZero() {
        Outcome outcome = Validation.validate(TRANSACTIONS, csv(HEADER, "T1,A1,2026-10-01,1,2026-10-02", "T2,A1,2026-10-01,x,2026-10-02"));
        assertEquals(new Refusal(RefusalCode.REJECT_CAP, "1 lines rejected, above maxRejectedLines (0)", List.of(3L)), outcome.refusal());
    }

    @Test
    void validate_whenCsvRowsRepeat_collapsesIdenticalAndRefusesConflicting() {
        Outcome same = Validation.validate(TRANSACTIONS, csv(HEADER, "T1,A1,2026-10-01,1.0,2026-10-02", "\"T1\",A1,2026-10-01,1,2026-10-02"));
        assertNull(same.refusal());
        assertEquals(1, same.result().duplicates());
        Outcome conflict = Validation.validate(TRANSACTIONS, csv(HEADER, "T1,A1,2026-10-01,1,2026-10-02", "T2,A1,2026-10-01,1,2026-10-02",
                "T1,A1,2026-10-01,2,2026-10-02"));
        assertEquals(RefusalCode.KEY_CONFLICT, conflict.refusalCode());
        assertEquals(List.of(2L, 4L), conflict.refusal().lines());
    }

    @Test
    void validate_whenCsvHasBomCrlfAndGzip_publishesSameRows() {
        String plain = csv(HEADER, "T1,A1,2026-10-01,1,2026-10-02", "", "T2,A1,2026-10-01,2,2026-10-02");
        byte[] expected = Validation.validate(TRANSACTIONS, plain).accepted();
        assertEquals(2, Validation.validate(TRANSACTIONS, plain).result().accepted());
        assertArrayEquals(expected, Validation.validate(TRANSACTIONS, "\uFEFF" + plain.replace("\n", "\r\n")).accepted());
        assertArrayEquals(expected, Validation.validate(TRANSACTIONS, Gzip.gzip(utf8(plain))).accepted());
    }

    // ---- header refusals ----

    @Test
    void validate_whenHeaderNamesProhibitedField_refusesProhibitedField() {
        Outcome outcome = Validation.validate(TRANSACTIONS, csv(HEADER + ",Email", "T1,A1,2026-10-01,1,2026-10-02,x@y.z"));
        assertEquals(new Refusal(RefusalCode.PROHIBITED_FIELD, "the header names the prohibited field email", List.of(1L)), outcome.refusal());
    }

    @Test
    void validate_whenHeaderLacksRequiredColumn_refusesHeaderMismatchNamingIt() {
        Outcome outcome = Validation.validate(TRANSACTIONS, csv("txn_id,account_id,amount,batch_date", "T1,A1,1,2026-10-02"));
        assertEquals(RefusalCode.CSV_HEADER_MISMATCH, outcome.refusalCode());
        assertEquals(List.of(1L), outcome.refusal().lines());
        assertTrue(outcome.refusal().detail().contains("missing required fields: business_date"), outcome.refusal().detail());
    }

    @Test
    void validate_whenHeaderHasExtraOrRepeatedColumn_refusesHeaderMismatch() {
        Outcome extra = Validation.validate(TRANSACTIONS, csv(HEADER + ",note", "T1,A1,2026-10-01,1,2026-10-02,n"));
        assertEquals(RefusalCode.CSV_HEADER_MISMATCH, extra.refusalCode());
        assertTrue(extra.refusal().detail().contains("column 6"), extra.refusal().detail());
        Outcome repeated = Validation.validate(TRANSACTIONS, csv(HEADER + ",amount", "T1,A1,2026-10-01,1,2026-10-02,1"));
        assertEquals(RefusalCode.CSV_HEADER_MISMATCH, repeated.refusalCode());
        assertTrue(repeated.refusal().detail().contains("amount"), repeated.refusal().detail());
    }

    @Test
    void validate_whenHeaderUnreadable_refusesHeaderMismatch() {
        byte[] notUtf8 = utf8(HEADER + "\n");
        notUtf8[3] = (byte) 0xFF;
        assertEquals(RefusalCode.CSV_HEADER_MISMATCH, Validation.validate(TRANSACTIONS, notUtf8).refusalCode());
        assertEquals(RefusalCode.CSV_HEADER_MISMATCH, Validation.validate(TRANSACTIONS, csv("txn_id,\"account_id" + ",x\"y")).refusalCode());
    }

    @Test
    void validate_whenFileHasNoHeader_refusesWithoutEchoingTheFirstRow() {
        // the first row is data: its cells are values, and a refusal never carries a value
        Outcome outcome = Validation.validate(TRANSACTIONS, csv("T1,Jane_Doe,2026-10-01,1,PLANTED_SECRET_123"));
        assertEquals(RefusalCode.CSV_HEADER_MISMATCH, outcome.refusalCode());
        assertFalse(outcome.refusal().detail().contains("Jane_Doe"), outcome.refusal().detail());
        assertFalse(outcome.refusal().detail().contains("PLANTED_SECRET_123"), outcome.refusal().detail());
        assertFalse(outcome.refusal().detail().contains("T1"), outcome.refusal().detail());
    }

    @Test
    void validate_whenOnlyHeader_acceptsEmptyUnitOrRefusesEmpty() {
        assertEquals(0, Validation.validate(TRANSACTIONS, csv(HEADER)).result().accepted());
        assertNull(Validation.validate(TRANSACTIONS, csv(HEADER)).refusal());
        DatasetContract noEmpty = TestContracts.transactions(c -> c.put("allowEmpty", false));
        assertEquals(RefusalCode.EMPTY, Validation.validate(noEmpty, csv(HEADER)).refusalCode());
        assertEquals(Map.of(), Validation.validate(noEmpty, csv(HEADER)).result().reasons());
    }
}
