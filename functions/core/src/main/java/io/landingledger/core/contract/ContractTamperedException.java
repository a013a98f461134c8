package io.landingledger.core.contract;

import java.util.Objects;

/**
 * A stored contract version that is not what was registered: its bytes hash other than the SHA-256 recorded when the
 * version was created ({@link ContractSeal}), or there is no such record. The version is never used: a function
 * that meets it fails the invocation (Lambda retries it, then the failure queue holds the event), so no file of the
 * dataset is validated or published under it until on-call resolves it. The message names the code, the dataset and
 * the version, never the contract's content.
 */
public final class ContractTamperedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The version's bytes hash other than its registration record says. */
    public static final String TAMPERED = "CONTRACT_TAMPERED";
    /** The version has no registration record (written around the registrar, or its registration was cut short). */
    public static final String UNSEALED = "CONTRACT_UNSEALED";

    private final String code;
    private final String dataset;
    private final int version;

    public ContractTamperedException(String code, String dataset, int version) {
        super(code + ": " + dataset + " v" + version + (TAMPERED.equals(code)
                ? " in the contract store does not match the SHA-256 recorded when it was registered"
                : " in the contract store has no registration record (its SHA-256)")
                + "; no file of " + dataset + " is validated under it"
                + " (docs/operations.md, \"A contract version refused\")");
        this.code = Objects.requireNonNull(code, "code");
        this.dataset = dataset;
        this.version = version;
    }

    /** {@link #TAMPERED} or {@link #UNSEALED}. */
    public String code() {
        return code;
    }

    public String dataset() {
        return dataset;
    }

    public int version() {
        return version;
    }
}
