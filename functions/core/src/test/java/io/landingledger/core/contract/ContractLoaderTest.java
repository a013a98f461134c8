package io.landingledger.core.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.landingledger.core.testing.TestContracts;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Contracts load as written, and every malformed contract fails with a message naming the file, the JSON path and
 * what is wrong (the issue: "never a stack trace as the only clue").
 */
class ContractLoaderTest {

    /** A small valid contract; each malformed case below changes one thing in it. */
    private static final String VALID = """
            {
              "dataset": "sample", "version": 2, "format": "jsonl",
              "unit": { "pattern": "sample-(?<unit>\\\\d{4}-\\\\d{2}-\\\\d{2})\\\\.jsonl", "cadence": "daily", "first": "2026-01-01" },
              "key": "id",
              "fields": {
                "id":    { "type": "string",  "required": true },
                "n":     { "type": "integer", "min": 0, "max": 9 },
                "x":     { "type": "string" },
                "t":     { "type": "timestamp" }
              },
              "prohibited": ["email"],
              "unknownFields": "reject-line",
              "maxRejectedLines": 5
            }
            """;

    private static DatasetContract load(String json) {
        return ContractLoader.load("datasets/sample.json", new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    private static String replaced(String from, String to) {
        assertTrue(VALID.contains(from), "the test's base contract holds " + from);
        return VALID.replace(from, to);
    }

    @Test
    void load_whenShippedProgressEventsContract_readsEveryRule() {
        DatasetContract contract = TestContracts.progressEvents();
        assertEquals("progress_events", contract.dataset());
        assertEquals(DataFormat.JSONL, contract.format());
        assertEquals("event_id", contract.key());
        assertEquals(List.of("attempt_number", "checkpoint", "event_id", "event_time", "event_type", "learner_id", "lesson_id"),
                contract.fields().stream().map(FieldSpec::name).toList());
        assertEquals(List.of("checkpoint", "completed"), contract.field("event_type").orElseThrow().enumValues());
        assertEquals(new BigDecimal(1), contract.field("attempt_number").orElseThrow().min());
        assertEquals(FieldType.TIMESTAMP, contract.field("event_time").orElseThrow().type());
        assertTrue(contract.field("checkpoint").orElseThrow().nullable());
        assertEquals(List.of("email", "name", "payment_token"), contract.prohibited());
        assertEquals(UnknownFieldPolicy.REJECT_LINE, contract.unknownFields());
        assertEquals(10, contract.maxRejectedLines());
        assertEquals(Optional.of("2026-03-02"), contract.unit().unitOf("progress-2026-03-02.jsonl"));
        assertEquals(Optional.of("2026-03-02"), contract.unit().unitOf("progress-2026-03-02.jsonl.gz"));
        assertEquals(Optional.empty(), contract.unit().unitOf("progress-2026-03-02.csv"));
        assertEquals(Cadence.DAILY, contract.unit().cadence());
    }

    @Test
    void load_whenShippedTransactionsContract_readsCsvColumns() {
        DatasetContract contract = TestContracts.transactions();
        assertEquals(DataFormat.CSV, contract.format());
        assertEquals("txn_id", contract.key());
        assertEquals(List.of("account_id", "amount", "batch_date", "business_date", "txn_id"),
                contract.fields().stream().map(FieldSpec::name).toList());
        assertEquals(FieldType.NUMBER, contract.field("amount").orElseThrow().type());
        assertEquals(FieldType.DATE, contract.field("business_date").orElseThrow().type());
        assertEquals(0, contract.maxRejectedLines());
        assertEquals(Optional.of("2026-10-02"), contract.unit().unitOf("transactions-2026-10-02.csv.gz"));
    }

    @Test
    void acceptEmptyUnits_isOffByDefault_canBeTurnedOn_andNeedsEmptyFilesToPublish() {
        assertFalse(load(VALID).acceptEmptyUnits(), "an empty unit needs an operator's acceptance unless the contract says so");
        assertTrue(load(replaced("\"maxRejectedLines\": 5", "\"maxRejectedLines\": 5, \"acceptEmptyUnits\": true")).acceptEmptyUnits());
        InvalidContractException contradiction = assertThrows(InvalidContractException.class, () -> load(replaced("\"maxRejectedLines\": 5",
                "\"maxRejectedLines\": 5, \"allowEmpty\": false, \"acceptEmptyUnits\": true")));
        assertTrue(contradiction.getMessage().contains("$.acceptEmptyUnits"), contradiction.getMessage());
        InvalidContractException misspelt = assertThrows(InvalidContractException.class, () -> load(replaced("\"maxRejectedLines\": 5",
                "\"maxRejectedLines\": 5, \"allowEmptyUnits\": true")));
        assertTrue(misspelt.getMessage().contains("allowEmptyUnits"), "unknown settings stay errors: " + misspelt.getMessage());
    }

    @Test
    void loadDirectory_whenShippedDatasets_loadsEveryContractByName() {
        Map<String, DatasetContract> contracts = ContractLoader.loadDirectory(TestContracts.DATASETS);
        assertEquals(List.of("progress_events", "transactions"), List.copyOf(contracts.keySet()));
    }

    @Test
    void load_whenOptionalSettingsOmitted_usesDocumentedDefaults() {
        DatasetContract contract = load(VALID.replace("\"unknownFields\": \"reject-line\",", "").replace("\"maxRejectedLines\": 5", "\"version\": 2")
                .replace("\"version\": 2, \"format\": \"jsonl\",", ""));
        assertEquals(UnknownFieldPolicy.REJECT_LINE, contract.unknownFields());
        assertEquals(0, contract.maxRejectedLines(), "no cap given: fail closed on the first reject");
        assertEquals(DataFormat.JSONL, contract.format());
        assertEquals("datasets/sample.json", contract.source());
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("an unknown type", replaced("\"type\": \"string\" }", "\"type\": \"money\" }"),
                        "$.fields.x.type", "unknown type \"money\""),
                Arguments.of("a regex that does not compile", replaced("\"pattern\": \"sample-", "\"pattern\": \"(sample-"),
                        "$.unit.pattern", "not a valid regular expression"),
                Arguments.of("a regex without the unit group", replaced("(?<unit>", "("),
                        "$.unit.pattern", "(?<unit>...)"),
                Arguments.of("a key that is not a field", replaced("\"key\": \"id\"", "\"key\": \"event_id\""),
                        "$.key", "\"event_id\" is not among the fields"),
                Arguments.of("a negative reject cap", replaced("\"maxRejectedLines\": 5", "\"maxRejectedLines\": -1"),
                        "$.maxRejectedLines", "must be at least 0, not -1"),
                Arguments.of("a reject cap that is not a number", replaced("\"maxRejectedLines\": 5", "\"maxRejectedLines\": \"5\""),
                        "$.maxRejectedLines", "must be a whole number"),
                Arguments.of("a misspelt field setting", replaced("\"type\": \"string\",  \"required\": true", "\"type\": \"string\", \"requried\": true"),
                        "$.fields.id.requried", "is not a contract setting here"),
                Arguments.of("a misspelt top-level setting", replaced("\"maxRejectedLines\": 5", "\"maxRejectLines\": 5"),
                        "$.maxRejectLines", "is not a contract setting here"),
                Arguments.of("a misspelt unit setting", replaced("\"cadence\": \"daily\"", "\"cadence\": \"daily\", \"grace\": 6"),
                        "$.unit.grace", "is not a contract setting here"),
                Arguments.of("invalid JSON: the closing brace is missing", VALID.substring(0, VALID.lastIndexOf('}')),
                        "$.maxRejectedLines", "not valid JSON at line"),
                Arguments.of("not JSON at all", "dataset: sample", "$", "not valid JSON at line 1"),
                Arguments.of("a key named twice in one object", replaced("\"key\": \"id\"", "\"key\": \"id\", \"key\": \"n\""),
                        "$.key", "Duplicate field 'key'"),
                Arguments.of("a setting named twice in a field", replaced("\"type\": \"timestamp\"", "\"type\": \"timestamp\", \"type\": \"date\""),
                        "$.fields.t.type", "Duplicate field 'type'"),
                Arguments.of("a syntax error inside a field", replaced("\"min\": 0,", "\"min\": 0,,"),
                        "$.fields.n.min", "not valid JSON at line"),
                Arguments.of("a JSON array instead of an object", "[" + VALID + "]",
                        "$", "must be a JSON object"),
                Arguments.of("an enum on an integer field", replaced("\"min\": 0, \"max\": 9", "\"enum\": [\"1\"]"),
                        "$.fields.n.enum", "applies to string fields only"),
                Arguments.of("a min on a string field", replaced("\"x\":     { \"type\": \"string\" }", "\"x\": { \"type\": \"string\", \"min\": 1 }"),
                        "$.fields.x.min", "applies to integer and number fields only"),
                Arguments.of("min above max", replaced("\"min\": 0, \"max\": 9", "\"min\": 10, \"max\": 9"),
                        "$.fields.n", "min (10) is above max (9)"),
                Arguments.of("a fractional bound on an integer field", replaced("\"min\": 0,", "\"min\": 0.5,"),
                        "$.fields.n.min", "must be a whole number"),
                Arguments.of("an optional key field", replaced("\"type\": \"string\",  \"required\": true", "\"type\": \"string\""),
                        "$.fields.id", "the key field must be \"required\": true"),
                Arguments.of("a timestamp key field", replaced("\"key\": \"id\"", "\"key\": \"t\"").replace("\"t\":     { \"type\": \"timestamp\" }",
                        "\"t\": { \"type\": \"timestamp\", \"required\": true }"), "$.fields.t.type", "must be a string or an integer"),
                Arguments.of("a prohibited name that is also a field", replaced("\"prohibited\": [\"email\"]", "\"prohibited\": [\"email\", \"X\"]"),
                        "$.prohibited[1]", "is also a field of the contract"),
                Arguments.of("an unknown format", replaced("\"format\": \"jsonl\"", "\"format\": \"xml\""),
                        "$.format", "must be one of jsonl, csv"),
                Arguments.of("an unknown unknownFields policy", replaced("\"reject-line\"", "\"ignore\""),
                        "$.unknownFields", "must be \"reject-line\" or \"refuse-file\""),
                Arguments.of("no cadence", replaced("\"cadence\": \"daily\", ", ""),
                        "$.unit.cadence", "is required"),
                Arguments.of("a first unit that is not a date", replaced("\"first\": \"2026-01-01\"", "\"first\": \"2026-02-30\""),
                        "$.unit.first", "is not a date"),
                Arguments.of("version zero", replaced("\"version\": 2", "\"version\": 0"),
                        "$.version", "must be at least 1"),
                Arguments.of("no fields", VALID.substring(0, VALID.indexOf("\"fields\"")) + "\"fields\": {} }",
                        "$.fields", "must declare at least one field"),
                Arguments.of("a field name with a dash", replaced("\"x\":     {", "\"x-y\": {"),
                        "$.fields.x-y", "is not a field name"),
                Arguments.of("a dataset name with a space", replaced("\"dataset\": \"sample\"", "\"dataset\": \"Sample Set\""),
                        "$.dataset", "is not a dataset name"),
                Arguments.of("required given as a string", replaced("\"required\": true", "\"required\": \"yes\""),
                        "$.fields.id.required", "must be true or false"),
                Arguments.of("an ODCS identity without its id", replaced("\"maxRejectedLines\": 5", "\"maxRejectedLines\": 5,"
                        + " \"odcs\": {\"name\": \"Sample\"}"), "$.odcs.id", "is required"),
                Arguments.of("an ODCS identity with another setting", replaced("\"maxRejectedLines\": 5", "\"maxRejectedLines\": 5,"
                        + " \"odcs\": {\"id\": \"a\", \"status\": \"active\"}"), "$.odcs.status", "is not a contract setting"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void load_whenContractMalformed_failsNamingSourcePathAndProblem(String description, String json, String path, String problem) {
        InvalidContractException e = assertThrows(InvalidContractException.class, () -> load(json));
        assertEquals("datasets/sample.json", e.source());
        assertEquals(path, e.jsonPath());
        assertTrue(e.problem().contains(problem), () -> "problem \"" + e.problem() + "\" should say " + problem);
        assertEquals("datasets/sample.json: " + path + ": " + e.problem(), e.getMessage());
    }

    @Test
    void load_whenDatasetDoesNotMatchFileName_failsNamingTheFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("other.json");
        Files.writeString(file, VALID);
        InvalidContractException e = assertThrows(InvalidContractException.class, () -> ContractLoader.load(file));
        assertEquals(file.toString(), e.source());
        assertEquals("$.dataset", e.jsonPath());
        assertTrue(e.getMessage().contains("other.json") && e.problem().contains("does not match the file name"), e.getMessage());

        Path matching = dir.resolve("sample.json");
        Files.writeString(matching, VALID);
        assertEquals("sample", ContractLoader.load(matching).dataset());
    }

    @Test
    void load_whenFileMissing_failsNamingTheFile(@TempDir Path dir) {
        Path file = dir.resolve("absent.json");
        InvalidContractException e = assertThrows(InvalidContractException.class, () -> ContractLoader.load(file));
        assertEquals(file.toString(), e.source());
        assertTrue(e.problem().contains("cannot read"), e.problem());
    }

    @Test
    void loadDirectory_whenOneContractMalformed_failsNamingThatFile(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("sample.json"), VALID);
        Files.writeString(dir.resolve("broken.json"), replaced("\"dataset\": \"sample\"", "\"dataset\": \"broken\"").replace("\"integer\"", "\"int\""));
        InvalidContractException e = assertThrows(InvalidContractException.class, () -> ContractLoader.loadDirectory(dir));
        assertTrue(e.source().endsWith("broken.json"), e.source());
        assertEquals("$.fields.n.type", e.jsonPath());
    }
}
