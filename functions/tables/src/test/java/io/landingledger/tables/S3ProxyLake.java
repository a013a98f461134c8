package io.landingledger.tables;

import io.landingledger.lambda.AwsConnection;

import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;

import java.net.URI;
import java.time.Duration;
import java.util.Properties;

import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * S3Proxy alone (no DynamoDB emulator: the table port needs only S3), signatures checked with the emulator keys, with
 * a bucket {@value #BUCKET} for the tables' files, and a JDBC catalog (sqlite) whose tables' files go there through
 * S3FileIO, configured by the same {@link TableCatalogConfig} properties the function uses.
 */
final class S3ProxyLake implements AutoCloseable {
    static final String BUCKET = "lake";

    private final S3Proxy proxy;
    final URI endpoint;

    private S3ProxyLake(S3Proxy proxy) {
        this.proxy = proxy;
        this.endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
    }

    static S3ProxyLake start() throws Exception {
        BlobStore store = org.gaul.s3proxy.BlobStores.create("transient", new Properties());
        S3Proxy proxy = S3Proxy.builder().blobStore(store).endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, "test", "test").build();
        proxy.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                proxy.stop();
                throw new IllegalStateException("S3Proxy did not start within 30 s");
            }
            Thread.sleep(20);
        }
        S3ProxyLake lake = new S3ProxyLake(proxy);
        try (S3Client s3 = io.landingledger.lambda.DependencyFactory.s3Client(lake.connection())) {
            s3.createBucket(b -> b.bucket(BUCKET));
        }
        return lake;
    }

    AwsConnection connection() {
        return AwsConnection.endpoints(Region.US_EAST_1, endpoint, endpoint);
    }

    /** A JDBC catalog in {@code database} whose warehouse is {@code s3://lake/_tables}, with the namespace made. */
    JdbcCatalog catalog(Namespace namespace, java.nio.file.Path database) {
        JdbcCatalog catalog = TableWriterColdStart.catalog(endpoint, database);
        catalog.createNamespace(namespace);
        return catalog;
    }

    @Override
    public void close() throws Exception {
        proxy.stop();
    }
}
