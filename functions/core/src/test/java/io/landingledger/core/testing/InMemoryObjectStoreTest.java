package io.landingledger.core.testing;

import io.landingledger.core.store.ConcurrentUpdateException;
import io.landingledger.core.store.ObjectNotFoundException;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.store.Precondition;
import io.landingledger.core.store.PreconditionFailedException;
import io.landingledger.core.testing.InMemoryObjectStore.Call;
import io.landingledger.core.testing.InMemoryObjectStore.Event;
import io.landingledger.core.testing.InMemoryObjectStore.Operation;
import io.landingledger.core.testing.InMemoryObjectStore.PartSizes;
import io.landingledger.core.testing.InMemoryObjectStore.Version;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the contract cannot check on S3Proxy: ETags against values computed elsewhere (Python's hashlib), the
 * LastModified of each kind of write under a manual clock, lifecycle expiry, sequencers, ids and the fault hooks.
 * Parts are a few bytes ({@link #TINY}) so that multipart paths are cheap.
 */
class InMemoryObjectStoreTest {
    private static final Instant START = Instant.parse("2026-03-02T23:10:00.250Z");
    /** 4-byte minimum parts, 8-byte staging parts, two ranges per promote. */
    private static final PartSizes TINY = new PartSizes(4, 8, 2);
    private static final byte[] HELLO = "hello world\n".getBytes(StandardCharsets.UTF_8);

    private final ManualClock clock = new ManualClock(START);
    private final InMemoryObjectStore store = new InMemoryObjectStore(clock, TINY)
            .createBucket("inbox", true).createBucket("lake", false);

    // ---- ETags, against hashlib ----

    @Test
    void multipartEtags_matchIndependentlyComputedValues() {
        assertEquals("6f5902ac237024bdd0c176cb93063dc4", store.put("inbox", "single", HELLO, null, Map.of()).etag());
        assertEquals("7cb17795ebc48090d2bf3844d9c3fe87-3", store.putWithParts("inbox", "p4", HELLO, 4).etag());
        assertEquals("e61b23f3ecde7a6216d162c4db121f88-2", store.putWithParts("inbox", "p6", HELLO, 6).etag());
        assertEquals("8d780cfbcd9622aa77011564e615065f-1", store.putWithParts("inbox", "p12", HELLO, 12).etag());
        assertEquals("8d780cfbcd9622aa77011564e615065f-1", store.putWithParts("inbox", "p99", HELLO, 99).etag(),
                "one part whatever the part size above the body");
        byte[] sixteen = new byte[16];
        for (int i = 0; i < 16; i++) {
            sixteen[i] = (byte) i;
        }
        assertEquals("dd8278c4823bf5e256f27263fd0df2ce-2", InMemoryObjectStore.multipartEtag(sixteen, InMemoryObjectStore.fixedRanges(16, 8)));
        assertEquals("1ac1ef01e96caf1be0d329331a4fc2a8", InMemoryObjectStore.md5Hex(sixteen));
    }

    @Test
    void stagingUpload_ofMoreThanOnePart_isDatedWhenItsFirstPartFilled() throws IOException {
        String etag;
        try (ObjectStore.StreamingUpload upload = store.startUpload("lake", "_staging/r.jsonl", "application/x-ndjson")) {
            upload.stream().write(HELLO, 0, 5);
            clock.advance(Duration.ofSeconds(1));
            upload.stream().write(HELLO, 5, 3); // the first 8-byte part is full: CreateMultipartUpload, 23:10:01.250
            clock.advance(Duration.ofSeconds(5));
            upload.stream().write(HELLO, 8, 4);
            clock.advance(Duration.ofSeconds(3));
            etag = upload.complete();
        }
        assertEquals("912eb4ed9932a63ef85a5c06332b291f-2", etag, "parts of 8 and 4 bytes");
        Version v = store.current("lake", "_staging/r.jsonl").orElseThrow();
        assertEquals(Instant.parse("2026-03-02T23:10:01Z"), v.lastModified());
        assertEquals(2, v.parts());
        assertEquals("application/x-ndjson", v.contentType());
        assertEquals("ObjectCreated:CompleteMultipartUpload", store.events().get(0).type());
        assertEquals(List.of(), store.openUploads());
    }

    @Test
    void stagingUpload_belowOnePart_isOnePut_datedAtComplete() throws IOException {
        try (ObjectStore.StreamingUpload upload = store.startUpload("lake", "_staging/s.jsonl", "application/x-ndjson")) {
            upload.stream().write(HELLO, 0, 7);
            assertEquals(List.of("lake/_staging/s.jsonl"), store.openUploads());
            clock.advance(Duration.ofSeconds(9));
            assertEquals(InMemoryObjectStore.md5Hex("hello w".getBytes(StandardCharsets.UTF_8)), upload.complete());
        }
        Version v = store.current("lake", "_staging/s.jsonl").orElseThrow();
        assertEquals(Instant.parse("2026-03-02T23:10:09Z"), v.lastModified());
        assertEquals(0, v.parts());
        assertEquals("ObjectCreated:Put", store.events().get(0).type());
    }

    @Test
    void promote_copiesInTheAdaptersRanges_datedAtThePromote_withTheNdjsonContentType() throws Exception {
        store.put("lake", "_staging/big", HELLO, "application/x-ndjson", Map.of("staging-only", "x"));
        store.put("lake", "_staging/small", "1234567".getBytes(StandardCharsets.UTF_8), "application/x-ndjson", Map.of());
        clock.advance(Duration.ofSeconds(2));

        String big = store.promote("lake", "_staging/big", "published/big", Map.of("run-id", "r"), Precondition.none());
        String small = store.promote("lake", "_staging/small", "published/small", Map.of(), Precondition.none());

        assertEquals("e61b23f3ecde7a6216d162c4db121f88-2", big, "12 bytes, at least two 4-byte minimums: two ranges of 6");
        assertEquals(InMemoryObjectStore.multipartEtag("1234567".getBytes(StandardCharsets.UTF_8), List.<long[]>of(new long[] {0, 7})),
                small, "below two minimum parts: one range");
        Version published = store.current("lake", "published/big").orElseThrow();
        assertEquals(Instant.parse("2026-03-02T23:10:02Z"), published.lastModified());
        assertEquals(InMemoryObjectStore.PROMOTED_CONTENT_TYPE, published.contentType());
        assertEquals(Map.of("run-id", "r"), published.metadata());
    }

    @Test
    void copyRanges_areS3ObjectStoresForLargeObjects() {
        PartSizes defaults = PartSizes.DEFAULT;
        long mib = 1 << 20;
        assertEquals(List.of(10 * mib - 1), lengths(InMemoryObjectStore.copyRanges(10 * mib - 1, defaults)));
        assertEquals(List.of(5 * mib, 5 * mib), lengths(InMemoryObjectStore.copyRanges(10 * mib, defaults)));
        assertEquals(List.of(25 * mib, 25 * mib, 25 * mib, 25 * mib), lengths(InMemoryObjectStore.copyRanges(100 * mib, defaults)));
        long gib = 1L << 30;
        assertEquals(6, InMemoryObjectStore.copyRanges(30 * gib, defaults).size(), "no range above 5 GiB");
        assertEquals(List.of(0L), lengths(InMemoryObjectStore.copyRanges(0, defaults)));
    }

    private static List<Long> lengths(List<long[]> ranges) {
        return ranges.stream().map(r -> r[1]).toList();
    }

    @Test
    void producerMultipart_isDatedAtItsInitiation_butListedNewestByCompletion() {
        InMemoryObjectStore.MultipartPut upload = store.startMultipartPut("inbox", "k", "text/plain", Map.of("m", "1"));
        clock.advance(Duration.ofSeconds(30));
        Version put = store.put("inbox", "k", "other".getBytes(StandardCharsets.UTF_8), "text/plain", Map.of());
        clock.advance(Duration.ofSeconds(30));
        Version multipart = upload.complete(HELLO, 6);

        assertEquals(Instant.parse("2026-03-02T23:10:00Z"), multipart.lastModified());
        assertEquals(Instant.parse("2026-03-02T23:10:30Z"), put.lastModified());
        assertEquals(List.of(multipart.versionId(), put.versionId()), store.allVersions("inbox").stream().map(Version::versionId).toList());
        assertEquals(Map.of("m", "1"), multipart.metadata());
        assertThrows(IllegalArgumentException.class, () -> upload.complete(HELLO, 6), "an upload completes once");
        assertThrows(IllegalArgumentException.class, () -> store.putWithParts("inbox", "k", HELLO, 3), "EntityTooSmall");
    }

    // ---- versions, markers, lifecycle ----

    @Test
    void delete_inAVersionedBucket_alwaysAddsAMarker_andUnknownVersionDeletesChangeNothing() {
        store.delete("inbox", "never");
        store.put("inbox", "k", HELLO, null, Map.of());
        store.delete("inbox", "k");
        store.delete("inbox", "k");
        store.deleteVersion("inbox", "k", "no-such-version");

        List<Version> versions = store.allVersions("inbox");
        assertEquals(List.of("k true", "k true", "k false", "never true"),
                versions.stream().map(v -> v.key() + " " + v.deleteMarker()).toList());
        assertEquals(List.of("ObjectRemoved:DeleteMarkerCreated", "ObjectCreated:Put", "ObjectRemoved:DeleteMarkerCreated",
                "ObjectRemoved:DeleteMarkerCreated"), store.events().stream().map(Event::type).toList());
        assertEquals(List.of(), store.objects("inbox"));
    }

    @Test
    void expireNoncurrent_removesEveryOlderVersionAndMarker_thenAnExpiredDeleteMarker() {
        store.put("inbox", "k", "1".getBytes(StandardCharsets.UTF_8), null, Map.of());
        store.delete("inbox", "k");
        Version current = store.put("inbox", "k", "2".getBytes(StandardCharsets.UTF_8), null, Map.of());
        store.put("inbox", "gone", "1".getBytes(StandardCharsets.UTF_8), null, Map.of());
        store.delete("inbox", "gone");
        int events = store.events().size();

        assertEquals(2, store.expireNoncurrent("inbox", "k"));
        assertEquals(2, store.expireNoncurrent("inbox", "gone"));
        assertEquals(0, store.expireNoncurrent("inbox", "never"));

        assertEquals(List.of(current.versionId()), store.allVersions("inbox").stream().map(Version::versionId).toList());
        assertEquals(events, store.events().size(), "lifecycle expiry sends no event");
    }

    @Test
    void unversionedBucket_delete_removesTheObject() throws Exception {
        store.put("lake", "k", HELLO, "text/plain");
        store.delete("lake", "k");
        assertEquals(List.of(), store.allVersions("lake"));
        assertThrows(ObjectNotFoundException.class, () -> store.open("lake", "k", null));
        assertEquals(List.of("ObjectCreated:Put", "ObjectRemoved:Delete"), store.events().stream().map(Event::type).toList());
    }

    // ---- sequencers and ids ----

    @Test
    void sequencers_orderAKeysEvents_whenPaddedOnTheRight_andVaryInLength() {
        List<String> sequencers = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            Version v = store.put("inbox", "k", new byte[] {(byte) i}, null, Map.of());
            sequencers.add(v.sequencer());
            assertEquals(v.sequencer(), store.sequencer("inbox", "k", v.versionId()));
        }
        store.delete("inbox", "k");
        String marker = store.current("inbox", "k").orElseThrow().versionId();
        sequencers.add(store.sequencer("inbox", "k", marker));
        for (int i = 1; i < sequencers.size(); i++) {
            assertTrue(padded(sequencers.get(i - 1), sequencers.get(i)) < 0, sequencers.get(i - 1) + " then " + sequencers.get(i));
            assertEquals(sequencers.get(i).toUpperCase(java.util.Locale.ROOT), sequencers.get(i), "upper-case hex, as S3's");
        }
        assertTrue(sequencers.stream().map(String::length).distinct().count() > 1, "lengths vary: " + sequencers);
        boolean lengthOrderWrong = false;
        for (int i = 1; i < sequencers.size(); i++) {
            lengthOrderWrong |= sequencers.get(i).length() < sequencers.get(i - 1).length();
        }
        assertTrue(lengthOrderWrong, "a newer sequencer can be shorter: comparing lengths first is wrong");
    }

    /** S3's rule: pad the shorter with zeros on the right, then compare. */
    private static int padded(String a, String b) {
        int n = Math.max(a.length(), b.length());
        return (a + "0".repeat(n - a.length())).compareTo(b + "0".repeat(n - b.length()));
    }

    @Test
    void versionIds_areUnique_deterministic_andInNoOrder() {
        InMemoryObjectStore twin = new InMemoryObjectStore(new ManualClock(START), TINY).createBucket("inbox", true);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String id = store.put("inbox", "k" + (i % 7), HELLO, null, Map.of()).versionId();
            assertEquals(id, twin.put("inbox", "k" + (i % 7), HELLO, null, Map.of()).versionId(), "same calls, same ids");
            ids.add(id);
        }
        Set<String> distinct = new HashSet<>(ids);
        assertEquals(ids.size(), distinct.size());
        assertNotEquals(ids.stream().sorted().toList(), ids, "not in creation order");
    }

    // ---- faults ----

    @Test
    void failNext_promote_with409_changesNothing_andFiresOnce() throws Exception {
        store.put("lake", "_staging/s", HELLO, "application/x-ndjson");
        ConcurrentUpdateException conflict = new ConcurrentUpdateException("409 ConditionalRequestConflict");
        store.failNext(Operation.PROMOTE, conflict);

        assertSame(conflict, assertThrows(ConcurrentUpdateException.class,
                () -> store.promote("lake", "_staging/s", "published/t", Map.of(), Precondition.none())));
        assertTrue(store.head("lake", "published/t").isEmpty());
        store.promote("lake", "_staging/s", "published/t", Map.of(), Precondition.none());
        assertTrue(store.head("lake", "published/t").isPresent());
    }

    @Test
    void faults_afterACall_isALostResponse_theCallTookEffect() {
        store.faults(new InMemoryObjectStore.Faults() {
            @Override
            public void after(Call call) {
                if (call.operation() == Operation.PUT) {
                    throw new IllegalStateException("connection reset after the PUT was stored");
                }
            }
        });
        assertThrows(IllegalStateException.class, () -> store.put("inbox", "k", HELLO, "text/plain"));
        assertTrue(store.head("inbox", "k").isPresent());
    }

    @Test
    void faults_beforeACall_failIt_withAnyRuntimeException_orTheCheckedOnesItDeclares() throws Exception {
        List<Call> calls = new ArrayList<>();
        store.faults(new InMemoryObjectStore.Faults() {
            @Override
            public void before(Call call) throws Exception {
                calls.add(call);
                switch (call.operation()) {
                    case OPEN -> throw new ObjectNotFoundException("gone");
                    case HEAD -> throw new IOException("the port's head declares no IOException");
                    case LIST -> throw new IllegalStateException("503 SlowDown");
                    case PROMOTE -> throw new PreconditionFailedException("412");
                    default -> { }
                }
            }
        });
        store.put("inbox", "k", HELLO, "text/plain");

        assertThrows(ObjectNotFoundException.class, () -> store.open("inbox", "k", null));
        assertThrows(IllegalArgumentException.class, () -> store.head("inbox", "k"), "a checked fault the port cannot throw is a test bug");
        int before = calls.size();
        Iterable<ObjectStore.ListedObject> listing = store.list("inbox", "");
        assertEquals(before, calls.size(), "list() itself makes no request");
        assertThrows(IllegalStateException.class, listing::iterator, "the request is made when iteration starts");
        assertThrows(PreconditionFailedException.class, () -> store.promote("inbox", "k", "t", Map.of(), Precondition.none()));
        assertEquals(new Call(Operation.PROMOTE, "inbox", "t"), calls.get(calls.size() - 1));
        assertFalse(store.current("inbox", "t").isPresent());
    }

    @Test
    void aFailedStagingComplete_abortsTheUpload_andLeavesNothing() throws IOException {
        store.failNext(Operation.UPLOAD_COMPLETE, new IOException("part upload failed"));
        ObjectStore.StreamingUpload upload = store.startUpload("lake", "_staging/s", "application/x-ndjson");
        upload.stream().write(HELLO);

        assertThrows(IOException.class, upload::complete);
        assertEquals(List.of(), store.openUploads());
        assertThrows(IOException.class, () -> upload.stream().write(HELLO));
        assertTrue(store.objects("lake").isEmpty());
    }

    @Test
    void aBucketNeverCreated_isATestBug() {
        assertThrows(IllegalArgumentException.class, () -> store.head("nope", "k"));
        assertThrows(IllegalArgumentException.class, () -> store.put("nope", "k", HELLO, "text/plain"));
        assertThrows(IllegalArgumentException.class, () -> store.createBucket("inbox", false));
    }
}
