package io.landingledger.core.contract;

/** What an input field the contract does not name does to its line or file. */
public enum UnknownFieldPolicy {
    /** The line is rejected with {@code UNKNOWN_FIELD} and counts toward the reject cap (seed 002's rule). */
    REJECT_LINE,
    /** The whole file is refused: for datasets where any new column must be reviewed first. */
    REFUSE_FILE
}
