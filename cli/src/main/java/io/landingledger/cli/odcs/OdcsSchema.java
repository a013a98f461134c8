package io.landingledger.cli.odcs;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.keyword.AnnotationKeyword;
import com.networknt.schema.path.PathType;
import io.landingledger.core.contract.InvalidContractException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * The Open Data Contract Standard's published JSON Schema for v3.1.0 (bundled beside this class, unchanged; its origin
 * and licence are in NOTICE-odcs.txt there), checked with networknt's json-schema-validator. A document is checked
 * against the standard before it is mapped, so what the standard forbids is reported in the standard's own terms.
 */
public final class OdcsSchema {
    static final String RESOURCE = "odcs-json-schema-v3.1.0.json";
    private static final Schema SCHEMA = load();

    private OdcsSchema() {
    }

    private static Schema load() {
        try (InputStream in = OdcsSchema.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the ODCS JSON Schema " + RESOURCE + " is missing from the jar");
            }
            // The schema declares draft 2019-09, whose meta-schema ships with the library: nothing is fetched. It also
            // names its server types as keys under $defs/ServerSource, which the library would log as unknown keywords
            // on every run of the command: they are annotations (they validate nothing), so read them as such.
            Dialect dialect = Dialect.builder(Dialects.getDraft201909())
                    .unknownKeywordFactory((keyword, context) -> new AnnotationKeyword(keyword))
                    .build();
            // paths as $.schema[0].name, as every contract error names them; messages in English whatever the locale
            SchemaRegistryConfig config = SchemaRegistryConfig.builder().pathType(PathType.JSON_PATH)
                    .locale(Locale.ENGLISH).build();
            return SchemaRegistry.withDefaultDialect(dialect, registry -> registry.schemaRegistryConfig(config))
                    .getSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The standard's complaints about {@code document}, empty when it is a valid ODCS v3.1.0 document. Causes come
     * first: a value the schema refuses also leaves its element's other keys "not evaluated", so those echoes
     * ({@code unevaluatedProperties}) come after every other complaint, and deeper paths before shallower ones.
     */
    public static List<Error> problems(JsonNode document) {
        return SCHEMA.validate(document).stream()
                .sorted(Comparator.comparing((Error e) -> "unevaluatedProperties".equals(e.getKeyword()))
                        .thenComparing(e -> -e.getInstanceLocation().toString().length())
                        .thenComparing(e -> e.getInstanceLocation().toString()))
                .toList();
    }

    /**
     * Refuses a document the standard's schema does not accept, naming the first problem's path and how many more
     * there are.
     */
    public static void check(String source, JsonNode document) {
        List<Error> problems = problems(document);
        if (problems.isEmpty()) {
            return;
        }
        Error first = problems.get(0);
        String more = problems.size() == 1 ? "" : " (and " + (problems.size() - 1) + " more problem"
                + (problems.size() == 2 ? "" : "s") + ")";
        throw new InvalidContractException(source, first.getInstanceLocation().toString(),
                "not a valid ODCS v3.1.0 document: " + first.getMessage() + more);
    }
}
