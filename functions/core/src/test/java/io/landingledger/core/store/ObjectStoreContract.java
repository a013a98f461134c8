package io.landingledger.core.store;

import io.landingledger.core.store.ObjectStore.ListedObject;
import io.landingledger.core.store.ObjectStore.ListedVersion;
import io.landingledger.core.store.ObjectStore.OpenedObject;
import io.landingledger.core.store.ObjectStore.StreamingUpload;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What every {@link ObjectStore} must do, as AWS S3 does it: run against the in-memory store (core) and against
 * {@code S3ObjectStore} on S3Proxy (lambda, {@code S3ObjectStoreContractIT}). Expected ETags are computed here, from
 * the bytes, independently of any store.
 *
 * <p>Where an emulator is known to differ from AWS, its subclass declares the {@link Difference} and the case
 * asserts what the emulator does instead (so an emulator upgrade that changes it fails the case and is noticed);
 * the in-memory store declares none.
 */
public abstract class ObjectStoreContract {

    /** The store under test and the few operations the contract needs that the port does not have. */
    public interface Fixture extends AutoCloseable {
        ObjectStore store();

        /** A new, empty bucket with a name no other test uses. */
        String newBucket(boolean versioned);

        /** A producer's PutObject with user metadata. */
        void put(String bucket, String key, byte[] body, Map<String, String> metadata);

        /**
         * A producer's multipart upload: CreateMultipartUpload, then {@code between} (other writes, time passing),
         * then parts of {@code partSize} bytes (the remainder last) and CompleteMultipartUpload.
         */
        void putWithParts(String bucket, String key, byte[] body, int partSize, Runnable between);

        /** DeleteObject with a version id: that version or delete marker is gone for good. */
        void deleteVersion(String bucket, String key, String versionId);

        /** The version id of the key's newest delete marker. */
        String newestDeleteMarker(String bucket, String key);

        /** Lets time pass on the store's clock (in memory: advances it; an emulator: sleeps). */
        void elapse(Duration duration);

        /** S3's smallest part but the last (5 MiB); also the promote's range unit. */
        int minPartBytes();

        /** The part size of {@link ObjectStore#startUpload}. */
        int uploadPartBytes();

        /** How many ranges the promote copies a large object in. */
        int copyPartsInFlight();

        @Override
        default void close() {
        }
    }

    /** Known differences of an emulator from AWS S3. */
    public enum Difference {
        /** A multipart object's LastModified is when it was completed; AWS: when the upload was initiated. */
        MULTIPART_LAST_MODIFIED_IS_COMPLETION,
        /**
         * Listings order keys by their UTF-16 code units (Java's {@code String} order); AWS orders them by their UTF-8
         * bytes, which differs for characters above U+FFFF against U+E000 to U+FFFF.
         */
        KEYS_LISTED_IN_UTF16_ORDER,
        /**
         * A key cannot be stored where it is also the "folder" of other keys ({@code d} beside {@code d/x}): the
         * emulator keeps objects as files and answers 500. AWS keys are flat strings.
         */
        KEY_CANNOT_BE_A_FOLDER_OF_OTHER_KEYS,
    }

    /** A fresh store (and fresh buckets) for each case. */
    protected abstract Fixture fixture();

    /** The differences of the store under test from AWS S3: none unless an emulator's subclass says so. */
    protected Set<Difference> differences() {
        return Set.of();
    }

    protected Fixture fx;
    protected ObjectStore store;

    @BeforeEach
    final void openFixture() {
        fx = fixture();
        store = fx.store();
    }

    @AfterEach
    final void closeFixture() throws Exception {
        fx.close();
    }

    // ---- reads after writes ----

    @Test
    public void head_afterAPut_describesTheNewVersion() {
        String bucket = fx.newBucket(true);
        byte[] body = text("{\"a\":1}\n");
        store.put(bucket, "in/a.jsonl", body, "application/x-ndjson");

        StoredObject head = store.head(bucket, "in/a.jsonl").orElseThrow();

        assertEquals(bucket, head.bucket());
        assertEquals("in/a.jsonl", head.key());
        assertNotNull(head.versionId(), "a versioned bucket names the version");
        assertEquals(md5Hex(body), head.etag());
        assertEquals(body.length, head.size());
        assertEquals(Map.of(), head.metadata());
        assertWholeSeconds(head.lastModified());
    }

    @Test
    public void head_ofAKeyNeverWritten_isEmpty() {
        String bucket = fx.newBucket(true);
        assertEquals(Optional.empty(), store.head(bucket, "in/never.jsonl"));
    }

    @Test
    public void overwrite_makesANewCurrentVersion_andKeepsTheOldOneReadableById() throws Exception {
        String bucket = fx.newBucket(true);
        store.put(bucket, "k", text("v1\n"), "text/plain");
        String v1 = store.head(bucket, "k").orElseThrow().versionId();
        store.put(bucket, "k", text("v2 longer\n"), "text/plain");
        StoredObject head = store.head(bucket, "k").orElseThrow();
        String v2 = head.versionId();

        assertNotEquals(v1, v2);
        assertEquals(md5Hex(text("v2 longer\n")), head.etag());
        assertRead(bucket, "k", v1, "v1\n");
        assertRead(bucket, "k", v2, "v2 longer\n");
        assertRead(bucket, "k", null, "v2 longer\n");
        try (OpenedObject old = store.open(bucket, "k", v1)) {
            assertEquals(v1, old.object().versionId());
            assertEquals(md5Hex(text("v1\n")), old.object().etag(), "the old version keeps its ETag");
            assertEquals(3, old.object().size());
        }
    }

    @Test
    public void delete_hidesTheKey_andKeepsItsVersionsReadableById() throws Exception {
        String bucket = fx.newBucket(true);
        store.put(bucket, "k", text("v1\n"), "text/plain");
        String v1 = store.head(bucket, "k").orElseThrow().versionId();

        store.delete(bucket, "k");

        assertEquals(Optional.empty(), store.head(bucket, "k"));
        assertThrows(ObjectNotFoundException.class, () -> store.open(bucket, "k", null));
        assertRead(bucket, "k", v1, "v1\n");
        assertEquals(List.of(), listed(bucket, ""));
        assertEquals(List.of(new Row("k", v1, md5Hex(text("v1\n")), false)), versionRows(bucket, ""),
                "the delete marker is not listed, and no version is latest");
    }

    @Test
    public void delete_ofAKeyNeverWritten_isNotAnError() {
        String bucket = fx.newBucket(true);
        store.delete(bucket, "never");
        String lake = fx.newBucket(false);
        store.delete(lake, "never");
        assertEquals(Optional.empty(), store.head(bucket, "never"));
    }

    @Test
    public void deleteVersion_ofTheNewest_makesThePreviousVersionCurrent() throws Exception {
        String bucket = fx.newBucket(true);
        store.put(bucket, "k", text("v1\n"), "text/plain");
        String v1 = store.head(bucket, "k").orElseThrow().versionId();
        store.put(bucket, "k", text("v2\n"), "text/plain");
        String v2 = store.head(bucket, "k").orElseThrow().versionId();

        fx.deleteVersion(bucket, "k", v2);

        StoredObject head = store.head(bucket, "k").orElseThrow();
        assertEquals(v1, head.versionId());
        assertEquals(md5Hex(text("v1\n")), head.etag());
        assertRead(bucket, "k", null, "v1\n");
        assertThrows(ObjectNotFoundException.class, () -> store.open(bucket, "k", v2), "a deleted version is gone");
        assertEquals(List.of(new Row("k", v1, md5Hex(text("v1\n")), true)), versionRows(bucket, ""));
    }

    @Test
    public void deleteVersion_ofAnOlderVersion_leavesTheCurrentOne() {
        String bucket = fx.newBucket(true);
        store.put(bucket, "k", text("v1\n"), "text/plain");
        String v1 = store.head(bucket, "k").orElseThrow().versionId();
        store.put(bucket, "k", text("v2\n"), "text/plain");
        String v2 = store.head(bucket, "k").orElseThrow().versionId();

        fx.deleteVersion(bucket, "k", v1);

        assertEquals(v2, store.head(bucket, "k").orElseThrow().versionId());
        assertEquals(List.of(new Row("k", v2, md5Hex(text("v2\n")), true)), versionRows(bucket, ""));
    }

    @Test
    public void deleteVersion_ofTheDeleteMarker_restoresTheKey() throws Exception {
        String bucket = fx.newBucket(true);
        store.put(bucket, "k", text("v1\n"), "text/plain");
        String v1 = store.head(bucket, "k").orElseThrow().versionId();
        store.delete(bucket, "k");
        String marker = fx.newestDeleteMarker(bucket, "k");
        assertNotEquals(v1, marker);

        fx.deleteVersion(bucket, "k", marker);

        assertEquals(v1, store.head(bucket, "k").orElseThrow().versionId());
        assertRead(bucket, "k", null, "v1\n");
        assertEquals(List.of(new Row("k", v1, md5Hex(text("v1\n")), true)), versionRows(bucket, ""));
    }

    @Test
    public void open_ofADeleteMarkersVersionId_isNotFound() {
        String bucket = fx.newBucket(true);
        store.put(bucket, "k", text("v1\n"), "text/plain");
        store.delete(bucket, "k");
        String marker = fx.newestDeleteMarker(bucket, "k");

        // S3 answers a GET of a delete marker's version with 405 MethodNotAllowed
        assertThrows(ObjectNotFoundException.class, () -> store.open(bucket, "k", marker));
    }

    @Test
    public void open_ofAVersionIdOfAnotherKey_orNeverIssued_isNotFound() {
        String bucket = fx.newBucket(true);
        store.put(bucket, "k", text("v1\n"), "text/plain");
        store.put(bucket, "other", text("o\n"), "text/plain");
        String others = store.head(bucket, "other").orElseThrow().versionId();

        assertThrows(ObjectNotFoundException.class, () -> store.open(bucket, "k", others));
        assertThrows(ObjectNotFoundException.class, () -> store.open(bucket, "k", "3HL4kqtJlcpXroDTDmJ-rmSpXd3dIbrHY"));
        assertThrows(ObjectNotFoundException.class, () -> store.open(bucket, "never", null));
    }

    @Test
    public void unversionedBucket_overwritesInPlace_withoutVersionIds() throws Exception {
        String lake = fx.newBucket(false);
        store.put(lake, "k", text("v1\n"), "text/plain");
        store.put(lake, "k", text("v2\n"), "text/plain");

        StoredObject head = store.head(lake, "k").orElseThrow();
        assertNull(head.versionId(), "no version id where the bucket is not versioned");
        assertRead(lake, "k", null, "v2\n");
        assertEquals(List.of(new Row("k", "null", md5Hex(text("v2\n")), true)), versionRows(lake, ""),
                "ListObjectVersions of an unversioned bucket: one version per key, id \"null\"");

        store.delete(lake, "k");
        assertEquals(Optional.empty(), store.head(lake, "k"));
        assertEquals(List.of(), versionRows(lake, ""));
    }

    // ---- listings ----

    @Test
    public void versions_keysInKeyOrder_eachKeysNewestFirst_onlyTheLatestFlagged() {
        String bucket = fx.newBucket(true);
        store.put(bucket, "d/b", text("b1"), "text/plain");
        store.put(bucket, "d/a", text("a1"), "text/plain");
        store.put(bucket, "d/b", text("b2"), "text/plain");
        store.put(bucket, "e/x", text("x1"), "text/plain");
        store.put(bucket, "d/c", text("c1"), "text/plain");
        store.put(bucket, "d/a", text("a2"), "text/plain");
        store.put(bucket, "d/b", text("b3"), "text/plain");
        store.delete(bucket, "d/c");
        store.put(bucket, "d-", text("d1"), "text/plain"); // sorts before "d/": not under it

        List<ListedVersion> versions = all(store.versions(bucket, "d/"));

        assertEquals(List.of("d/a a2 true", "d/a a1 false", "d/b b3 true", "d/b b2 false", "d/b b1 false", "d/c c1 false"),
                versions.stream().map(v -> v.key() + " " + contentOf(v.etag(), "a1", "a2", "b1", "b2", "b3", "c1")
                        + " " + v.latest()).toList());
        for (ListedVersion v : versions) {
            assertEquals(2, v.size());
            assertNotNull(v.versionId());
            assertNotNull(v.lastModified());
        }
        assertEquals(versions.get(0).versionId(), store.head(bucket, "d/a").orElseThrow().versionId());
        assertEquals(8, all(store.versions(bucket, "")).size(), "every version, no delete marker");
    }

    @Test
    public void list_givesTheCurrentObjectsUnderThePrefix_inKeyOrder() {
        String bucket = fx.newBucket(true);
        store.put(bucket, "p/2", text("two"), "text/plain");
        store.put(bucket, "p/1", text("one"), "text/plain");
        store.put(bucket, "p/1", text("one again"), "text/plain");
        store.put(bucket, "p/3", text("three"), "text/plain");
        store.put(bucket, "q/1", text("other prefix"), "text/plain");
        store.put(bucket, "p-", text("not under p/"), "text/plain");
        store.put(bucket, "p0", text("not under p/"), "text/plain");
        store.delete(bucket, "p/3");

        List<ListedObject> listed = listed(bucket, "p/");

        assertEquals(List.of("p/1", "p/2"), listed.stream().map(ListedObject::key).toList());
        assertEquals(md5Hex(text("one again")), listed.get(0).etag());
        assertEquals(9, listed.get(0).size());
        assertEquals(md5Hex(text("two")), listed.get(1).etag());
        assertEquals(List.of("p-", "p/1", "p/2", "p0", "q/1"), listed(bucket, "").stream().map(ListedObject::key).toList());
    }

    @Test
    public void listings_pageThroughMoreThanAThousandEntries() {
        String bucket = fx.newBucket(true);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 1_003; i++) {
            keys.add(String.format(java.util.Locale.ROOT, "many/%04d", i));
        }
        for (String key : keys) {
            store.put(bucket, key, text(key), "text/plain");
        }
        store.put(bucket, "many/0999", text("again"), "text/plain");

        assertEquals(keys, listed(bucket, "many/").stream().map(ListedObject::key).toList());
        List<ListedVersion> versions = all(store.versions(bucket, "many/"));
        assertEquals(1_004, versions.size());
        assertEquals(keys, versions.stream().filter(ListedVersion::latest).map(ListedVersion::key).toList());
        assertEquals(List.of("many/0999", "many/0999"), versions.subList(999, 1_001).stream().map(ListedVersion::key).toList());
        assertEquals(md5Hex(text("again")), versions.get(999).etag(), "the newest first, across a page boundary too");
    }

    @Test
    public void aKey_mayAlsoBeThePrefixOfOtherKeys() {
        String bucket = fx.newBucket(true);
        store.put(bucket, "d/x", text("x"), "text/plain");
        if (differences().contains(Difference.KEY_CANNOT_BE_A_FOLDER_OF_OTHER_KEYS)) {
            assertThrows(RuntimeException.class, () -> store.put(bucket, "d", text("d"), "text/plain"));
            return;
        }
        store.put(bucket, "d", text("d"), "text/plain");
        assertEquals(List.of("d", "d/x"), listed(bucket, "d").stream().map(ListedObject::key).toList());
        assertEquals(List.of("d/x"), listed(bucket, "d/").stream().map(ListedObject::key).toList());
        assertEquals(List.of("d", "d/x"), all(store.versions(bucket, "d")).stream().map(ListedVersion::key).toList());
    }

    @Test
    public void list_ordersKeysByTheirUtf8Bytes() {
        String bucket = fx.newBucket(false);
        String privateUse = "k/\uE000";           // UTF-8 EE 80 80
        String emoji = "k/\uD83D\uDE00";          // U+1F600, UTF-8 F0 9F 98 80; sorts first as UTF-16
        String latin = "k/\u00E9";                // UTF-8 C3 A9
        for (String key : List.of(emoji, privateUse, latin, "k/z")) {
            store.put(bucket, key, text(key), "text/plain");
        }
        List<String> utf8Order = List.of("k/z", latin, privateUse, emoji);
        List<String> listedKeys = listed(bucket, "k/").stream().map(ListedObject::key).toList();
        List<String> versionKeys = all(store.versions(bucket, "k/")).stream().map(ListedVersion::key).toList();
        if (differences().contains(Difference.KEYS_LISTED_IN_UTF16_ORDER)) {
            List<String> utf16Order = List.of("k/z", latin, emoji, privateUse);
            assertEquals(utf16Order, listedKeys);
            assertEquals(utf16Order, versionKeys);
            return;
        }
        assertEquals(utf8Order, listedKeys);
        assertEquals(utf8Order, versionKeys);
    }

    @Test
    public void lastModified_isWholeSeconds_inHeadsAndListings() {
        String bucket = fx.newBucket(true);
        store.put(bucket, "k", text("x"), "text/plain");
        assertWholeSeconds(store.head(bucket, "k").orElseThrow().lastModified());
        Instant listed = listed(bucket, "").get(0).lastModified();
        Instant versioned = all(store.versions(bucket, "")).get(0).lastModified();
        assertWholeSeconds(listed);
        assertWholeSeconds(versioned);
        assertEquals(store.head(bucket, "k").orElseThrow().lastModified(), listed);
    }

    // ---- ETags ----

    @Test
    public void put_etagIsTheLowercaseHexMd5OfTheBytes() {
        String bucket = fx.newBucket(false);
        store.put(bucket, "empty", new byte[0], "text/plain");
        store.put(bucket, "hello", text("hello world\n"), "text/plain");
        assertEquals("d41d8cd98f00b204e9800998ecf8427e", store.head(bucket, "empty").orElseThrow().etag());
        assertEquals("6f5902ac237024bdd0c176cb93063dc4", store.head(bucket, "hello").orElseThrow().etag());
    }

    @Test
    public void multipartPut_etagIsTheMd5OfThePartMd5s_thenThePartCount() {
        String bucket = fx.newBucket(true);
        int part = fx.minPartBytes();
        byte[] body = bytes(part + 100, 1);

        fx.putWithParts(bucket, "k", body, part, () -> { });

        StoredObject head = store.head(bucket, "k").orElseThrow();
        assertEquals(multipartEtag(body, part, 100), head.etag());
        assertTrue(head.etag().endsWith("-2"), head.etag());
        assertEquals(body.length, head.size());
        assertRead(bucket, "k", null, body);
    }

    @Test
    public void multipartPut_sameBytesInTheSameParts_sameEtag_otherPartSizes_otherEtag() {
        String bucket = fx.newBucket(true);
        int part = fx.minPartBytes();
        byte[] body = bytes(2 * part + 10, 2);

        fx.putWithParts(bucket, "a", body, part + 5, () -> { });
        fx.putWithParts(bucket, "b", body, part + 5, () -> { });
        fx.putWithParts(bucket, "c", body, part + 6, () -> { });
        fx.putWithParts(bucket, "d", body, part, () -> { });
        fx.putWithParts(bucket, "e", body, 3 * part, () -> { });
        store.put(bucket, "f", body, "application/octet-stream");

        String a = etag(bucket, "a");
        assertEquals(multipartEtag(body, part + 5, part + 5), a);
        assertEquals(a, etag(bucket, "b"), "identical bytes in identical parts: identical ETags");
        assertEquals(multipartEtag(body, part + 6, part + 4), etag(bucket, "c"));
        assertNotEquals(a, etag(bucket, "c"), "two parts either way, other boundaries: another ETag");
        assertEquals(multipartEtag(body, part, part, 10), etag(bucket, "d"));
        assertEquals(multipartEtag(body, body.length), etag(bucket, "e"), "one part: the MD5 of its MD5, -1");
        assertNotEquals(md5Hex(body), etag(bucket, "e"));
        assertEquals(md5Hex(body), etag(bucket, "f"));
    }

    // ---- the staging upload ----

    @Test
    public void startUpload_belowOnePart_isOnePut_visibleOnlyOnceComplete() throws Exception {
        String lake = fx.newBucket(false);
        byte[] body = text("{\"a\":1}\n{\"a\":2}\n");
        String etag;
        try (StreamingUpload upload = store.startUpload(lake, "_staging/run-1.jsonl", "application/x-ndjson")) {
            upload.stream().write(body, 0, 8);
            upload.stream().write(body, 8, body.length - 8);
            assertEquals(Optional.empty(), store.head(lake, "_staging/run-1.jsonl"), "nothing visible before complete");
            etag = upload.complete();
        }
        assertEquals(md5Hex(body), etag, "a body below one part is one PutObject");
        assertEquals(etag, etag(lake, "_staging/run-1.jsonl"));
        assertRead(lake, "_staging/run-1.jsonl", null, body);
    }

    @Test
    public void startUpload_ofMoreThanOnePart_isMultipartInPartsOfTheUploadPartSize() throws Exception {
        String lake = fx.newBucket(false);
        int part = fx.uploadPartBytes();
        byte[] body = bytes(part + 7, 3);
        byte[] exact = bytes(part, 4);

        String etag = upload(lake, "_staging/big.jsonl", body, 64 * 1024);
        String exactEtag = upload(lake, "_staging/exact.jsonl", exact, part);

        assertEquals(multipartEtag(body, part, 7), etag);
        assertEquals(etag, etag(lake, "_staging/big.jsonl"));
        assertRead(lake, "_staging/big.jsonl", null, body);
        assertEquals(multipartEtag(exact, part), exactEtag, "exactly one part is a one-part multipart upload");
        assertEquals(exactEtag, etag(lake, "_staging/exact.jsonl"));
    }

    @Test
    public void startUpload_abortedOrClosedUncompleted_leavesNothing() throws Exception {
        String lake = fx.newBucket(false);
        StreamingUpload aborted = store.startUpload(lake, "_staging/a.jsonl", "application/x-ndjson");
        aborted.stream().write(text("x\n"));
        aborted.abort();
        aborted.abort();
        assertThrows(IOException.class, () -> aborted.stream().write(text("y\n")), "no writes after abort");
        try (StreamingUpload closed = store.startUpload(lake, "_staging/b.jsonl", "application/x-ndjson")) {
            closed.stream().write(text("x\n"));
        }
        assertEquals(List.of(), listed(lake, ""));
    }

    // ---- the promote ----

    @Test
    public void promote_noneMatch_onAFreeTarget_publishesACopy_withExactlyTheGivenMetadata() throws Exception {
        String lake = fx.newBucket(false);
        byte[] body = text("{\"a\":1}\n{\"a\":2}\n");
        fx.put(lake, "_staging/s.jsonl", body, Map.of("staging-only", "x"));
        Map<String, String> metadata = Map.of("input-sha256", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                "input-version-id", "3HL4kqtJvjVBH40Nrjfkd", "run-id", "run-1", "accepted", "2");

        String etag = store.promote(lake, "_staging/s.jsonl", "published/u/part-00000.jsonl", metadata, Precondition.none());

        assertEquals(multipartEtag(body, body.length), etag, "a one-part multipart copy");
        StoredObject head = store.head(lake, "published/u/part-00000.jsonl").orElseThrow();
        assertEquals(etag, head.etag());
        assertEquals(metadata, head.metadata(), "exactly the metadata given, not the source's");
        assertEquals(body.length, head.size());
        assertRead(lake, "published/u/part-00000.jsonl", null, body);
        assertEquals(Map.of("staging-only", "x"), store.head(lake, "_staging/s.jsonl").orElseThrow().metadata(),
                "the source is untouched");
    }

    @Test
    public void promote_noneMatch_onAnExistingTarget_failsWith412_andChangesNothing() throws Exception {
        String lake = fx.newBucket(false);
        store.put(lake, "_staging/1", text("one\n"), "application/x-ndjson");
        store.put(lake, "_staging/2", text("two\n"), "application/x-ndjson");
        String winner = store.promote(lake, "_staging/1", "published/t", Map.of("run-id", "run-1"), Precondition.none());

        assertThrows(PreconditionFailedException.class,
                () -> store.promote(lake, "_staging/2", "published/t", Map.of("run-id", "run-2"), Precondition.none()));

        StoredObject head = store.head(lake, "published/t").orElseThrow();
        assertEquals(winner, head.etag());
        assertEquals(Map.of("run-id", "run-1"), head.metadata());
        assertRead(lake, "published/t", null, "one\n");
    }

    @Test
    public void promote_noneMatch_afterTheTargetWasDeleted_publishes() throws Exception {
        String bucket = fx.newBucket(true);
        store.put(bucket, "_staging/1", text("one\n"), "application/x-ndjson");
        store.put(bucket, "_staging/2", text("two\n"), "application/x-ndjson");
        store.promote(bucket, "_staging/1", "published/t", Map.of(), Precondition.none());
        store.delete(bucket, "published/t");

        String etag = store.promote(bucket, "_staging/2", "published/t", Map.of("run-id", "run-2"), Precondition.none());

        StoredObject head = store.head(bucket, "published/t").orElseThrow();
        assertEquals(etag, head.etag());
        assertNotNull(head.versionId(), "a versioned bucket names the promoted version");
        assertRead(bucket, "published/t", null, "two\n");
        assertEquals(List.of(true, false), all(store.versions(bucket, "published/")).stream().map(ListedVersion::latest).toList());
    }

    @Test
    public void promote_match_withTheCurrentEtag_replacesTheTarget() throws Exception {
        String lake = fx.newBucket(false);
        store.put(lake, "_staging/1", text("old\n"), "application/x-ndjson");
        store.put(lake, "_staging/2", text("new\n"), "application/x-ndjson");
        String old = store.promote(lake, "_staging/1", "published/t", Map.of("run-id", "run-1"), Precondition.none());

        String replaced = store.promote(lake, "_staging/2", "published/t", Map.of("run-id", "run-2"), Precondition.match(old));

        assertNotEquals(old, replaced);
        assertEquals(replaced, etag(lake, "published/t"));
        assertEquals(Map.of("run-id", "run-2"), store.head(lake, "published/t").orElseThrow().metadata());
        assertRead(lake, "published/t", null, "new\n");
    }

    @Test
    public void promote_match_withAnotherEtag_failsWith412_andChangesNothing() throws Exception {
        String lake = fx.newBucket(false);
        store.put(lake, "_staging/1", text("old\n"), "application/x-ndjson");
        store.put(lake, "_staging/2", text("new\n"), "application/x-ndjson");
        String old = store.promote(lake, "_staging/1", "published/t", Map.of("run-id", "run-1"), Precondition.none());

        assertThrows(PreconditionFailedException.class, () -> store.promote(lake, "_staging/2", "published/t",
                Map.of("run-id", "run-2"), Precondition.match("0123456789abcdef0123456789abcdef-1")));

        assertEquals(old, etag(lake, "published/t"));
        assertRead(lake, "published/t", null, "old\n");
    }

    @Test
    public void promote_match_onAMissingTarget_failsAsAPrecondition() {
        String lake = fx.newBucket(false);
        store.put(lake, "_staging/1", text("one\n"), "application/x-ndjson");

        // S3 answers 404 NoSuchKey: the object the caller matched against is gone, which is a failed precondition
        assertThrows(PreconditionFailedException.class, () -> store.promote(lake, "_staging/1", "published/t", Map.of(),
                Precondition.match("0123456789abcdef0123456789abcdef-1")));
        assertEquals(Optional.empty(), store.head(lake, "published/t"));
    }

    @Test
    public void promote_ofALargeSource_copiesItInRanges() throws Exception {
        String lake = fx.newBucket(false);
        int minimum = fx.minPartBytes();
        byte[] body = bytes(2 * minimum + 10, 5);
        store.put(lake, "_staging/big", body, "application/x-ndjson");

        String etag = store.promote(lake, "_staging/big", "published/big", Map.of(), Precondition.none());

        int count = Math.min(fx.copyPartsInFlight(), body.length / minimum);
        int range = (body.length + count - 1) / count;
        int[] parts = new int[count];
        for (int i = 0; i < count; i++) {
            parts[i] = Math.min(range, body.length - i * range);
        }
        assertEquals(multipartEtag(body, parts), etag, "ranges of " + Arrays.toString(parts));
        assertEquals(etag, etag(lake, "published/big"));
        assertRead(lake, "published/big", null, body);
    }

    @Test
    public void promote_ofAMissingSource_isAFault_notARefusal() {
        String lake = fx.newBucket(false);
        Exception thrown = assertThrows(Exception.class,
                () -> store.promote(lake, "_staging/never", "published/t", Map.of(), Precondition.none()));
        assertTrue(thrown instanceof RuntimeException, "a runtime fault, not " + thrown);
        assertEquals(Optional.empty(), store.head(lake, "published/t"));
    }

    // ---- LastModified of a multipart upload ----

    @Test
    public void multipartPut_lastModifiedIsWhenTheUploadWasInitiated() {
        String bucket = fx.newBucket(true);
        byte[] multipart = text("completed last, initiated first\n");
        byte[] between = text("put while the upload was open\n");

        fx.putWithParts(bucket, "k", multipart, fx.minPartBytes(), () -> {
            fx.elapse(Duration.ofMillis(2100));
            store.put(bucket, "k", between, "text/plain");
        });

        StoredObject head = store.head(bucket, "k").orElseThrow();
        assertEquals(multipartEtag(multipart, multipart.length), head.etag(), "the multipart upload completed last: it is current");
        List<ListedVersion> versions = all(store.versions(bucket, "k"));
        assertEquals(List.of(head.versionId()), versions.stream().filter(ListedVersion::latest).map(ListedVersion::versionId).toList());
        assertEquals(md5Hex(between), versions.get(1).etag(), "newest first: the multipart object, then the PUT");
        Instant putTime;
        try (OpenedObject put = store.open(bucket, "k", versions.get(1).versionId())) {
            putTime = put.object().lastModified();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        if (differences().contains(Difference.MULTIPART_LAST_MODIFIED_IS_COMPLETION)) {
            assertFalse(head.lastModified().isBefore(putTime), "the emulator dates the object at its completion");
            return;
        }
        assertTrue(head.lastModified().isBefore(putTime),
                "the current version is older by LastModified than the version it replaced: " + head.lastModified() + " vs " + putTime);
    }

    // ---- helpers ----

    /** One row of a version listing, for comparisons. */
    protected record Row(String key, String versionId, String etag, boolean latest) {
    }

    protected List<Row> versionRows(String bucket, String prefix) {
        return all(store.versions(bucket, prefix)).stream().map(v -> new Row(v.key(), v.versionId(), v.etag(), v.latest())).toList();
    }

    protected List<ListedObject> listed(String bucket, String prefix) {
        return all(store.list(bucket, prefix));
    }

    protected static <T> List<T> all(Iterable<T> iterable) {
        List<T> list = new ArrayList<>();
        iterable.forEach(list::add);
        return list;
    }

    private String etag(String bucket, String key) {
        return store.head(bucket, key).orElseThrow().etag();
    }

    private String upload(String bucket, String key, byte[] body, int chunk) throws IOException {
        try (StreamingUpload upload = store.startUpload(bucket, key, "application/x-ndjson")) {
            for (int offset = 0; offset < body.length; offset += chunk) {
                upload.stream().write(body, offset, Math.min(chunk, body.length - offset));
            }
            return upload.complete();
        }
    }

    private void assertRead(String bucket, String key, String versionId, String expected) {
        assertRead(bucket, key, versionId, text(expected));
    }

    private void assertRead(String bucket, String key, String versionId, byte[] expected) {
        try (OpenedObject opened = store.open(bucket, key, versionId)) {
            assertArrayEquals(expected, opened.body().readAllBytes(), bucket + "/" + key + " " + versionId);
            if (versionId != null) {
                assertEquals(versionId, opened.object().versionId());
            }
            assertEquals(expected.length, opened.object().size());
        } catch (ObjectNotFoundException e) {
            fail(bucket + "/" + key + " version " + versionId + " should exist", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void assertWholeSeconds(Instant instant) {
        assertNotNull(instant);
        assertEquals(0, instant.getNano(), "S3's LastModified has whole seconds: " + instant);
    }

    /** Which of {@code contents} has this single-PUT ETag. */
    private static String contentOf(String etag, String... contents) {
        for (String content : contents) {
            if (md5Hex(text(content)).equals(etag)) {
                return content;
            }
        }
        return "?" + etag;
    }

    protected static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Deterministic pseudo-random bytes. */
    protected static byte[] bytes(int length, long seed) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }

    protected static String md5Hex(byte[] body) {
        return HexFormat.of().formatHex(md5().digest(body));
    }

    /** The ETag S3 gives a multipart object of {@code body} uploaded in parts of these lengths. */
    protected static String multipartEtag(byte[] body, int... partLengths) {
        MessageDigest ofParts = md5();
        int offset = 0;
        for (int length : partLengths) {
            MessageDigest part = md5();
            part.update(body, offset, length);
            ofParts.update(part.digest());
            offset += length;
        }
        assertEquals(body.length, offset, "the parts cover the body");
        return HexFormat.of().formatHex(ofParts.digest()) + "-" + partLengths.length;
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
