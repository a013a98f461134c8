package io.landingledger.localcloud.aws;

import io.landingledger.localcloud.aws.nio2blob.VersionedFilesystemBlobStore;

import org.gaul.s3proxy.AccessGrant;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * S3 and DynamoDB on this machine, as docs/emulators.md chose them: S3Proxy in-process with its transient (in-memory)
 * blob store (correct If-None-Match / If-Match on CompleteMultipartUpload, versioning; {@link #startOnDisk} keeps
 * the same store's objects on disk) and moto's DynamoDB server as a child process (see {@link MotoServer}). Both on free 127.0.0.1 ports, started concurrently, credentials
 * {@value #ACCESS_KEY}/{@value #SECRET_KEY}.
 */
public final class EmbeddedAws implements AutoCloseable {
    public static final String ACCESS_KEY = "test";
    public static final String SECRET_KEY = "test";

    private final S3Proxy s3Proxy;
    private final MotoServer moto;
    /** Access key to secret: the identities S3Proxy verifies signatures for ({@value #ACCESS_KEY} and those added). */
    private final Map<String, String> identities;
    private final StartupTimes startupTimes;

    private EmbeddedAws(S3Proxy s3Proxy, MotoServer moto, StartupTimes startupTimes, Map<String, String> identities) {
        this.s3Proxy = s3Proxy;
        this.identities = identities;
        this.moto = moto;
        this.startupTimes = startupTimes;
    }

    /** How long each emulator took to answer, from the start request; they start concurrently. */
    public record StartupTimes(Duration s3Proxy, Duration motoServer, Duration total) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "S3Proxy %d ms, moto %d ms, both ready after %d ms",
                    s3Proxy.toMillis(), motoServer.toMillis(), total.toMillis());
        }
    }

    public static EmbeddedAws start() throws Exception {
        return start(BlobStores.create("transient", new Properties()));
    }

    /**
     * As {@link #start()}, but S3Proxy keeps the objects in files under {@code directory} (see
     * {@link VersionedFilesystemBlobStore}) instead of on the heap: for the benchmark, whose inputs are hundreds of
     * MB, so that the stored bytes neither compete for the heap nor cost collections.
     */
    public static EmbeddedAws startOnDisk(Path directory) throws Exception {
        return start(new VersionedFilesystemBlobStore(directory));
    }

    private static EmbeddedAws start(BlobStore store) throws Exception {
        long begin = System.nanoTime();
        CompletableFuture<long[]> motoReady = new CompletableFuture<>();
        CompletableFuture<MotoServer> motoStart = CompletableFuture.supplyAsync(() -> {
            try {
                MotoServer server = MotoServer.start();
                motoReady.complete(new long[] {System.nanoTime()});
                return server;
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("the DynamoDB emulator did not start: " + e.getMessage(), e);
            }
        });
        S3Proxy proxy;
        long s3Ready;
        Map<String, String> identities = new ConcurrentHashMap<>();
        identities.put(ACCESS_KEY, SECRET_KEY);
        try {
            proxy = startS3Proxy(store, identities);
            s3Ready = System.nanoTime();
        } catch (Exception e) {
            motoStart.thenAccept(MotoServer::close);
            throw e;
        }
        MotoServer moto;
        try {
            moto = motoStart.get();
        } catch (ExecutionException e) {
            proxy.stop();
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        }
        long end = System.nanoTime();
        return new EmbeddedAws(proxy, moto, new StartupTimes(Duration.ofNanos(s3Ready - begin),
                Duration.ofNanos(motoReady.get()[0] - begin), Duration.ofNanos(end - begin)), identities);
    }

    private static S3Proxy startS3Proxy(BlobStore store, Map<String, String> identities) throws Exception {
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(store)
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .build();
        // S3Proxy checks each request's signature with the secret of the key it names: one store, many identities
        proxy.setBlobStoreLocator((identity, container, blob) -> {
            String secret = identities.get(identity);
            return secret == null ? null : new AccessGrant(secret, store);
        });
        proxy.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                proxy.stop();
                throw new IllegalStateException("S3Proxy did not start within 30 s (state " + proxy.getState() + ")");
            }
            Thread.sleep(20);
        }
        return proxy;
    }

    /**
     * Another identity S3Proxy accepts (the locally deployed stack's role sessions): a request signed with {@code key}
     * is verified with {@code secret}. Which identity may do what is the stack's gateway's to decide, not S3Proxy's.
     */
    public void addIdentity(String key, String secret) {
        identities.put(key, secret);
    }

    public URI s3Endpoint() {
        return URI.create("http://127.0.0.1:" + s3Proxy.getPort());
    }

    public URI dynamoDbEndpoint() {
        return moto.endpoint();
    }

    public long motoPid() {
        return moto.pid();
    }

    public StartupTimes startupTimes() {
        return startupTimes;
    }

    @Override
    public void close() {
        try {
            s3Proxy.stop();
        } catch (Exception e) {
            throw new IllegalStateException("S3Proxy did not stop cleanly", e);
        } finally {
            moto.close();
        }
    }
}
