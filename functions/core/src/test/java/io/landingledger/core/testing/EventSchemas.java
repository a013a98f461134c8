package io.landingledger.core.testing;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The events/*.schema.json documents (JSON Schema draft 2020-12), checked by a maintained validator
 * (com.networknt:json-schema-validator), never by hand: what an event on the ledger bus may hold.
 */
public final class EventSchemas {
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Map<String, Schema> SCHEMAS = new ConcurrentHashMap<>();

    private EventSchemas() {
    }

    /** What {@code eventJson} breaks of events/{@code name}.schema.json: empty when it is valid. */
    public static List<String> errors(Path repository, String name, String eventJson) {
        Schema schema = SCHEMAS.computeIfAbsent(repository + "/" + name, ignored -> {
            try {
                return REGISTRY.getSchema(Files.readString(repository.resolve("events/" + name + ".schema.json")), InputFormat.JSON);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return schema.validate(eventJson, InputFormat.JSON).stream().map(Error::toString).toList();
    }
}
