package io.landingledger.core.contract;

import java.util.List;

/**
 * A registration change that the store's state does not allow: adding a dataset that is active, updating or retiring
 * one that is not, or a change that would make the dataset's published units disagree with its contract without the
 * operator saying so. Nothing was written. {@link #changes()} lists such changes, one sentence each.
 */
public final class ContractRefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final List<String> changes;

    public ContractRefusedException(String message) {
        this(message, List.of());
    }

    public ContractRefusedException(String message, List<String> changes) {
        super(message);
        this.changes = List.copyOf(changes);
    }

    public List<String> changes() {
        return changes;
    }
}
