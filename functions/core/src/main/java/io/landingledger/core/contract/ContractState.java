package io.landingledger.core.contract;

/** What a version of a dataset's registration says: its contract is in force, or the dataset is retired. */
public enum ContractState {
    /** The version's contract routes, validates and sweeps the dataset. */
    ACTIVE,
    /**
     * The dataset takes no new files: its inbox keys are unroutable ({@code RETIRED_DATASET}), the sweep skips it. Its
     * ledger, history and publishes stay; a later {@code add} makes it active again under a new version.
     */
    RETIRED;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
