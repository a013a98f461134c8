package io.landingledger.core.testing;

import io.landingledger.core.store.ConcurrentUpdateException;
import io.landingledger.core.store.ObjectNotFoundException;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.store.Precondition;
import io.landingledger.core.store.PreconditionFailedException;
import io.landingledger.core.store.StoredObject;
import io.landingledger.core.store.KeyOrder;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@link ObjectStore} in memory, as AWS S3 behaves (not as an emulator does: {@code ObjectStoreContract} says where
 * S3Proxy differs), for a deterministic simulator: no threads, no sleeping, no wall clock (time comes from the
 * {@link Clock} given), deterministic version ids and sequencers, and every method synchronized on the store (the
 * simulator runs actors on several threads, one at a time; a streaming upload synchronizes on its store too).
 *
 * <h2>What it models</h2>
 * <ul>
 *   <li>Buckets are created explicitly ({@link #createBucket}), versioned (the inbox) or not (the lake). A call on a
 *       bucket that does not exist throws {@link IllegalArgumentException}: that is a bug of the test, not a fault.
 *   <li>A versioned bucket keeps every version of a key, oldest to newest in the order they were <em>committed</em>
 *       (the order S3 makes them current and lists them), each with its version id, bytes, ETag, size, LastModified,
 *       user metadata and content type. {@link #delete} adds a delete marker (also on a key with no version, or one
 *       already deleted, as S3 does). {@link #deleteVersion} removes one version or marker for good;
 *       {@link #expireNoncurrent} is the inbox's lifecycle rule. An unversioned bucket keeps one object per key; its
 *       objects have no version id ({@link StoredObject#versionId()} null; {@link #versions} says {@code "null"},
 *       as ListObjectVersions does).
 *   <li>ETags as S3 makes them: a single PUT's is the lowercase hex MD5 of the bytes; a multipart object's is the hex
 *       MD5 of the concatenated binary MD5s of its parts, then {@code -N} for N parts ({@link #multipartEtag}).
 *   <li>LastModified as S3 sets it: whole seconds, and for a multipart object the time the upload was
 *       <em>initiated</em> (CreateMultipartUpload), not completed. So a multipart object can be a key's newest
 *       version and still be older by LastModified than the version it replaced: {@link #startMultipartPut} and
 *       {@link MultipartPut#complete} are two calls so that a simulator can interleave other writes between them.
 *   <li>{@link #startUpload} is {@code MultipartStreamingUpload}: a body smaller than one part
 *       ({@link PartSizes#uploadPartBytes()}) is one PutObject at {@code complete()}; a larger one is a multipart
 *       upload initiated when the first part filled, with parts of that size and the remainder last.
 *   <li>{@link #promote} is {@code S3ObjectStore.promote}: a multipart copy with the same part ranges (one part below
 *       two minimum parts, else as many ranges as parts in flight; see {@link #copyRanges}), exactly the metadata
 *       given (not the source's), content type {@code application/x-ndjson}, committed only under the precondition:
 *       {@code NoneMatch} fails (412) when the target has a current version; {@code Match} fails (412) when the
 *       current ETag differs, and when the target has no current version S3 answers 404 NoSuchKey, which
 *       {@code S3ObjectStore} maps to {@link PreconditionFailedException} as well; this store does the same. A
 *       missing source fails with a runtime exception (S3ObjectStore: the source HEAD's NoSuchKeyException).
 *   <li>Every object event (the notification S3 would send) is recorded with its sequencer: {@link #events}. The
 *       sequencers order a key's events as S3's do, compared as S3 says (pad the shorter with zeros on the right,
 *       then compare as strings); their length varies (trailing zeros dropped) so that any other comparison fails.
 * </ul>
 *
 * <h2>Faults</h2>
 * {@link #faults(Faults)} installs a callback consulted before and after every port call ({@link Call}); what it
 * throws, the call throws: any runtime exception (an infrastructure fault) anywhere, and the checked exceptions the
 * port method declares ({@link ConcurrentUpdateException} or {@link PreconditionFailedException} from
 * {@link Operation#PROMOTE}, {@link ObjectNotFoundException} from {@link Operation#OPEN}, {@link IOException} from
 * {@link Operation#UPLOAD_WRITE} and {@link Operation#UPLOAD_COMPLETE}); any other checked exception is a test bug
 * and fails with {@link IllegalArgumentException}. A fault before a call changes nothing; a fault after it is a lost
 * response: the call took effect and the caller sees the fault. {@link #failNext} queues a one-shot fault, e.g.
 * {@code failNext(PROMOTE, new ConcurrentUpdateException("409"))}. The producer and inspection methods (not part of the
 * port) are never faulted.
 *
 * <h2>Simplifications</h2>
 * Listings are taken whole when iteration starts (S3 pages of 1,000 reflect the bucket when each page is fetched).
 * Part sizes of a producer's multipart upload are checked against {@link PartSizes#minPartBytes()} (S3's
 * EntityTooSmall), which a simulator may lower to keep bodies small. No suspended versioning, no "null" version in
 * a versioned bucket.
 */
public final class InMemoryObjectStore implements InspectableS3 {
    /** S3ObjectStore's promote: UploadPartCopy copies at most 5 GiB per part. */
    static final long MAX_COPY_PART_BYTES = 5L << 30;
    /** The content type S3ObjectStore.promote gives the published object. */
    public static final String PROMOTED_CONTENT_TYPE = "application/x-ndjson";
    private static final long SEQUENCER_BASE = 0x0066A1B2C3D4E500L;

    /**
     * Part sizes, as the production adapters choose them.
     *
     * @param minPartBytes      S3's smallest part but the last (5 MiB), also the promote's range unit
     *                          ({@code MultipartStreamingUpload.Settings.MIN_PART_BYTES})
     * @param uploadPartBytes   the staging upload's part size ({@code MultipartStreamingUpload.Settings.partBytes})
     * @param copyPartsInFlight the promote's ranges for a large object ({@code Settings.maxPartsInFlight})
     */
    public record PartSizes(int minPartBytes, int uploadPartBytes, int copyPartsInFlight) {
        /** S3's minimum and {@code MultipartStreamingUpload.Settings.DEFAULT} (16 MiB parts, 4 in flight). */
        public static final PartSizes DEFAULT = new PartSizes(5 << 20, 16 << 20, 4);

        public PartSizes {
            if (minPartBytes < 1 || uploadPartBytes < minPartBytes || copyPartsInFlight < 1) {
                throw new IllegalArgumentException("need 1 <= minPartBytes <= uploadPartBytes and copyPartsInFlight >= 1: "
                        + minPartBytes + ", " + uploadPartBytes + ", " + copyPartsInFlight);
            }
        }
    }

    /** The port calls faults are consulted at (a streaming upload's writes and complete are their own). */
    public enum Operation { HEAD, OPEN, START_UPLOAD, UPLOAD_WRITE, UPLOAD_COMPLETE, PUT, PROMOTE, DELETE, LIST, VERSIONS }

    /** One port call: for PROMOTE, {@code key} is the target; for LIST and VERSIONS, the prefix. */
    public record Call(Operation operation, String bucket, String key) {
    }

    /** Consulted before and after every port call; see the class comment for what it may throw. */
    public interface Faults {
        Faults NONE = new Faults() {
        };

        default void before(Call call) throws Exception {
        }

        default void after(Call call) throws Exception {
        }
    }

    /**
     * One version or delete marker, as stored. {@link #body()} returns a copy.
     *
     * @param versionId null in an unversioned bucket
     * @param parts     0 for a single PUT (and a delete marker), else the number of parts
     * @param sequencer the sequencer of the event that created it
     */
    public record Version(String bucket, String key, String versionId, boolean deleteMarker, byte[] body, String etag,
                          long size, Instant lastModified, Map<String, String> metadata, String contentType, int parts,
                          String sequencer) {
        public Version {
            metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
        }

        @Override
        public byte[] body() {
            return body == null ? null : body.clone();
        }

        StoredObject stored() {
            return new StoredObject(bucket, key, versionId, etag, size, lastModified, metadata);
        }

        @Override
        public String toString() {
            return (deleteMarker ? "DeleteMarker[" : "Version[") + bucket + "/" + key + " " + versionId + " " + etag + " "
                    + size + " B " + lastModified + " seq " + sequencer + "]";
        }
    }

    /**
     * One object notification S3 would send (types as S3 names them: {@code ObjectCreated:Put},
     * {@code ObjectCreated:CompleteMultipartUpload}, {@code ObjectRemoved:DeleteMarkerCreated},
     * {@code ObjectRemoved:Delete}). Lifecycle expiry sends none.
     *
     * @param eventTime the clock at the commit, to the millisecond
     */
    public record Event(String type, String bucket, String key, String versionId, String etag, long size, String sequencer,
                        Instant eventTime) {
    }

    private final Clock clock;
    private final PartSizes partSizes;
    private final Map<String, Bucket> buckets = new HashMap<>();
    private final Map<String, String> sequencers = new HashMap<>();
    private final List<Event> events = new ArrayList<>();
    private final Set<Upload> openUploads = new LinkedHashSet<>();
    private final Map<Operation, Queue<Exception>> oneShot = new EnumMap<>(Operation.class);
    private Faults faults = Faults.NONE;
    private long versionCounter;
    private long eventCounter;

    public InMemoryObjectStore(Clock clock) {
        this(clock, PartSizes.DEFAULT);
    }

    public InMemoryObjectStore(Clock clock, PartSizes partSizes) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.partSizes = Objects.requireNonNull(partSizes, "partSizes");
    }

    private static final class Bucket {
        final boolean versioned;
        /** Each key's versions and markers, oldest first. */
        final TreeMap<String, List<Version>> keys = new TreeMap<>(KeyOrder.UTF8);

        Bucket(boolean versioned) {
            this.versioned = versioned;
        }

        Version current(String key) {
            List<Version> versions = keys.get(key);
            return versions == null || versions.isEmpty() ? null : versions.get(versions.size() - 1);
        }

        Version currentObject(String key) {
            Version current = current(key);
            return current == null || current.deleteMarker() ? null : current;
        }
    }

    // ---- test set-up, producers and fault injection ----

    public synchronized InMemoryObjectStore createBucket(String bucket, boolean versioned) {
        if (buckets.containsKey(bucket)) {
            throw new IllegalArgumentException("bucket " + bucket + " already exists");
        }
        buckets.put(bucket, new Bucket(versioned));
        return this;
    }

    public synchronized PartSizes partSizes() {
        return partSizes;
    }

    /** Replaces the fault callback ({@link Faults#NONE} for none). */
    public synchronized void faults(Faults faults) {
        this.faults = Objects.requireNonNull(faults, "faults");
    }

    /** The next call of {@code operation} fails with {@code fault} before it changes anything (queued, in order). */
    public synchronized void failNext(Operation operation, Exception fault) {
        oneShot.computeIfAbsent(operation, o -> new ArrayDeque<>()).add(Objects.requireNonNull(fault, "fault"));
    }

    /** A producer's single PutObject with user metadata; returns the new version. */
    public synchronized Version put(String bucket, String key, byte[] body, String contentType, Map<String, String> metadata) {
        Instant now = now();
        return commit(bucket(bucket), bucket, key, body.clone(), md5Hex(body), 0, now, metadata, contentType,
                "ObjectCreated:Put");
    }

    /**
     * A producer's multipart upload as {@code aws s3 cp} makes it, initiated and completed now: parts of
     * {@code partSize} bytes, the remainder last.
     */
    public synchronized Version putWithParts(String bucket, String key, byte[] body, int partSize) {
        return startMultipartPut(bucket, key, null, Map.of()).complete(body, partSize);
    }

    /**
     * Initiates a producer's multipart upload (CreateMultipartUpload): the object's LastModified will be this
     * moment's, whenever {@link MultipartPut#complete} makes it visible.
     */
    public synchronized MultipartPut startMultipartPut(String bucket, String key, String contentType, Map<String, String> metadata) {
        bucket(bucket);
        return new MultipartPut(bucket, key, contentType, metadata == null ? Map.of() : Map.copyOf(metadata), now());
    }

    /** A producer's multipart upload between CreateMultipartUpload and CompleteMultipartUpload. */
    public final class MultipartPut implements PendingPut {
        private final String bucket;
        private final String key;
        private final String contentType;
        private final Map<String, String> metadata;
        private final Instant initiated;
        private boolean done;

        private MultipartPut(String bucket, String key, String contentType, Map<String, String> metadata, Instant initiated) {
            this.bucket = bucket;
            this.key = key;
            this.contentType = contentType;
            this.metadata = metadata;
            this.initiated = initiated;
        }

        public Instant initiated() {
            return initiated;
        }

        /**
         * Uploads {@code body} in parts of {@code partSize} (the remainder last; an empty body is one empty part)
         * and completes: the object becomes the key's newest version now, with LastModified {@link #initiated()}.
         *
         * @throws IllegalArgumentException a part but the last below {@link PartSizes#minPartBytes()} (S3:
         *                                  EntityTooSmall), more than 10,000 parts, or the upload already finished
         */
        public Version complete(byte[] body, int partSize) {
            synchronized (InMemoryObjectStore.this) {
                if (done) {
                    throw new IllegalArgumentException("the multipart upload of " + bucket + "/" + key + " already finished (NoSuchUpload)");
                }
                if (partSize < 1) {
                    throw new IllegalArgumentException("partSize must be positive: " + partSize);
                }
                List<long[]> ranges = fixedRanges(body.length, partSize);
                if (ranges.size() > 1 && partSize < partSizes.minPartBytes()) {
                    throw new IllegalArgumentException("EntityTooSmall: parts of " + partSize + " bytes, S3 needs at least "
                            + partSizes.minPartBytes() + " for all but the last");
                }
                if (ranges.size() > 10_000) {
                    throw new IllegalArgumentException("more than 10,000 parts: " + ranges.size());
                }
                done = true;
                return commit(bucket(bucket), bucket, key, body.clone(), multipartEtag(body, ranges), ranges.size(), initiated,
                        metadata, contentType, "ObjectCreated:CompleteMultipartUpload");
            }
        }

        /** AbortMultipartUpload: nothing becomes visible. */
        public void abort() {
            synchronized (InMemoryObjectStore.this) {
                done = true;
            }
        }
    }

    /**
     * DeleteObject with a version id: removes that version or delete marker for good; if it was the newest, the one
     * before it becomes current (S3 sends ObjectRemoved:Delete). An unknown version id changes nothing, as in S3.
     */
    public synchronized void deleteVersion(String bucket, String key, String versionId) {
        Bucket b = bucket(bucket);
        List<Version> versions = b.keys.get(key);
        if (versions == null) {
            return;
        }
        for (Iterator<Version> it = versions.iterator(); it.hasNext(); ) {
            Version v = it.next();
            if (Objects.equals(v.versionId(), versionId)) {
                it.remove();
                event("ObjectRemoved:Delete", bucket, key, versionId, null, 0);
                break;
            }
        }
        if (versions.isEmpty()) {
            b.keys.remove(key);
        }
    }

    /**
     * The inbox's lifecycle rule (infra/template.yaml, {@code expire-noncurrent-versions}) come due for one key:
     * NoncurrentVersionExpiration removes every version and delete marker but the current one, and
     * ExpiredObjectDeleteMarker then removes a current delete marker that is all that is left. No event is sent.
     *
     * @return how many versions and markers were removed
     */
    public synchronized int expireNoncurrent(String bucket, String key) {
        Bucket b = bucket(bucket);
        List<Version> versions = b.keys.get(key);
        if (versions == null) {
            return 0;
        }
        int removed = versions.size() - 1;
        Version current = versions.get(versions.size() - 1);
        versions.clear();
        if (current.deleteMarker()) {
            removed++;
            b.keys.remove(key);
        } else {
            versions.add(current);
        }
        return removed;
    }

    /** The sequencer of the event that created this version or delete marker (also once it was deleted). */
    public synchronized String sequencer(String bucket, String key, String versionId) {
        String sequencer = sequencers.get(versionKey(bucket, key, versionId));
        if (sequencer == null) {
            throw new IllegalArgumentException("no version " + versionId + " of " + bucket + "/" + key + " was ever created");
        }
        return sequencer;
    }

    /** The key's newest version or delete marker, if any. */
    public synchronized Optional<Version> current(String bucket, String key) {
        return Optional.ofNullable(bucket(bucket).current(key));
    }

    /** Every version and delete marker of the bucket: keys in key order, each key's newest first. */
    public synchronized List<Version> allVersions(String bucket) {
        List<Version> all = new ArrayList<>();
        for (List<Version> versions : bucket(bucket).keys.values()) {
            for (int i = versions.size() - 1; i >= 0; i--) {
                all.add(versions.get(i));
            }
        }
        return all;
    }

    /** The bucket's current objects (no delete markers), in key order. */
    public synchronized List<Version> objects(String bucket) {
        List<Version> current = new ArrayList<>();
        for (List<Version> versions : bucket(bucket).keys.values()) {
            Version v = versions.get(versions.size() - 1);
            if (!v.deleteMarker()) {
                current.add(v);
            }
        }
        return current;
    }

    /** Every event so far, in commit order. */
    public synchronized List<Event> events() {
        return List.copyOf(events);
    }

    /** {@code bucket/key} of every streaming upload neither completed nor aborted (a leak, if the run is over). */
    public synchronized List<String> openUploads() {
        return openUploads.stream().map(u -> u.bucket + "/" + u.key).toList();
    }

    // ---- the port ----

    @Override
    public synchronized Optional<StoredObject> head(String bucket, String key) {
        Call call = new Call(Operation.HEAD, bucket, key);
        before(call);
        Version current = bucket(bucket).currentObject(key);
        after(call);
        return Optional.ofNullable(current).map(Version::stored);
    }

    @Override
    public synchronized OpenedObject open(String bucket, String key, String versionId) throws ObjectNotFoundException {
        Call call = new Call(Operation.OPEN, bucket, key);
        before(call, ObjectNotFoundException.class);
        Bucket b = bucket(bucket);
        Version found = null;
        if (versionId == null || versionId.isEmpty() || "null".equals(versionId)) {
            found = b.currentObject(key);
        } else {
            // S3: 404 NoSuchVersion, 400 InvalidArgument for an id it never issued (and for any id in an unversioned
            // bucket), 405 MethodNotAllowed for a delete marker's id: S3ObjectStore maps all three to not-found
            for (Version v : b.keys.getOrDefault(key, List.of())) {
                if (versionId.equals(v.versionId()) && !v.deleteMarker()) {
                    found = v;
                }
            }
        }
        if (found == null) {
            throw new ObjectNotFoundException(bucket + "/" + key + " version " + versionId + " does not exist");
        }
        after(call, ObjectNotFoundException.class);
        return new OpenedObject(found.stored(), new ByteArrayInputStream(found.body));
    }

    @Override
    public synchronized StreamingUpload startUpload(String bucket, String key, String contentType) {
        Call call = new Call(Operation.START_UPLOAD, bucket, key);
        before(call);
        bucket(bucket);
        Upload upload = new Upload(bucket, key, contentType);
        openUploads.add(upload);
        after(call);
        return upload;
    }

    @Override
    public synchronized void put(String bucket, String key, byte[] body, String contentType) {
        Call call = new Call(Operation.PUT, bucket, key);
        before(call);
        put(bucket, key, body, contentType, Map.of());
        after(call);
    }

    @Override
    public synchronized String promote(String bucket, String sourceKey, String targetKey, Map<String, String> metadata,
                                       Precondition precondition) throws PreconditionFailedException, ConcurrentUpdateException {
        Call call = new Call(Operation.PROMOTE, bucket, targetKey);
        before(call, PreconditionFailedException.class, ConcurrentUpdateException.class);
        Bucket b = bucket(bucket);
        Version source = b.currentObject(sourceKey);
        if (source == null) {
            throw new IllegalStateException("404 NoSuchKey: the promote's source " + bucket + "/" + sourceKey + " does not exist");
        }
        Instant initiated = now();
        List<long[]> ranges = copyRanges(source.size(), partSizes);
        String etag = multipartEtag(source.body, ranges);
        Version target = b.currentObject(targetKey);
        switch (precondition) {
            case Precondition.NoneMatch none -> {
                if (target != null) {
                    throw new PreconditionFailedException(bucket + "/" + targetKey + " exists (If-None-Match: *, HTTP 412)");
                }
            }
            case Precondition.Match match -> {
                if (target == null) {
                    throw new PreconditionFailedException(bucket + "/" + targetKey + " does not exist (If-Match: S3 answers 404"
                            + " NoSuchKey, which S3ObjectStore maps to a failed precondition)");
                }
                if (!target.etag().equals(unquote(match.etag()))) {
                    throw new PreconditionFailedException(bucket + "/" + targetKey + " has ETag " + target.etag() + ", not "
                            + match.etag() + " (If-Match, HTTP 412)");
                }
            }
        }
        commit(b, bucket, targetKey, source.body, etag, ranges.size(), initiated, metadata, PROMOTED_CONTENT_TYPE,
                "ObjectCreated:CompleteMultipartUpload");
        after(call, PreconditionFailedException.class, ConcurrentUpdateException.class);
        return etag;
    }

    @Override
    public synchronized void delete(String bucket, String key) {
        Call call = new Call(Operation.DELETE, bucket, key);
        before(call);
        Bucket b = bucket(bucket);
        if (b.versioned) {
            String versionId = nextVersionId();
            String sequencer = event("ObjectRemoved:DeleteMarkerCreated", bucket, key, versionId, null, 0);
            b.keys.computeIfAbsent(key, k -> new ArrayList<>()).add(new Version(bucket, key, versionId, true, null, null, 0,
                    now(), Map.of(), null, 0, sequencer));
        } else if (b.keys.remove(key) != null) {
            event("ObjectRemoved:Delete", bucket, key, null, null, 0);
        }
        after(call);
    }

    @Override
    public Iterable<ListedObject> list(String bucket, String prefix) {
        return () -> {
            synchronized (this) {
                Call call = new Call(Operation.LIST, bucket, prefix);
                before(call);
                List<ListedObject> listed = new ArrayList<>();
                for (Map.Entry<String, List<Version>> e : keysUnder(bucket(bucket), prefix)) {
                    Version v = e.getValue().get(e.getValue().size() - 1);
                    if (!v.deleteMarker()) {
                        listed.add(new ListedObject(v.key(), v.etag(), v.size(), v.lastModified()));
                    }
                }
                after(call);
                return Collections.unmodifiableList(listed).iterator();
            }
        };
    }

    @Override
    public Iterable<ListedVersion> versions(String bucket, String prefix) {
        return () -> {
            synchronized (this) {
                Call call = new Call(Operation.VERSIONS, bucket, prefix);
                before(call);
                List<ListedVersion> listed = new ArrayList<>();
                for (Map.Entry<String, List<Version>> e : keysUnder(bucket(bucket), prefix)) {
                    List<Version> versions = e.getValue();
                    for (int i = versions.size() - 1; i >= 0; i--) {
                        Version v = versions.get(i);
                        if (!v.deleteMarker()) {
                            listed.add(new ListedVersion(v.key(), v.versionId() == null ? "null" : v.versionId(), v.etag(), v.size(),
                                    v.lastModified(), i == versions.size() - 1));
                        }
                    }
                }
                after(call);
                return Collections.unmodifiableList(listed).iterator();
            }
        };
    }

    private static Iterable<Map.Entry<String, List<Version>>> keysUnder(Bucket b, String prefix) {
        if (prefix == null || prefix.isEmpty()) {
            return b.keys.entrySet();
        }
        List<Map.Entry<String, List<Version>>> under = new ArrayList<>();
        for (Map.Entry<String, List<Version>> e : b.keys.tailMap(prefix, true).entrySet()) {
            if (!e.getKey().startsWith(prefix)) {
                break; // keys with the prefix are contiguous in code point order
            }
            under.add(e);
        }
        return under;
    }

    // ---- the staging upload ----

    private enum UploadState { OPEN, COMPLETED, ABORTED }

    /** MultipartStreamingUpload's behaviour, in memory. */
    private final class Upload implements StreamingUpload {
        private final String bucket;
        private final String key;
        private final String contentType;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final OutputStream stream = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] source, int offset, int length) throws IOException {
                synchronized (InMemoryObjectStore.this) {
                    Objects.checkFromIndexSize(offset, length, source.length);
                    Call call = new Call(Operation.UPLOAD_WRITE, bucket, key);
                    before(call, IOException.class);
                    if (state != UploadState.OPEN) {
                        throw new IOException("the upload to " + bucket + "/" + key + " is " + state.name().toLowerCase(java.util.Locale.ROOT));
                    }
                    bytes.write(source, offset, length);
                    if (initiated == null && bytes.size() >= partSizes.uploadPartBytes()) {
                        initiated = now(); // the first part filled: CreateMultipartUpload
                    }
                    after(call, IOException.class);
                }
            }
        };
        private UploadState state = UploadState.OPEN;
        private Instant initiated;

        Upload(String bucket, String key, String contentType) {
            this.bucket = bucket;
            this.key = key;
            this.contentType = contentType;
        }

        @Override
        public OutputStream stream() {
            return stream;
        }

        @Override
        public String complete() throws IOException {
            synchronized (InMemoryObjectStore.this) {
                if (state != UploadState.OPEN) {
                    throw new IllegalStateException("the upload is already " + state);
                }
                Call call = new Call(Operation.UPLOAD_COMPLETE, bucket, key);
                Exception fault = pending(call);
                if (fault != null) {
                    abort(); // as MultipartStreamingUpload does when its complete fails
                    raise(fault, call, IOException.class);
                }
                byte[] body = bytes.toByteArray();
                Version version;
                if (initiated == null) {
                    version = commit(bucket(bucket), bucket, key, body, md5Hex(body), 0, now(), Map.of(), contentType,
                            "ObjectCreated:Put");
                } else {
                    List<long[]> ranges = fixedRanges(body.length, partSizes.uploadPartBytes());
                    version = commit(bucket(bucket), bucket, key, body, multipartEtag(body, ranges), ranges.size(), initiated,
                            Map.of(), contentType, "ObjectCreated:CompleteMultipartUpload");
                }
                state = UploadState.COMPLETED;
                openUploads.remove(this);
                after(call, IOException.class);
                return version.etag();
            }
        }

        @Override
        public void abort() {
            synchronized (InMemoryObjectStore.this) {
                if (state == UploadState.COMPLETED) {
                    return;
                }
                state = UploadState.ABORTED;
                openUploads.remove(this);
            }
        }

        @Override
        public void close() {
            synchronized (InMemoryObjectStore.this) {
                if (state == UploadState.OPEN) {
                    abort();
                }
            }
        }
    }

    // ---- ETags and parts ----

    /** A single PUT's ETag: the lowercase hex MD5 of the bytes. */
    public static String md5Hex(byte[] body) {
        return HexFormat.of().formatHex(md5().digest(body));
    }

    /** A multipart object's ETag: hex MD5 of the concatenated binary MD5s of the parts ({offset, length}), {@code -N}. */
    public static String multipartEtag(byte[] body, List<long[]> ranges) {
        MessageDigest ofParts = md5();
        MessageDigest part = md5();
        for (long[] range : ranges) {
            part.update(body, Math.toIntExact(range[0]), Math.toIntExact(range[1]));
            ofParts.update(part.digest());
        }
        return HexFormat.of().formatHex(ofParts.digest()) + "-" + ranges.size();
    }

    /** {offset, length} of parts of {@code partSize}, the remainder last; an empty body is one empty part. */
    public static List<long[]> fixedRanges(long size, long partSize) {
        List<long[]> ranges = new ArrayList<>();
        for (long offset = 0; offset < size; offset += partSize) {
            ranges.add(new long[] {offset, Math.min(partSize, size - offset)});
        }
        if (ranges.isEmpty()) {
            ranges.add(new long[] {0, 0});
        }
        return ranges;
    }

    /**
     * The ranges S3ObjectStore's promote copies ({offset, length}): one part below two minimum parts (an empty source
     * too), else {@code copyPartsInFlight} ranges (fewer when a range would be below the minimum, more when one would
     * pass 5 GiB).
     */
    public static List<long[]> copyRanges(long size, PartSizes sizes) {
        long minimum = sizes.minPartBytes();
        if (size < 2 * minimum) {
            return List.<long[]>of(new long[] {0, size});
        }
        long count = Math.max(Math.min(sizes.copyPartsInFlight(), size / minimum), Math.ceilDiv(size, MAX_COPY_PART_BYTES));
        return fixedRanges(size, Math.ceilDiv(size, count));
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String unquote(String etag) {
        return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"") ? etag.substring(1, etag.length() - 1) : etag;
    }

    // ---- internals ----

    private Bucket bucket(String name) {
        Bucket b = buckets.get(name);
        if (b == null) {
            throw new IllegalArgumentException("no bucket " + name + " (create it with createBucket)");
        }
        return b;
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.SECONDS);
    }

    private Version commit(Bucket b, String bucket, String key, byte[] body, String etag, int parts, Instant lastModified,
                           Map<String, String> metadata, String contentType, String eventType) {
        String versionId = b.versioned ? nextVersionId() : null;
        String sequencer = event(eventType, bucket, key, versionId, etag, body.length);
        Version version = new Version(bucket, key, versionId, false, body, etag, body.length, lastModified, metadata,
                contentType, parts, sequencer);
        List<Version> versions = b.keys.computeIfAbsent(key, k -> new ArrayList<>());
        if (!b.versioned) {
            versions.clear();
        }
        versions.add(version);
        return version;
    }

    private String event(String type, String bucket, String key, String versionId, String etag, long size) {
        eventCounter++;
        String hex = String.format(java.util.Locale.ROOT, "%016X", SEQUENCER_BASE + (eventCounter << 4));
        int end = hex.length();
        while (end > 1 && hex.charAt(end - 1) == '0') {
            end--;
        }
        String sequencer = hex.substring(0, end);
        sequencers.put(versionKey(bucket, key, versionId), sequencer);
        events.add(new Event(type, bucket, key, versionId, etag, size, sequencer, clock.instant().truncatedTo(ChronoUnit.MILLIS)));
        return sequencer;
    }

    private static String versionKey(String bucket, String key, String versionId) {
        return bucket + "\u0000" + key + "\u0000" + versionId;
    }

    /** Unique and deterministic, but in no order (S3's are not): the counter through a 64-bit bijection, base 36. */
    private String nextVersionId() {
        versionCounter++;
        long mixed = versionCounter * 0x9E3779B97F4A7C15L;
        mixed ^= mixed >>> 29;
        String digits = Long.toUnsignedString(mixed, 36);
        return "v" + "0".repeat(13 - digits.length()) + digits;
    }

    private void before(Call call, Class<?>... allowed) {
        raise(pending(call), call, allowed);
    }

    /** The fault to fail {@code call} with before it does anything, or null. */
    private Exception pending(Call call) {
        Queue<Exception> queued = oneShot.get(call.operation());
        Exception fault = queued == null ? null : queued.poll();
        if (fault == null) {
            try {
                faults.before(call);
            } catch (Exception e) {
                fault = e;
            }
        }
        return fault;
    }

    private void after(Call call, Class<?>... allowed) {
        try {
            faults.after(call);
        } catch (Exception e) {
            raise(e, call, allowed);
        }
    }

    static void raise(Exception fault, Object call, Class<?>... allowed) {
        if (fault == null) {
            return;
        }
        if (fault instanceof RuntimeException runtime) {
            throw runtime;
        }
        for (Class<?> type : allowed) {
            if (type.isInstance(fault)) {
                throw InMemoryObjectStore.<RuntimeException>sneaky(fault);
            }
        }
        throw new IllegalArgumentException(call + " cannot fail with " + fault.getClass().getName()
                + ": the port method does not declare it", fault);
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }
}
