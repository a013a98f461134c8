package io.landingledger.lambda.adapters;

import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.store.ObjectStoreContract;
import io.landingledger.lambda.testing.AwsEmulators;

import org.junit.jupiter.api.extension.RegisterExtension;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CompletedPart;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The object store contract against {@link S3ObjectStore} on the embedded S3 emulator (S3Proxy 4.1.0, its transient
 * nio2 store), with the staging upload's smallest part size (5 MiB) and two ranges per promote.
 *
 * <p>Where S3Proxy agrees with AWS (measured by this contract): single-PUT and multipart ETags (MD5 of the part MD5s,
 * {@code -N}; UploadPartCopy parts likewise), If-None-Match / If-Match on CompleteMultipartUpload (412, and 404 for
 * If-Match on a missing key), the version listing's order and IsLatest, version id {@code "null"} in an unversioned
 * bucket, 405 for a GET of a delete marker's version, whole-second LastModified in HEAD and in listings.
 */
class S3ObjectStoreContractIT extends ObjectStoreContract {
    @RegisterExtension
    static final AwsEmulators aws = new AwsEmulators();

    private static final AtomicInteger BUCKETS = new AtomicInteger();
    /** S3's minimum part: the smallest staging part size MultipartStreamingUpload.Settings allows. */
    private static final MultipartStreamingUpload.Settings SETTINGS =
            new MultipartStreamingUpload.Settings(MultipartStreamingUpload.Settings.MIN_PART_BYTES, 2);

    /**
     * What S3Proxy does otherwise than AWS, each seen failing the AWS assertion of its case:
     * <ul>
     *   <li>{@link Difference#MULTIPART_LAST_MODIFIED_IS_COMPLETION}: an upload initiated, then a PUT of the same key
     *       two seconds later, then the upload completed: S3Proxy dates the multipart version at its completion (its
     *       nio2 store mints LastModified in {@code putBlob}, which CompleteMultipartUpload calls), so it is not older
     *       than the PUT it replaced, as it is on AWS.
     *   <li>{@link Difference#KEYS_LISTED_IN_UTF16_ORDER}: {@code k/\uD83D\uDE00} (U+1F600) is listed before
     *       {@code k/\uE000}; AWS lists by UTF-8 bytes (EE 80 80 before F0 9F 98 80).
     *   <li>{@link Difference#KEY_CANNOT_BE_A_FOLDER_OF_OTHER_KEYS}: PutObject of {@code d} beside {@code d/x} is a
     *       500 (Jetty logs {@code DirectoryNotEmptyException: /bucket/d}).
     * </ul>
     */
    @Override
    protected Set<Difference> differences() {
        return EnumSet.of(Difference.MULTIPART_LAST_MODIFIED_IS_COMPLETION, Difference.KEYS_LISTED_IN_UTF16_ORDER,
                Difference.KEY_CANNOT_BE_A_FOLDER_OF_OTHER_KEYS);
    }

    @Override
    protected Fixture fixture() {
        S3Client s3 = aws.s3();
        ExecutorService uploads = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "contract-part-upload");
            t.setDaemon(true);
            return t;
        });
        S3ObjectStore s3Store = new S3ObjectStore(s3, uploads, SETTINGS);
        return new Fixture() {
            @Override
            public ObjectStore store() {
                return s3Store;
            }

            @Override
            public String newBucket(boolean versioned) {
                String name = "contract-" + BUCKETS.incrementAndGet() + "-" + UUID.randomUUID().toString().substring(0, 8);
                s3.createBucket(r -> r.bucket(name));
                if (versioned) {
                    s3.putBucketVersioning(r -> r.bucket(name).versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
                }
                return name;
            }

            @Override
            public void put(String bucket, String key, byte[] body, Map<String, String> metadata) {
                s3.putObject(r -> r.bucket(bucket).key(key).metadata(metadata), RequestBody.fromBytes(body));
            }

            @Override
            public void putWithParts(String bucket, String key, byte[] body, int partSize, Runnable between) {
                String uploadId = s3.createMultipartUpload(r -> r.bucket(bucket).key(key)).uploadId();
                between.run();
                List<CompletedPart> parts = new ArrayList<>();
                int offset = 0;
                do {
                    int length = Math.min(partSize, body.length - offset);
                    int number = parts.size() + 1;
                    byte[] part = java.util.Arrays.copyOfRange(body, offset, offset + length);
                    String etag = s3.uploadPart(r -> r.bucket(bucket).key(key).uploadId(uploadId).partNumber(number),
                            RequestBody.fromBytes(part)).eTag();
                    parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
                    offset += length;
                } while (offset < body.length);
                s3.completeMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(uploadId).multipartUpload(m -> m.parts(parts)));
            }

            @Override
            public void deleteVersion(String bucket, String key, String versionId) {
                s3.deleteObject(r -> r.bucket(bucket).key(key).versionId(versionId));
            }

            @Override
            public String newestDeleteMarker(String bucket, String key) {
                return s3.listObjectVersions(r -> r.bucket(bucket).prefix(key)).deleteMarkers().stream()
                        .filter(marker -> marker.key().equals(key)).findFirst().orElseThrow().versionId();
            }

            @Override
            public void elapse(Duration duration) {
                try {
                    Thread.sleep(duration.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public int minPartBytes() {
                return MultipartStreamingUpload.Settings.MIN_PART_BYTES;
            }

            @Override
            public int uploadPartBytes() {
                return SETTINGS.partBytes();
            }

            @Override
            public int copyPartsInFlight() {
                return SETTINGS.maxPartsInFlight();
            }

            @Override
            public void close() {
                uploads.shutdownNow();
            }
        };
    }
}
