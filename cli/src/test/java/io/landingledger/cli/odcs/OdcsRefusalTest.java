package io.landingledger.cli.odcs;

import io.landingledger.core.contract.ContractRegistrar;
import io.landingledger.core.contract.InvalidContractException;
import io.landingledger.core.testing.InMemoryContractStore;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;

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
        String changed = example.replace(from.replace("\\n", "\n"), to.replace("\\n", "\n"));
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

    @ParameterizedTest(name = "{3}")
    @CsvSource(delimiter = '|', textBlock = """
            kind: DataContract | kind: Contract | $.kind | the standard's schema refuses another kind
            apiVersion: v3.1.0 | apiVersion: v2.2.2 | $.apiVersion | an ODCS v2 document
            - name: channel\\n        logicalType: string | - name: channel\\n        logicalType: object\\n        properties:\\n          - name: code\\n            logicalType: string | $.schema[0].properties[4].logicalType | an object property, refused as such
            required: true\\n        primaryKey: true\\n        primaryKeyPosition: 1 | required: true | $.schema[0].properties | no primary key
            property: frequency\\n    value: 1 | property: frequency\\n    value: 2 | $.slaProperties[0] | a frequency other than one day or one hour
            property: landing.unit.pattern | property: landing.unit.patern | $.customProperties[1].property | a misspelt landing setting
            status: active\\n | status: active\\nservers:\\n  - server: prod\\n    type: s3\\n    location: s3://inbox/transactions\\n | $.servers | an element this product does not keep
            status: active | status: draft | $.status | a draft is not enforced
            version: 1.0.0 | version: 1.1.0 | $.version | versions are whole numbers N.0.0
            schema:\\n | schema:\\n  - name: accounts\\n    properties: []\\n | $.schema[1] | a second schema object
            logicalType: date\\n        required: true\\n      - name: business_date | logicalType: time\\n        required: true\\n      - name: business_date | $.schema[0].properties[2].logicalType | an unsupported logical type
            classification: restricted\\n      - name: email | classification: confidential\\n      - name: email | $.schema[0].properties[7].classification | a class other than restricted
            - name: card_number\\n        classification: restricted | - name: card_number\\n        logicalType: string\\n        classification: restricted | $.schema[0].properties[6].logicalType | a type on a restricted property
            property: latency | property: retention | $.slaProperties[1].property | an SLA property that is not enforced
            property: landing.allowEmpty | property: owner | $.customProperties[8].property | a custom property without the landing. prefix
            metric: rowCount | metric: nullValues | $.schema[0].quality[0] | a quality rule other than rowCount on the object
            physicalType: decimal(12,2) | physicalType: double | $.schema[0].properties[1].physicalType | a physical type other than decimal
            minLength: 1\\n        required: true\\n      - name: amount | pattern: '^A'\\n        required: true\\n      - name: amount | $.schema[0].properties[0].logicalTypeOptions.pattern | a string pattern
            mustBeBetween: [2, 100000] | mustBeBetween: [2, 100000]\\n      - metric: rowCount\\n        mustBeGreaterThan: 5 | $.schema[0].quality[1].mustBeGreaterThan | two lower row-count bounds
            value: 6\\n    unit: h | value: 6\\n    unit: h\\n  - property: timeOfAvailability\\n    value: "06:30Z" | $.slaProperties[2].value | a time of availability that is not a whole hour
            value: 6\\n    unit: h | value: 6\\n    unit: h\\n  - property: timeOfAvailability\\n    value: "07:00Z" | $.slaProperties[2].value | a time of availability that disagrees with the latency
            property: landing.maxRejectedLines\\n    value: 0 | property: landing.maxRejectedLines\\n    value: -1 | $.customProperties[7].value | the contract's own check restated at the custom property
            decimal(12,2) | decimal(40,2) | $.schema[0].properties[1].physicalType | the contract's precision limit restated at the physical type
            - name: txn_id\\n        logicalType: string\\n        logicalTypeOptions:\\n          minLength: 1 | - name: txn_id\\n        logicalType: boolean | $.schema[0].properties[5].logicalType | a key that is not a string or an integer
            """)
    void refusesNamingThePath(String from, String to, String path, String what) {
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

    @ParameterizedTest(name = "a key of two properties is refused at the second")
    @CsvSource(delimiter = '|', textBlock = """
            - name: account_id\\n        logicalType: string\\n        logicalTypeOptions:\\n          minLength: 1\\n        required: true | - name: account_id\\n        logicalType: string\\n        logicalTypeOptions:\\n          minLength: 1\\n        required: true\\n        primaryKey: true
            """)
    void refusesACompositeKey(String from, String to) {
        InvalidContractException e = refusal(from, to);
        assertEquals("$.schema[0].properties[5].primaryKey", e.jsonPath(), e.getMessage());
        assertTrue(e.problem().contains("more than one property"), e.problem());
    }
}
