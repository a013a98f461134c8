package io.landingledger.core.store;

import java.time.Instant;
import java.util.Map;

/**
 * What the object store says about one object version.
 *
 * @param bucket       bucket
 * @param key          key
 * @param versionId    version id, or null where the bucket is not versioned
 * @param etag         ETag without quotes
 * @param size         bytes
 * @param lastModified S3's LastModified
 * @param metadata     user metadata (without the x-amz-meta- prefix)
 */
public record StoredObject(String bucket, String key, String versionId, String etag, long size, Instant lastModified,
                           Map<String, String> metadata) {
    public StoredObject {
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    }
}
