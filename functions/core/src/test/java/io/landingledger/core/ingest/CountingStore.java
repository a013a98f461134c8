package io.landingledger.core.ingest;

import io.landingledger.core.store.ConcurrentUpdateException;
import io.landingledger.core.store.ObjectNotFoundException;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.store.Precondition;
import io.landingledger.core.store.PreconditionFailedException;
import io.landingledger.core.store.StoredObject;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Counts every write a simulated run makes to S3 ({@link ProtocolModel#writes}: S5 says a replay makes none), and
 * remembers the version listing each run decided on (S4 is judged by it).
 */
final class CountingStore implements ObjectStore {
    private final ObjectStore delegate;
    private final ProtocolModel model;

    CountingStore(ObjectStore delegate, ProtocolModel model) {
        this.delegate = delegate;
        this.model = model;
    }

    @Override
    public Optional<StoredObject> head(String bucket, String key) {
        Optional<StoredObject> head = delegate.head(bucket, key);
        if (key.equals(ProtocolModel.PUBLISHED_KEY)) {
            model.sawPublished(head.map(o -> o.metadata().get("run-id")).orElse(null));
        }
        return head;
    }

    @Override
    public OpenedObject open(String bucket, String key, String versionId) throws ObjectNotFoundException {
        return delegate.open(bucket, key, versionId);
    }

    @Override
    public StreamingUpload startUpload(String bucket, String key, String contentType) {
        model.countWrite();
        StreamingUpload upload = delegate.startUpload(bucket, key, contentType);
        return new StreamingUpload() {
            @Override
            public OutputStream stream() {
                return upload.stream();
            }

            @Override
            public String complete() throws IOException {
                model.countWrite();
                return upload.complete();
            }

            @Override
            public void abort() {
                upload.abort();
            }

            @Override
            public void close() {
                upload.close();
            }
        };
    }

    @Override
    public void put(String bucket, String key, byte[] body, String contentType) {
        model.countWrite();
        delegate.put(bucket, key, body, contentType);
    }

    @Override
    public String promote(String bucket, String sourceKey, String targetKey, Map<String, String> metadata, Precondition precondition)
            throws PreconditionFailedException, ConcurrentUpdateException {
        model.countWrite();
        model.promoterView = model.viewOfCurrent();
        model.promoterSawRunId = model.publishedSeenByCurrent();
        return delegate.promote(bucket, sourceKey, targetKey, metadata, precondition);
    }

    @Override
    public void delete(String bucket, String key) {
        model.countWrite();
        delegate.delete(bucket, key);
    }

    @Override
    public Iterable<ListedObject> list(String bucket, String prefix) {
        return delegate.list(bucket, prefix);
    }

    @Override
    public Iterable<ListedVersion> versions(String bucket, String prefix) {
        List<ListedVersion> listing = new ArrayList<>();
        delegate.versions(bucket, prefix).forEach(listing::add);
        model.sawListing(listing);
        return listing;
    }
}
