package io.landingledger.cli.odcs;

import io.landingledger.core.contract.ContractRegistrar;
import io.landingledger.core.contract.InvalidContractException;
import io.landingledger.core.testing.InMemoryContractStore;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What cannot be mapped is refused with the document's path named, and nothing is registered: the standard's own
 * schema, the mapping's limits, and the contract's own checks restated about the document's element.
 */
class OdcsRefusalTest {

    /** Registers the example with {@code from} replaced by {@code to}, as the command does; returns the refusal. */
    private static InvalidContractException refusal(String from, String to) {
        String example = OdcsDocuments.example();
        String changed = example.replace(from, to);
        assertTrue(!changed.equals(example), "the test's change applies: " + from);
        InMemoryContractStore store = new InMemoryContractStore();
        ContractRegistrar registrar = new ContractRegistrar(store, Clock.systemUTC());
        InvalidContractException e = assertThrows(InvalidContractException.class, () -> {
            ImportedContract imported = OdcsImport.read("t.odcs.yaml", changed.getBytes(StandardCharsets.UTF_8));
            try {
                registrar.add(imported.source(), imported.contractJson(), "test", false);
            } catch (InvalidContractException inner) {
                throw imported.locate(inner);
            }
        });
        assertEquals(List.of(), store.datasets(), "nothing registered");
        return e;
    }

    static Stream<Arguments> unmappable() {
        return Stream.of(
                Arguments.of("the standard's schema refuses another kind", "$.kind",
                        "kind: DataContract",
                        "kind: Contract"),
                Arguments.of("an ODCS v2 document", "$.apiVersion",
                        "apiVersion: v3.1.0",
                        "apiVersion: v2.2.2"),
                Arguments.of("an object property, refused as such", "$.schema[0].properties[4].logicalType",
                        "- name: channel\n        logicalType: string",
                        "- name: channel\n        logicalType: object\n"
                        + "        properties:\n          - name: code\n"
                        + "            logicalType: string"),
                Arguments.of("no primary key", "$.schema[0].properties",
                        "required: true\n        primaryKey: true\n"
                        + "        primaryKeyPosition: 1",
                        "required: true"),
                Arguments.of("a frequency other than one day or one hour", "$.slaProperties[0]",
                        "property: frequency\n    value: 1",
                        "property: frequency\n    value: 2"),
                Arguments.of("a misspelt landing setting", "$.customProperties[1].property",
                        "property: landing.unit.pattern",
                        "property: landing.unit.patern"),
                Arguments.of("an element this product does not keep", "$.servers",
                        "status: active\n",
                        "status: active\nservers:\n  - server: prod\n    type: s3\n"
                        + "    location: s3://inbox/transactions\n"),
                Arguments.of("a draft is not enforced", "$.status",
                        "status: active",
                        "status: draft"),
                Arguments.of("versions are whole numbers N.0.0", "$.version",
                        "version: 1.0.0",
                        "version: 1.1.0"),
                Arguments.of("a second schema object", "$.schema[1]",
                        "schema:\n",
                        "schema:\n  - name: accounts\n    properties: []\n"),
                Arguments.of("an unsupported logical type", "$.schema[0].properties[2].logicalType",
                        "logicalType: date\n        required: true\n"
                        + "      - name: business_date",
                        "logicalType: time\n        required: true\n"
                        + "      - name: business_date"),
                Arguments.of("a class other than restricted", "$.schema[0].properties[7].classification",
                        "classification: restricted\n      - name: email",
                        "classification: confidential\n      - name: email"),
                Arguments.of("a type on a restricted property", "$.schema[0].properties[6].logicalType",
                        "- name: card_number\n        classification: restricted",
                        "- name: card_number\n        logicalType: string\n"
                        + "        classification: restricted"),
                Arguments.of("an SLA property that is not enforced", "$.slaProperties[1].property",
                        "property: latency",
                        "property: retention"),
                Arguments.of("a custom property without the landing. prefix", "$.customProperties[8].property",
                        "property: landing.allowEmpty",
                        "property: owner"),
                Arguments.of("a quality rule other than rowCount on the object", "$.schema[0].quality[0]",
                        "metric: rowCount",
                        "metric: nullValues"),
                Arguments.of("a physical type other than decimal", "$.schema[0].properties[1].physicalType",
                        "physicalType: decimal(12,2)",
                        "physicalType: double"),
                Arguments.of("a string pattern", "$.schema[0].properties[0].logicalTypeOptions.pattern",
                        "minLength: 1\n        required: true\n      - name: amount",
                        "pattern: '^A'\n        required: true\n      - name: amount"),
                Arguments.of("two lower row-count bounds", "$.schema[0].quality[1].mustBeGreaterThan",
                        "mustBeBetween: [2, 100000]",
                        "mustBeBetween: [2, 100000]\n      - metric: rowCount\n"
                        + "        mustBeGreaterThan: 5"),
                Arguments.of("a time of availability that is not a whole hour", "$.slaProperties[2].value",
                        "value: 6\n    unit: h",
                        "value: 6\n    unit: h\n  - property: timeOfAvailability\n"
                        + "    value: \"06:30Z\""),
                Arguments.of("a time of availability that disagrees with the latency", "$.slaProperties[2].value",
                        "value: 6\n    unit: h",
                        "value: 6\n    unit: h\n  - property: timeOfAvailability\n"
                        + "    value: \"07:00Z\""),
                Arguments.of("the contract's own check restated at the custom property", "$.customProperties[7].value",
                        "property: landing.maxRejectedLines\n    value: 0",
                        "property: landing.maxRejectedLines\n    value: -1"),
                Arguments.of("the contract's precision limit restated at the physical type",
                        "$.schema[0].properties[1].physicalType",
                        "decimal(12,2)",
                        "decimal(40,2)"),
                Arguments.of("a key that is not a string or an integer", "$.schema[0].properties[5].logicalType",
                        "- name: txn_id\n        logicalType: string\n"
                        + "        logicalTypeOptions:\n          minLength: 1",
                        "- name: txn_id\n        logicalType: boolean"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unmappable")
    void refusesNamingThePath(String what, String path, String from, String to) {
        InvalidContractException e = refusal(from, to);
        assertEquals(path, e.jsonPath(), e.getMessage());
        assertTrue(e.getMessage().startsWith("t.odcs.yaml: " + path + ": "), e.getMessage());
    }

    @Test
    void aKeyGivenTwiceIsRefusedRatherThanTheLastOneWinning() {
        InvalidContractException e = refusal("status: active\n", "status: active\nstatus: active\n");
        assertEquals("$", e.jsonPath());
        assertTrue(e.problem().contains("Duplicate") && e.problem().contains("status"), e.problem());
    }

    @Test
    void aContractCheckOnAMappedValueNamesTheElementAndTheSetting() {
        InvalidContractException e = refusal("decimal(12,2)", "decimal(40,2)");
        assertEquals("t.odcs.yaml: $.schema[0].properties[1].physicalType: must be between 1 and 38, not 40"
                + " (contract setting $.fields.amount.precision)", e.getMessage());
    }

    @Test
    void refusesACompositeKeyAtItsSecondProperty() {
        String accountId = "- name: account_id\n        logicalType: string\n        logicalTypeOptions:\n"
                + "          minLength: 1\n        required: true";
        InvalidContractException e = refusal(accountId, accountId + "\n        primaryKey: true");
        assertEquals("$.schema[0].properties[5].primaryKey", e.jsonPath(), e.getMessage());
        assertTrue(e.problem().contains("more than one property"), e.problem());
    }
}
