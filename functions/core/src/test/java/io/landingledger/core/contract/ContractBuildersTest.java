package io.landingledger.core.contract;

import io.landingledger.core.testing.TestContracts;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** DatasetContract's and UnitSpec's builders and copies: one component changed, every other kept. */
class ContractBuildersTest {

    @Test
    void copies_changeOneComponent_andKeepTheRest() {
        DatasetContract contract = TestContracts.progressEvents();
        assertEquals(contract, contract.toBuilder().build());
        assertEquals(contract.unit(), contract.unit().toBuilder().build());
        DatasetContract redriving = contract.withUnit(contract.unit().withAutoRedrive(!contract.unit().autoRedrive()));
        assertEquals(!contract.unit().autoRedrive(), redriving.unit().autoRedrive());
        assertEquals(contract.unit().first(), redriving.unit().first());
        assertEquals(contract, redriving.withUnit(contract.unit()));
        assertEquals("2023-01-01", contract.unit().withFirst("2023-01-01").first());
    }

    @Test
    void build_namesTheMissingComponent() {
        assertEquals("UnitSpec: cadence is required", assertThrows(IllegalStateException.class,
                () -> UnitSpec.builder().pattern(Pattern.compile("(?<unit>.*)")).build()).getMessage());
        UnitSpec unit = UnitSpec.builder().pattern(Pattern.compile("(?<unit>.*)")).cadence(Cadence.LIST).units(List.of("a")).build();
        assertEquals(List.of("a"), unit.units());
        assertEquals("DatasetContract: key is required", assertThrows(IllegalStateException.class,
                () -> DatasetContract.builder().dataset("d").format(DataFormat.JSONL).unit(unit).build()).getMessage());
    }
}
