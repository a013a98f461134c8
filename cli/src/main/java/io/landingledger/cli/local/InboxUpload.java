package io.landingledger.cli.local;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Puts a file into the inbox as a producer's SDK would: one PUT up to {@link #PART_BYTES}, 64 MiB parts above. One PUT
 * would not do for large files: S3 takes at most 5 GiB in one, and S3Proxy refuses a signed single PUT above 128 MiB
 * (it holds the whole body in memory to check its hash; the emulator clients send whole bodies, not aws-chunked ones).
 * Memory stays at one part, whatever the file.
 */
public final class InboxUpload {
    static final int PART_BYTES = 64 << 20;

    /** The object version the put created. */
    public record Uploaded(String versionId, String eTag, long size) {
    }

    private InboxUpload() {
    }

    public static Uploaded put(S3Client s3, String bucket, String key, Path file) throws IOException {
        long size = Files.size(file);
        if (size <= PART_BYTES) {
            var put = s3.putObject(r -> r.bucket(bucket).key(key), RequestBody.fromFile(file));
            return new Uploaded(put.versionId(), unquoted(put.eTag()), size);
        }
        String uploadId = s3.createMultipartUpload(r -> r.bucket(bucket).key(key)).uploadId();
        try {
            List<CompletedPart> parts = new ArrayList<>();
            byte[] part = new byte[PART_BYTES];
            try (InputStream in = Files.newInputStream(file)) {
                for (int length = in.readNBytes(part, 0, part.length); length > 0; length = in.readNBytes(part, 0, part.length)) {
                    int number = parts.size() + 1;
                    int bytes = length;
                    String etag = s3.uploadPart(r -> r.bucket(bucket).key(key).uploadId(uploadId).partNumber(number),
                            RequestBody.fromContentProvider(() -> new ByteArrayInputStream(part, 0, bytes), bytes,
                                    "application/octet-stream")).eTag();
                    parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
                }
            }
            var done = s3.completeMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(uploadId).multipartUpload(u -> u.parts(parts)));
            return new Uploaded(done.versionId(), unquoted(done.eTag()), size);
        } catch (IOException | RuntimeException e) {
            s3.abortMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(uploadId));
            throw e;
        }
    }

    private static String unquoted(String eTag) {
        return eTag.replace("\"", "");
    }
}
