package io.landingledger.core.contract;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** The value types a contract field can declare. */
public enum FieldType {
    /** A JSON string (CSV: the cell text). */
    STRING,
    /** A whole number in the signed 64-bit range: JSON {@code 3}, never {@code 3.0}, {@code "3"} or {@code true}. */
    INTEGER,
    /** A finite decimal number; published with every significant digit given and trailing zeros dropped. */
    NUMBER,
    /** JSON {@code true} / {@code false} (CSV: the words true and false). */
    BOOLEAN,
    /** An RFC 3339 date-time with an offset, published as UTC {@code ...Z} keeping the sub-second digits given. */
    TIMESTAMP,
    /** A calendar date {@code YYYY-MM-DD}. */
    DATE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<FieldType> fromWireName(String name) {
        return Arrays.stream(values()).filter(t -> t.wireName().equals(name)).findFirst();
    }

    public static String wireNames() {
        return Arrays.stream(values()).map(FieldType::wireName).collect(Collectors.joining(", "));
    }
}
