package io.landingledger.core.ledger;

/**
 * The published object a ledger item vouches for.
 *
 * @param key           {@code published/<dataset>/unit=<unit>/part-00000.jsonl}
 * @param etag          its ETag: the ledger's condition and the skip check are tied to it
 * @param accepted      rows published
 * @param rejected      lines quarantined
 * @param duplicates    identical duplicates collapsed
 * @param quarantineKey the quarantine object, or null when nothing was rejected
 * @param contentSha256 SHA-256 (hex) of the published bytes, the rows a reader sees: what tells a restatement from a
 *                      republish of the same rows (an ETag depends on the part layout too); null for a publish recorded
 *                      before publishes carried it
 */
public record PublishedRef(String key, String etag, long accepted, long rejected, long duplicates, String quarantineKey,
                           String contentSha256) {

    /** A publish whose content hash is not known (recorded before publishes carried one). */
    public PublishedRef(String key, String etag, long accepted, long rejected, long duplicates, String quarantineKey) {
        this(key, etag, accepted, rejected, duplicates, quarantineKey, null);
    }

    /**
     * True when {@code other} is known to hold the same rows as this publish: both content hashes are known and equal.
     * An unknown hash is never the same content, so a publish recorded before hashes were carried counts as changed.
     */
    public boolean sameContentAs(PublishedRef other) {
        return other != null && contentSha256 != null && contentSha256.equals(other.contentSha256);
    }
}
