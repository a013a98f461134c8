package io.landingledger.lambda.adapters;

import io.landingledger.core.store.ObjectStore;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * A streamed S3 upload: bytes written to {@link #stream()} fill fixed-size part buffers, each full buffer is
 * uploaded as a multipart part on the executor while the writer keeps filling the next one (the staging upload
 * overlaps the parsing), and at most {@code maxPartsInFlight} parts are in flight: memory is bounded at
 * {@code (maxPartsInFlight + 1) * partBytes} whatever the file size. A body smaller than one part is sent as one
 * PutObject, without a multipart upload at all.
 */
public final class MultipartStreamingUpload implements ObjectStore.StreamingUpload {

    /**
     * @param partBytes        bytes per part (S3: at least 5 MiB except the last; at most 10,000 parts, so 16 MiB
     *                         parts allow objects up to about 156 GiB)
     * @param maxPartsInFlight parts uploading concurrently while the writer fills the next
     */
    public record Settings(int partBytes, int maxPartsInFlight) {
        public static final int MIN_PART_BYTES = 5 << 20;
        public static final Settings DEFAULT = new Settings(16 << 20, 4);

        public Settings {
            if (partBytes < MIN_PART_BYTES) {
                throw new IllegalArgumentException("partBytes must be at least " + MIN_PART_BYTES + " (S3's minimum part size), not " + partBytes);
            }
            if (maxPartsInFlight < 1) {
                throw new IllegalArgumentException("maxPartsInFlight must be at least 1, not " + maxPartsInFlight);
            }
        }
    }

    private enum State { OPEN, COMPLETED, ABORTED }

    private final S3Client s3;
    private final ExecutorService executor;
    private final Settings settings;
    private final String bucket;
    private final String key;
    private final String contentType;
    private final Semaphore inFlight;
    private final BlockingQueue<byte[]> freeBuffers;
    private final List<Future<CompletedPart>> parts = new ArrayList<>();
    private final OutputStream stream = new PartStream();

    private State state = State.OPEN;
    private String uploadId;
    private byte[] buffer;
    private int filled;
    private int buffersCreated;

    MultipartStreamingUpload(S3Client s3, ExecutorService executor, Settings settings, String bucket, String key, String contentType) {
        this.s3 = s3;
        this.executor = executor;
        this.settings = settings;
        this.bucket = bucket;
        this.key = key;
        this.contentType = contentType;
        this.inFlight = new Semaphore(settings.maxPartsInFlight());
        this.freeBuffers = new ArrayBlockingQueue<>(settings.maxPartsInFlight() + 1);
    }

    @Override
    public OutputStream stream() {
        return stream;
    }

    private byte[] takeBuffer() throws InterruptedIOException {
        byte[] free = freeBuffers.poll();
        if (free != null) {
            return free;
        }
        if (buffersCreated <= settings.maxPartsInFlight()) {
            buffersCreated++;
            // start small: most files are far below one part, and then a single PutObject sends them
            return new byte[buffersCreated == 1 && parts.isEmpty() ? Math.min(settings.partBytes(), 64 * 1024) : settings.partBytes()];
        }
        try {
            return freeBuffers.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a part buffer");
        }
    }

    private final class PartStream extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] source, int offset, int length) throws IOException {
            if (state != State.OPEN) {
                throw new IOException("the upload to s3://" + bucket + "/" + key + " is " + state.name().toLowerCase());
            }
            while (length > 0) {
                if (buffer == null) {
                    buffer = takeBuffer();
                } else if (filled == buffer.length && buffer.length < settings.partBytes()) {
                    buffer = Arrays.copyOf(buffer, Math.min(settings.partBytes(), buffer.length * 4));
                }
                int n = Math.min(length, buffer.length - filled);
                System.arraycopy(source, offset, buffer, filled, n);
                filled += n;
                offset += n;
                length -= n;
                if (filled == settings.partBytes()) {
                    submitPart();
                }
            }
        }
    }

    private void submitPart() throws IOException {
        rethrowFailedPart();
        if (uploadId == null) {
            uploadId = s3.createMultipartUpload(r -> r.bucket(bucket).key(key).contentType(contentType)).uploadId();
        }
        try {
            inFlight.acquire(); // back-pressure: the parser waits while maxPartsInFlight parts are uploading
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a part upload slot");
        }
        byte[] part = buffer;
        int length = filled;
        int number = parts.size() + 1;
        String id = uploadId;
        buffer = null;
        filled = 0;
        parts.add(executor.submit(() -> {
            try {
                String etag = s3.uploadPart(r -> r.bucket(bucket).key(key).uploadId(id).partNumber(number).contentLength((long) length),
                        RequestBody.fromContentProvider(() -> new ByteArrayInputStream(part, 0, length), length, "application/octet-stream")).eTag();
                return CompletedPart.builder().partNumber(number).eTag(etag).build();
            } finally {
                freeBuffers.offer(part);
                inFlight.release();
            }
        }));
    }

    /** Surfaces a failed part upload at the next write instead of after the whole file. */
    private void rethrowFailedPart() throws IOException {
        for (Future<CompletedPart> part : parts) {
            if (part.isDone()) {
                await(part);
            }
        }
    }

    private CompletedPart await(Future<CompletedPart> part) throws IOException {
        try {
            return part.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a part upload");
        } catch (ExecutionException | CancellationException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            if (cause instanceof RuntimeException runtime) {
                throw runtime; // an SDK fault: let it propagate as the infrastructure error it is
            }
            throw new IOException("uploading a part of s3://" + bucket + "/" + key + " failed", cause);
        }
    }

    @Override
    public String complete() throws IOException {
        if (state != State.OPEN) {
            throw new IllegalStateException("the upload is already " + state);
        }
        try {
            String etag;
            if (uploadId == null) {
                byte[] body = buffer == null ? new byte[0] : buffer;
                int length = filled;
                etag = s3.putObject(r -> r.bucket(bucket).key(key).contentType(contentType),
                        RequestBody.fromContentProvider(() -> new ByteArrayInputStream(body, 0, length), length, contentType)).eTag();
            } else {
                if (filled > 0) {
                    submitPart();
                }
                List<CompletedPart> done = new ArrayList<>();
                for (Future<CompletedPart> part : parts) {
                    done.add(await(part));
                }
                String id = uploadId;
                etag = s3.completeMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(id)
                        .multipartUpload(CompletedMultipartUpload.builder().parts(done).build())).eTag();
            }
            state = State.COMPLETED;
            buffer = null;
            freeBuffers.clear();
            return S3ObjectStore.unquote(etag);
        } catch (IOException | RuntimeException e) {
            abort();
            throw e;
        }
    }

    @Override
    public void abort() {
        if (state == State.COMPLETED) {
            return;
        }
        state = State.ABORTED;
        for (Future<CompletedPart> part : parts) {
            part.cancel(true);
        }
        if (uploadId != null) {
            String id = uploadId;
            uploadId = null;
            try {
                s3.abortMultipartUpload(AbortMultipartUploadRequest.builder().bucket(bucket).key(key).uploadId(id).build());
            } catch (RuntimeException e) {
                // the lake's lifecycle rule aborts incomplete multipart uploads after a day
            }
        }
        buffer = null;
        freeBuffers.clear();
    }

    @Override
    public void close() {
        if (state == State.OPEN) {
            abort();
        }
    }
}
