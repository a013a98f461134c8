package io.landingledger.core.ledger;

import java.time.Instant;

/**
 * The input a unit was built from: SHA-256 of the stored bytes plus the S3 version and ETag that were read.
 *
 * @param sequencer    the S3 event's sequencer (orders events for one key), or null when not from an event
 * @param lastModified S3 LastModified of the version read (orders inputs across keys)
 */
public record InputIdentity(String bucket, String key, String versionId, String etag, String sha256, long size,
                            String sequencer, Instant lastModified) {
}
