package io.landingledger.tools.bench;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes a {@link ProgressEvent} as one JSON line into a reused byte buffer, the way its producer would: the
 * producer's key order and separators, the instant in the producer's offset. With a {@link Fault} the line breaks
 * one contract rule so that the validator rejects it (never a rule that refuses the whole file).
 */
final class ProgressEventWriter {
    /** Ways a generated line is malformed; each one makes the validator reject the line with a reason code. */
    enum Fault {
        /** Cut short, as by a producer that died mid-write: INVALID_JSON. */
        TRUNCATED,
        /** {@code "attempt_number": "2"}: TYPE_MISMATCH. */
        ATTEMPT_AS_STRING,
        /** {@code "attempt_number": true}: TYPE_MISMATCH. */
        ATTEMPT_AS_BOOLEAN,
        /** {@code "attempt_number": 0}, below the minimum: OUT_OF_RANGE. */
        ATTEMPT_ZERO,
        /** A local time with no offset: TIMESTAMP_NO_OFFSET. */
        NAIVE_TIME,
        /** An event type the contract does not list: ENUM_MISMATCH. */
        UNKNOWN_EVENT_TYPE,
        /** No learner_id: MISSING_FIELD. */
        MISSING_LEARNER,
        /** A field the contract does not name: UNKNOWN_FIELD. */
        EXTRA_FIELD
    }

    static final int EVENT_ID = 0;
    static final int LEARNER_ID = 1;
    static final int LESSON_ID = 2;
    static final int EVENT_TYPE = 3;
    static final int ATTEMPT_NUMBER = 4;
    static final int EVENT_TIME = 5;
    static final int CHECKPOINT = 6;

    private static final byte[][] NAMES = names("event_id", "learner_id", "lesson_id", "event_type", "attempt_number",
            "event_time", "checkpoint");

    /**
     * Key orders producers use: 0 the web client's (contract order), 1 sorted (a backend using sort_keys),
     * 2 the mobile SDK's, 3 reversed (only ever seen in retries through another encoder).
     */
    static final int[][] KEY_ORDERS = {
            {EVENT_ID, LEARNER_ID, LESSON_ID, EVENT_TYPE, ATTEMPT_NUMBER, EVENT_TIME, CHECKPOINT},
            {ATTEMPT_NUMBER, CHECKPOINT, EVENT_ID, EVENT_TIME, EVENT_TYPE, LEARNER_ID, LESSON_ID},
            {EVENT_TIME, EVENT_TYPE, EVENT_ID, LEARNER_ID, LESSON_ID, ATTEMPT_NUMBER, CHECKPOINT},
            {CHECKPOINT, EVENT_TIME, ATTEMPT_NUMBER, EVENT_TYPE, LESSON_ID, LEARNER_ID, EVENT_ID},
    };

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final int[] POWERS_OF_TEN = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000};

    byte[] bytes = new byte[512];
    int size;

    /** Replaces the buffer's content with the event's line (newline included). */
    void write(ProgressEvent e, Fault fault) {
        size = 0;
        byte comma = ',';
        put('{');
        boolean first = true;
        for (int field : KEY_ORDERS[e.keyOrder]) {
            if (field == CHECKPOINT && e.checkpoint == ProgressEvent.NO_CHECKPOINT && e.checkpointAbsent) {
                continue;
            }
            if (field == LEARNER_ID && fault == Fault.MISSING_LEARNER) {
                continue;
            }
            if (!first) {
                put(comma);
                if (!e.compact) {
                    put(' ');
                }
            }
            first = false;
            name(field, e.compact);
            value(e, field, fault);
        }
        if (fault == Fault.EXTRA_FIELD) {
            put(comma);
            if (!e.compact) {
                put(' ');
            }
            ascii(e.compact ? "\"client_build\":" : "\"client_build\": ");
            number(4000 + (e.idLow & 0xFFF));
        }
        put('}');
        if (fault == Fault.TRUNCATED) {
            size = size / 2 + (int) ((e.idLow >>> 40) % (size / 3));
        }
        put('\n');
    }

    private void name(int field, boolean compact) {
        byte[] n = NAMES[field];
        ensure(n.length + 2);
        System.arraycopy(n, 0, bytes, size, n.length);
        size += n.length;
        put(':');
        if (!compact) {
            put(' ');
        }
    }

    private void value(ProgressEvent e, int field, Fault fault) {
        switch (field) {
            case EVENT_ID -> {
                // 64 hex digits, like a SHA-256 content id: with it the average line is ~250 bytes, as on the peak day
                ascii("\"evt_");
                hex(e.idHigh);
                hex(e.idLow);
                hex(Long.rotateLeft(e.idHigh, 17) ^ e.idLow * 0x9E3779B97F4A7C15L);
                hex(Long.rotateLeft(e.idLow, 29) ^ e.idHigh * 0xC2B2AE3D27D4EB4FL);
                put('"');
            }
            case LEARNER_ID -> {
                ascii("\"lrn_");
                number(e.learner);
                put('"');
            }
            case LESSON_ID -> {
                ascii("\"les_");
                twoDigits(e.lesson);
                put('"');
            }
            case EVENT_TYPE -> ascii(fault == Fault.UNKNOWN_EVENT_TYPE ? "\"started\"" : e.completed ? "\"completed\"" : "\"checkpoint\"");
            case ATTEMPT_NUMBER -> {
                switch (fault) {
                    case ATTEMPT_AS_STRING -> {
                        put('"');
                        number(e.attempt);
                        put('"');
                    }
                    case ATTEMPT_AS_BOOLEAN -> ascii("true");
                    case ATTEMPT_ZERO -> put('0');
                    case null, default -> number(e.attempt);
                }
            }
            case EVENT_TIME -> timestamp(e, fault == Fault.NAIVE_TIME);
            case CHECKPOINT -> {
                if (e.checkpoint == ProgressEvent.NO_CHECKPOINT) {
                    ascii("null");
                } else {
                    number(e.checkpoint);
                }
            }
            default -> throw new IllegalArgumentException("no field " + field);
        }
    }

    /** RFC 3339 in the event's offset: {@code "2026-03-02T19:53:51.482917+05:30"}. */
    private void timestamp(ProgressEvent e, boolean naive) {
        int offsetSeconds = e.offsetMinutes == ProgressEvent.UTC_Z ? 0 : e.offsetMinutes * 60;
        long local = e.epochSecond + offsetSeconds;
        long days = Math.floorDiv(local, 86_400L);
        int secondOfDay = (int) Math.floorMod(local, 86_400L);
        // the generator is not the hot path: java.time's calendar, not a second copy of the validator's arithmetic
        java.time.LocalDate date = java.time.LocalDate.ofEpochDay(days);
        long year = date.getYear();
        int month = date.getMonthValue();
        int day = date.getDayOfMonth();
        put('"');
        number(year);
        put('-');
        twoDigits(month);
        put('-');
        twoDigits(day);
        put('T');
        twoDigits(secondOfDay / 3600);
        put(':');
        twoDigits(secondOfDay / 60 % 60);
        put(':');
        twoDigits(secondOfDay % 60);
        if (e.fractionDigits > 0) {
            put('.');
            padded(e.nanos / POWERS_OF_TEN[9 - e.fractionDigits], e.fractionDigits);
        }
        if (!naive) {
            if (e.offsetMinutes == ProgressEvent.UTC_Z) {
                put('Z');
            } else {
                int minutes = Math.abs(e.offsetMinutes);
                put(e.offsetMinutes < 0 ? '-' : '+');
                twoDigits(minutes / 60);
                put(':');
                twoDigits(minutes % 60);
            }
        }
        put('"');
    }

    private void hex(long v) {
        ensure(16);
        for (int shift = 60; shift >= 0; shift -= 4) {
            bytes[size++] = HEX[(int) (v >>> shift) & 0xF];
        }
    }

    private void number(long v) {
        if (v < 0) {
            put('-');
            v = -v;
        }
        int digits = 1;
        for (long t = v; t >= 10; t /= 10) {
            digits++;
        }
        padded(v, digits);
    }

    private void twoDigits(int v) {
        put('0' + v / 10);
        put('0' + v % 10);
    }

    private void padded(long v, int digits) {
        ensure(digits);
        for (int i = size + digits - 1; i >= size; i--) {
            bytes[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        size += digits;
    }

    private void ascii(String s) {
        ensure(s.length());
        for (int i = 0; i < s.length(); i++) {
            bytes[size++] = (byte) s.charAt(i);
        }
    }

    private void put(int b) {
        ensure(1);
        bytes[size++] = (byte) b;
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }

    private static byte[][] names(String... names) {
        byte[][] out = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            out[i] = ('"' + names[i] + '"').getBytes(StandardCharsets.US_ASCII);
        }
        return out;
    }
}
