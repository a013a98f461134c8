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
 */
public record PublishedRef(String key, String etag, long accepted, long rejected, long duplicates, String quarantineKey) {
}
