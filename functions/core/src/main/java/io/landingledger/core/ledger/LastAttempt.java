package io.landingledger.core.ledger;

import java.time.Instant;

/**
 * The most recent run that changed what the ledger knows (a publish, a refusal, a stale input, an omission).
 *
 * @param reason         a refusal code or operator reason, or null
 * @param inputVersionId the version that run read
 * @param inputSha256    its SHA-256, or null when not read
 * @param inputKey       the inbox key that run read, or null (items written before it was recorded)
 */
public record LastAttempt(Instant at, String runId, RunKind runKind, AttemptOutcome outcome, String reason, String inputVersionId,
                          String inputSha256, String inputKey) {

    /** Without the key (items written before it was recorded). */
    public LastAttempt(Instant at, String runId, RunKind runKind, AttemptOutcome outcome, String reason, String inputVersionId,
                       String inputSha256) {
        this(at, runId, runKind, outcome, reason, inputVersionId, inputSha256, null);
    }

    /** A run that read {@code input} (its version, hash and key) and ended in {@code outcome}. */
    public static LastAttempt of(Instant at, String runId, RunKind runKind, AttemptOutcome outcome, String reason,
                                 InputIdentity input) {
        return new LastAttempt(at, runId, runKind, outcome, reason, input.versionId(), input.sha256(), input.key());
    }

    /** An operator's omission, which reads no input. */
    public static LastAttempt omitted(Instant at, String runId, String reason) {
        return new LastAttempt(at, runId, RunKind.OMIT, AttemptOutcome.OMITTED, reason, null, null);
    }

    /** True when this attempt refused its input. */
    public boolean refused() {
        return outcome == AttemptOutcome.REFUSED;
    }

    /** True when this attempt read that input version. */
    public boolean read(String key, String versionId) {
        return versionId != null && versionId.equals(inputVersionId) && (inputKey == null || inputKey.equals(key));
    }
}
