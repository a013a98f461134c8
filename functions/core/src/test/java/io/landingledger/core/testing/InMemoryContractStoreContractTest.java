package io.landingledger.core.testing;

import io.landingledger.core.contract.ContractStore;
import io.landingledger.core.contract.ContractStoreContract;

/** The contract store contract, in memory. */
class InMemoryContractStoreContractTest extends ContractStoreContract {
    @Override
    protected ContractStore newStore() {
        return new InMemoryContractStore();
    }
}
