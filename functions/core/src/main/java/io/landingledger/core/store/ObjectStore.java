package io.landingledger.core.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The object store as the publish protocol needs it (S3 in production, see {@code S3ObjectStore}). Every method
 * either does what it says or throws: a {@link PreconditionFailedException} or {@link ConcurrentUpdateException}
 * for a refused conditional write, {@link ObjectNotFoundException} for a missing object or version, and any other
 * runtime exception for an infrastructure fault the caller should let propagate (so Lambda retries).
 */
public interface ObjectStore {

    /** The latest version of an object, or empty. */
    Optional<StoredObject> head(String bucket, String key);

    /** Opens one version of an object for streaming; the caller closes the stream. */
    OpenedObject open(String bucket, String key, String versionId) throws ObjectNotFoundException;

    /** Starts a streamed upload (multipart: parts are uploaded as they fill, memory stays bounded). */
    StreamingUpload startUpload(String bucket, String key, String contentType);

    /** Puts a small object whole. */
    void put(String bucket, String key, byte[] body, String contentType);

    /**
     * Copies {@code sourceKey} to {@code targetKey} in one bucket with the given user metadata, committing the copy
     * only if {@code precondition} holds on the target at commit time (S3: multipart copy completed with
     * If-None-Match or If-Match). Returns the new object's ETag.
     *
     * @throws PreconditionFailedException the target exists (If-None-Match) or has another ETag (If-Match): 412
     * @throws ConcurrentUpdateException   a concurrent operation on the target interfered: 409, retry
     */
    String promote(String bucket, String sourceKey, String targetKey, Map<String, String> metadata, Precondition precondition)
            throws PreconditionFailedException, ConcurrentUpdateException;

    /** Deletes an object (its latest version); deleting a missing object is not an error. */
    void delete(String bucket, String key);

    /**
     * Every current object under a prefix, in key order, fetched a page (up to 1,000 keys) at a time as the caller
     * iterates: one request per 1,000 objects (S3: ListObjectsV2).
     */
    Iterable<ListedObject> list(String bucket, String prefix);

    /**
     * Every version under a prefix (S3: ListObjectVersions), fetched a page at a time as the caller iterates: keys in
     * key order, each key's versions newest first (the order S3 created them in). Delete markers are not returned: a
     * key whose latest version is a delete marker has no entry with {@code latest} set.
     */
    Iterable<ListedVersion> versions(String bucket, String prefix);

    /**
     * One version of a version listing.
     *
     * @param latest true for the key's current version (the one a GET without a version id reads)
     */
    record ListedVersion(String key, String versionId, String etag, long size, Instant lastModified, boolean latest) {
    }

    /** One entry of a listing: the current version's key, ETag (unquoted), size and LastModified. */
    record ListedObject(String key, String etag, long size, Instant lastModified) {
    }

    /** One opened object version: its description and its body. */
    record OpenedObject(StoredObject object, InputStream body) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            body.close();
        }
    }

    /** An upload in progress. Write the body to {@link #stream()}, then {@link #complete()} or {@link #abort()}. */
    interface StreamingUpload extends AutoCloseable {
        OutputStream stream();

        /** Finishes the upload and returns the object's ETag. */
        String complete() throws IOException;

        /** Abandons the upload; nothing becomes visible. Safe to call after a failure and more than once. */
        void abort();

        /** Aborts unless completed. */
        @Override
        void close();
    }
}
