package io.landingledger.localcloud.deploy;

import io.landingledger.localcloud.aws.EmbeddedAws;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30, finding 4: what S3 refuses, the local stack refuses as S3 does, at the gateway, with the real SDK client;
 * and what the product sends legitimately ({@code If-None-Match: *}, {@code If-Match: <etag>}) still passes. Each
 * refusal is checked together with what the emulator behind it would have done: the object is left as it was.
 */
class StrictS3GatewayTest {
    private static final String BUCKET = "strict-lake";
    private static EmbeddedAws emulators;
    private static AwsGateway gateway;
    private static S3Client s3;

    @BeforeAll
    static void start() throws Exception {
        emulators = EmbeddedAws.start();
        gateway = AwsGateway.start(emulators.s3Endpoint(), emulators.dynamoDbEndpoint());
        gateway.principal(new Principal(EmbeddedAws.ACCESS_KEY, "arn:aws:iam::123456789012:user/operator", null));
        s3 = LocalDeployment.s3Client(new StackConnection(Region.US_EAST_1, gateway.endpoint(),
                AwsBasicCredentials.create(EmbeddedAws.ACCESS_KEY, EmbeddedAws.SECRET_KEY)));
        s3.createBucket(r -> r.bucket(BUCKET));
    }

    @AfterAll
    static void stop() {
        s3.close();
        gateway.close();
        emulators.close();
    }

    private static String fresh(String name) {
        return "published/" + name + "-" + UUID.randomUUID() + ".jsonl";
    }

    private static String put(String key, String body) {
        return s3.putObject(r -> r.bucket(BUCKET).key(key), RequestBody.fromString(body)).eTag();
    }

    private static String read(String key) {
        return s3.getObjectAsBytes(r -> r.bucket(BUCKET).key(key)).asUtf8String();
    }

    private static S3Exception refused(int status, String code, Executable request) {
        S3Exception e = assertThrows(S3Exception.class, request);
        assertEquals(status, e.statusCode(), e.getMessage());
        assertEquals(code, e.awsErrorDetails().errorCode(), e.getMessage());
        return e;
    }

    private static String multipartUpload(String key, String body) {
        String uploadId = s3.createMultipartUpload(r -> r.bucket(BUCKET).key(key)).uploadId();
        String etag = s3.uploadPart(r -> r.bucket(BUCKET).key(key).uploadId(uploadId).partNumber(1),
                RequestBody.fromString(body)).eTag();
        return uploadId + " " + etag;
    }

    // ---- If-None-Match takes only '*' --------------------------------------------------------------------------

    @Test
    void aPutWithIfNoneMatchOtherThanStar_isNotImplemented_andNeverOverwrites() {
        String key = fresh("bogus-put");
        put(key, "original");
        S3Exception e = refused(501, "NotImplemented",
                () -> s3.putObject(r -> r.bucket(BUCKET).key(key).ifNoneMatch("\"bogus\""), RequestBody.fromString("overwrite")));
        assertEquals("A header you provided implies functionality that is not implemented",
                e.awsErrorDetails().errorMessage());
        assertEquals("original", read(key));
        // on a key that does not exist either: S3 refuses the header's value, not the object's state
        String absent = fresh("bogus-put-absent");
        refused(501, "NotImplemented",
                () -> s3.putObject(r -> r.bucket(BUCKET).key(absent).ifNoneMatch("\"bogus\""), RequestBody.fromString("x")));
        assertThrows(NoSuchKeyException.class, () -> read(absent));
    }

    @Test
    void aPutWithIfNoneMatchOfTheObjectsOwnEtag_isNotImplemented_notAPreconditionFailure() {
        String key = fresh("etag-put");
        String etag = put(key, "original");
        refused(501, "NotImplemented",
                () -> s3.putObject(r -> r.bucket(BUCKET).key(key).ifNoneMatch(etag), RequestBody.fromString("overwrite")));
        assertEquals("original", read(key));
    }

    @Test
    void aCompleteMultipartUploadWithIfNoneMatchOtherThanStar_isNotImplemented_andNeverOverwrites() {
        String key = fresh("bogus-complete");
        put(key, "original");
        String[] upload = multipartUpload(key, "overwrite").split(" ");
        refused(501, "NotImplemented", () -> s3.completeMultipartUpload(r -> r.bucket(BUCKET).key(key).uploadId(upload[0])
                .ifNoneMatch("\"bogus\"").multipartUpload(m -> m.parts(p -> p.partNumber(1).eTag(upload[1])))));
        assertEquals("original", read(key));
        s3.abortMultipartUpload(r -> r.bucket(BUCKET).key(key).uploadId(upload[0]));
    }

    @Test
    void aConditionalCopyObject_whichTheEmulatorWouldIgnore_isRefused_andNeverOverwrites() {
        String source = fresh("copy-source");
        put(source, "new content");
        String destination = fresh("copy-destination");
        String etag = put(destination, "original");
        for (String[] condition : List.of(new String[] {"*", null}, new String[] {null, etag}, new String[] {null, "\"bogus\""})) {
            refused(501, "NotImplemented", () -> s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey(source)
                    .destinationBucket(BUCKET).destinationKey(destination).ifNoneMatch(condition[0]).ifMatch(condition[1])));
            assertEquals("original", read(destination));
        }
    }

    @Test
    void thePublishesOwnConditions_ifNoneMatchStar_andIfMatchEtag_stillHoldAsOnS3() {
        String key = fresh("publish");
        s3.putObject(r -> r.bucket(BUCKET).key(key).ifNoneMatch("*"), RequestBody.fromString("first"));
        refused(412, "PreconditionFailed",
                () -> s3.putObject(r -> r.bucket(BUCKET).key(key).ifNoneMatch("*"), RequestBody.fromString("second")));
        String[] again = multipartUpload(key, "second").split(" ");
        refused(412, "PreconditionFailed", () -> s3.completeMultipartUpload(r -> r.bucket(BUCKET).key(key).uploadId(again[0])
                .ifNoneMatch("*").multipartUpload(m -> m.parts(p -> p.partNumber(1).eTag(again[1])))));
        String current = s3.headObject(r -> r.bucket(BUCKET).key(key)).eTag();
        String[] wrong = multipartUpload(key, "third").split(" ");
        refused(412, "PreconditionFailed", () -> s3.completeMultipartUpload(r -> r.bucket(BUCKET).key(key).uploadId(wrong[0])
                .ifMatch("\"0123456789abcdef0123456789abcdef\"").multipartUpload(m -> m.parts(p -> p.partNumber(1).eTag(wrong[1])))));
        String[] right = multipartUpload(key, "fourth").split(" ");
        s3.completeMultipartUpload(r -> r.bucket(BUCKET).key(key).uploadId(right[0]).ifMatch(current)
                .multipartUpload(m -> m.parts(p -> p.partNumber(1).eTag(right[1]))));
        assertEquals("fourth", read(key));
        // If-Match on a key that does not exist: S3's 404, not 412
        assertThrows(NoSuchKeyException.class, () -> s3.putObject(r -> r.bucket(BUCKET).key(fresh("missing")).ifMatch(current),
                RequestBody.fromString("x")));
    }

    // ---- keys of at most 1,024 bytes of UTF-8 -------------------------------------------------------------------

    @Test
    void aKeyLongerThan1024BytesOfUtf8_isKeyTooLong_onEveryRequestThatCreatesAnObject() {
        String prefix = "inbox/";
        String ascii = prefix + "a".repeat(1025 - prefix.length());
        String twoByteChars = prefix + "\u00e9".repeat(510); // 1,026 bytes in 516 characters
        for (String key : List.of(ascii, twoByteChars)) {
            S3Exception e = refused(400, "KeyTooLongError", () -> put(key, "x"));
            assertEquals("Your key is too long", e.awsErrorDetails().errorMessage());
            refused(400, "KeyTooLongError", () -> s3.createMultipartUpload(r -> r.bucket(BUCKET).key(key)));
            String source = fresh("long-copy-source");
            put(source, "x");
            refused(400, "KeyTooLongError", () -> s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey(source)
                    .destinationBucket(BUCKET).destinationKey(key)));
        }
        List<String> stored = s3.listObjectsV2(r -> r.bucket(BUCKET).prefix(prefix)).contents().stream().map(S3Object::key).toList();
        assertTrue(stored.stream().noneMatch(k -> k.getBytes(StandardCharsets.UTF_8).length > 1024), stored.toString());
        // exactly 1,024 bytes is S3's largest key
        String atLimit = prefix + "\u00e9".repeat(509); // 6 + 1,018 bytes
        assertEquals(1024, atLimit.getBytes(StandardCharsets.UTF_8).length);
        put(atLimit, "fits");
        assertEquals("fits", read(atLimit));
    }

    // ---- a key ending in '/' keeps its body on S3; the emulator drops it ---------------------------------------

    @Test
    void aKeyEndingInSlashWithABody_isRefused_ratherThanStoredWithoutItsBody() {
        String folder = "inbox/folder-" + UUID.randomUUID() + "/";
        S3Exception e = refused(501, "NotImplemented", () -> put(folder, "a body S3 would keep"));
        assertTrue(e.awsErrorDetails().errorMessage().contains("ends in '/'"), e.getMessage());
        refused(501, "NotImplemented", () -> s3.createMultipartUpload(r -> r.bucket(BUCKET).key(folder)));
        String source = fresh("folder-copy-source");
        put(source, "content");
        refused(501, "NotImplemented", () -> s3.copyObject(r -> r.sourceBucket(BUCKET).sourceKey(source)
                .destinationBucket(BUCKET).destinationKey(folder)));
        assertThrows(NoSuchKeyException.class, () -> read(folder));
        assertEquals(List.of(), s3.listObjectsV2(r -> r.bucket(BUCKET).prefix(folder)).contents());
        // an empty "folder" marker loses nothing and passes, as on S3
        s3.putObject(r -> r.bucket(BUCKET).key(folder), RequestBody.empty());
        assertEquals("", read(folder));
    }
}
