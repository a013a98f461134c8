package io.landingledger.tools.testing;

import io.landingledger.tools.LandingTools;
import io.landingledger.cli.ops.Resources;
import io.landingledger.cli.stack.LocalStackRecord;
import io.landingledger.lambda.DependencyFactory;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code landing local --watch} running in this JVM as a user starts it, found through the record it writes (at
 * {@link LocalStackRecord#PROPERTY}, which the test sets first), with an S3 client on its emulator for what a
 * producer or an incident does outside {@code landing}. Closing it stops the stack as Ctrl-C would.
 */
public final class WatchedLocalStack implements AutoCloseable {
    public final LocalStackRecord record;
    public final AwsBasicCredentials credentials;
    public final S3Client s3;
    private final Thread thread;

    private WatchedLocalStack(Thread thread, LocalStackRecord record) {
        this.thread = thread;
        this.record = record;
        this.credentials = AwsBasicCredentials.create(record.accessKeyId(), record.secretAccessKey());
        this.s3 = DependencyFactory.forEmulator(S3Client.builder().region(Region.of(record.region()))
                .endpointOverride(record.s3Endpoint()).credentialsProvider(() -> credentials)).build();
    }

    /** {@code landing local --watch --no-bucket-events} on {@code work}/inbox, exporting to {@code work}/out. */
    public static WatchedLocalStack startIn(Path work) throws IOException, InterruptedException {
        return start("local", "--watch", "--no-bucket-events", "--inbox", work.resolve("inbox").toString(),
                "--export", work.resolve("out").toString());
    }

    /** Starts {@code landing} with these arguments (a {@code local --watch} command) and waits for its record. */
    public static WatchedLocalStack start(String... args) throws IOException, InterruptedException {
        Thread thread = new Thread(() -> LandingTools.run(args), "landing-local-watch");
        thread.setDaemon(true);
        thread.start();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
        while (LocalStackRecord.read().isEmpty()) {
            assertTrue(System.nanoTime() < deadline && thread.isAlive(), "landing local --watch did not record its stack");
            Thread.sleep(200);
        }
        return new WatchedLocalStack(thread, LocalStackRecord.read().orElseThrow());
    }

    /**
     * The product's wiring on this stack's buckets and tables with the record's credentials, as a function of the stack
     * would be built from them ({@code source} names it in messages): for what a test does as the product does it.
     */
    public DependencyFactory dependencies(String source) {
        return DependencyFactory.create(Resources.builder()
                .source(source)
                .region(Region.of(record.region()))
                .inboxBucket(record.inboxBucket())
                .lakeBucket(record.lakeBucket())
                .ledgerTable(record.ledgerTable())
                .historyTable(record.historyTable())
                .s3Endpoint(record.s3Endpoint())
                .dynamoDbEndpoint(record.dynamoDbEndpoint())
                .credentials(credentials)
                .build()
                .config());
    }

    @Override
    public void close() throws InterruptedException {
        s3.close();
        thread.interrupt();
        thread.join(TimeUnit.SECONDS.toMillis(60));
    }
}
