package io.landingledger.core.ledger;

import java.util.Optional;

/** The ledger's condition failed: another run changed the item first. Carries the item that won, if any. */
public final class LedgerConflictException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient LedgerItem current;

    public LedgerConflictException(String message, LedgerItem current) {
        super(message);
        this.current = current;
    }

    /** The stored item at the time of the conflict (empty when it does not exist). */
    public Optional<LedgerItem> current() {
        return Optional.ofNullable(current);
    }
}
