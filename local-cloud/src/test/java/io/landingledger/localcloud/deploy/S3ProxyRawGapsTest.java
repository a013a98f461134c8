package io.landingledger.localcloud.deploy;

import io.landingledger.localcloud.aws.EmbeddedAws;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The "emulator alone" column of docs/emulators.md's strictness table, measured again on every run: S3Proxy, reached
 * directly and not through the gateway, still accepts what S3 refuses and loses what S3 keeps. {@link S3Strictness}
 * exists because of each of these; when one starts failing the emulator changed, and the table (and perhaps the
 * gateway's check) must change with it.
 */
class S3ProxyRawGapsTest {
    private static final String BUCKET = "raw-gaps";
    private static EmbeddedAws emulators;
    private static S3Client direct;

    @BeforeAll
    static void start() throws Exception {
        emulators = EmbeddedAws.start();
        direct = LocalDeployment.s3Client(new StackConnection(Region.US_EAST_1, emulators.s3Endpoint(),
                AwsBasicCredentials.create(EmbeddedAws.ACCESS_KEY, EmbeddedAws.SECRET_KEY)));
        direct.createBucket(r -> r.bucket(BUCKET));
    }

    @AfterAll
    static void stop() {
        direct.close();
        emulators.close();
    }

    private static String put(String key, String body) {
        return direct.putObject(r -> r.bucket(BUCKET).key(key), RequestBody.fromString(body)).eTag();
    }

    private static String read(String key) {
        return direct.getObjectAsBytes(r -> r.bucket(BUCKET).key(key)).asUtf8String();
    }

    @Test
    void ifNoneMatchOtherThanStar_overwrites_orFailsThePrecondition_neverNotImplemented() {
        String etag = put("inm", "original");
        assertEquals(412, assertThrows(S3Exception.class, () -> direct.putObject(r -> r.bucket(BUCKET).key("inm")
                .ifNoneMatch(etag), RequestBody.fromString("x"))).statusCode());
        direct.putObject(r -> r.bucket(BUCKET).key("inm").ifNoneMatch("\"bogus\""), RequestBody.fromString("overwritten"));
        assertEquals("overwritten", read("inm"));
    }

    @Test
    void conditionalCopyObject_ignoresItsConditions_andOverwrites() {
        put("copy-source", "new");
        put("copy-destination", "original");
        direct.copyObject(r -> r.sourceBucket(BUCKET).sourceKey("copy-source").destinationBucket(BUCKET)
                .destinationKey("copy-destination").ifNoneMatch("*"));
        assertEquals("new", read("copy-destination"));
    }

    @Test
    void aKeyOver1024Bytes_isStored() {
        String key = "k".repeat(1025);
        put(key, "stored");
        assertEquals("stored", read(key));
    }

    @Test
    void aKeyEndingInSlash_losesItsBody() {
        put("folder/", "a body");
        assertEquals("", read("folder/"));
    }
}
