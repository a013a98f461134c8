package io.landingledger.core.ledger;

import java.time.Instant;

/**
 * The most recent run that changed what the ledger knows (a publish, a refusal, a stale input, an omission).
 *
 * @param outcome        PUBLISHED, REFUSED, UNCHANGED (a new version with the published input's bytes) or OMITTED
 * @param reason         a refusal code or operator reason, or null
 * @param inputVersionId the version that run read
 * @param inputSha256    its SHA-256, or null when not read
 * @param inputKey       the inbox key that run read, or null (items written before it was recorded)
 */
public record LastAttempt(Instant at, String runId, RunKind runKind, String outcome, String reason, String inputVersionId,
                          String inputSha256, String inputKey) {

    /** Without the key (omissions, which read no input). */
    public LastAttempt(Instant at, String runId, RunKind runKind, String outcome, String reason, String inputVersionId,
                       String inputSha256) {
        this(at, runId, runKind, outcome, reason, inputVersionId, inputSha256, null);
    }

    /** True when this attempt read that input version. */
    public boolean read(String key, String versionId) {
        return versionId != null && versionId.equals(inputVersionId) && (inputKey == null || inputKey.equals(key));
    }
}
