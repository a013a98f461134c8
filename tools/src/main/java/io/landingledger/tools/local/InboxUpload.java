package io.landingledger.tools.local;

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
        return put(s3, bucket, key, file, null);
    }

    /** As {@link #put(S3Client, String, String, Path)}, the file's bytes counted into {@code meter} as they are sent. */
    public static Uploaded put(S3Client s3, String bucket, String key, Path file, io.landingledger.cli.Progress meter) throws IOException {
        long size = Files.size(file);
        if (size <= PART_BYTES) {
            if (meter == null) {
                var put = s3.putObject(r -> r.bucket(bucket).key(key), RequestBody.fromFile(file));
                return new Uploaded(put.versionId(), unquoted(put.eTag()), size);
            }
            // the SDK may read the body more than once (a checksum, a retry): the meter counts each byte once
            java.util.concurrent.atomic.AtomicLong sent = new java.util.concurrent.atomic.AtomicLong();
            var put = s3.putObject(r -> r.bucket(bucket).key(key), RequestBody.fromContentProvider(
                    () -> counted(open(file), sent, meter), size, "application/octet-stream"));
            return new Uploaded(put.versionId(), unquoted(put.eTag()), size);
        }
        String uploadId = s3.createMultipartUpload(r -> r.bucket(bucket).key(key)).uploadId();
        try {
            List<CompletedPart> parts = new ArrayList<>();
            byte[] part = new byte[PART_BYTES];
            try (InputStream in = meter == null ? Files.newInputStream(file) : meter.wrap(Files.newInputStream(file))) {
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

    private static InputStream open(Path file) {
        try {
            return Files.newInputStream(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** {@code in}, its bytes past the furthest any earlier stream of the same file reached counted into {@code meter}. */
    private static InputStream counted(InputStream in, java.util.concurrent.atomic.AtomicLong furthest, io.landingledger.cli.Progress meter) {
        return new java.io.FilterInputStream(in) {
            private long position;

            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) {
                    advance(1);
                }
                return b;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                int n = super.read(buffer, offset, length);
                if (n > 0) {
                    advance(n);
                }
                return n;
            }

            private void advance(int n) {
                position += n;
                long before = furthest.getAndAccumulate(position, Math::max);
                meter.count(position - Math.max(before, position - n));
            }
        };
    }

    private static String unquoted(String eTag) {
        return eTag.replace("\"", "");
    }
}
