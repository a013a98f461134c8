package io.landingledger.core.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.deser.std.FromStringDeserializer;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import com.fasterxml.jackson.databind.type.LogicalType;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The one JSON codec of the functions' payloads and answers and of the documents the product stores (SQS messages,
 * {@code _sweep/} state, reports): records both ways, through Jackson databind, field names as the records declare
 * them ({@code @JsonProperty} where the wire spells them in snake_case).
 *
 * <p>Strict: a property the type does not declare, a value of the wrong type (no coercion of a string to a boolean or
 * a number to a string), or a value a record's constructor refuses is an {@link IllegalArgumentException} whose
 * message names the field, e.g. {@code unknown field "dryrun" (allowed: action, dataset, ...)}, so a bad payload
 * fails the invocation with a message the operator can act on. A type that reads a document others own (an AWS event
 * it takes a few fields of) says so with {@code @JsonIgnoreProperties(ignoreUnknown = true)}.
 *
 * <p>Absent values are not written ({@code null} fields are left out), as the hand-written codecs it replaces did.
 */
public final class JsonCodec {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            // no coercion between scalars: "dryRun": "yes" or "units": [3] is a mistake to name, not to guess at
            .withCoercionConfig(LogicalType.Boolean, c -> c.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail))
            .withCoercionConfig(LogicalType.Integer, c -> c.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail))
            .withCoercionConfig(LogicalType.Float, c -> c.setCoercion(CoercionInputShape.String, CoercionAction.Fail))
            .withCoercionConfig(LogicalType.Textual, c -> c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail).setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            // an instant as ISO-8601 text (Instant.toString / Instant.parse), as the stored documents spell it
            .addModule(new SimpleModule("instants").addSerializer(Instant.class, ToStringSerializer.instance)
                    .addDeserializer(Instant.class, new FromStringDeserializer<Instant>(Instant.class) {
                        @Override
                        protected Instant _deserialize(String value, DeserializationContext context) {
                            return Instant.parse(value);
                        }
                    }))
            // a duration as whole milliseconds (IngestOutcome's duration_ms)
            .addModule(new SimpleModule("durations").addSerializer(Duration.class, new StdSerializer<Duration>(Duration.class) {
                @Override
                public void serialize(Duration value, JsonGenerator generator, SerializerProvider provider) throws IOException {
                    generator.writeNumber(value.toMillis());
                }
            }).addDeserializer(Duration.class, new StdDeserializer<Duration>(Duration.class) {
                @Override
                public Duration deserialize(JsonParser parser, DeserializationContext context) throws IOException {
                    return Duration.ofMillis(context.readValue(parser, long.class));
                }
            }))
            .build();

    private JsonCodec() {
    }

    /** The document as {@code type}; {@code null} for an empty document or {@code null}. */
    public static <T> T read(byte[] json, Class<T> type) {
        return read(json, MAPPER.constructType(type));
    }

    /** The document as {@code type}; {@code null} for an empty document or {@code null}. */
    public static <T> T read(String json, Class<T> type) {
        return read(json.getBytes(StandardCharsets.UTF_8), type);
    }

    /** The document as {@code type} (a generic one: a list of records). */
    public static <T> T read(String json, TypeReference<T> type) {
        return read(json.getBytes(StandardCharsets.UTF_8), MAPPER.getTypeFactory().constructType(type));
    }

    /** The whole stream's document as {@code type}; {@code null} for an empty stream. */
    public static <T> T read(InputStream json, Class<T> type) throws IOException {
        return read(json.readAllBytes(), type);
    }

    /** A JSON object's members (for a document whose shape is not the product's: a log line, a test's check). */
    public static Map<String, Object> readMap(String json) {
        Map<String, Object> map = read(json, new TypeReference<Map<String, Object>>() { });
        return map == null ? Map.of() : map;
    }

    /** {@code value} (a map a caller built, another record) as {@code type}, with the same checks as {@link #read}. */
    public static <T> T convert(Object value, Class<T> type) {
        return read(write(value), type);
    }

    private static <T> T read(byte[] json, JavaType type) {
        if (isBlank(json)) {
            return null;
        }
        try {
            return MAPPER.readValue(json, type);
        } catch (UnrecognizedPropertyException e) {
            String allowed = e.getKnownPropertyIds() == null ? "" : " (allowed: "
                    + e.getKnownPropertyIds().stream().map(String::valueOf).collect(Collectors.toCollection(TreeSet::new))
                            .stream().collect(Collectors.joining(", ")) + ")";
            throw new IllegalArgumentException("unknown field \"" + path(e.getPath()) + "\"" + allowed, e);
        } catch (JsonMappingException e) {
            Throwable cause = e.getCause();
            String field = path(e.getPath());
            if (cause instanceof IllegalArgumentException refused && refused.getMessage() != null) {
                // a record's constructor or an enum's factory refused the value: its message says why
                String message = refused.getMessage();
                String last = lastField(e.getPath());
                boolean named = last.isEmpty() || message.contains("\"" + last + "\"");
                throw new IllegalArgumentException(named ? message : "\"" + field + "\" " + message, e);
            }
            if (e instanceof MismatchedInputException mismatch && !field.isEmpty()) {
                throw new IllegalArgumentException("\"" + field + "\" must be " + expected(mismatch.getTargetType()), e);
            }
            throw new IllegalArgumentException("not a valid " + type.getRawClass().getSimpleName() + " document"
                    + (field.isEmpty() ? "" : " at \"" + field + "\"") + ": " + e.getOriginalMessage(), e);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code value} as JSON (UTF-8). */
    public static byte[] write(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + (value == null ? null : value.getClass().getName()) + " as JSON", e);
        }
    }

    /**
     * {@code value} (a record) as the map of its JSON object, for a structured log line's fields: numbers stay
     * {@code Integer}/{@code Long}, as JSON reads them.
     */
    public static Map<String, Object> fields(Object value) {
        return MAPPER.convertValue(value, new TypeReference<Map<String, Object>>() { });
    }

    /** {@code value} as indented JSON (UTF-8), for documents people read (reports, summaries). */
    public static byte[] writePretty(Object value) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + (value == null ? null : value.getClass().getName()) + " as JSON", e);
        }
    }

    /** {@code value} as a JSON string. */
    public static String writeString(Object value) {
        return new String(write(value), StandardCharsets.UTF_8);
    }

    /** {@code value} as JSON on {@code out} (left open). */
    public static void write(OutputStream out, Object value) throws IOException {
        out.write(write(value));
    }

    private static boolean isBlank(byte[] json) {
        for (byte b : json) {
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return false;
            }
        }
        return true;
    }

    private static String path(List<JsonMappingException.Reference> path) {
        StringBuilder text = new StringBuilder();
        for (JsonMappingException.Reference reference : path) {
            if (reference.getFieldName() != null) {
                if (!text.isEmpty()) {
                    text.append('.');
                }
                text.append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                text.append('[').append(reference.getIndex()).append(']');
            }
        }
        return text.toString();
    }

    private static String lastField(List<JsonMappingException.Reference> path) {
        for (int i = path.size() - 1; i >= 0; i--) {
            if (path.get(i).getFieldName() != null) {
                return path.get(i).getFieldName();
            }
        }
        return "";
    }

    private static String expected(Class<?> type) {
        if (type == null) {
            return "of another type";
        }
        if (type == String.class || type.isEnum()) {
            return "a string";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type.isPrimitive() || Number.class.isAssignableFrom(type)) {
            return "a number";
        }
        if (List.class.isAssignableFrom(type) || type.isArray() || java.util.Collection.class.isAssignableFrom(type)) {
            return "a list";
        }
        return "an object";
    }
}
