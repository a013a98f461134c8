package io.landingledger.core.validate;

/**
 * RFC 3339 timestamps and ISO dates, read as ASCII bytes, without {@code java.time} on the hot path ({@code OffsetDateTime.parse} costs
 * about 1.9 us a line here, docs/performance.md). A timestamp is {@code YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)};
 * {@code t} and {@code z} may be lower case, as RFC 3339 allows. It is published in UTC as
 * {@code YYYY-MM-DDTHH:MM:SS[.fraction]Z}, the text depending only on the instant (see {@link #putFraction}).
 * A leap second ({@code :60}) is rejected: no downstream engine here can hold it. So is an instant outside the years
 * 0001 to 9999 in UTC, and a fraction finer than a microsecond (a non-zero digit after the sixth): the table's
 * {@code timestamptz} holds microseconds, and the published row and the table must hold the same instant.
 *
 * <p>An instance remembers the last dates it converted, so it belongs to one validation (not thread-safe).
 */
final class Timestamps {
    private static final int MAX_FRACTION_DIGITS = 9;
    /** The table's {@code timestamptz} (Iceberg v2, Parquet INT64 micros) holds six fraction digits. */
    private static final int MICROSECOND_DIGITS = 6;

    // A file's timestamps fall on a few days, so both date conversions are usually one comparison: the last valid
    // local date read (its ten bytes as a long and a short) with its epoch day, and the last UTC day written.
    private long localDateHead;
    private short localDateTail;
    private long localEpochDay = Long.MIN_VALUE;
    private long utcDay = Long.MIN_VALUE;
    private final byte[] utcDate = new byte[10];

    /** Parses a timestamp and writes its canonical JSON string; returns null, or the reason it was rejected. */
    ReasonCode writeCanonicalTimestamp(byte[] c, int off, int len, ByteSink out) {
        // Date part.
        if (len < 10) {
            return ReasonCode.TIMESTAMP_INVALID;
        }
        long head = (long) Swar.LONGS.get(c, off);
        short tail = (short) Swar.SHORTS.get(c, off + 8);
        long epochDay;
        if (head == localDateHead && tail == localDateTail && localEpochDay != Long.MIN_VALUE) {
            epochDay = localEpochDay;
        } else {
            int year = digits(c, off, 4);
            int month = c[off + 4] == '-' ? digits(c, off + 5, 2) : -1;
            int day = c[off + 7] == '-' ? digits(c, off + 8, 2) : -1;
            if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
                return ReasonCode.TIMESTAMP_INVALID;
            }
            epochDay = epochDay(year, month, day);
            localDateHead = head;
            localDateTail = tail;
            localEpochDay = epochDay;
        }
        if (len == 10) {
            return ReasonCode.TIMESTAMP_NO_OFFSET; // a date alone names no instant
        }
        byte t = c[off + 10];
        if ((t != 'T' && t != 't') || len < 19) {
            return ReasonCode.TIMESTAMP_INVALID;
        }
        int hour = digits(c, off + 11, 2);
        int minute = c[off + 13] == ':' ? digits(c, off + 14, 2) : -1;
        int second = c[off + 16] == ':' ? digits(c, off + 17, 2) : -1;
        if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
            return ReasonCode.TIMESTAMP_INVALID;
        }
        int pos = off + 19;
        int end = off + len;
        int fractionStart = -1;
        int fractionLength = 0;
        if (pos < end && c[pos] == '.') {
            fractionStart = ++pos;
            while (pos < end && c[pos] >= '0' && c[pos] <= '9') {
                pos++;
            }
            fractionLength = pos - fractionStart;
            if (fractionLength == 0 || fractionLength > MAX_FRACTION_DIGITS) {
                return ReasonCode.TIMESTAMP_INVALID;
            }
            for (int i = fractionStart + MICROSECOND_DIGITS; i < pos; i++) {
                if (c[i] != '0') {
                    return ReasonCode.TIMESTAMP_PRECISION; // the table's timestamptz would truncate it
                }
            }
        }
        if (pos == end) {
            return ReasonCode.TIMESTAMP_NO_OFFSET;
        }
        int offsetSeconds;
        byte sign = c[pos];
        if ((sign == 'Z' || sign == 'z') && pos + 1 == end) {
            offsetSeconds = 0;
        } else if ((sign == '+' || sign == '-') && pos + 6 == end && c[pos + 3] == ':') {
            int oh = digits(c, pos + 1, 2);
            int om = digits(c, pos + 4, 2);
            if (oh < 0 || oh > 23 || om < 0 || om > 59) {
                return ReasonCode.TIMESTAMP_INVALID;
            }
            offsetSeconds = (oh * 3600 + om * 60) * (sign == '-' ? -1 : 1);
        } else {
            return ReasonCode.TIMESTAMP_INVALID;
        }

        // the local second of the day less the offset is within a day either side of the local day
        int secondOfDay = hour * 3600 + minute * 60 + second - offsetSeconds;
        long day = epochDay;
        if (secondOfDay < 0) {
            secondOfDay += 86_400;
            day--;
        } else if (secondOfDay >= 86_400) {
            secondOfDay -= 86_400;
            day++;
        }
        if (day != utcDay && !rememberUtcDate(day)) {
            return ReasonCode.TIMESTAMP_INVALID;
        }
        // at most "YYYY-MM-DDTHH:MM:SS.fffffffffZ" and its quotes: one capacity check, then plain stores
        out.ensure(32);
        byte[] o = out.bytes;
        int p = out.size;
        o[p++] = '"';
        System.arraycopy(utcDate, 0, o, p, utcDate.length);
        p += utcDate.length;
        o[p++] = 'T';
        p = putDigits(o, p, secondOfDay / 3600, 2);
        o[p++] = ':';
        p = putDigits(o, p, secondOfDay / 60 % 60, 2);
        o[p++] = ':';
        p = putDigits(o, p, secondOfDay % 60, 2);
        if (fractionStart >= 0) {
            p = putFraction(c, fractionStart, fractionLength, o, p);
        }
        o[p++] = 'Z';
        o[p++] = '"';
        out.size = p;
        return null;
    }

    /** Makes {@code day} the remembered UTC day and writes its date; false when its year has no four digits. */
    private boolean rememberUtcDate(long day) {
        int[] ymd = civil(day);
        if (ymd[0] < 1 || ymd[0] > 9999) {
            return false; // outside the table's timestamptz years (an offset may move a day across 0001 or 9999)
        }
        int p = putDigits(utcDate, 0, ymd[0], 4);
        utcDate[p++] = '-';
        p = putDigits(utcDate, p, ymd[1], 2);
        utcDate[p++] = '-';
        putDigits(utcDate, p, ymd[2], 2);
        utcDay = day;
        return true;
    }

    private static int putDigits(byte[] o, int p, int value, int width) {
        for (int i = p + width - 1; i >= p; i--) {
            o[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        return p + width;
    }

    /**
     * Writes a second's fraction as {@code java.time.Instant#toString} does: in groups of three digits (milli, micro,
     * nanoseconds), as few groups as the value needs, and nothing when it is zero. {@code .12}, {@code .120} and
     * {@code .120000} are the same instant and must be the same payload (else a re-sent row is a KEY_CONFLICT),
     * so the text cannot keep the digits given. Groups of three rather than trailing zeros trimmed: the common
     * millisecond and microsecond producers see their own text back ({@code .120} stays {@code .120}, not
     * {@code .12}), and it is what JVM consumers print for an Instant.
     */
    private static int putFraction(byte[] c, int start, int length, byte[] o, int p) {
        int significant = length;
        while (significant > 0 && c[start + significant - 1] == '0') {
            significant--;
        }
        if (significant == 0) {
            return p;
        }
        o[p++] = '.';
        int printed = (significant + 2) / 3 * 3;
        for (int i = 0; i < printed; i++) {
            o[p++] = (byte) (i < significant ? c[start + i] : '0');
        }
        return p;
    }

    /** Checks a {@code YYYY-MM-DD} calendar date and writes it as a JSON string; returns null or the reason. */
    static ReasonCode writeCanonicalDate(byte[] c, int off, int len, ByteSink out) {
        if (len != 10 || c[off + 4] != '-' || c[off + 7] != '-') {
            return ReasonCode.DATE_INVALID;
        }
        int year = digits(c, off, 4);
        int month = digits(c, off + 5, 2);
        int day = digits(c, off + 8, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
            return ReasonCode.DATE_INVALID;
        }
        out.write('"');
        for (int i = off; i < off + 10; i++) {
            out.write(c[i]);
        }
        out.write('"');
        return null;
    }

    private static int digits(byte[] c, int off, int count) {
        int value = 0;
        for (int i = off; i < off + count; i++) {
            int d = c[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            value = value * 10 + d;
        }
        return value;
    }

    static int daysInMonth(int year, int month) {
        return switch (month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
    static long epochDay(int year, int month, int day) {
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        long doy = (153L * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146_097 + doe - 719_468;
    }

    /** The inverse of {@link #epochDay}: {year, month, day}. */
    static int[] civil(long epochDay) {
        long z = epochDay + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long doe = z - era * 146_097;
        long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        long mp = (5 * doy + 2) / 153;
        int day = (int) (doy - (153 * mp + 2) / 5 + 1);
        int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
        return new int[] {(int) year, month, day};
    }
}
