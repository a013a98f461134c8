package io.landingledger.core.contract;

import java.util.List;
import java.util.Optional;

/**
 * Where the datasets' contracts live at run time (S3 under the lake's {@code _contracts/}, see {@code S3ContractStore};
 * in memory for tests). Every dataset has a history of immutable {@link ContractEntry versions}; the newest is in force.
 * Every method does what it says or throws: {@link ContractVersionExistsException} for a version someone else
 * created first, any other runtime exception for an infrastructure fault the caller lets propagate.
 *
 * <p>Versions are immutable: each is created once, with its registration record ({@link ContractSeal}, the SHA-256 of
 * its stored bytes) kept apart from it, and every read of a version ({@link #latest}, {@link #version},
 * {@link #history}) opens it against that record: a version rewritten after its registration, or one with no record,
 * is refused with {@link ContractTamperedException} and never parsed.
 *
 * <p>Readers go through {@link ContractCache}, which bounds how often a function asks.
 */
public interface ContractStore {

    /**
     * The dataset's newest version (active or retired), or empty when it was never registered.
     *
     * @throws ContractTamperedException that version is not what was registered (so is every read below)
     */
    Optional<ContractEntry> latest(String dataset);

    /** One version of the dataset, or empty. */
    Optional<ContractEntry> version(String dataset, int version);

    /** Every version of the dataset, oldest first (empty when it was never registered). */
    List<ContractEntry> history(String dataset);

    /** The name of every dataset with at least one version, in name order (a listing, no contract is read). */
    List<String> datasets();

    /**
     * Writes {@code entry} as version {@link ContractEntry#version()} of its dataset, only if no such version exists
     * (S3: PutObject with {@code If-None-Match: *}), and its registration record. Of two writers of one version exactly
     * one succeeds.
     *
     * @throws ContractVersionExistsException that version exists already (carrying it when it could be read)
     */
    void create(ContractEntry entry) throws ContractVersionExistsException;

    /** What {@link #seal} did. */
    enum SealOutcome {
        /** The record was created: the version reads again. */
        SEALED,
        /** The version has a record already; nothing written (a record is never replaced). */
        ALREADY_SEALED,
        /** No such version; nothing written. */
        NO_SUCH_VERSION,
        /** The version's stored bytes do not hash to the SHA-256 given; nothing written. */
        CONTENT_DIFFERS
    }

    /**
     * Creates the registration record of a version that has none (CONTRACT_UNSEALED: a registration cut short
     * between the version and its record, or a version registered before versions had records), only when the
     * version's stored bytes hash to {@code sha256}, the hash of the content an operator checked. Under the same
     * create-only condition as {@link #create}: a record is never replaced, so a tampered version stays refused.
     *
     * @param sha256 64 hex digits
     */
    SealOutcome seal(String dataset, int version, String sha256);
}
