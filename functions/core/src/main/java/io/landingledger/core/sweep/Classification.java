package io.landingledger.core.sweep;

import java.util.List;

/**
 * One unit's classification.
 *
 * @param status the finding that comes first in {@link UnitStatus}'s order (OK when there is none)
 * @param flags  every finding, in that order (empty for OK, PENDING and MISSING)
 * @param reason a code: a refusal code, a drift kind, {@code NOT_IN_LEDGER}, the operator's reason for an omission
 * @param detail one sentence for a person: names, versions, times and codes, never row content
 */
public record Classification(UnitStatus status, List<UnitStatus> flags, String reason, String detail) {
    public Classification {
        flags = List.copyOf(flags);
    }
}
