package io.landingledger.core.contract;

import java.util.Optional;

/** A write of version N of a dataset lost: version N exists (another operator's change won the race). */
public final class ContractVersionExistsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String dataset;
    private final int version;
    private final transient ContractEntry existing;

    public ContractVersionExistsException(String dataset, int version, ContractEntry existing) {
        super("version " + version + " of " + dataset + " exists already"
                + (existing == null ? "" : " (" + existing.state().wireName() + ", " + existing.at() + ", reason: " + existing.reason() + ")")
                + "; read the dataset again (landing dataset show " + dataset + ") and submit your change as version " + (version + 1));
        this.dataset = dataset;
        this.version = version;
        this.existing = existing;
    }

    public String dataset() {
        return dataset;
    }

    public int version() {
        return version;
    }

    /** The version that won, when the store could read it back. */
    public Optional<ContractEntry> existing() {
        return Optional.ofNullable(existing);
    }
}
