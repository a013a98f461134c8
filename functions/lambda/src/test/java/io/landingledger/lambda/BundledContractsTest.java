package io.landingledger.lambda;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** A contract looked up by its dataset's name is the one the handlers load with all the others. */
class BundledContractsTest {

    @Test
    void eachBundledContract_byName_isTheOneTheRegistryLoads() {
        Map<String, DatasetContract> all = ContractRegistry.fromClasspath(DependencyFactory.class).all();
        assertFalse(all.isEmpty());
        for (Map.Entry<String, DatasetContract> contract : all.entrySet()) {
            // by text: a unit pattern is a java.util.regex.Pattern, which has no equals
            assertEquals(Optional.of(contract.getValue().toString()),
                    ContractRegistry.bundled(DependencyFactory.class, contract.getKey()).map(DatasetContract::toString));
        }
    }

    @Test
    void aNameNoContractHas_orThatIsAPath_findsNothing() {
        for (String name : new String[] {"no_such_dataset", "../datasets/progress_events", "progress_events.json/", ".hidden", ""}) {
            assertEquals(Optional.empty(), ContractRegistry.bundled(DependencyFactory.class, name), name);
        }
    }
}
