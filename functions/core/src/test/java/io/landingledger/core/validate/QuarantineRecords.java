package io.landingledger.core.validate;

/** The quarantine record the validator writes for a rejected line, as the tests expect to read it. */
final class QuarantineRecords {
    private QuarantineRecords() {
    }

    /** {@code {"line":N,"reason":"R"}}, with {@code "field":"F"} when the reason concerns a field. */
    static String record(long line, ReasonCode reason, String field) {
        return "{\"line\":" + line + ",\"reason\":\"" + reason + "\"" + (field == null ? "" : ",\"field\":\"" + field + "\"") + "}";
    }
}
