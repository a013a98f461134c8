package io.landingledger.tools.bench;

import io.landingledger.core.store.ConcurrentUpdateException;
import io.landingledger.core.store.ForwardingObjectStore;
import io.landingledger.core.store.ObjectNotFoundException;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.store.Precondition;
import io.landingledger.core.store.PreconditionFailedException;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

/**
 * The product's object store, noting into a {@link EndToEndStage.Timeline} when the ingest path reaches each step:
 * GetObject's response, the end of validation (the staging upload's {@code complete()} is called the moment the
 * validator returns), the staged object, the promote. Every call goes to the real store unchanged.
 */
final class TimedObjectStore extends ForwardingObjectStore {
    private final EndToEndStage.Timeline timeline;
    private final Runnable afterStaged;

    /** @param afterStaged runs when the staging upload has completed, before the promote starts */
    TimedObjectStore(ObjectStore store, EndToEndStage.Timeline timeline, Runnable afterStaged) {
        super(store);
        this.timeline = timeline;
        this.afterStaged = afterStaged;
    }

    @Override
    public OpenedObject open(String bucket, String key, String versionId) throws ObjectNotFoundException {
        OpenedObject opened = store.open(bucket, key, versionId);
        timeline.firstByte = System.nanoTime();
        return opened;
    }

    @Override
    public StreamingUpload startUpload(String bucket, String key, String contentType) {
        StreamingUpload upload = store.startUpload(bucket, key, contentType);
        return new StreamingUpload() {
            @Override
            public OutputStream stream() {
                return upload.stream();
            }

            @Override
            public String complete() throws IOException {
                timeline.parsed = System.nanoTime();
                String etag = upload.complete();
                timeline.staged = System.nanoTime();
                afterStaged.run();
                return etag;
            }

            @Override
            public void abort() {
                if (timeline.parsed == 0) {
                    timeline.parsed = System.nanoTime(); // a refusal: validation ended here
                }
                upload.abort();
            }

            @Override
            public void close() {
                upload.close();
            }
        };
    }

    @Override
    public String promote(String bucket, String sourceKey, String targetKey, Map<String, String> metadata, Precondition precondition)
            throws PreconditionFailedException, ConcurrentUpdateException {
        String etag = store.promote(bucket, sourceKey, targetKey, metadata, precondition);
        timeline.promoted = System.nanoTime();
        return etag;
    }
}
