package io.landingledger.core.contract;

import java.math.BigDecimal;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One field of a dataset contract.
 *
 * @param name       the field's name, as it appears in the input and in the published row
 * @param type       its value type
 * @param required   the field must be present in every line
 * @param nullable   an explicit {@code null} is accepted (an absent optional field is published as null too)
 * @param enumValues the allowed string values, or empty for any
 * @param min        inclusive lower bound for integer and number fields, or null
 * @param max        inclusive upper bound for integer and number fields, or null
 * @param minLength  minimum string length in characters (0 = none)
 * @param maxLength  maximum string length in characters, or -1 for none
 * @param precision  a number field's total significant digits as an exact decimal(precision, scale) (1 to 38), or
 *                   null when the field declares none (then the table holds it as a double)
 * @param scale      a number field's digits after the point (0 to precision), or null with {@code precision}
 */
public record FieldSpec(String name, FieldType type, boolean required, boolean nullable, List<String> enumValues,
                        BigDecimal min, BigDecimal max, int minLength, int maxLength, Integer precision,
                        Integer scale) {

    /** The most digits an exact decimal may declare: Iceberg's, Parquet's and Athena's limit. */
    public static final int MAX_PRECISION = 38;

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

    /** True when {@code name} can be a field name: letters, digits and _, not starting with a digit, at most 128. */
    public static boolean isValidName(String name) {
        return NAME.matcher(name).matches();
    }

    public FieldSpec {
        enumValues = List.copyOf(enumValues);
        if ((precision == null) != (scale == null)) {
            throw new IllegalArgumentException("precision and scale are declared together");
        }
    }

    /** True when the field is an exact decimal(precision, scale). */
    public boolean decimal() {
        return precision != null;
    }
}
