package io.landingledger.core.testing;

import io.landingledger.core.contract.ContractStore;
import io.landingledger.core.contract.ContractStoreContract;

/** The contract store contract, in memory. */
class InMemoryContractStoreContractTest extends ContractStoreContract {
    private InMemoryContractStore store;

    @Override
    protected ContractStore newStore() {
        store = new InMemoryContractStore();
        return store;
    }

    @Override
    protected void rewriteAroundThePolicy(String dataset, int version, byte[] body) {
        store.overwrite(dataset, version, body);
    }

    @Override
    protected void writeUnsealed(String dataset, int version, byte[] body) {
        store.overwrite(dataset, version, body);
    }
}
