package io.landingledger.core.testing;

import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.store.ObjectStoreContract;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/** The object store contract, in memory: every case as AWS S3 behaves (no {@link Difference} declared). */
class InMemoryObjectStoreContractTest extends ObjectStoreContract {
    /** S3's minimum part, and the staging upload's part size and ranges in flight of S3ObjectStoreContractIT. */
    static final InMemoryObjectStore.PartSizes SIZES = new InMemoryObjectStore.PartSizes(5 << 20, 5 << 20, 2);

    @Override
    protected Fixture fixture() {
        ManualClock clock = new ManualClock(Instant.parse("2026-03-02T23:10:00.250Z"));
        InMemoryObjectStore memory = new InMemoryObjectStore(clock, SIZES);
        return new Fixture() {
            private int buckets;

            @Override
            public ObjectStore store() {
                return memory;
            }

            @Override
            public String newBucket(boolean versioned) {
                String name = (versioned ? "inbox-" : "lake-") + ++buckets;
                memory.createBucket(name, versioned);
                return name;
            }

            @Override
            public void put(String bucket, String key, byte[] body, Map<String, String> metadata) {
                memory.put(bucket, key, body, "application/octet-stream", metadata);
            }

            @Override
            public void putWithParts(String bucket, String key, byte[] body, int partSize, Runnable between) {
                InMemoryObjectStore.MultipartPut upload = memory.startMultipartPut(bucket, key, null, Map.of());
                between.run();
                upload.complete(body, partSize);
            }

            @Override
            public void deleteVersion(String bucket, String key, String versionId) {
                memory.deleteVersion(bucket, key, versionId);
            }

            @Override
            public String newestDeleteMarker(String bucket, String key) {
                return memory.allVersions(bucket).stream().filter(v -> v.key().equals(key) && v.deleteMarker())
                        .findFirst().orElseThrow().versionId();
            }

            @Override
            public void elapse(Duration duration) {
                clock.advance(duration);
            }

            @Override
            public int minPartBytes() {
                return SIZES.minPartBytes();
            }

            @Override
            public int uploadPartBytes() {
                return SIZES.uploadPartBytes();
            }

            @Override
            public int copyPartsInFlight() {
                return SIZES.copyPartsInFlight();
            }
        };
    }
}
