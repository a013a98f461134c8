package io.landingledger.core.ledger;

import java.time.Instant;
import java.util.Objects;

/**
 * An operator's acceptance of a unit published with zero rows (docs/design.md section 6, {@code action: accept-empty}):
 * the day was legitimately empty, so the unit no longer fails completeness. Kept on the ledger item while the standing
 * publish's rows are the ones accepted; a publish that changes them drops it (the new rows are judged afresh).
 *
 * @param at     when it was recorded
 * @param runId  the operator's run that recorded it (also the LedgerHistory item's run)
 * @param reason the operator's reason, shown by status and explain
 */
public record EmptyAcceptance(Instant at, String runId, String reason) {
    public EmptyAcceptance {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(reason, "reason");
    }
}
