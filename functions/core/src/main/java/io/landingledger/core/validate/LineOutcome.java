package io.landingledger.core.validate;

/** What a line parser found in one line; reused across lines. The first problem found is the line's reason. */
final class LineOutcome {
    ReasonCode reason;
    /** Contract field name the reason concerns (an unknown name only as {@link UnknownFieldName#hash}), or null. */
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

    /**
     * The line is not one JSON value (RFC 8259): INVALID_JSON, whatever field-level reason an earlier member gave. A
     * member read before the syntax error is a guess at what the producer meant (an unknown field may be a key whose
     * colon is missing), so the syntax error is the exact reason. A prohibited key found on the way still refuses the
     * file: that rule holds for any bytes.
     */
    void syntaxError() {
        reason = ReasonCode.INVALID_JSON;
        field = null;
        unknownField = false;
    }

    void reject(ReasonCode code, String fieldName) {
        if (reason == null) {
            reason = code;
            field = fieldName;
        }
    }
}
