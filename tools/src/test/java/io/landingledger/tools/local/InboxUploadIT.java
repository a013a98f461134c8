package io.landingledger.tools.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.landingledger.localcloud.aws.EmbeddedAws;
import io.landingledger.lambda.AwsConnection;
import io.landingledger.lambda.DependencyFactory;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.SplittableRandom;

/**
 * What `landing local` and `landing bench` put into the emulated inbox arrives whole, whatever its size: above one
 * part the file goes up in parts (S3Proxy refuses a signed single PUT above 128 MiB, and S3 one above 5 GiB).
 */
class InboxUploadIT {
    private static final String BUCKET = "inbox-upload-it";
    private static EmbeddedAws emulators;
    private static S3Client s3;

    @BeforeAll
    static void start() throws Exception {
        emulators = EmbeddedAws.start();
        s3 = DependencyFactory.forEmulator(S3Client.builder())
                .region(Region.US_EAST_1)
                .credentialsProvider(() -> AwsConnection.EMULATOR_CREDENTIALS)
                .endpointOverride(emulators.s3Endpoint())
                .build();
        s3.createBucket(r -> r.bucket(BUCKET));
        s3.putBucketVersioning(r -> r.bucket(BUCKET).versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
    }

    @AfterAll
    static void stop() {
        s3.close();
        emulators.close();
    }

    @Test
    void put_whenTheFileIsLargerThanAPart_uploadsItInPartsAndTheVersionHoldsEveryByte(@TempDir Path dir) throws Exception {
        assertUploadsWhole(dir.resolve("big.jsonl"), 2L * InboxUpload.PART_BYTES + 12_345, 3);
    }

    @Test
    void put_whenTheFileFitsInOnePart_putsItOnce(@TempDir Path dir) throws Exception {
        assertUploadsWhole(dir.resolve("small.jsonl"), 1_000, 0);
    }

    private static void assertUploadsWhole(Path file, long size, int expectedParts) throws Exception {
        SplittableRandom random = new SplittableRandom(size);
        byte[] chunk = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long written = 0; written < size; written += chunk.length) {
                for (int i = 0; i < chunk.length; i++) {
                    chunk[i] = (byte) random.nextInt();
                }
                out.write(chunk, 0, (int) Math.min(chunk.length, size - written));
            }
        }
        String key = "progress_events/" + file.getFileName();
        InboxUpload.Uploaded put = InboxUpload.put(s3, BUCKET, key, file);
        assertEquals(size, put.size());
        var head = s3.headObject(r -> r.bucket(BUCKET).key(key).versionId(put.versionId()));
        assertEquals(size, head.contentLength());
        assertEquals(head.eTag().replace("\"", ""), put.eTag());
        assertTrue(expectedParts == 0 ? !put.eTag().contains("-") : put.eTag().endsWith("-" + expectedParts), put.eTag());
        assertArrayEquals(sha256(Files.newInputStream(file)), sha256(s3.getObject(r -> r.bucket(BUCKET).key(key).versionId(put.versionId()))));
    }

    private static byte[] sha256(InputStream in) throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        try (InputStream hashed = new DigestInputStream(in, digest)) {
            hashed.transferTo(OutputStream.nullOutputStream());
        }
        return digest.digest();
    }
}
