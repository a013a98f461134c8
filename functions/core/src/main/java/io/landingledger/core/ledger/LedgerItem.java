package io.landingledger.core.ledger;

import java.time.Instant;

/**
 * One unit's ledger item: what is published now and from what (DESIGN.md section 4).
 *
 * @param input            the input of the current publish (or of the refusal, when never published)
 * @param published        the published object, or null when none
 * @param publishCount     distinct publishes so far (above 1 means the unit was restated)
 * @param firstPublishedAt the first publish, or null
 * @param publishedAt      the current publish, or null
 * @param reason           the refusal code (REFUSED) or the operator's reason (OMITTED), else null
 */
public record LedgerItem(String dataset, String unit, LedgerStatus status, InputIdentity input, PublishedRef published,
                         String runId, RunKind runKind, int contractVersion, long publishCount, Instant firstPublishedAt,
                         Instant publishedAt, LastAttempt lastAttempt, String reason) {

    /** The ETag the ledger vouches for, or null when nothing is published. */
    public String publishedEtag() {
        return published == null ? null : published.etag();
    }
}
