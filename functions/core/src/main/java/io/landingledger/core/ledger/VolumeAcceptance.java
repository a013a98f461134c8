package io.landingledger.core.ledger;

import java.time.Instant;
import java.util.Objects;

/**
 * An operator's acceptance of a unit whose row count the sweep found outside the dataset's expected band
 * ({@code landing repair D U --accept-volume --reason R}): the count is what the day really held, so the unit no
 * longer fails completeness. Kept on the ledger item while the standing publish's rows are the ones accepted; a
 * publish that changes them drops it (the new rows are judged afresh), as {@link EmptyAcceptance} is.
 *
 * @param at     when it was recorded
 * @param runId  the operator's run that recorded it (also the LedgerHistory item's run)
 * @param reason the operator's reason, shown by status and explain
 */
public record VolumeAcceptance(Instant at, String runId, String reason) {
    public VolumeAcceptance {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(reason, "reason");
    }
}
