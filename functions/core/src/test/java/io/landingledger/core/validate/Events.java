package io.landingledger.core.validate;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * progress_events lines for tests: a valid event whose fields can be replaced, removed or added as raw JSON. Public
 * for the function-level tests (HostileFilesIT), which plant the same hostile lines in files on the emulators.
 */
public final class Events {
    private Events() {
    }

    /** A valid event with this event_id. */
    public static Event event(String id) {
        return new Event()
                .raw("event_id", quote(id))
                .raw("learner_id", "\"L1\"")
                .raw("lesson_id", "\"lesson-7\"")
                .raw("event_type", "\"checkpoint\"")
                .raw("attempt_number", "1")
                .raw("event_time", "\"2026-03-02T14:02:11Z\"")
                .raw("checkpoint", "3");
    }

    /** The canonical published form of {@code event(id)}: sorted keys, compact. */
    public static String canonical(String id) {
        return "{\"attempt_number\":1,\"checkpoint\":3,\"event_id\":" + quote(id)
                + ",\"event_time\":\"2026-03-02T14:02:11Z\",\"event_type\":\"checkpoint\",\"learner_id\":\"L1\",\"lesson_id\":\"lesson-7\"}";
    }

    /** {@code text} as a JSON string literal (only quote and backslash escaped: enough for test values). */
    public static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** Lines joined with LF, each terminated. */
    public static String lines(String... lines) {
        StringBuilder out = new StringBuilder();
        for (String line : lines) {
            out.append(line).append('\n');
        }
        return out.toString();
    }

    /** Byte arrays joined with LF, each terminated (for lines that are not valid UTF-8). */
    public static byte[] lines(byte[]... lines) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] line : lines) {
            out.writeBytes(line);
            out.write('\n');
        }
        return out.toByteArray();
    }

    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** One event being built; fields keep insertion order. */
    public static final class Event {
        private final Map<String, String> fields = new LinkedHashMap<>();

        /** Sets {@code field} to a raw JSON value ({@code "\"text\""}, {@code "3"}, {@code "null"}, {@code "{...}"}). */
        public Event raw(String field, String json) {
            fields.put(field, json);
            return this;
        }

        /** Sets {@code field} to a JSON string. */
        public Event text(String field, String value) {
            return raw(field, quote(value));
        }

        public Event without(String field) {
            fields.remove(field);
            return this;
        }

        /** The line, compact, keys in insertion order. */
        public String line() {
            StringJoiner joiner = new StringJoiner(",", "{", "}");
            fields.forEach((name, value) -> joiner.add(quote(name) + ":" + value));
            return joiner.toString();
        }

        public byte[] bytes() {
            return utf8(line());
        }

        @Override
        public String toString() {
            return line();
        }
    }
}
