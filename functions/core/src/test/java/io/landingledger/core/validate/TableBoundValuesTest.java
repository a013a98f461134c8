package io.landingledger.core.validate;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.testing.TestContracts;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Values the dataset's table could only hold by changing them are refused by the validator, before any publish:
 * a number with more digits than its exact decimal(precision, scale) field declares, a timestamp outside the
 * table's microsecond {@code timestamptz} (docs/contracts.md). The reject names the field, never the value.
 */
class TableBoundValuesTest {
    private static final DatasetContract DECIMALS = TestContracts.fromJson("decimals.json", """
            {
              "dataset": "decimals", "version": 1, "format": "jsonl",
              "unit": { "pattern": "d-(?<unit>\\\\d{4}-\\\\d{2}-\\\\d{2})\\\\.jsonl", "cadence": "daily", "first": "2026-01-01" },
              "key": "id",
              "fields": {
                "id":     { "type": "string", "required": true },
                "amount": { "type": "number", "precision": 6, "scale": 2 },
                "rate":   { "type": "number", "precision": 3, "scale": 3 },
                "count":  { "type": "number", "precision": 3, "scale": 0 },
                "at":     { "type": "timestamp" }
              },
              "maxRejectedLines": 1000
            }
            """);

    private static final String GOOD = "{\"id\":\"g\"}";

    private static void assertRejected(String field, String value, ReasonCode reason) {
        String bad = "{\"id\":\"x\",\"" + field + "\":" + value + "}";
        Validation.Outcome outcome = Validation.validate(DECIMALS, GOOD + "\n" + bad + "\n");
        assertNull(outcome.refusal());
        assertEquals(Map.of(reason, 1L), outcome.result().reasons(), value);
        assertEquals(List.of(QuarantineRecords.record(2, reason, field)), outcome.rejectLines());
        String stripped = value.replace("\"", "");
        assertFalse(outcome.rejectsText().contains(stripped), "the quarantine never holds the value");
    }

    /** The field as the published row holds it: {@code "field":value}. */
    private static String accepted(String field, String value) {
        Validation.Outcome outcome = Validation.validate(DECIMALS, "{\"id\":\"x\",\"" + field + "\":" + value + "}\n");
        assertTrue(outcome.result().reasons().isEmpty(), value + ": " + outcome.result().reasons());
        String row = outcome.acceptedText().strip();
        int at = row.indexOf("\"" + field + "\":");
        int end = row.indexOf(',', at);
        return row.substring(at, end < 0 ? row.length() - 1 : end);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
            "amount, 1.234",           // three decimals for scale 2
            "amount, 0.001",
            "amount, 1e-3",
            "amount, 1E-999999999",    // a hostile exponent: one digit, refused without expanding it
            "rate,   0.0001",
            "count,  1.5"})
    void moreFractionDigitsThanTheScale_isDecimalScale(String field, String value) {
        assertRejected(field, value, ReasonCode.DECIMAL_SCALE);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
            "amount, 10000",           // five integer digits for decimal(6,2)
            "amount, -12345.6",
            "amount, 1e4",
            "rate,   1",               // decimal(3,3) holds no integer digit
            "count,  1000"})
    void moreIntegerDigitsThanPrecisionLessScale_isDecimalPrecision(String field, String value) {
        assertRejected(field, value, ReasonCode.DECIMAL_PRECISION);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
            "amount, 9999.99,  9999.99",
            "amount, -9999.99, -9999.99",
            "amount, 1.230,    1.23",      // trailing zeros are no digits
            "amount, 0,        0",
            "amount, 0.000,    0",
            "rate,   0.999,    0.999",
            "rate,   0,        0",
            "count,  999,      999",
            "count,  9.9e1,    99",
            "count,  1e2,      100"})
    void valuesTheDecimalHolds_areAcceptedAsBefore(String field, String value, String published) {
        assertEquals("\"" + field + "\":" + published, accepted(field, value));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "2026-03-02T14:02:11.1234567Z,       TIMESTAMP_PRECISION",
            "2026-03-02T14:02:11.000000001+05:30, TIMESTAMP_PRECISION",
            "0000-06-01T00:00:00Z,                TIMESTAMP_INVALID",
            "9999-12-31T23:30:00-01:00,           TIMESTAMP_INVALID"})
    void timestampsOutsideTheTablesMicroseconds_areRefused(String value, ReasonCode reason) {
        assertRejected("at", "\"" + value + "\"", reason);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "2026-03-02T14:02:11.123456000Z, 2026-03-02T14:02:11.123456Z",
            "0001-01-01T00:00:00Z,           0001-01-01T00:00:00Z",
            "9999-12-31T23:59:59.999999Z,    9999-12-31T23:59:59.999999Z"})
    void timestampsTheTableHolds_areAccepted(String value, String published) {
        assertEquals("\"at\":\"" + published + "\"", accepted("at", "\"" + value + "\""));
    }
}
