package io.landingledger.cli.odcs;

import io.landingledger.core.contract.InvalidContractException;

import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;

/**
 * Reads and writes ODCS documents as YAML (a JSON document is YAML too). A key given twice is an error rather than
 * the last one winning, and decimals are read exactly ({@code 0.1} stays 0.1, never a double's neighbour).
 */
public final class OdcsYaml {
    private static final YAMLMapper MAPPER = YAMLMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .disable(YAMLWriteFeature.WRITE_DOC_START_MARKER)
            // every string quoted: a YAML 1.1 reader (PyYAML, as Python's ODCS tools use) would read an unquoted
            // 2026-10-01 as a date and 06:00 as a number
            .disable(YAMLWriteFeature.MINIMIZE_QUOTES)
            .disable(YAMLWriteFeature.SPLIT_LINES)
            .enable(YAMLWriteFeature.INDENT_ARRAYS_WITH_INDICATOR)
            .build();

    private OdcsYaml() {
    }

    /** The document as a tree; a document that is not YAML, or not one mapping, is refused naming {@code source}. */
    public static JsonNode read(String source, byte[] bytes) {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(bytes);
        } catch (JacksonException e) {
            var location = e.getLocation();
            String where = location == null ? ""
                    : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
            throw new InvalidContractException(source, "$",
                    "not a YAML document" + where + ": " + e.getOriginalMessage());
        }
        if (tree == null || !tree.isObject()) {
            throw new InvalidContractException(source, "$",
                    "an ODCS document is one YAML mapping (apiVersion, kind, schema, ...)");
        }
        return tree;
    }

    /** The tree as plain Java values: maps keep their order, numbers are BigInteger or BigDecimal. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> plain(JsonNode tree) {
        return MAPPER.convertValue(tree, Map.class);
    }

    /** A document of plain Java values (maps, lists, strings, numbers, booleans) as YAML text. */
    public static String write(Map<String, Object> document) {
        return MAPPER.writeValueAsString(document);
    }
}
