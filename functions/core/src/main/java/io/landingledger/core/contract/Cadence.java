package io.landingledger.core.contract;

/** How a dataset's units are named and expected. */
public enum Cadence {
    /** One unit per calendar day, named {@code YYYY-MM-DD}. */
    DAILY,
    /** One unit per hour, named {@code YYYY-MM-DDTHH}. */
    HOURLY,
    /** A fixed list of unit names that are not time slices (tenants, source tables). */
    LIST
}
