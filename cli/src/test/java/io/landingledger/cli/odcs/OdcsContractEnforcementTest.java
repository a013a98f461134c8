package io.landingledger.cli.odcs;

import io.landingledger.core.contract.ContractRegistrar;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.FieldSpec;
import io.landingledger.core.contract.UnitCalendar;
import io.landingledger.core.contract.VolumeSpec;
import io.landingledger.core.testing.InMemoryContractStore;
import io.landingledger.core.validate.ReasonCode;
import io.landingledger.core.validate.RefusalCode;
import io.landingledger.core.validate.StreamingValidator;
import io.landingledger.core.validate.ValidationResult;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A contract registered from the ODCS example is the one the functions enforce: the validator refuses a file that
 * carries a restricted property and rejects a value outside an enum, the volume expectations are the rowCount rule's
 * bounds, and the unit's deadline is the SLA's latency or time of availability.
 */
class OdcsContractEnforcementTest {
    private static final String HEADER = "txn_id,account_id,business_date,amount,batch_date,channel\n";

    private static DatasetContract registered(String yaml) {
        ImportedContract imported = OdcsImport.read("transactions.odcs.yaml", yaml.getBytes(StandardCharsets.UTF_8));
        ContractRegistrar registrar = new ContractRegistrar(new InMemoryContractStore(), Clock.systemUTC());
        return registrar.add(imported.source(), imported.contractJson(), "test", false).entry().contract()
                .orElseThrow();
    }

    private static ValidationResult validate(DatasetContract contract, String csv) throws IOException {
        return new StreamingValidator(contract).validate(new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8)),
                new ByteArrayOutputStream(), new ByteArrayOutputStream());
    }

    @Test
    void aGoodFilePublishesAndTheAmountIsAnExactDecimal() throws IOException {
        DatasetContract contract = registered(OdcsDocuments.example());
        ValidationResult result = validate(contract, HEADER
                + "T-1,A-1,2026-10-01,120.00,2026-10-01,pos\nT-2,A-2,2026-10-01,15.50,2026-10-01,\n");
        assertNull(result.refusal());
        assertEquals(2, result.accepted());
        FieldSpec amount = contract.field("amount").orElseThrow();
        assertEquals(12, amount.precision());
        assertEquals(2, amount.scale());
        assertEquals("txn_id", contract.key());
    }

    @Test
    void aFileCarryingARestrictedPropertyIsRefused() throws IOException {
        DatasetContract contract = registered(OdcsDocuments.example());
        ValidationResult result = validate(contract, "txn_id,account_id,business_date,amount,batch_date,card_number\n"
                + "T-1,A-1,2026-10-01,120.00,2026-10-01,4111111111111111\n");
        assertEquals(RefusalCode.PROHIBITED_FIELD, result.refusal().code());
        assertEquals(0, result.accepted());
    }

    @Test
    void aValueOutsideTheValidValuesRejectsItsLineAndTheCapRefusesTheFile() throws IOException {
        DatasetContract contract = registered(OdcsDocuments.example());
        ValidationResult result = validate(contract, HEADER + "T-1,A-1,2026-10-01,1.00,2026-10-01,mail\n");
        assertEquals(1L, result.reasons().get(ReasonCode.ENUM_MISMATCH));
        assertEquals(RefusalCode.REJECT_CAP, result.refusal().code());
    }

    @Test
    void theKeyIsTheDuplicateKeyRule() throws IOException {
        DatasetContract contract = registered(OdcsDocuments.example());
        ValidationResult result = validate(contract, HEADER
                + "T-1,A-1,2026-10-01,1.00,2026-10-01,pos\nT-1,A-1,2026-10-01,2.00,2026-10-01,pos\n");
        assertEquals(RefusalCode.KEY_CONFLICT, result.refusal().code());
    }

    @Test
    void theRowCountRuleIsTheVolumeExpectation() {
        assertEquals(new VolumeSpec(2L, 100_000L, null), registered(OdcsDocuments.example()).volume());
        String floorOnly = OdcsDocuments.example().replace("mustBeBetween: [2, 100000]", "mustBeGreaterThan: 49")
                .replace("  - property: landing.acceptEmptyUnits\n", "  - property: landing.volume.maxChangePercent\n"
                        + "    value: 60\n  - property: landing.acceptEmptyUnits\n");
        assertEquals(new VolumeSpec(50L, null, 60), registered(floorOnly).volume());
    }

    @Test
    void theLatencyOrTimeOfAvailabilityIsTheUnitsDeadline() {
        DatasetContract sixHours = registered(OdcsDocuments.example());
        assertEquals(Optional.of(Instant.parse("2026-10-06T06:00:00Z")),
                UnitCalendar.of(sixHours).deadline("2026-10-05"));
        String oneDay = OdcsDocuments.example().replace("    value: 6\n    unit: h\n", "    value: 1\n    unit: d\n");
        assertEquals(24, registered(oneDay).unit().graceHours());
        // 09:00 at UTC-8 is 17:00 UTC: a day's file is due by 17:00 UTC the next day
        String availability = OdcsDocuments.example().replace("  - property: latency\n    value: 6\n    unit: h\n",
                "  - property: timeOfAvailability\n    value: \"09:00-08:00\"\n");
        DatasetContract byFive = registered(availability);
        assertEquals(17, byFive.unit().graceHours());
        assertEquals(Optional.of(Instant.parse("2026-10-06T17:00:00Z")),
                UnitCalendar.of(byFive).deadline("2026-10-05"));
    }
}
