package io.landingledger.core.validate;

/**
 * Why one line was rejected. A rejected line goes to quarantine as {line, reason, field} (never its content) and
 * counts toward the contract's {@code maxRejectedLines}.
 */
public enum ReasonCode {
    /** The line's bytes are not valid UTF-8 (including overlong forms and encoded surrogates). */
    INVALID_UTF8,
    /** A string escape names a lone UTF-16 surrogate ({@code "\ud800"}), which is not a character. */
    INVALID_UNICODE,
    /** Not parseable as JSON, or content follows the object on the same line. */
    INVALID_JSON,
    /** Valid JSON, but an array, string, number, boolean or null rather than an object. */
    NOT_AN_OBJECT,
    /** The same field appears twice in one object: parsers disagree on which wins, so neither does. */
    DUPLICATE_FIELD,
    /** A field the contract does not name (policy reject-line). */
    UNKNOWN_FIELD,
    /** A required field is absent (or an empty CSV cell for a required, non-nullable field). */
    MISSING_FIELD,
    /** {@code null} for a field that is not nullable. */
    NULL_NOT_ALLOWED,
    /** The value's JSON type is not the field's: a boolean or string for an integer, 3.0 for an integer, an object... */
    TYPE_MISMATCH,
    /** A string not among the field's enum values. */
    ENUM_MISMATCH,
    /** A number outside the field's min / max. */
    OUT_OF_RANGE,
    /** An integer outside the signed 64-bit range, a number too large to be finite, or a number of more than 1000 digits. */
    NUMBER_OVERFLOW,
    /**
     * A number with more digits after the point than its exact decimal field's scale (trailing zeros do not count):
     * the table would have to round it.
     */
    DECIMAL_SCALE,
    /** A number with more digits before the point than its exact decimal field's precision less its scale. */
    DECIMAL_PRECISION,
    /** A string shorter than minLength or longer than maxLength. */
    STRING_LENGTH,
    /** A timestamp without an offset (naive local time), or a date where a timestamp is required. */
    TIMESTAMP_NO_OFFSET,
    /**
     * A timestamp that is not RFC 3339 or names no real instant (month 13, a leap second), or whose instant falls
     * outside the years 0001 to 9999 in UTC (the table's {@code timestamptz} range).
     */
    TIMESTAMP_INVALID,
    /**
     * A timestamp finer than a microsecond (a non-zero seventh to ninth fraction digit): the table's
     * {@code timestamptz} holds microseconds, and would have to truncate it.
     */
    TIMESTAMP_PRECISION,
    /** A date that is not {@code YYYY-MM-DD} or not a real calendar day. */
    DATE_INVALID,
    /** The line is longer than {@code maxLineBytes}; it was skipped without being buffered. */
    LINE_TOO_LONG,
    /** Objects or arrays nested deeper than {@code maxNestingDepth}. */
    NESTING_TOO_DEEP,
    /** A CSV record with fewer or more cells than the header. */
    CSV_COLUMN_COUNT,
    /** A CSV record with broken quoting (a quote inside an unquoted cell, text after a closing quote). */
    CSV_MALFORMED
}
