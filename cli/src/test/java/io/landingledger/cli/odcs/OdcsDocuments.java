package io.landingledger.cli.odcs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The shipped ODCS example and the equality the round trip is held to (docs/contracts.md: objects compare
 * unordered, lists in order, numbers by value). */
final class OdcsDocuments {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path EXAMPLE = ROOT.resolve("datasets/odcs/transactions.odcs.yaml");

    private OdcsDocuments() {
    }

    static String example() {
        try {
            return Files.readString(EXAMPLE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Map<String, Object> parse(String yaml) {
        return OdcsYaml.plain(OdcsYaml.read("test", yaml.getBytes(StandardCharsets.UTF_8)));
    }

    /** A document reduced to what equality compares: numbers as stripped decimals, maps without order. */
    static Object comparable(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new java.util.TreeMap<>();
            map.forEach((k, v) -> out.put((String) k, comparable(v)));
            return out;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            list.forEach(v -> out.add(comparable(v)));
            return out;
        }
        if (value instanceof BigDecimal d) {
            return d.stripTrailingZeros().toPlainString();
        }
        if (value instanceof BigInteger || value instanceof Integer || value instanceof Long) {
            return new BigDecimal(value.toString()).stripTrailingZeros().toPlainString();
        }
        return value;
    }

    /** The document through YAML text, as the command prints it and a reader reads it. */
    static Map<String, Object> printed(Map<String, Object> document) {
        return parse(OdcsYaml.write(new LinkedHashMap<>(document)));
    }
}
