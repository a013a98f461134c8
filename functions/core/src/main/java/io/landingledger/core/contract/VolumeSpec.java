package io.landingledger.core.contract;

/**
 * A contract's declared expectations of one unit's accepted rows ({@code "volume"} in the contract). Each bound is
 * optional; a unit outside any of them is SUSPECT_VOLUME (docs/design.md section 5), as is a unit outside the band
 * the dataset's own recent history predicts.
 *
 * @param minRows          fewer accepted rows than this is suspect, or null for no floor
 * @param maxRows          more accepted rows than this is suspect, or null for no ceiling
 * @param maxChangePercent a count further than this percentage from the history's expected count is suspect, or null
 *                         to rely on the history's own spread alone
 */
public record VolumeSpec(Long minRows, Long maxRows, Integer maxChangePercent) {

    /** No declared expectation. */
    public static final VolumeSpec NONE = new VolumeSpec(null, null, null);

    /** True when the contract declares at least one bound. */
    public boolean declared() {
        return minRows != null || maxRows != null || maxChangePercent != null;
    }
}
