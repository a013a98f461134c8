package io.landingledger.core.ledger;

import java.time.Instant;

/**
 * One unit's ledger item: what is published now and from what (docs/design.md section 4).
 *
 * @param input            the input of the current publish (or of the refusal, when never published)
 * @param published        the published object, or null when none
 * @param publishCount     distinct publishes so far (above 1 means the unit was restated)
 * @param firstPublishedAt the first publish, or null
 * @param publishedAt      the current publish, or null
 * @param reason           the refusal code (REFUSED) or the operator's reason (OMITTED), else null
 * @param revision         how many times the item was written (1 after its first write; 0 for an item built to be
 *                         written): every write is conditioned on the revision its writer read
 */
public record LedgerItem(String dataset, String unit, LedgerStatus status, InputIdentity input, PublishedRef published,
                         String runId, RunKind runKind, int contractVersion, long publishCount, Instant firstPublishedAt,
                         Instant publishedAt, LastAttempt lastAttempt, String reason, long revision) {

    /** An item not read from the ledger (revision 0): one to be written. */
    public LedgerItem(String dataset, String unit, LedgerStatus status, InputIdentity input, PublishedRef published,
                      String runId, RunKind runKind, int contractVersion, long publishCount, Instant firstPublishedAt,
                      Instant publishedAt, LastAttempt lastAttempt, String reason) {
        this(dataset, unit, status, input, published, runId, runKind, contractVersion, publishCount, firstPublishedAt,
                publishedAt, lastAttempt, reason, 0);
    }

    /** This item as stored at {@code stored} (the ledger sets it on every write). */
    public LedgerItem withRevision(long stored) {
        return new LedgerItem(dataset, unit, status, input, published, runId, runKind, contractVersion, publishCount,
                firstPublishedAt, publishedAt, lastAttempt, reason, stored);
    }

    /** The ETag the ledger vouches for, or null when nothing is published. */
    public String publishedEtag() {
        return published == null ? null : published.etag();
    }
}
