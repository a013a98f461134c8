package io.landingledger.core.contract;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One immutable version of a dataset's registration in the {@link ContractStore}: version N of a dataset is written
 * once (a second writer of N is refused) and never changed. Versions count up from 1 across the dataset's life, retirements
 * included, and an active version's contract carries the same number in its {@code "version"}, so the
 * {@code contract_version} a run records names exactly this entry.
 *
 * @param dataset      the dataset's name
 * @param version      1, 2, ...: the entry's place in the dataset's history
 * @param state        active (the contract is in force) or retired
 * @param contractJson the contract as the operator submitted it, byte for byte (UTF-8); for a retirement, the
 *                     contract that was in force before it, for the record
 * @param reason       why the operator made the change (required; recorded, shown by {@code landing dataset show})
 * @param at           when the entry was accepted
 */
public record ContractEntry(String dataset, int version, ContractState state, String contractJson, String reason, Instant at) {

    public ContractEntry {
        Objects.requireNonNull(dataset, "dataset");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(contractJson, "contractJson");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(at, "at");
        if (version < 1) {
            throw new IllegalArgumentException("version must be at least 1, not " + version);
        }
    }

    /** Where this entry is, for messages: {@code contract store: progress_events v3}. */
    public String source() {
        return "contract store: " + dataset + " v" + version;
    }

    /**
     * The entry's contract, checked again as it is read (a store object edited by hand is refused with the loader's
     * error, never half used). For an active entry its version is the entry's; empty for a retirement.
     *
     * @throws InvalidContractException the stored contract does not load, or names another dataset or version
     */
    public Optional<DatasetContract> contract() {
        if (state == ContractState.RETIRED) {
            return Optional.empty();
        }
        DatasetContract contract = ContractLoader.load(source(), new ByteArrayInputStream(contractJson.getBytes(StandardCharsets.UTF_8)));
        if (!contract.dataset().equals(dataset)) {
            throw new InvalidContractException(source(), "$.dataset", "\"" + contract.dataset() + "\" is stored under " + dataset);
        }
        if (contract.version() != version) {
            throw new InvalidContractException(source(), "$.version", contract.version() + " is stored as version " + version);
        }
        return Optional.of(contract);
    }
}
