package io.landingledger.core.volume;

import java.util.Locale;

/** Where a unit's expected band of rows came from (docs/design.md section 5, "Volume"). */
public enum VolumeBasis {
    /** The dataset's own recent history alone: the median and spread of comparable earlier units. */
    HISTORY,
    /** The contract's declared {@code volume} alone: a new dataset still warming up, or a list of too few units. */
    CONTRACT,
    /** The history's median, with the contract's {@code maxChangePercent}, {@code minRows} or {@code maxRows}. */
    HISTORY_AND_CONTRACT;

    /** Lower case, for JSON and reports. */
    public String lowerCase() {
        return name().toLowerCase(Locale.ROOT);
    }
}
