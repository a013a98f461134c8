package io.landingledger.cli.odcs;

import io.landingledger.core.contract.ContractEntry;
import io.landingledger.core.contract.ContractLoader;
import io.landingledger.core.contract.ContractRegistrar;
import io.landingledger.core.contract.ContractState;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnitSpec;
import io.landingledger.core.testing.InMemoryContractStore;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import static io.landingledger.cli.odcs.OdcsDocuments.comparable;
import static io.landingledger.cli.odcs.OdcsDocuments.parse;
import static io.landingledger.cli.odcs.OdcsDocuments.printed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Import then export gives the same document: the shipped example exactly (it is written in the export's spelling),
 * other spellings of the same contract as the canonical one; and a contract written as product JSON survives export
 * then import with every setting it enforces.
 */
class OdcsRoundTripTest {

    private static ContractEntry register(String yaml) {
        ImportedContract imported = OdcsImport.read("transactions.odcs.yaml", yaml.getBytes(StandardCharsets.UTF_8));
        ContractRegistrar registrar = new ContractRegistrar(new InMemoryContractStore(), Clock.systemUTC());
        return registrar.add(imported.source(), imported.contractJson(), "test", false).entry();
    }

    @Test
    void theExampleComesBackAsItIsWritten() {
        String example = OdcsDocuments.example();
        Map<String, Object> exported = printed(OdcsExport.of(register(example)));
        assertEquals(comparable(parse(example)), comparable(exported));
    }

    @Test
    void aRetirementExportsTheContractBeforeIt_withStatusRetired() {
        String example = OdcsDocuments.example();
        ImportedContract imported = OdcsImport.read("t.odcs.yaml", example.getBytes(StandardCharsets.UTF_8));
        ContractRegistrar registrar = new ContractRegistrar(new InMemoryContractStore(), Clock.systemUTC());
        registrar.add(imported.source(), imported.contractJson(), "onboard", false);
        Map<String, Object> retired = printed(OdcsExport.of(registrar.retire("transactions", "gone").entry()));
        Map<String, Object> expected = parse(example);
        expected.put("version", "2.0.0");
        expected.put("status", "retired");
        assertEquals(comparable(expected), comparable(retired));
    }

    @Test
    void otherSpellingsOfTheSameContractExportInTheCanonicalOne() {
        String example = OdcsDocuments.example();
        String respelled = example;
        respelled = respell(respelled, "apiVersion: v3.1.0", "apiVersion: v3.0.2");
        respelled = respell(respelled, "  - name: transactions\n", "  - name: transactions\n    logicalType: object\n");
        respelled = respell(respelled, "        primaryKey: true\n",
                "        primaryKey: true\n        unique: true\n");
        respelled = respell(respelled, "        primaryKeyPosition: 1\n", "");
        respelled = respell(respelled, "      - metric: rowCount\n        mustBeBetween: [2, 100000]\n",
                "      - type: library\n        metric: rowCount\n        unit: rows\n"
                        + "        mustBeGreaterThan: 1\n"
                        + "      - metric: rowCount\n        mustBeLessThan: 100001\n");
        respelled = respell(respelled, "  - property: latency\n    value: 6\n    unit: h\n",
                "  - property: timeOfAvailability\n    value: \"22:00-08:00\"\n");
        respelled = respell(respelled, "  - property: frequency\n    value: 1\n    unit: d\n",
                "  - property: fy\n    value: 1\n    unit: days\n");
        respelled = respell(respelled, "        physicalType: decimal(12,2)", "        physicalType: NUMERIC(12, 2)");
        assertEquals(comparable(parse(example)), comparable(printed(OdcsExport.of(register(respelled)))));
    }

    private static String respell(String text, String from, String to) {
        assertTrue(text.contains(from), "the example holds " + from);
        return text.replace(from, to);
    }

    @Test
    void theShippedJsonContractsSurviveExportThenImport() throws Exception {
        for (String name : List.of("transactions", "progress_events")) {
            Path file = OdcsDocuments.ROOT.resolve("datasets/" + name + ".json");
            DatasetContract original = ContractLoader.load(file);
            String json = Files.readString(file);
            Map<String, Object> raw = com.fasterxml.jackson.jr.ob.JSON.std.mapFrom(json);
            String yaml = OdcsYaml.write(OdcsExport.of(original, 1, ContractState.ACTIVE, raw));
            ImportedContract imported = OdcsImport.read(name + ".odcs.yaml", yaml.getBytes(StandardCharsets.UTF_8));
            DatasetContract back = ContractLoader.load(name, new ByteArrayInputStream(imported.contractJson()));
            assertSameEnforcement(original, back);
        }
    }

    @Test
    void theProductsOwnNullableCombinations_otherCadences_andAChangeBoundSurviveExportThenImport() throws Exception {
        String transactions = Files.readString(OdcsDocuments.ROOT.resolve("datasets/transactions.json"));
        String nullable = transactions.replace("\"batch_date\":    { \"type\": \"date\",   \"required\": true }",
                "\"batch_date\": { \"type\": \"date\" }, \"memo\": { \"type\": \"string\", \"required\": true,"
                        + " \"nullable\": true }, \"note\": { \"type\": \"string\", \"nullable\": true,"
                        + " \"maxLength\": 9 },"
                        + " \"n\": { \"type\": \"integer\", \"min\": -3, \"max\": 7 }")
                .replace("\"maxRejectedLines\": 0",
                        "\"maxRejectedLines\": 4, \"volume\": { \"maxChangePercent\": 40 }");
        String hourly = transactions.replace("\"cadence\": \"daily\"", "\"cadence\": \"hourly\"")
                .replace("\"first\": \"2026-10-01\"", "\"first\": \"2026-10-01T05\"")
                .replace("\"graceHours\": 6", "\"graceHours\": 30");
        String list = transactions.replace("\"cadence\": \"daily\"", "\"cadence\": \"list\"")
                .replace("\"first\": \"2026-10-01\"", "\"units\": [\"2026-10-01\", \"2026-11-01\"]")
                .replace("\"unknownFields\": \"reject-line\"", "\"unknownFields\": \"refuse-file\"");
        for (String json : List.of(nullable, hourly, list)) {
            assertTrue(!json.equals(transactions), "the variant differs from the shipped contract");
            DatasetContract original = ContractLoader.load("t",
                    new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
            Map<String, Object> raw = com.fasterxml.jackson.jr.ob.JSON.std.mapFrom(json);
            String yaml = OdcsYaml.write(OdcsExport.of(original, 1, ContractState.ACTIVE, raw));
            assertEquals(json.equals(nullable), yaml.contains("landing.nullable"), yaml);
            ImportedContract imported = OdcsImport.read("t.odcs.yaml", yaml.getBytes(StandardCharsets.UTF_8));
            assertSameEnforcement(original,
                    ContractLoader.load("t", new ByteArrayInputStream(imported.contractJson())));
        }
    }

    static void assertSameEnforcement(DatasetContract expected, DatasetContract actual) {
        assertEquals(expected.dataset(), actual.dataset());
        assertEquals(expected.version(), actual.version());
        assertEquals(expected.format(), actual.format());
        assertEquals(expected.key(), actual.key());
        assertEquals(expected.fields(), actual.fields());
        assertEquals(expected.prohibited(), actual.prohibited());
        assertEquals(expected.unknownFields(), actual.unknownFields());
        assertEquals(expected.maxRejectedLines(), actual.maxRejectedLines());
        assertEquals(expected.allowEmpty(), actual.allowEmpty());
        assertEquals(expected.acceptEmptyUnits(), actual.acceptEmptyUnits());
        assertEquals(expected.volume(), actual.volume());
        UnitSpec e = expected.unit();
        UnitSpec a = actual.unit();
        assertEquals(e.pattern().pattern(), a.pattern().pattern());
        assertEquals(List.of(e.cadence(), String.valueOf(e.first()), e.units(), e.graceHours(), e.lookbackDays(),
                        e.dependsOnPrevious(), e.autoRedrive()),
                List.of(a.cadence(), String.valueOf(a.first()), a.units(), a.graceHours(), a.lookbackDays(),
                        a.dependsOnPrevious(), a.autoRedrive()));
    }
}
