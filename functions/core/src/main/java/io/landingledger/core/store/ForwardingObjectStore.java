package io.landingledger.core.store;

import java.util.Map;
import java.util.Optional;

/**
 * An {@link ObjectStore} that sends every call to another one unchanged: the base of decorators that observe a few
 * calls (the command line's progress meter and the benchmark's timeline) and override only those.
 */
public abstract class ForwardingObjectStore implements ObjectStore {
    protected final ObjectStore store;

    protected ForwardingObjectStore(ObjectStore store) {
        this.store = store;
    }

    @Override
    public Optional<StoredObject> head(String bucket, String key) {
        return store.head(bucket, key);
    }

    @Override
    public OpenedObject open(String bucket, String key, String versionId) throws ObjectNotFoundException {
        return store.open(bucket, key, versionId);
    }

    @Override
    public StreamingUpload startUpload(String bucket, String key, String contentType) {
        return store.startUpload(bucket, key, contentType);
    }

    @Override
    public void put(String bucket, String key, byte[] body, String contentType) {
        store.put(bucket, key, body, contentType);
    }

    @Override
    public String promote(String bucket, String sourceKey, String targetKey, Map<String, String> metadata, Precondition precondition)
            throws PreconditionFailedException, ConcurrentUpdateException {
        return store.promote(bucket, sourceKey, targetKey, metadata, precondition);
    }

    @Override
    public void delete(String bucket, String key) {
        store.delete(bucket, key);
    }

    @Override
    public Iterable<ListedObject> list(String bucket, String prefix) {
        return store.list(bucket, prefix);
    }

    @Override
    public Iterable<ListedVersion> versions(String bucket, String prefix) {
        return store.versions(bucket, prefix);
    }
}
