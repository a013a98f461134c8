package io.landingledger.cli.local;

import com.fasterxml.jackson.jr.ob.JSON;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Pretty JSON of maps, lists and records (the ledger dump), with instants as ISO strings. */
final class Json {
    private static final JSON PRETTY = JSON.std.with(JSON.Feature.PRETTY_PRINT_OUTPUT);

    private Json() {
    }

    static String pretty(Object value) {
        try {
            return PRETTY.asString(plain(value)) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Records become maps of their components; enums and instants become strings. */
    static Object plain(Object value) {
        if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean) {
            return value;
        }
        if (value instanceof Enum<?> e) {
            return e.name();
        }
        if (value instanceof Instant instant) {
            return instant.toString();
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(String.valueOf(k), plain(v)));
            return copy;
        }
        if (value instanceof Iterable<?> list) {
            List<Object> copy = new ArrayList<>();
            list.forEach(v -> copy.add(plain(v)));
            return copy;
        }
        if (value.getClass().isRecord()) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (RecordComponent component : value.getClass().getRecordComponents()) {
                try {
                    Object v = component.getAccessor().invoke(value);
                    if (v != null) {
                        map.put(component.getName(), plain(v));
                    }
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
            return map;
        }
        return value.toString();
    }
}
