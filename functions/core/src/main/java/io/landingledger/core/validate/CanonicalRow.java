package io.landingledger.core.validate;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.FieldSpec;
import io.landingledger.core.contract.FieldType;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Builds one published row in canonical form: every contract field, sorted by name, compact JSON, absent optional
 * fields as {@code null}. Values are checked against their field as they are put, and written straight into a
 * reused buffer, so no tree or string map is built per line. Two lines that mean the same thing (another key
 * order, other whitespace, the same instant with another offset) produce the same bytes.
 */
final class CanonicalRow {
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);

    final FieldSpec[] fields;
    /** Per field, what precedes its value in a row: {@code {"name":} for the first, {@code ,"name":} after. */
    private final byte[][] prefixes;
    /** Per field, its prefix and {@code null}: what the row holds for an absent optional field. */
    private final byte[][] absent;
    private final char[][][] enumChars;
    private final byte[][][] enumUtf8;
    /** A decoded timestamp or date as the bytes Timestamps reads (any non-ASCII char becomes a byte it rejects). */
    private byte[] text = new byte[64];
    private final Timestamps timestamps = new Timestamps();
    private final int keyIndex;
    /** Integer bounds as longs, so the hot path compares primitives (clamped: a bound beyond int64 is no bound). */
    private final long[] minLong;
    private final long[] maxLong;

    /**
     * The current row's fields as they are put, each slot its prefix and canonical value, so that a row is
     * assembled with one copy a field.
     */
    private final ByteSink values = new ByteSink(1024);
    private final int[] slotStart;
    /** Where the value starts, after the slot's prefix. */
    private final int[] valueStart;
    private final int[] slotEnd;
    private final int[] slotStamp;
    private int stamp;

    CanonicalRow(DatasetContract contract) {
        List<FieldSpec> list = contract.fields();
        this.fields = list.toArray(new FieldSpec[0]);
        this.prefixes = new byte[fields.length][];
        this.enumChars = new char[fields.length][][];
        this.enumUtf8 = new byte[fields.length][][];
        for (int i = 0; i < fields.length; i++) {
            prefixes[i] = ((i == 0 ? "{\"" : ",\"") + fields[i].name() + "\":").getBytes(StandardCharsets.UTF_8);
            List<String> enums = fields[i].enumValues();
            enumChars[i] = enums.stream().map(String::toCharArray).toArray(char[][]::new);
            enumUtf8[i] = enums.stream().map(e -> e.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
        }
        this.absent = new byte[fields.length][];
        for (int i = 0; i < fields.length; i++) {
            absent[i] = java.util.Arrays.copyOf(prefixes[i], prefixes[i].length + NULL.length);
            System.arraycopy(NULL, 0, absent[i], prefixes[i].length, NULL.length);
        }
        this.keyIndex = contract.keyIndex();
        this.minLong = new long[fields.length];
        this.maxLong = new long[fields.length];
        for (int i = 0; i < fields.length; i++) {
            // Only integer fields use the long bounds (their bounds are whole numbers, ContractLoader checks). A number
            // field's bound may be fractional (-100.5), which longValueExact would throw on; putNumber compares it exactly.
            boolean integer = fields[i].type() == FieldType.INTEGER;
            minLong[i] = integer ? clamp(fields[i].min(), Long.MIN_VALUE) : Long.MIN_VALUE;
            maxLong[i] = integer ? clamp(fields[i].max(), Long.MAX_VALUE) : Long.MAX_VALUE;
        }
        this.slotStart = new int[fields.length];
        this.valueStart = new int[fields.length];
        this.slotEnd = new int[fields.length];
        this.slotStamp = new int[fields.length];
    }

    private static long clamp(BigDecimal bound, long none) {
        if (bound == null) {
            return none;
        }
        if (bound.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) <= 0) {
            return Long.MIN_VALUE;
        }
        if (bound.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) >= 0) {
            return Long.MAX_VALUE;
        }
        return bound.longValueExact();
    }

    void begin() {
        values.reset();
        if (++stamp == 0) {
            java.util.Arrays.fill(slotStamp, 0);
            stamp = 1;
        }
    }

    /** True when the field already has a value in this row (a duplicate field). */
    boolean has(int field) {
        return slotStamp[field] == stamp;
    }

    private void open(int field) {
        slotStart[field] = values.size;
        values.write(prefixes[field]);
        valueStart[field] = values.size;
    }

    private void close(int field) {
        slotEnd[field] = values.size;
        slotStamp[field] = stamp;
    }

    private ReasonCode abandon(int field, ReasonCode reason) {
        values.size = slotStart[field];
        return reason;
    }

    ReasonCode putNull(int field) {
        if (!fields[field].nullable()) {
            return ReasonCode.NULL_NOT_ALLOWED;
        }
        open(field);
        values.write(NULL);
        close(field);
        return null;
    }

    ReasonCode putBoolean(int field, boolean value) {
        if (fields[field].type() != FieldType.BOOLEAN) {
            return ReasonCode.TYPE_MISMATCH;
        }
        open(field);
        values.write(value ? TRUE : FALSE);
        close(field);
        return null;
    }

    ReasonCode putInteger(int field, long value) {
        FieldSpec spec = fields[field];
        if (spec.type() == FieldType.NUMBER) {
            return putNumber(field, BigDecimal.valueOf(value));
        }
        if (spec.type() != FieldType.INTEGER) {
            return ReasonCode.TYPE_MISMATCH;
        }
        if (value < minLong[field] || value > maxLong[field]) {
            return ReasonCode.OUT_OF_RANGE;
        }
        open(field);
        values.writeLong(value);
        close(field);
        return null;
    }

    /** A decimal number (only for number fields). Canonical: every significant digit, no trailing zeros. */
    ReasonCode putNumber(int field, BigDecimal value) {
        FieldSpec spec = fields[field];
        if (spec.type() != FieldType.NUMBER) {
            return ReasonCode.TYPE_MISMATCH;
        }
        if (Double.isInfinite(value.doubleValue())) {
            return ReasonCode.NUMBER_OVERFLOW;
        }
        if ((spec.min() != null && value.compareTo(spec.min()) < 0) || (spec.max() != null && value.compareTo(spec.max()) > 0)) {
            return ReasonCode.OUT_OF_RANGE;
        }
        BigDecimal canonical = value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
        if (spec.decimal() && canonical.signum() != 0) {
            // exact decimal(p, s): the table holds it unrounded or not at all (precision() is linear in the digits)
            if (canonical.scale() > spec.scale()) {
                return ReasonCode.DECIMAL_SCALE;
            }
            if (canonical.precision() - canonical.scale() > spec.precision() - spec.scale()) {
                return ReasonCode.DECIMAL_PRECISION;
            }
        }
        // Plain digits while they stay readable; otherwise exponent form, which JSON also allows.
        int exponent = canonical.precision() - canonical.scale() - 1;
        String text = exponent >= -7 && exponent < 21 ? canonical.toPlainString() : canonical.toString().replace("E+", "e+").replace("E-", "e-");
        open(field);
        values.writeAscii(text);
        close(field);
        return null;
    }

    /** Text for a string, timestamp or date field. */
    ReasonCode putText(int field, char[] c, int off, int len) {
        FieldSpec spec = fields[field];
        if (spec.type() != FieldType.STRING) {
            return putTemporal(field, spec, ascii(c, off, len), 0, len);
        }
        open(field);
        ReasonCode reason = stringValue(field, spec, c, off, len);
        if (reason != null) {
            return abandon(field, reason);
        }
        close(field);
        return null;
    }

    /** A timestamp or date field's text (its ASCII bytes); any other type is a mismatch for text. */
    private ReasonCode putTemporal(int field, FieldSpec spec, byte[] b, int off, int len) {
        open(field);
        ReasonCode reason = switch (spec.type()) {
            case TIMESTAMP -> timestamps.writeCanonicalTimestamp(b, off, len, values);
            case DATE -> Timestamps.writeCanonicalDate(b, off, len, values);
            default -> ReasonCode.TYPE_MISMATCH;
        };
        if (reason != null) {
            return abandon(field, reason);
        }
        close(field);
        return null;
    }

    /**
     * Text for a string, timestamp or date field, given as the UTF-8 bytes of a JSON string that has no escapes and
     * no control characters. Such bytes are already the canonical string's content (RFC 8785 escapes nothing else),
     * so a string field copies them as they are; timestamps and dates are decoded and parsed.
     */
    ReasonCode putUtf8(int field, byte[] b, int off, int len) {
        FieldSpec spec = fields[field];
        if (spec.type() != FieldType.STRING) {
            return putTemporal(field, spec, b, off, len);
        }
        byte[][] allowed = enumUtf8[field];
        if (allowed.length > 0 && !oneOf(allowed, b, off, len)) {
            return ReasonCode.ENUM_MISMATCH;
        }
        // a code point is 1 to 4 bytes, so the byte length alone often settles both bounds
        boolean minimumMet = (len + 3) / 4 >= spec.minLength();
        boolean maximumMet = spec.maxLength() < 0 || len <= spec.maxLength();
        if (!minimumMet || !maximumMet) {
            int length = 0;
            for (int i = off; i < off + len; i++) {
                if ((b[i] & 0xC0) != 0x80) {
                    length++; // a code point starts at every byte that is not a continuation byte
                }
            }
            if (length < spec.minLength() || (spec.maxLength() >= 0 && length > spec.maxLength())) {
                return ReasonCode.STRING_LENGTH;
            }
        }
        open(field);
        values.writeQuoted(b, off, len);
        close(field);
        return null;
    }

    private static boolean oneOf(byte[][] allowed, byte[] b, int off, int len) {
        for (byte[] candidate : allowed) {
            if (candidate.length == len && java.util.Arrays.equals(candidate, 0, len, b, off, off + len)) {
                return true;
            }
        }
        return false;
    }

    private byte[] ascii(char[] c, int off, int len) {
        if (text.length < len) {
            text = new byte[Math.max(len, text.length * 2)];
        }
        for (int i = 0; i < len; i++) {
            char ch = c[off + i];
            text[i] = ch < 0x80 ? (byte) ch : (byte) 0x80;
        }
        return text;
    }

    private ReasonCode stringValue(int field, FieldSpec spec, char[] c, int off, int len) {
        char[][] allowed = enumChars[field];
        if (allowed.length > 0 && !oneOf(allowed, c, off, len)) {
            return ReasonCode.ENUM_MISMATCH;
        }
        if (spec.minLength() > 0 || spec.maxLength() >= 0) {
            int length = Character.codePointCount(c, off, len);
            if (length < spec.minLength() || (spec.maxLength() >= 0 && length > spec.maxLength())) {
                return ReasonCode.STRING_LENGTH;
            }
        }
        return values.writeJsonString(c, off, len) ? null : ReasonCode.INVALID_UNICODE;
    }

    private static boolean oneOf(char[][] allowed, char[] c, int off, int len) {
        for (char[] candidate : allowed) {
            if (candidate.length == len && java.util.Arrays.equals(candidate, 0, len, c, off, off + len)) {
                return true;
            }
        }
        return false;
    }

    /** The first required field missing from the row, or -1. Absent optional fields become null. */
    int firstMissingRequired() {
        for (int i = 0; i < fields.length; i++) {
            if (slotStamp[i] != stamp && fields[i].required()) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Appends the row (fields in contract order, with its newline) to {@code out}, straight into the output buffer
     * so that an accepted row is copied once; the caller takes it back (resets the size) when the row is not new.
     * Call after {@link #firstMissingRequired()} is -1.
     */
    void appendTo(ByteSink out) {
        // one capacity check for the whole row: every slot as put, an absent one as its prefix and null, and "}\n"
        out.ensure(values.size + absentBytes() + 2);
        byte[] o = out.bytes;
        byte[] v = values.bytes;
        int pos = out.size;
        for (int i = 0; i < fields.length; i++) {
            if (slotStamp[i] == stamp) {
                int length = slotEnd[i] - slotStart[i];
                System.arraycopy(v, slotStart[i], o, pos, length);
                pos += length;
            } else {
                System.arraycopy(absent[i], 0, o, pos, absent[i].length);
                pos += absent[i].length;
            }
        }
        o[pos++] = '}';
        o[pos++] = '\n';
        out.size = pos;
    }

    private int absentBytes() {
        int bytes = 0;
        for (int i = 0; i < fields.length; i++) {
            if (slotStamp[i] != stamp) {
                bytes += absent[i].length;
            }
        }
        return bytes;
    }

    /** The key's canonical value bytes live in {@code keyBytes()[keyStart() .. keyEnd())}. */
    byte[] keyBytes() {
        return values.bytes;
    }

    int keyStart() {
        return valueStart[keyIndex];
    }

    int keyEnd() {
        return slotEnd[keyIndex];
    }
}
