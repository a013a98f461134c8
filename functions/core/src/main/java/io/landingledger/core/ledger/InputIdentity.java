package io.landingledger.core.ledger;

import java.time.Instant;

/**
 * The input a unit was built from: SHA-256 of the stored bytes plus the S3 version and ETag that were read.
 *
 * <p>Build one with {@link #builder()}; {@code key} is required, the rest may be null (or 0): an item the ledger read
 * back may predate some of them.
 *
 * @param sequencer    the S3 event's sequencer (orders events for one key), or null when not from an event
 * @param lastModified S3 LastModified of the version read (orders inputs across keys)
 */
public record InputIdentity(String bucket, String key, String versionId, String etag, String sha256, long size,
                            String sequencer, Instant lastModified) {

    /** A builder with every component unset (null, 0). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this identity's components, to build a copy that differs in some. */
    public Builder toBuilder() {
        return new Builder()
                .bucket(bucket)
                .key(key)
                .versionId(versionId)
                .etag(etag)
                .sha256(sha256)
                .size(size)
                .sequencer(sequencer)
                .lastModified(lastModified);
    }

    /** Names each component of an {@link InputIdentity}; {@link #build()} checks the required ones. */
    public static final class Builder {
        private String bucket;
        private String key;
        private String versionId;
        private String etag;
        private String sha256;
        private long size;
        private String sequencer;
        private Instant lastModified;

        private Builder() {
        }

        public Builder bucket(String value) {
            this.bucket = value;
            return this;
        }

        public Builder key(String value) {
            this.key = value;
            return this;
        }

        public Builder versionId(String value) {
            this.versionId = value;
            return this;
        }

        public Builder etag(String value) {
            this.etag = value;
            return this;
        }

        public Builder sha256(String value) {
            this.sha256 = value;
            return this;
        }

        public Builder size(long value) {
            this.size = value;
            return this;
        }

        public Builder sequencer(String value) {
            this.sequencer = value;
            return this;
        }

        public Builder lastModified(Instant value) {
            this.lastModified = value;
            return this;
        }

        /** The identity; throws {@link IllegalStateException} naming the first required component left unset. */
        public InputIdentity build() {
            require(key, "key");
            return new InputIdentity(bucket, key, versionId, etag, sha256, size, sequencer, lastModified);
        }

        private static void require(Object value, String component) {
            if (value == null) {
                throw new IllegalStateException("InputIdentity: " + component + " is required");
            }
        }
    }
}
