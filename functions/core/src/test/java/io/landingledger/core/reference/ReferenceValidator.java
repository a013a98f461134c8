package io.landingledger.core.reference;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * What the contract says of one stored file (docs/design.md sections 3 and 5, the contract's text), computed the slow
 * and obvious way: inflate if gzip, split on LF, judge each non-blank line on its own, then the file.
 * <ul>
 *   <li>A line is rejected, with one reason and the field it concerns, when it is not a JSON object, repeats a name,
 *       names a field the contract does not know, lacks a required field, holds null where null is not allowed, or a
 *       value of the wrong type, outside its enum, range or length, or a timestamp without an offset or not a real
 *       instant.</li>
 *   <li>An accepted line becomes its canonical row: every contract field in name order, compact JSON, absent optional
 *       fields as null, timestamps in UTC to the second with {@code Z}. A second row with the same key and the same
 *       canonical bytes is a duplicate (counted, not written).</li>
 *   <li>The file is refused, and nothing of it published, when any line names a prohibited field at any depth in any
 *       letter case, when two rows share a key with different canonical bytes, or when more lines were rejected than
 *       the contract allows. An accepted file with no row is published empty.</li>
 * </ul>
 */
public final class ReferenceValidator {
    private static final DateTimeFormatter UTC_SECONDS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'", Locale.ROOT);
    private static final Pattern TIMESTAMP = Pattern.compile(
            "(\\d{4}-\\d{2}-\\d{2})[Tt](\\d{2}:\\d{2}:\\d{2})(Z|z|[+-]\\d{2}:\\d{2})?");
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

    private ReferenceValidator() {
    }

    /** One rejected line as the quarantine lists it. */
    public record Reject(int line, String reason, String field) {
    }

    /**
     * The verdict on a file.
     *
     * @param refusals the refusal codes that apply (empty: the file publishes); when several apply, any may be named
     * @param rows     the published bytes: canonical rows, LF-terminated, in input order
     */
    public record Verdict(TreeSet<String> refusals, byte[] rows, int accepted, int rejected, int duplicates,
                          List<Reject> rejects) {
        public boolean publishable() {
            return refusals.isEmpty();
        }

        /** The quarantine's bytes: one {@code {"line":n,"reason":r,"field":f}} per rejected line. */
        public byte[] quarantine() {
            StringBuilder out = new StringBuilder();
            for (Reject r : rejects) {
                out.append("{\"line\":").append(r.line()).append(",\"reason\":\"").append(r.reason()).append('"');
                if (r.field() != null) {
                    out.append(",\"field\":\"").append(r.field()).append('"');
                }
                out.append("}\n");
            }
            return out.toString().getBytes(StandardCharsets.UTF_8);
        }
    }

    /** Judges {@code stored} (the bytes as stored) under {@code contract}. */
    public static Verdict judge(ReferenceContract contract, byte[] stored) {
        String text = new String(inflated(stored), StandardCharsets.UTF_8);
        String[] lines = text.split("\n", -1);
        int count = text.endsWith("\n") ? lines.length - 1 : lines.length;
        TreeSet<String> refusals = new TreeSet<>();
        StringBuilder rows = new StringBuilder();
        List<Reject> rejects = new ArrayList<>();
        Map<String, String> rowOfKey = new HashMap<>();
        int accepted = 0;
        int duplicates = 0;
        for (int i = 0; i < count; i++) {
            String line = lines[i];
            if (line.isBlank()) {
                continue;
            }
            Object value;
            try {
                value = ReferenceJson.parse(line);
            } catch (ReferenceJson.Malformed e) {
                rejects.add(new Reject(i + 1, "INVALID_JSON", null));
                continue;
            } catch (ReferenceJson.RepeatedName e) {
                rejects.add(new Reject(i + 1, "DUPLICATE_FIELD", e.name));
                continue;
            }
            if (ReferenceJson.allNames(value).stream()
                    .anyMatch(n -> contract.prohibited().contains(n.toLowerCase(Locale.ROOT)))) {
                refusals.add("PROHIBITED_FIELD");
                continue;
            }
            if (!(value instanceof Map<?, ?> object)) {
                rejects.add(new Reject(i + 1, "NOT_AN_OBJECT", null));
                continue;
            }
            String[] row = new String[1];
            Reject reject = judgeLine(contract, object, i + 1, row);
            if (reject != null) {
                rejects.add(reject);
                continue;
            }
            String key = String.valueOf(object.get(contract.key()));
            String before = rowOfKey.putIfAbsent(key, row[0]);
            if (before == null) {
                accepted++;
                rows.append(row[0]).append('\n');
            } else if (before.equals(row[0])) {
                duplicates++;
            } else {
                refusals.add("KEY_CONFLICT");
            }
        }
        if (rejects.size() > contract.maxRejected()) {
            refusals.add("REJECT_CAP");
        }
        byte[] published = rows.toString().getBytes(StandardCharsets.UTF_8);
        return new Verdict(refusals, published, accepted, rejects.size(), duplicates, rejects);
    }

    /** The line's reject, or null with its canonical row in {@code row[0]}. */
    private static Reject judgeLine(ReferenceContract contract, Map<?, ?> object, int line, String[] row) {
        for (Object name : object.keySet()) {
            if (!contract.fields().containsKey((String) name)) {
                return new Reject(line, "UNKNOWN_FIELD", null);
            }
        }
        StringBuilder out = new StringBuilder("{");
        for (Map.Entry<String, ReferenceContract.Field> e : contract.fields().entrySet()) {
            String name = e.getKey();
            ReferenceContract.Field field = e.getValue();
            Object value = object.get(name);
            String canonical;
            if (value == null) {
                if (field.required()) {
                    return new Reject(line, "MISSING_FIELD", name);
                }
                canonical = "null";
            } else if (value == ReferenceJson.NULL) {
                if (!field.nullable()) {
                    return new Reject(line, "NULL_NOT_ALLOWED", name);
                }
                canonical = "null";
            } else {
                String[] reason = new String[1];
                canonical = canonicalValue(field, value, reason);
                if (canonical == null) {
                    return new Reject(line, reason[0], name);
                }
            }
            out.append(out.length() == 1 ? "" : ",").append('"').append(name).append("\":").append(canonical);
        }
        row[0] = out.append('}').toString();
        return null;
    }

    private static String canonicalValue(ReferenceContract.Field field, Object value, String[] reason) {
        switch (field.type()) {
            case STRING -> {
                if (!(value instanceof String s)) {
                    reason[0] = "TYPE_MISMATCH";
                    return null;
                }
                if (!field.values().isEmpty() && !field.values().contains(s)) {
                    reason[0] = "ENUM_MISMATCH";
                    return null;
                }
                if (s.codePointCount(0, s.length()) < field.minLength()) {
                    reason[0] = "STRING_LENGTH";
                    return null;
                }
                return quoted(s);
            }
            case INTEGER -> {
                if (!(value instanceof ReferenceJson.Num n) || !n.integral()) {
                    reason[0] = "TYPE_MISMATCH";
                    return null;
                }
                long v;
                try {
                    v = Long.parseLong(n.text());
                } catch (NumberFormatException e) {
                    reason[0] = "NUMBER_OVERFLOW";
                    return null;
                }
                if (field.min() != null && v < field.min()) {
                    reason[0] = "OUT_OF_RANGE";
                    return null;
                }
                return Long.toString(v);
            }
            case TIMESTAMP -> {
                if (!(value instanceof String s)) {
                    reason[0] = "TYPE_MISMATCH";
                    return null;
                }
                return timestamp(s, reason);
            }
            default -> throw new IllegalStateException("not modelled: " + field.type());
        }
    }

    private static String timestamp(String s, String[] reason) {
        Matcher m = TIMESTAMP.matcher(s);
        if (!m.matches()) {
            reason[0] = DATE.matcher(s).matches() ? "TIMESTAMP_NO_OFFSET" : "TIMESTAMP_INVALID";
            return null;
        }
        if (m.group(3) == null) {
            reason[0] = "TIMESTAMP_NO_OFFSET";
            return null;
        }
        try {
            LocalDate.parse(m.group(1)); // a real calendar day
            String offset = m.group(3).equalsIgnoreCase("z") ? "Z" : m.group(3);
            OffsetDateTime t = OffsetDateTime.parse(m.group(1) + "T" + m.group(2) + offset);
            return quoted(t.withOffsetSameInstant(ZoneOffset.UTC).format(UTC_SECONDS));
        } catch (DateTimeParseException e) {
            reason[0] = "TIMESTAMP_INVALID";
            return null;
        }
    }

    private static String quoted(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    private static byte[] inflated(byte[] stored) {
        if (stored.length < 2 || (stored[0] & 0xff) != 0x1f || (stored[1] & 0xff) != 0x8b) {
            return stored;
        }
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(stored))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("the reference models no unreadable gzip", e);
        }
    }
}
