package io.landingledger.core.ingest;

import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.Ledger;
import io.landingledger.core.ledger.LedgerConflictException;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.TableState;
import io.landingledger.core.simulation.SimClock;
import io.landingledger.core.store.ConcurrentUpdateException;
import io.landingledger.core.store.ObjectNotFoundException;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.store.Precondition;
import io.landingledger.core.store.PreconditionFailedException;
import io.landingledger.core.store.StoredObject;
import io.landingledger.core.testing.InMemoryObjectStore;
import io.landingledger.core.testing.InspectableS3;
import io.landingledger.lambda.LedgerTables;
import io.landingledger.lambda.adapters.DynamoDbLedger;
import io.landingledger.lambda.adapters.MultipartStreamingUpload;
import io.landingledger.lambda.adapters.S3ObjectStore;

import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link ProtocolWorld} on the real adapters: {@link S3ObjectStore} over the S3 emulator and {@link DynamoDbLedger}
 * over moto, with fresh buckets and tables for every schedule. The model's bucket names ({@code inbox}, {@code lake})
 * are mapped to this world's own; everything the model reads for its checks is read back from the emulators.
 *
 * <p>What the emulators cannot do is done here as S3 would: the object notifications S3 would send for a producer's
 * PUT or completed multipart upload are made up by this world (S3Proxy sends none), their sequencers increasing in
 * commit order and their event times the model's clock; LastModified, ETags and version ids are the emulator's own
 * (wall-clock seconds, not the model's clock), so a schedule's trace is not byte-for-byte what the in-memory world
 * would print for the same choices.
 */
final class EmulatorProtocolWorld implements ProtocolWorld {
    private static final AtomicInteger WORLDS = new AtomicInteger();
    /** S3's smallest part but the last. */
    private static final int MIN_PART_BYTES = 5 << 20;

    private final S3Client s3Client;
    private final SimClock clock;
    private final Map<String, String> buckets;
    private final S3ObjectStore adapter;
    private final Ledger ledger;
    private final Emulated s3 = new Emulated();
    private final List<InMemoryObjectStore.Event> events = new ArrayList<>();
    private Runnable storeWrite = () -> {
    };
    private Runnable ledgerWritten = () -> {
    };
    private long sequencer;
    /** Test of the test: each promoted object is overwritten behind the model's back (same metadata, other rows). */
    private boolean tamperWithPromotes;

    EmulatorProtocolWorld(S3Client s3Client, DynamoDbClient dynamo, ExecutorService uploads, SimClock clock) {
        this.s3Client = s3Client;
        this.clock = clock;
        String suffix = "sim-" + WORLDS.incrementAndGet() + "-" + Long.toHexString(System.nanoTime() & 0xffffff);
        String inbox = "inbox-" + suffix;
        String lake = "lake-" + suffix;
        s3Client.createBucket(r -> r.bucket(inbox));
        s3Client.putBucketVersioning(r -> r.bucket(inbox)
                .versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
        s3Client.createBucket(r -> r.bucket(lake));
        this.buckets = Map.of(ProtocolModel.INBOX, inbox, ProtocolModel.LAKE, lake);
        this.adapter = new S3ObjectStore(s3Client, uploads, new MultipartStreamingUpload.Settings(
                MultipartStreamingUpload.Settings.MIN_PART_BYTES, 2));
        String ledgerTable = "Ledger-" + suffix;
        String historyTable = "LedgerHistory-" + suffix;
        LedgerTables.create(dynamo, ledgerTable, historyTable);
        this.ledger = new ObservedLedger(new DynamoDbLedger(dynamo, ledgerTable, historyTable));
    }

    /** Overwrites every promoted object on the emulator with other bytes: the checks must see it (S1). */
    EmulatorProtocolWorld tamperingWithPromotes() {
        tamperWithPromotes = true;
        return this;
    }

    @Override
    public InspectableS3 s3() {
        return s3;
    }

    @Override
    public Ledger ledger() {
        return ledger;
    }

    @Override
    public void observeWrites(Runnable storeWrite, Runnable ledgerWritten) {
        this.storeWrite = storeWrite;
        this.ledgerWritten = ledgerWritten;
    }

    private String physical(String bucket) {
        String name = buckets.get(bucket);
        if (name == null) {
            throw new IllegalArgumentException("no bucket " + bucket + " in this world");
        }
        return name;
    }

    private String logical(String physicalBucket) {
        return buckets.entrySet().stream().filter(e -> e.getValue().equals(physicalBucket)).map(Map.Entry::getKey)
                .findFirst().orElse(physicalBucket);
    }

    private StoredObject logical(StoredObject o) {
        return new StoredObject(logical(o.bucket()), o.key(), o.versionId(), o.etag(), o.size(), o.lastModified(),
                o.metadata());
    }

    private String nextSequencer() {
        return String.format("%016X", ++sequencer);
    }

    /** The version a write created, read back from the emulator, and the notification S3 would send for it. */
    private InMemoryObjectStore.Version created(String bucket, String key, String versionId, String eventType,
                                                int parts) {
        InMemoryObjectStore.Version read = version(bucket, key, versionId);
        String seq = nextSequencer();
        InMemoryObjectStore.Version v = new InMemoryObjectStore.Version(bucket, key, read.versionId(), false,
                read.body(), read.etag(), read.size(), read.lastModified(), read.metadata(), read.contentType(), parts,
                seq);
        events.add(new InMemoryObjectStore.Event(eventType, bucket, key, v.versionId(), v.etag(), v.size(), seq,
                clock.instant()));
        return v;
    }

    /** GetObject of one version (or of the current one, versionId null), with its bytes. */
    private InMemoryObjectStore.Version version(String bucket, String key, String versionId) {
        ResponseBytes<GetObjectResponse> got = s3Client.getObjectAsBytes(r -> r.bucket(physical(bucket)).key(key)
                .versionId(versionId));
        GetObjectResponse meta = got.response();
        return new InMemoryObjectStore.Version(bucket, key, meta.versionId(), false, got.asByteArray(),
                unquote(meta.eTag()), meta.contentLength(), meta.lastModified(), meta.metadata(), meta.contentType(), 0,
                null);
    }

    private static String unquote(String etag) {
        return etag == null ? null : etag.replace("\"", "");
    }

    private List<CompletedPart> uploadParts(String bucket, String key, String uploadId, byte[] body, int partSize) {
        List<CompletedPart> parts = new ArrayList<>();
        int offset = 0;
        do {
            int length = Math.min(partSize, body.length - offset);
            int number = parts.size() + 1;
            byte[] part = Arrays.copyOfRange(body, offset, offset + length);
            String etag = s3Client.uploadPart(r -> r.bucket(physical(bucket)).key(key).uploadId(uploadId)
                    .partNumber(number), RequestBody.fromBytes(part)).eTag();
            parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
            offset += length;
        } while (offset < body.length);
        return parts;
    }

    /** S3 on the emulator: the port is the real adapter, the rest plain SDK calls. */
    private final class Emulated implements InspectableS3 {

        @Override
        public Optional<StoredObject> head(String bucket, String key) {
            return adapter.head(physical(bucket), key).map(EmulatorProtocolWorld.this::logical);
        }

        @Override
        public OpenedObject open(String bucket, String key, String versionId) throws ObjectNotFoundException {
            OpenedObject opened = adapter.open(physical(bucket), key, versionId);
            return new OpenedObject(logical(opened.object()), opened.body());
        }

        @Override
        public StreamingUpload startUpload(String bucket, String key, String contentType) {
            StreamingUpload upload = adapter.startUpload(physical(bucket), key, contentType);
            storeWrite.run();
            return new StreamingUpload() {
                @Override
                public OutputStream stream() {
                    return upload.stream();
                }

                @Override
                public String complete() throws IOException {
                    String etag = upload.complete();
                    storeWrite.run();
                    return etag;
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
            adapter.put(physical(bucket), key, body, contentType);
            storeWrite.run();
        }

        @Override
        public String promote(String bucket, String sourceKey, String targetKey, Map<String, String> metadata,
                              Precondition precondition) throws PreconditionFailedException, ConcurrentUpdateException {
            String etag = adapter.promote(physical(bucket), sourceKey, targetKey, metadata, precondition);
            storeWrite.run();
            if (tamperWithPromotes) {
                s3Client.putObject(r -> r.bucket(physical(bucket)).key(targetKey).metadata(metadata),
                        RequestBody.fromString("{\"event_id\":\"not-the-rows\"}\n"));
            }
            return etag;
        }

        @Override
        public void delete(String bucket, String key) {
            adapter.delete(physical(bucket), key);
            storeWrite.run();
        }

        @Override
        public Iterable<ListedObject> list(String bucket, String prefix) {
            return adapter.list(physical(bucket), prefix);
        }

        @Override
        public Iterable<ListedVersion> versions(String bucket, String prefix) {
            return adapter.versions(physical(bucket), prefix);
        }

        @Override
        public InMemoryObjectStore.Version put(String bucket, String key, byte[] body, String contentType,
                                               Map<String, String> metadata) {
            PutObjectResponse put = s3Client.putObject(r -> r.bucket(physical(bucket)).key(key).contentType(contentType)
                    .metadata(metadata), RequestBody.fromBytes(body));
            return created(bucket, key, put.versionId(), "ObjectCreated:Put", 0);
        }

        @Override
        public InMemoryObjectStore.Version putWithParts(String bucket, String key, byte[] body, int partSize) {
            return startMultipartPut(bucket, key, null, Map.of()).complete(body, partSize);
        }

        @Override
        public PendingPut startMultipartPut(String bucket, String key, String contentType,
                                            Map<String, String> metadata) {
            String uploadId = s3Client.createMultipartUpload(r -> r.bucket(physical(bucket)).key(key)
                    .contentType(contentType).metadata(metadata)).uploadId();
            return (body, partSize) -> {
                // the model's parts (64 bytes) are what the in-memory S3's small PartSizes allows; S3 and S3Proxy
                // refuse a part under 5 MiB but the last (EntityTooSmall), so the model's small files go up as one
                // part here: still a multipart ETag ("-1"), another ETag for the same bytes, which is what the
                // model's upload is for
                List<CompletedPart> parts = uploadParts(bucket, key, uploadId, body,
                        Math.max(partSize, MIN_PART_BYTES));
                String versionId = s3Client.completeMultipartUpload(r -> r.bucket(physical(bucket)).key(key)
                        .uploadId(uploadId).multipartUpload(m -> m.parts(parts))).versionId();
                return created(bucket, key, versionId, "ObjectCreated:CompleteMultipartUpload", parts.size());
            };
        }

        @Override
        public void deleteVersion(String bucket, String key, String versionId) {
            s3Client.deleteObject(r -> r.bucket(physical(bucket)).key(key).versionId(versionId));
            events.add(new InMemoryObjectStore.Event("ObjectRemoved:Delete", bucket, key, versionId, null, 0,
                    nextSequencer(), clock.instant()));
        }

        @Override
        public int expireNoncurrent(String bucket, String key) {
            List<InMemoryObjectStore.Version> versions = allVersions(bucket).stream()
                    .filter(v -> v.key().equals(key)).toList();
            if (versions.isEmpty()) {
                return 0;
            }
            int removed = 0;
            for (InMemoryObjectStore.Version v : versions.subList(1, versions.size())) {
                s3Client.deleteObject(r -> r.bucket(physical(bucket)).key(key).versionId(v.versionId()));
                removed++;
            }
            if (versions.get(0).deleteMarker()) {
                s3Client.deleteObject(r -> r.bucket(physical(bucket)).key(key).versionId(versions.get(0).versionId()));
                removed++;
            }
            return removed;
        }

        @Override
        public Optional<InMemoryObjectStore.Version> current(String bucket, String key) {
            try {
                return Optional.of(version(bucket, key, null));
            } catch (NoSuchKeyException absentOrDeleteMarker) {
                // the model reads only stored current versions: a delete marker is as absent as nothing
                return Optional.empty();
            }
        }

        /** Each key's versions as the listing orders them (newest first), a current delete marker first; no bytes. */
        @Override
        public List<InMemoryObjectStore.Version> allVersions(String bucket) {
            Map<String, List<InMemoryObjectStore.Version>> byKey = new TreeMap<>();
            Map<String, List<InMemoryObjectStore.Version>> markers = new LinkedHashMap<>();
            for (var page : s3Client.listObjectVersionsPaginator(r -> r.bucket(physical(bucket)))) {
                for (DeleteMarkerEntry m : page.deleteMarkers()) {
                    InMemoryObjectStore.Version v = new InMemoryObjectStore.Version(bucket, m.key(), m.versionId(),
                            true, null, null, 0, m.lastModified(), Map.of(), null, 0, null);
                    (m.isLatest() ? byKey : markers).computeIfAbsent(m.key(), k -> new ArrayList<>()).add(v);
                }
                for (ObjectVersion o : page.versions()) {
                    byKey.computeIfAbsent(o.key(), k -> new ArrayList<>()).add(new InMemoryObjectStore.Version(bucket,
                            o.key(), o.versionId(), false, null, unquote(o.eTag()), o.size(), o.lastModified(),
                            Map.of(), null, 0, null));
                }
            }
            markers.forEach((key, rest) -> byKey.computeIfAbsent(key, k -> new ArrayList<>()).addAll(rest));
            List<InMemoryObjectStore.Version> all = new ArrayList<>();
            byKey.values().forEach(all::addAll);
            return all;
        }

        @Override
        public List<InMemoryObjectStore.Event> events() {
            return List.copyOf(events);
        }
    }

    /** The real ledger, telling the model about every write that took effect. */
    private final class ObservedLedger implements Ledger {
        private final Ledger delegate;

        ObservedLedger(Ledger delegate) {
            this.delegate = delegate;
        }

        @Override
        public Optional<LedgerItem> get(String dataset, String unit) {
            return delegate.get(dataset, unit);
        }

        @Override
        public void write(LedgerItem item, long expectedRevision, HistoryEntry history) throws LedgerConflictException {
            delegate.write(item, expectedRevision, history);
            storeWrite.run();
            ledgerWritten.run();
        }

        @Override
        public void appendHistory(HistoryEntry history) {
            delegate.appendHistory(history);
            storeWrite.run();
        }

        @Override
        public boolean recordTable(String dataset, String unit, String expectedRunId, String expectedSha256,
                                   TableState state, HistoryEntry history) {
            boolean recorded = delegate.recordTable(dataset, unit, expectedRunId, expectedSha256, state, history);
            storeWrite.run();
            return recorded;
        }

        @Override
        public List<HistoryEntry> history(String dataset, String unit) {
            return delegate.history(dataset, unit);
        }

        @Override
        public List<LedgerItem> items(String dataset, String fromUnit, String toUnit) {
            return delegate.items(dataset, fromUnit, toUnit);
        }
    }
}
