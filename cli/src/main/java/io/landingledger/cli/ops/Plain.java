package io.landingledger.cli.ops;

import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Maps, lists and records as JSON-ready values (records by component, enums and instants as strings, empty optionals
 * as null): every command's {@code --json} and {@code landing local}'s ledger dump.
 */
public final class Plain {
    private Plain() {
    }

    public static Object of(Object value) {
        if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean) {
            return value;
        }
        if (value instanceof Optional<?> optional) {
            return optional.map(Plain::of).orElse(null);
        }
        if (value instanceof Enum<?> e) {
            return e.name();
        }
        if (value instanceof Instant instant) {
            return instant.toString();
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(String.valueOf(k), of(v)));
            return copy;
        }
        if (value instanceof Iterable<?> list) {
            List<Object> copy = new ArrayList<>();
            list.forEach(v -> copy.add(of(v)));
            return copy;
        }
        if (value.getClass().isRecord()) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (RecordComponent component : value.getClass().getRecordComponents()) {
                try {
                    Object v = component.getAccessor().invoke(value);
                    if (v != null) {
                        map.put(component.getName(), of(v));
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
