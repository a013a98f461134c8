package io.landingledger.tables;

import io.landingledger.core.testing.FailingInputStream;

import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PublishedRowReaderTest {
    private static final Schema SCHEMA = new Schema(
            Types.NestedField.required(1, "id", Types.StringType.get()),
            Types.NestedField.optional(2, "amount", Types.DecimalType.of(6, 2)),
            Types.NestedField.optional(3, "n", Types.LongType.get()),
            Types.NestedField.optional(4, "ratio", Types.DoubleType.get()),
            Types.NestedField.optional(5, "ok", Types.BooleanType.get()),
            Types.NestedField.optional(6, "day", Types.DateType.get()),
            Types.NestedField.optional(7, "at", Types.TimestampType.withZone()),
            Types.NestedField.required(8, "unit", Types.DateType.get()));
    private static final LocalDate UNIT = LocalDate.parse("2026-10-01");

    private static List<Record> read(String text) {
        List<Record> rows = new ArrayList<>();
        try (PublishedRowReader reader = new PublishedRowReader(SCHEMA, UNIT, TableFixture.bytes(text))) {
            for (Record row = reader.next(); row != null; row = reader.next()) {
                rows.add(row.copy());
            }
            assertEquals(rows.size(), reader.rows());
        }
        return rows;
    }

    private static RowConversionException refused(String text) {
        return assertThrows(RowConversionException.class, () -> read(text));
    }

    @Test
    void readsEveryTypeExactly() {
        List<Record> rows = read("""
                {"amount":-1234.5,"at":"2026-10-01T21:30:00.123456Z","day":"2026-09-30",\
                "id":"a\\u00e9\\"","n":-9223372036854775808,"ok":true,"ratio":0.1}
                {"amount":1.5e+3,"at":"1969-12-31T23:59:59.999Z","day":null,"id":"b","n":null,"ok":false,"ratio":1e-7}
                {"id":"c"}
                """);

        assertEquals(3, rows.size());
        Record a = rows.get(0);
        assertEquals("a\u00e9\"", a.getField("id"));
        assertEquals(new BigDecimal("-1234.50"), a.getField("amount"));
        assertEquals(Long.MIN_VALUE, a.getField("n"));
        assertEquals(0.1, a.getField("ratio"));
        assertEquals(true, a.getField("ok"));
        assertEquals(LocalDate.parse("2026-09-30"), a.getField("day"));
        assertEquals(OffsetDateTime.of(2026, 10, 1, 21, 30, 0, 123_456_000, ZoneOffset.UTC), a.getField("at"));
        assertEquals(UNIT, a.getField("unit"));
        Record b = rows.get(1);
        assertEquals(new BigDecimal("1500.00"), b.getField("amount"));
        assertEquals(OffsetDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000, ZoneOffset.UTC), b.getField("at"));
        assertNull(b.getField("day"));
        assertNull(b.getField("n"));
        Record c = rows.get(2);
        assertNull(c.getField("amount"), "a line's absent optional column is null, not the previous line's value");
        assertEquals(UNIT, c.getField("unit"));
    }

    @Test
    void anEmptyObjectHasNoRows() {
        assertEquals(List.of(), read(""));
    }

    @Test
    void refusesWhatTheColumnsCannotHoldNamingLineAndColumnButNeverTheValue() {
        record Case(String line, String column, String problem, String value) {
        }
        List<Case> cases = List.of(
                new Case("{\"amount\":1.234,\"id\":\"x\"}", "amount", "more fraction digits", "1.234"),
                new Case("{\"amount\":12345.6,\"id\":\"x\"}", "amount", "more integer digits", "12345.6"),
                new Case("{\"amount\":1e+999999999,\"id\":\"x\"}", "amount", "more integer digits", "999999999"),
                new Case("{\"at\":\"2026-10-01T00:00:00.123456789Z\",\"id\":\"x\"}", "at", "sub-microsecond",
                        "123456789"),
                new Case("{\"at\":\"2026-10-01 00:00\",\"id\":\"x\"}", "at", "not a UTC timestamp", "2026-10-01 00:00"),
                new Case("{\"day\":\"2026-02-30\",\"id\":\"x\"}", "day", "not a date", "2026-02-30"),
                new Case("{\"id\":\"x\",\"n\":92233720368547758070}", "n", "64-bit", "92233720368547758070"),
                new Case("{\"id\":\"x\",\"n\":1.5}", "n", "a JSON number where the column is long", "1.5"),
                new Case("{\"id\":\"x\",\"ok\":\"yes\"}", "ok", "a JSON string where", "yes"),
                new Case("{\"id\":null}", "id", "null in a required column", "null,"),
                new Case("{\"amount\":1}", "id", "a required column without a value", "xx"),
                new Case("{\"id\":\"x\",\"secret\":\"hunter2\"}", "secret", "not a data column", "hunter2"),
                new Case("{\"id\":\"x\",\"unit\":\"2026-01-01\"}", "unit", "not a data column", "2026-01-01"),
                new Case("{\"id\":{\"nested\":\"hunter2\"}}", "id", "a JSON object where", "hunter2"));
        for (Case c : cases) {
            RowConversionException e = refused("{\"id\":\"ok\"}\n" + c.line() + "\n");
            assertEquals(2, e.line(), c.line());
            assertEquals(c.column(), e.column(), c.line());
            assertTrue(e.getMessage().contains(c.problem()), e.getMessage());
            assertFalse(e.getMessage().contains(c.value()), e.getMessage());
        }
    }

    @Test
    void aSourceThatFailsMidwayIsAnIoFaultNotABadLine() {
        byte[] bytes = ("{\"id\":\"a\"}\n".repeat(1000)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        FailingInputStream source = new FailingInputStream(bytes, 5000);

        java.io.UncheckedIOException fault = assertThrows(java.io.UncheckedIOException.class, () -> {
            try (PublishedRowReader reader = new PublishedRowReader(SCHEMA, UNIT, source)) {
                while (reader.next() != null) {
                    // read on until the source fails
                }
            }
        });

        assertEquals(source.failure, fault.getCause());
    }

    @Test
    void refusesALineThatIsNotAJsonObjectWithoutQuotingIt() {
        RowConversionException notObject = refused("{\"id\":\"ok\"}\n[\"hunter2\"]\n");
        assertEquals(2, notObject.line());
        assertNull(notObject.column());

        RowConversionException malformed = refused("{\"id\":\"ok\"}\n\n{\"id\":hunter2}\n");
        assertEquals(3, malformed.line());
        assertFalse(malformed.getMessage().contains("hunter2"), malformed.getMessage());
        assertNull(malformed.getCause(), "the parser's message quotes the input: not kept");
    }
}
