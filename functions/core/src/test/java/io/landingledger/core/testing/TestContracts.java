package io.landingledger.core.testing;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.contract.ContractLoader;
import io.landingledger.core.contract.DatasetContract;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The shipped contracts and edited copies of them. Tests run in their module's directory: functions/core finds
 * datasets/ two levels up; the cli and lambda modules, which share this class through the test-jar, one or two.
 */
public final class TestContracts {
    public static final Path DATASETS = Stream.of("../../datasets", "../datasets", "datasets").map(Path::of)
            .filter(dir -> Files.isRegularFile(dir.resolve("progress_events.json")))
            .findFirst().orElse(Path.of("../../datasets"));

    private TestContracts() {
    }

    public static DatasetContract progressEvents() {
        return ContractLoader.load(DATASETS.resolve("progress_events.json"));
    }

    public static DatasetContract transactions() {
        return ContractLoader.load(DATASETS.resolve("transactions.json"));
    }

    /** The shipped progress_events contract with {@code edit} applied to its JSON (e.g. another reject cap). */
    public static DatasetContract progressEvents(Consumer<Map<String, Object>> edit) {
        return edited("progress_events.json", edit);
    }

    /** The shipped transactions contract with {@code edit} applied to its JSON. */
    public static DatasetContract transactions(Consumer<Map<String, Object>> edit) {
        return edited("transactions.json", edit);
    }

    /**
     * A JSONL contract with one field of every type and every constraint, for the rules the shipped contracts do
     * not exercise (number, boolean, date, max, maxLength).
     */
    public static DatasetContract allTypes() {
        return fromJson("all_types.json", """
                {
                  "dataset": "all_types", "version": 3, "format": "jsonl",
                  "unit": { "pattern": "all-(?<unit>\\\\d{4}-\\\\d{2}-\\\\d{2})\\\\.jsonl", "cadence": "daily", "first": "2026-01-01" },
                  "key": "id",
                  "fields": {
                    "id":     { "type": "string",    "required": true, "minLength": 1 },
                    "count":  { "type": "integer",   "min": 0, "max": 1000 },
                    "big":    { "type": "integer" },
                    "amount": { "type": "number",    "min": -100.5, "max": 100.5 },
                    "ratio":  { "type": "number" },
                    "flag":   { "type": "boolean" },
                    "at":     { "type": "timestamp" },
                    "day":    { "type": "date" },
                    "kind":   { "type": "string",    "enum": ["a", "b"] },
                    "code":   { "type": "string",    "maxLength": 3 },
                    "note":   { "type": "string",    "nullable": true }
                  },
                  "prohibited": ["email", "name", "payment_token"],
                  "maxRejectedLines": 1000
                }
                """);
    }

    /** A CSV contract with integer, number and boolean columns. */
    public static DatasetContract csvTypes() {
        return csvTypes("csv_types.json", "csv");
    }

    /** {@link #csvTypes()}'s fields as a JSONL contract, so a CSV cell and the same text as a JSON value meet the same rules. */
    public static DatasetContract csvTypesAsJsonl() {
        return csvTypes("csv_types_as_jsonl.json", "jsonl");
    }

    private static DatasetContract csvTypes(String source, String format) {
        return fromJson(source, """
                {
                  "dataset": "csv_types", "version": 1, "format": "%1$s",
                  "unit": { "pattern": "t-(?<unit>\\\\d{4}-\\\\d{2}-\\\\d{2})\\\\.%1$s", "cadence": "daily", "first": "2026-01-01" },
                  "key": "id",
                  "fields": {
                    "id":    { "type": "integer", "required": true },
                    "qty":   { "type": "integer", "nullable": true },
                    "price": { "type": "number" },
                    "ok":    { "type": "boolean" },
                    "at":    { "type": "timestamp" },
                    "label": { "type": "string" }
                  },
                  "prohibited": ["email"],
                  "maxRejectedLines": 1000
                }
                """.formatted(format));
    }

    public static DatasetContract fromJson(String source, String json) {
        return ContractLoader.load(source, new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    private static DatasetContract edited(String file, Consumer<Map<String, Object>> edit) {
        try {
            Map<String, Object> json = new LinkedHashMap<>(JSON.std.mapFrom(Files.readString(DATASETS.resolve(file))));
            edit.accept(json);
            return fromJson(file + " (edited by a test)", JSON.std.asString(json));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
