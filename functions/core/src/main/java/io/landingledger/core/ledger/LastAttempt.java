package io.landingledger.core.ledger;

import java.time.Instant;

/**
 * The most recent run that changed what the ledger knows (a publish, a refusal, a stale input, an omission).
 *
 * @param outcome        PUBLISHED, REFUSED, STALE_EVENT or OMITTED
 * @param reason         a refusal code or operator reason, or null
 * @param inputVersionId the version that run read
 * @param inputSha256    its SHA-256, or null when not read
 */
public record LastAttempt(Instant at, String runId, RunKind runKind, String outcome, String reason, String inputVersionId,
                          String inputSha256) {
}
