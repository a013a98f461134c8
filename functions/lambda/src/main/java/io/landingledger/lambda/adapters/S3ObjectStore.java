package io.landingledger.lambda.adapters;

import io.landingledger.core.store.ConcurrentUpdateException;
import io.landingledger.core.store.ObjectNotFoundException;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.store.Precondition;
import io.landingledger.core.store.PreconditionFailedException;
import io.landingledger.core.store.StoredObject;

import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.UploadPartCopyResponse;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * {@link ObjectStore} on S3 (SDK v2). The promote is CreateMultipartUpload + UploadPartCopy + CompleteMultipartUpload
 * under {@code If-None-Match: *} or {@code If-Match}: AWS honours those on CompleteMultipartUpload and so does every
 * emulator the tests use, so the test that proves the condition can fail (docs/emulators.md). S3 status codes are
 * translated here, once: 412 (and 404 on If-Match: the target vanished) to {@link PreconditionFailedException},
 * 409 to {@link ConcurrentUpdateException}, 404 on reads (and 405 for a delete marker's version id, 400 for a version
 * id never issued) to {@link ObjectNotFoundException}.
 */
public final class S3ObjectStore implements ObjectStore {
    /** UploadPartCopy copies at most 5 GiB per part. */
    static final long MAX_COPY_PART_BYTES = 5L << 30;

    private final S3Client s3;
    private final ExecutorService uploadExecutor;
    private final MultipartStreamingUpload.Settings uploadSettings;
    private final RangedRead.Settings readSettings;
    private final ExecutorService readPool;

    /** A store that reads objects larger than one range in {@link RangedRead.Settings#DEFAULT} ranges. */
    public S3ObjectStore(S3Client s3, ExecutorService uploadExecutor, MultipartStreamingUpload.Settings uploadSettings) {
        this(s3, uploadExecutor, uploadSettings, RangedRead.Settings.DEFAULT);
    }

    /**
     * @param readSettings how {@link #open} reads: K ranges of a size in flight. The ranges are fetched on a pool of
     *                     its own, K threads at most (idle ones end after 30 s), not on the upload executor: a range
     *                     waiting behind the staging upload's parts, which wait on the validator, which waits on the
     *                     range, would stall the run.
     */
    public S3ObjectStore(S3Client s3, ExecutorService uploadExecutor, MultipartStreamingUpload.Settings uploadSettings,
                         RangedRead.Settings readSettings) {
        this.s3 = s3;
        this.uploadExecutor = uploadExecutor;
        this.uploadSettings = uploadSettings;
        this.readSettings = readSettings;
        ThreadPoolExecutor pool = new ThreadPoolExecutor(readSettings.rangesInFlight(), readSettings.rangesInFlight(),
                30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), runnable -> {
                    Thread thread = new Thread(runnable, "landing-range-read");
                    thread.setDaemon(true);
                    return thread;
                });
        pool.allowCoreThreadTimeOut(true);
        this.readPool = pool;
    }

    public RangedRead.Settings readSettings() {
        return readSettings;
    }

    @Override
    public Optional<StoredObject> head(String bucket, String key) {
        try {
            HeadObjectResponse head = s3.headObject(r -> r.bucket(bucket).key(key));
            return Optional.of(new StoredObject(bucket, key, head.versionId(), unquote(head.eTag()), head.contentLength(),
                    head.lastModified(), head.metadata()));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public OpenedObject open(String bucket, String key, String versionId) throws ObjectNotFoundException {
        GetObjectRequest.Builder request = GetObjectRequest.builder().bucket(bucket).key(key);
        if (versionId != null && !versionId.isEmpty() && !"null".equals(versionId)) {
            request.versionId(versionId);
        }
        try {
            ResponseInputStream<GetObjectResponse> body = s3.getObject(request.build());
            GetObjectResponse response = body.response();
            StoredObject object = new StoredObject(bucket, key, response.versionId(), unquote(response.eTag()),
                    response.contentLength(), response.lastModified(), response.metadata());
            if (!readSettings.ranged(object.size()) || response.eTag() == null) {
                return new OpenedObject(object, body);
            }
            // the rest in ranges of the version this GET read, each If-Match its ETag: no range can come from other bytes
            String version = response.versionId() != null ? response.versionId() : versionId;
            String etag = response.eTag();
            return new OpenedObject(object, new RangedRead((first, last) -> range(bucket, key, version, etag, first, last),
                    readPool, readSettings, object.size(), body));
        } catch (S3Exception e) {
            // 404 NoSuchKey / NoSuchVersion: deleted before we read it; 400 InvalidArgument: a version id S3 never issued;
            // 405 MethodNotAllowed: the version id is a delete marker's (S3 and S3Proxy both answer so)
            if (e.statusCode() == 404 || (e.statusCode() == 405 && versionId != null)
                    || (e.statusCode() == 400 && versionId != null && isInvalidVersion(e))) {
                throw new ObjectNotFoundException("s3://" + bucket + "/" + key + " version " + versionId + " does not exist", e);
            }
            throw e;
        }
    }

    /** One ranged GetObject of the pinned version and ETag; its Content-Range is checked against the range asked for. */
    private InputStream range(String bucket, String key, String versionId, String etag, long first, long last) throws IOException {
        GetObjectRequest.Builder request = GetObjectRequest.builder().bucket(bucket).key(key)
                .range("bytes=" + first + "-" + last).ifMatch(quote(etag));
        if (versionId != null && !versionId.isEmpty() && !"null".equals(versionId)) {
            request.versionId(versionId);
        }
        ResponseInputStream<GetObjectResponse> body = s3.getObject(request.build());
        String contentRange = body.response().contentRange();
        if (contentRange == null || !contentRange.startsWith("bytes " + first + "-" + last + "/")) {
            body.abort();
            throw new IOException("asked s3://" + bucket + "/" + key + " for bytes " + first + "-" + last + ", got Content-Range " + contentRange);
        }
        return body;
    }

    private static boolean isInvalidVersion(S3Exception e) {
        return e.awsErrorDetails() != null && "InvalidArgument".equals(e.awsErrorDetails().errorCode());
    }

    @Override
    public StreamingUpload startUpload(String bucket, String key, String contentType) {
        return new MultipartStreamingUpload(s3, uploadExecutor, uploadSettings, bucket, key, contentType);
    }

    @Override
    public void put(String bucket, String key, byte[] body, String contentType) {
        s3.putObject(r -> r.bucket(bucket).key(key).contentType(contentType), RequestBody.fromBytes(body));
    }

    @Override
    public String promote(String bucket, String sourceKey, String targetKey, Map<String, String> metadata, Precondition precondition)
            throws PreconditionFailedException, ConcurrentUpdateException {
        HeadObjectResponse source = s3.headObject(r -> r.bucket(bucket).key(sourceKey));
        long size = source.contentLength();
        String uploadId = s3.createMultipartUpload(r -> r.bucket(bucket).key(targetKey).metadata(metadata)
                .contentType("application/x-ndjson")).uploadId();
        boolean completed = false;
        try {
            List<CompletedPart> parts = copyParts(bucket, sourceKey, targetKey, uploadId, size);
            CompleteMultipartUploadRequest.Builder complete = CompleteMultipartUploadRequest.builder()
                    .bucket(bucket).key(targetKey).uploadId(uploadId)
                    .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build());
            switch (precondition) {
                case Precondition.NoneMatch none -> complete.ifNoneMatch("*");
                case Precondition.Match match -> complete.ifMatch(quote(match.etag()));
            }
            String etag = s3.completeMultipartUpload(complete.build()).eTag();
            completed = true;
            return unquote(etag);
        } catch (S3Exception e) {
            if (e.statusCode() == 412 || (e.statusCode() == 404 && precondition instanceof Precondition.Match)) {
                throw new PreconditionFailedException("s3://" + bucket + "/" + targetKey + " did not meet " + precondition
                        + " (HTTP " + e.statusCode() + ")", e);
            }
            if (e.statusCode() == 409) {
                throw new ConcurrentUpdateException("a concurrent operation on s3://" + bucket + "/" + targetKey + " interfered (HTTP 409)", e);
            }
            throw e;
        } finally {
            if (!completed) {
                abortQuietly(bucket, targetKey, uploadId);
            }
        }
    }

    /**
     * The UploadPartCopy requests of a promote: one part without a range for an object below two minimum parts
     * (also an empty unit), else {@code maxPartsInFlight} ranges (more when a range would pass 5 GiB) copied at the
     * same time on the upload executor, so a large unit's server-side copy takes about one range's time.
     */
    private List<CompletedPart> copyParts(String bucket, String sourceKey, String targetKey, String uploadId, long size) {
        long minimum = MultipartStreamingUpload.Settings.MIN_PART_BYTES;
        if (size < 2 * minimum) {
            UploadPartCopyResponse copy = s3.uploadPartCopy(r -> r.sourceBucket(bucket).sourceKey(sourceKey)
                    .destinationBucket(bucket).destinationKey(targetKey).uploadId(uploadId).partNumber(1));
            return List.of(CompletedPart.builder().partNumber(1).eTag(copy.copyPartResult().eTag()).build());
        }
        long count = Math.max(Math.min(uploadSettings.maxPartsInFlight(), size / minimum), Math.ceilDiv(size, MAX_COPY_PART_BYTES));
        long rangeBytes = Math.ceilDiv(size, count);
        List<Future<CompletedPart>> copies = new ArrayList<>();
        try {
            int partNumber = 1;
            for (long offset = 0; offset < size; offset += rangeBytes, partNumber++) {
                String range = "bytes=" + offset + "-" + (Math.min(size, offset + rangeBytes) - 1);
                int number = partNumber;
                copies.add(uploadExecutor.submit(() -> {
                    UploadPartCopyResponse copy = s3.uploadPartCopy(r -> r.sourceBucket(bucket).sourceKey(sourceKey)
                            .destinationBucket(bucket).destinationKey(targetKey).uploadId(uploadId).partNumber(number).copySourceRange(range));
                    return CompletedPart.builder().partNumber(number).eTag(copy.copyPartResult().eTag()).build();
                }));
            }
            List<CompletedPart> parts = new ArrayList<>();
            for (Future<CompletedPart> copy : copies) {
                parts.add(copy.get());
            }
            return parts;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while copying s3://" + bucket + "/" + sourceKey + " to " + targetKey, e);
        } catch (ExecutionException e) {
            // an SDK fault (an S3Exception among them): the caller translates it as it would from a sequential copy
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } finally {
            copies.forEach(copy -> copy.cancel(true)); // no-op for the finished ones
        }
    }

    private void abortQuietly(String bucket, String key, String uploadId) {
        try {
            s3.abortMultipartUpload(AbortMultipartUploadRequest.builder().bucket(bucket).key(key).uploadId(uploadId).build());
        } catch (RuntimeException e) {
            // the lake's lifecycle rule aborts incomplete multipart uploads after a day
        }
    }

    @Override
    public void delete(String bucket, String key) {
        s3.deleteObject(r -> r.bucket(bucket).key(key));
    }

    @Override
    public Iterable<ListedObject> list(String bucket, String prefix) {
        // the paginator fetches the next page only when iteration reaches it
        return () -> s3.listObjectsV2Paginator(r -> r.bucket(bucket).prefix(prefix)).contents().stream()
                .map(o -> new ListedObject(o.key(), unquote(o.eTag()), o.size(), o.lastModified()))
                .iterator();
    }

    @Override
    public Iterable<ListedVersion> versions(String bucket, String prefix) {
        // S3 returns versions and delete markers interleaved; the SDK splits them, and only the versions are kept (a
        // key whose latest is a delete marker then has no version marked latest, which is all the caller needs)
        return () -> s3.listObjectVersionsPaginator(r -> r.bucket(bucket).prefix(prefix)).stream()
                .flatMap(page -> page.versions().stream())
                .map(v -> new ListedVersion(v.key(), v.versionId(), unquote(v.eTag()), v.size() == null ? 0 : v.size(),
                        v.lastModified(), Boolean.TRUE.equals(v.isLatest())))
                .iterator();
    }

    static String unquote(String etag) {
        if (etag == null) {
            return null;
        }
        return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"") ? etag.substring(1, etag.length() - 1) : etag;
    }

    static String quote(String etag) {
        return etag.startsWith("\"") ? etag : "\"" + etag + "\"";
    }
}
