package io.landingledger.core.ledger;

import java.time.Instant;

/**
 * The most recent run that changed what the ledger knows (a publish, a refusal, a stale input, an omission).
 *
 * <p>Build one with {@link #builder()} (or {@link #of}, {@link #omitted}); {@code at} and {@code outcome} are required,
 * the rest may be null (an item written before it was recorded).
 *
 * @param reason         a refusal code or operator reason, or null
 * @param inputVersionId the version that run read
 * @param inputSha256    its SHA-256, or null when not read
 * @param inputKey       the inbox key that run read, or null (items written before it was recorded)
 */
public record LastAttempt(Instant at, String runId, RunKind runKind, AttemptOutcome outcome, String reason, String inputVersionId,
                          String inputSha256, String inputKey) {

    /** A builder with every component unset (null). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this attempt's components, to build a copy that differs in some. */
    public Builder toBuilder() {
        return new Builder()
                .at(at)
                .runId(runId)
                .runKind(runKind)
                .outcome(outcome)
                .reason(reason)
                .inputVersionId(inputVersionId)
                .inputSha256(inputSha256)
                .inputKey(inputKey);
    }

    /** A run that read {@code input} (its version, hash and key) and ended in {@code outcome}. */
    public static LastAttempt of(Instant at, String runId, RunKind runKind, AttemptOutcome outcome, String reason,
                                 InputIdentity input) {
        return builder().at(at).runId(runId).runKind(runKind).outcome(outcome).reason(reason).input(input).build();
    }

    /** An operator's omission, which reads no input. */
    public static LastAttempt omitted(Instant at, String runId, String reason) {
        return builder().at(at).runId(runId).runKind(RunKind.OMIT).outcome(AttemptOutcome.OMITTED).reason(reason).build();
    }

    /** True when this attempt refused its input. */
    public boolean refused() {
        return outcome == AttemptOutcome.REFUSED;
    }

    /** True when this attempt read that input version. */
    public boolean read(String key, String versionId) {
        return versionId != null && versionId.equals(inputVersionId) && (inputKey == null || inputKey.equals(key));
    }

    /** Names each component of a {@link LastAttempt}; {@link #build()} checks the required ones. */
    public static final class Builder {
        private Instant at;
        private String runId;
        private RunKind runKind;
        private AttemptOutcome outcome;
        private String reason;
        private String inputVersionId;
        private String inputSha256;
        private String inputKey;

        private Builder() {
        }

        /** The input version the run read: its version id, SHA-256 and key. */
        public Builder input(InputIdentity input) {
            return inputVersionId(input.versionId()).inputSha256(input.sha256()).inputKey(input.key());
        }

        public Builder at(Instant value) {
            this.at = value;
            return this;
        }

        public Builder runId(String value) {
            this.runId = value;
            return this;
        }

        public Builder runKind(RunKind value) {
            this.runKind = value;
            return this;
        }

        public Builder outcome(AttemptOutcome value) {
            this.outcome = value;
            return this;
        }

        public Builder reason(String value) {
            this.reason = value;
            return this;
        }

        public Builder inputVersionId(String value) {
            this.inputVersionId = value;
            return this;
        }

        public Builder inputSha256(String value) {
            this.inputSha256 = value;
            return this;
        }

        public Builder inputKey(String value) {
            this.inputKey = value;
            return this;
        }

        /** The attempt; throws {@link IllegalStateException} naming the first required component left unset. */
        public LastAttempt build() {
            require(at, "at");
            require(outcome, "outcome");
            return new LastAttempt(at, runId, runKind, outcome, reason, inputVersionId, inputSha256, inputKey);
        }

        private static void require(Object value, String component) {
            if (value == null) {
                throw new IllegalStateException("LastAttempt: " + component + " is required");
            }
        }
    }
}
