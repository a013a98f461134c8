package io.landingledger.tables;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamReadException;

import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a published object's canonical JSON lines (docs/design.md section 3: one compact object per line, every
 * contract field, absent optional fields as null, timestamps UTC with {@code Z}, numbers with every significant digit)
 * as Iceberg records of the table's schema, streaming: one token at a time, one record reused for every line, so a
 * unit of millions of rows needs no more memory than one row.
 *
 * <p>Values are converted exactly: a decimal column takes the number's digits as a {@link BigDecimal} at the column's
 * scale (never through a double), a timestamptz column the instant at UTC with its microseconds. A value that does not
 * fit (more fraction digits than the scale, more digits than the precision, nanoseconds a microsecond column would
 * drop, a type the column does not hold) is a {@link RowConversionException} naming the line and the column, never
 * the value; so is a line that is not a JSON object of scalars. The validator refuses all of them before publishing.
 * A source that fails while it is read (a reset connection) is an {@link UncheckedIOException}: a fault, not a bad
 * line.
 */
final class PublishedRowReader implements Closeable {
    private static final JsonFactory JSON = JsonFactory.builder()
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION) // no row content in a parse error's location
            .build();

    private final JsonParser parser;
    private final GenericRecord record;
    private final Map<String, Integer> positions = new HashMap<>();
    private final Types.NestedField[] columns;
    private final int unitPosition;
    private final Object unitValue;
    private long rows;

    /**
     * @param schema    the table's schema (the unit column included)
     * @param unitValue the unit column's value for every row ({@link ContractSchema#unitValue})
     * @param in        the published object's bytes (closed with this reader)
     */
    PublishedRowReader(Schema schema, Object unitValue, InputStream in) {
        List<Types.NestedField> list = schema.columns();
        this.columns = list.toArray(new Types.NestedField[0]);
        for (int i = 0; i < columns.length; i++) {
            positions.put(columns[i].name(), i);
        }
        this.unitPosition = positions.get(ContractSchema.UNIT_COLUMN);
        this.unitValue = unitValue;
        this.record = GenericRecord.create(schema);
        try {
            this.parser = JSON.createParser(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the published object", e);
        }
    }

    /** Rows read so far. */
    long rows() {
        return rows;
    }

    /**
     * The next line's row, or null after the last line. The same record is returned every time with the line's values:
     * write it before asking for the next.
     */
    Record next() {
        try {
            JsonToken token = parser.nextToken();
            if (token == null) {
                return null;
            }
            long line = parser.currentTokenLocation().getLineNr();
            if (token != JsonToken.START_OBJECT) {
                throw new RowConversionException(line, null, "not a JSON object");
            }
            for (int i = 0; i < columns.length; i++) {
                record.set(i, null);
            }
            record.set(unitPosition, unitValue);
            while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                Integer position = positions.get(name);
                if (position == null || position == unitPosition) {
                    throw new RowConversionException(line, name, "not a data column of the table (the publish and the"
                            + " table follow different contract versions)");
                }
                Types.NestedField column = columns[position];
                record.set(position, value(column, parser.nextToken(), line));
            }
            for (int i = 0; i < columns.length; i++) {
                if (columns[i].isRequired() && record.get(i) == null) {
                    throw new RowConversionException(line, columns[i].name(), "a required column without a value");
                }
            }
            rows++;
            return record;
        } catch (StreamReadException malformed) {
            // Jackson's message may quote the bytes it stopped at: keep only where
            long line = parser.currentLocation().getLineNr();
            throw new RowConversionException(line, null, "not well-formed JSON");
        } catch (IOException e) {
            // the source failed (a reset connection), not the content: a fault the writer retries
            throw new UncheckedIOException("cannot read the published object", e);
        }
    }

    private Object value(Types.NestedField column, JsonToken token, long line) throws IOException {
        if (token == JsonToken.VALUE_NULL) {
            if (column.isRequired()) {
                throw new RowConversionException(line, column.name(), "null in a required column");
            }
            return null;
        }
        Type type = column.type();
        Object value = switch (type.typeId()) {
            case STRING -> token == JsonToken.VALUE_STRING ? parser.getText() : null;
            case LONG -> token == JsonToken.VALUE_NUMBER_INT ? whole(column, line) : null;
            case DOUBLE -> token.isNumeric() ? parser.getDoubleValue() : null;
            case DECIMAL -> token.isNumeric() ? decimal(column, (Types.DecimalType) type, line) : null;
            case BOOLEAN -> token.isBoolean() ? token == JsonToken.VALUE_TRUE : null;
            case DATE -> token == JsonToken.VALUE_STRING ? date(column, line) : null;
            case TIMESTAMP -> token == JsonToken.VALUE_STRING && ((Types.TimestampType) type).shouldAdjustToUTC()
                    ? timestamp(column, line) : null;
            default -> throw new RowConversionException(line, column.name(), "a column of type " + type
                    + ", which no contract field maps to");
        };
        if (value == null) {
            throw new RowConversionException(line, column.name(), "a JSON " + describe(token) + " where the column is "
                    + type);
        }
        return value;
    }

    private long whole(Types.NestedField column, long line) throws IOException {
        if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw new RowConversionException(line, column.name(), "a whole number outside the signed 64-bit range");
        }
        return parser.getLongValue();
    }

    private BigDecimal decimal(Types.NestedField column, Types.DecimalType type, long line) throws IOException {
        BigDecimal number = parser.getDecimalValue(); // from the text's digits: exact
        BigDecimal stripped = number.signum() == 0 ? BigDecimal.ZERO : number.stripTrailingZeros();
        if (stripped.scale() > type.scale()) {
            throw new RowConversionException(line, column.name(), "more fraction digits than " + type + " holds");
        }
        if (stripped.precision() - stripped.scale() > type.precision() - type.scale()) {
            throw new RowConversionException(line, column.name(), "more integer digits than " + type + " holds");
        }
        return stripped.setScale(type.scale(), RoundingMode.UNNECESSARY);
    }

    private LocalDate date(Types.NestedField column, long line) throws IOException {
        try {
            return LocalDate.parse(parser.getText());
        } catch (DateTimeException e) {
            throw new RowConversionException(line, column.name(), "not a date (YYYY-MM-DD)");
        }
    }

    private OffsetDateTime timestamp(Types.NestedField column, long line) throws IOException {
        Instant instant;
        try {
            instant = Instant.parse(parser.getText());
        } catch (DateTimeException e) {
            throw new RowConversionException(line, column.name(), "not a UTC timestamp (RFC 3339 with Z)");
        }
        if (instant.getNano() % 1_000 != 0) {
            throw new RowConversionException(line, column.name(), "sub-microsecond digits, which timestamptz"
                    + " (microseconds) would drop");
        }
        try {
            Math.multiplyExact(instant.getEpochSecond(), 1_000_000L); // Parquet stores microseconds in 64 bits
        } catch (ArithmeticException e) {
            throw new RowConversionException(line, column.name(), "an instant outside timestamptz's range");
        }
        return instant.atOffset(ZoneOffset.UTC);
    }

    private static String describe(JsonToken token) {
        return switch (token) {
            case VALUE_STRING -> "string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "number";
            case VALUE_TRUE, VALUE_FALSE -> "boolean";
            case START_OBJECT -> "object";
            case START_ARRAY -> "array";
            default -> "token " + token;
        };
    }

    @Override
    public void close() {
        try {
            parser.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the published object", e);
        }
    }
}
