package io.landingledger.core.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;

/**
 * The hand-written RFC 3339 and date parsers, checked against java.time on many random values: every instant and
 * offset java.time can express, every fraction length (published as {@code Instant.toString} prints it), and
 * impossible calendar dates.
 */
class TimestampsTest {
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");

    private static String canonical(String text) {
        ByteSink out = new ByteSink(64);
        ReasonCode reason = new Timestamps().writeCanonicalTimestamp(utf8(text), 0, utf8(text).length, out);
        return reason != null ? reason.name() : new String(out.bytes, 0, out.size, StandardCharsets.US_ASCII);
    }

    private static String canonicalDate(String text) {
        ByteSink out = new ByteSink(16);
        ReasonCode reason = Timestamps.writeCanonicalDate(utf8(text), 0, utf8(text).length, out);
        return reason != null ? reason.name() : new String(out.bytes, 0, out.size, StandardCharsets.US_ASCII);
    }

    @Test
    void writeCanonicalTimestamp_whenRandomInstantAndOffset_matchesJavaTime() {
        SplittableRandom random = new SplittableRandom(2026);
        long min = Instant.parse("0001-01-02T00:00:00Z").getEpochSecond();
        long max = Instant.parse("9999-12-30T00:00:00Z").getEpochSecond();
        for (int i = 0; i < 200_000; i++) {
            // a quarter whole milliseconds, so fractions with trailing zeros (.120, .100000) come up often
            int nano = random.nextInt(4) == 0 ? random.nextInt(1000) * 1_000_000 : random.nextInt(1_000_000_000);
            Instant instant = Instant.ofEpochSecond(random.nextLong(min, max), nano);
            ZoneOffset offset = ZoneOffset.ofTotalSeconds(random.nextInt(-18 * 60, 18 * 60 + 1) * 60);
            int digits = random.nextInt(10);
            String fraction = digits == 0 ? "" : "." + String.format("%09d", instant.getNano()).substring(0, digits);
            String suffix = offset.getTotalSeconds() == 0 && random.nextBoolean() ? "Z" : offset.getId().replace("Z", "+00:00");
            String given = LOCAL.format(instant.atOffset(offset)) + fraction + suffix;
            long unit = (long) Math.pow(10, 9 - digits);
            Instant truncated = Instant.ofEpochSecond(instant.getEpochSecond(), instant.getNano() / unit * unit);
            // the instant given, as java.time prints it; finer than a microsecond, refused (the table's timestamptz)
            String expected = truncated.getNano() % 1000 != 0 ? "TIMESTAMP_PRECISION" : "\"" + truncated + "\"";
            assertEquals(expected, canonical(given), given);
        }
    }

    @Test
    void writeCanonicalDate_whenRandomYearMonthDay_acceptsExactlyRealCalendarDays() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            int year = random.nextInt(0, 10_000);
            int month = random.nextInt(0, 14);
            int day = random.nextInt(0, 33);
            String text = String.format("%04d-%02d-%02d", year, month, day);
            boolean real;
            try {
                LocalDate.of(year, month, day);
                real = true;
            } catch (DateTimeException e) {
                real = false;
            }
            assertEquals(real ? "\"" + text + "\"" : "DATE_INVALID", canonicalDate(text), text);
            // the date part of a timestamp follows the same calendar
            // (year 0000 is a date, but no timestamptz instant)
            assertEquals(real && year > 0 ? "\"" + text + "T12:00:00Z\"" : "TIMESTAMP_INVALID",
                    canonical(text + "T12:00:00Z"), text);
        }
    }

    @Test
    void writeCanonicalTimestamp_whenOffsetBeyondJavaTimeRange_stillConvertsExactly() {
        // RFC 3339 allows offsets up to 23:59; java.time stops at 18:00
        assertEquals("\"2026-03-01T14:01:11Z\"", canonical("2026-03-02T14:00:11+23:59"));
        assertEquals("\"2026-03-03T13:59:11Z\"", canonical("2026-03-02T14:00:11-23:59"));
    }

    @Test
    void writeCanonicalTimestamp_whenOneInstanceReadsAFileOfFewDays_matchesAFreshInstanceEveryTime() {
        // one validation reuses one instance, which remembers the last local date and UTC day: that memory must
        // never change an answer, also when an invalid date, time or offset follows a valid one on the same day
        String[] days = {"2026-03-01", "2026-03-02", "2026-02-28", "2024-02-29", "2026-02-29", "2026-02-30", "0000-01-01",
                "9999-12-31", "2026-13-01", "2026-03-0x"};
        String[] times = {"T00:00:00", "T23:59:59", "T12:30:00.120", "t01:02:03.000000001", "T24:00:00", "T12:60:00", "T12:00:60", ""};
        String[] offsets = {"Z", "z", "+00:00", "+01:00", "-01:00", "+23:59", "-23:59", "+24:00", "", "+0100"};
        Timestamps reused = new Timestamps();
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 100_000; i++) {
            String text = days[random.nextInt(random.nextInt(4) == 0 ? days.length : 3)] + times[random.nextInt(times.length)]
                    + offsets[random.nextInt(offsets.length)];
            ByteSink out = new ByteSink(8);
            out.write('x'); // a value already in the row: the timestamp is appended after it
            ReasonCode reason = reused.writeCanonicalTimestamp(utf8(text), 0, utf8(text).length, out);
            String got = reason != null ? reason.name() : new String(out.bytes, 1, out.size - 1, StandardCharsets.US_ASCII);
            assertEquals(canonical(text), got, text);
        }
    }

    @Test
    void writeCanonicalTimestamp_outsideTheTablesMicrosecondRange_isRefused() {
        assertEquals("\"0001-01-01T00:00:00Z\"", canonical("0001-01-01T00:00:00Z"));
        assertEquals("TIMESTAMP_INVALID", canonical("0000-12-31T23:59:59Z"));
        assertEquals("\"0001-01-01T00:30:00Z\"", canonical("0000-12-31T23:30:00-01:00"), "UTC decides the year");
        assertEquals("TIMESTAMP_INVALID", canonical("9999-12-31T23:30:00-01:00"));
        assertEquals("\"9999-12-31T23:59:59.999999Z\"", canonical("9999-12-31T23:59:59.999999Z"));
        assertEquals("\"2026-03-02T14:02:11.123456Z\"", canonical("2026-03-02T14:02:11.123456000Z"),
                "zeros are no digits");
        assertEquals("TIMESTAMP_PRECISION", canonical("2026-03-02T14:02:11.1234567Z"));
        assertEquals("TIMESTAMP_PRECISION", canonical("2026-03-02T14:02:11.000000001+05:30"));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
