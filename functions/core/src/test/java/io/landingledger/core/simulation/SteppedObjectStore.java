package io.landingledger.core.simulation;

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
 * An {@link ObjectStore} whose every call is a yield point of the {@link Scheduler} before it reaches the delegate
 * (usually an in-memory S3 model): code under test wired to this store can be preempted, crashed or faulted at every
 * S3 request it makes. Labels are {@code s3.<method> <key>}, e.g. {@code s3.promote published/y}, with the source
 * and precondition added in traces.
 *
 * <p>What is a yield point, and what counts as a write (a write offers a crash or fault <em>after</em> it took
 * effect, see {@link Scheduler#call}):
 * <ul>
 *   <li>reads: {@code head}, {@code open}, {@code list}, {@code versions};</li>
 *   <li>writes: {@code put}, {@code promote}, {@code delete}, and an upload's {@code complete()};</li>
 *   <li>yield points with no visible effect, so no "after" variants: {@code startUpload} (S3 creates an invisible
 *       multipart upload) and an upload's {@code abort()}, or {@code close()} before it completed or aborted.</li>
 * </ul>
 * Not yield points: reading an opened body, writing an upload's stream (local buffering here; a real upload's part
 * uploads are invisible until {@code complete()}), closing a body.
 *
 * <p>{@code list} and {@code versions} read the whole listing at the yield point into a list, so a listing is one
 * atomic observation. Real S3 lists a page (1,000 keys) per request and can interleave with writes between pages;
 * a model with more keys than that per prefix would need a yield per page, which the protocol's tiny simulated
 * prefixes never reach.
 */
public final class SteppedObjectStore implements ObjectStore {
    private final Scheduler scheduler;
    private final ObjectStore delegate;

    public SteppedObjectStore(Scheduler scheduler, ObjectStore delegate) {
        this.scheduler = scheduler;
        this.delegate = delegate;
    }

    @Override
    public Optional<StoredObject> head(String bucket, String key) {
        return scheduler.call("s3.head", key, false, () -> delegate.head(bucket, key));
    }

    @Override
    public OpenedObject open(String bucket, String key, String versionId) throws ObjectNotFoundException {
        return scheduler.call("s3.open", key, scheduler.tracing() ? "@" + versionId : null, false,
                () -> delegate.open(bucket, key, versionId));
    }

    @Override
    public StreamingUpload startUpload(String bucket, String key, String contentType) {
        StreamingUpload upload = scheduler.call("s3.startUpload", key, false,
                () -> delegate.startUpload(bucket, key, contentType));
        return new SteppedUpload(upload, key);
    }

    @Override
    public void put(String bucket, String key, byte[] body, String contentType) {
        scheduler.call("s3.put", key, true, () -> {
            delegate.put(bucket, key, body, contentType);
            return null;
        });
    }

    @Override
    public String promote(String bucket, String sourceKey, String targetKey, Map<String, String> metadata,
                          Precondition precondition) throws PreconditionFailedException, ConcurrentUpdateException {
        String detail = scheduler.tracing() ? "from " + sourceKey + " " + describe(precondition) : null;
        return scheduler.call("s3.promote", targetKey, detail, true,
                () -> delegate.promote(bucket, sourceKey, targetKey, metadata, precondition));
    }

    @Override
    public void delete(String bucket, String key) {
        scheduler.call("s3.delete", key, true, () -> {
            delegate.delete(bucket, key);
            return null;
        });
    }

    @Override
    public Iterable<ListedObject> list(String bucket, String prefix) {
        return scheduler.call("s3.list", prefix, false, () -> {
            List<ListedObject> all = new ArrayList<>();
            delegate.list(bucket, prefix).forEach(all::add);
            return all;
        });
    }

    @Override
    public Iterable<ListedVersion> versions(String bucket, String prefix) {
        return scheduler.call("s3.versions", prefix, false, () -> {
            List<ListedVersion> all = new ArrayList<>();
            delegate.versions(bucket, prefix).forEach(all::add);
            return all;
        });
    }

    private static String describe(Precondition precondition) {
        return precondition instanceof Precondition.Match m ? "If-Match " + m.etag() : "If-None-Match *";
    }

    /**
     * The upload with {@code complete()} and {@code abort()} as yield points. {@code close()} aborts through a yield
     * point unless this upload already completed or aborted (the delegate's close is then a no-op by contract and
     * is called directly): so a crashed task's try-with-resources close is refused like any other call.
     */
    private final class SteppedUpload implements StreamingUpload {
        private final StreamingUpload upload;
        private final String key;
        private boolean settled;

        SteppedUpload(StreamingUpload upload, String key) {
            this.upload = upload;
            this.key = key;
        }

        @Override
        public OutputStream stream() {
            return upload.stream();
        }

        @Override
        public String complete() throws IOException {
            String etag = scheduler.call("s3.complete", key, true, upload::complete);
            settled = true;
            return etag;
        }

        @Override
        public void abort() {
            scheduler.call("s3.abort", key, false, () -> {
                upload.abort();
                return null;
            });
            settled = true;
        }

        @Override
        public void close() {
            if (settled) {
                upload.close();
                return;
            }
            scheduler.call("s3.abort (close)", key, false, () -> {
                upload.close();
                return null;
            });
            settled = true;
        }
    }
}
