package io.landingledger.core.validate;

/** What a line parser found in one line; reused across lines. The first problem found is the line's reason. */
final class LineOutcome {
    ReasonCode reason;
    /** Contract field name the reason concerns (or a safe unknown name), or null. */
    String field;
    /** The contract's prohibited name that was found, or null. Refuses the file. */
    String prohibited;
    /** An unknown field was seen (matters when the policy is refuse-file). */
    boolean unknownField;

    void clear() {
        reason = null;
        field = null;
        prohibited = null;
        unknownField = false;
    }

    void reject(ReasonCode code, String fieldName) {
        if (reason == null) {
            reason = code;
            field = fieldName;
        }
    }
}
