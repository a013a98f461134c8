package io.landingledger.core.contract;

/** What a dataset name stands for: an active contract, a retired dataset, or nothing registered. */
public sealed interface ContractLookup {

    /** The contract in force; its {@code version} is the store's version it came from. */
    record Active(DatasetContract contract) implements ContractLookup {
    }

    /** The dataset was retired by this entry: new files are not taken. */
    record Retired(ContractEntry entry) implements ContractLookup {
        /** One sentence for logs and the unroutable outcome. */
        public String detail() {
            return entry.dataset() + " was retired at version " + entry.version() + " on " + entry.at() + " (" + entry.reason()
                    + "); its files are not taken, its ledger and publishes stay";
        }
    }

    /** No contract by that name. */
    record Unknown() implements ContractLookup {
    }
}
