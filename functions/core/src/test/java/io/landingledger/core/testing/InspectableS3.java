package io.landingledger.core.testing;

import io.landingledger.core.store.ObjectStore;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * S3 as a simulation sees it: the {@link ObjectStore} port the services under test call, plus what producers and S3
 * itself do (PUTs, multipart uploads, version deletes, lifecycle expiry, the notifications it sends) and reads of
 * what it holds, so a model's checks and out-of-band actors work the same on {@link InMemoryObjectStore} and on an
 * emulator behind the real adapter.
 */
public interface InspectableS3 extends ObjectStore {

    /** A producer's single PutObject; returns the new version. */
    InMemoryObjectStore.Version put(String bucket, String key, byte[] body, String contentType,
                                    Map<String, String> metadata);

    /** A producer's multipart upload in parts of {@code partSize} bytes, initiated and completed now. */
    InMemoryObjectStore.Version putWithParts(String bucket, String key, byte[] body, int partSize);

    /** A producer's multipart upload, initiated now and completed later. */
    PendingPut startMultipartPut(String bucket, String key, String contentType, Map<String, String> metadata);

    /** DeleteObject with a version id: that version or delete marker is gone for good. */
    void deleteVersion(String bucket, String key, String versionId);

    /** The inbox's lifecycle rule come due for one key (no event); returns how many versions and markers went. */
    int expireNoncurrent(String bucket, String key);

    /** The key's newest version or delete marker, with its bytes. */
    Optional<InMemoryObjectStore.Version> current(String bucket, String key);

    /**
     * Every version and delete marker of the bucket: keys in key order, each key's newest first. The bytes may be
     * absent (null): a model reads bytes through {@link #current} and through the versions its producers created.
     */
    List<InMemoryObjectStore.Version> allVersions(String bucket);

    /** Every object notification so far, in commit order. */
    List<InMemoryObjectStore.Event> events();

    /** A multipart upload between CreateMultipartUpload and CompleteMultipartUpload. */
    interface PendingPut {
        /** Uploads {@code body} in parts of {@code partSize} bytes and completes; returns the new version. */
        InMemoryObjectStore.Version complete(byte[] body, int partSize);
    }
}
