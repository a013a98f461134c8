package io.landingledger.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.landingledger.core.sweep.TableTracking;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

class DependencyFactoryTest {
    private static FunctionConfig config(AwsConnection aws) {
        return FunctionConfig.builder().inboxBucket("inbox").lakeBucket("lake").ledgerTable("Ledger")
                .ledgerHistoryTable("LedgerHistory").aws(aws).build();
    }

    @Test
    void create_onAws_usesTheRegionAndTheDefaultCredentialChain() {
        try (DependencyFactory factory = DependencyFactory.create(config(AwsConnection.aws(Region.EU_CENTRAL_1)))) {
            assertEquals(Region.EU_CENTRAL_1, factory.s3().serviceClientConfiguration().region());
            assertEquals(Optional.empty(), factory.s3().serviceClientConfiguration().endpointOverride());
            assertEquals(Optional.empty(), factory.dynamoDb().serviceClientConfiguration().endpointOverride());
            assertInstanceOf(DefaultCredentialsProvider.class, credentials(factory));
        }
    }

    @Test
    void create_withEndpoints_overridesEachServiceAndSignsWithTheStaticKeys() {
        AwsConnection aws = AwsConnection.endpoints(Region.US_EAST_1, URI.create("http://127.0.0.1:1111"),
                URI.create("http://127.0.0.1:2222"));
        try (DependencyFactory factory = DependencyFactory.create(config(aws))) {
            assertEquals(Optional.of(URI.create("http://127.0.0.1:1111")),
                    factory.s3().serviceClientConfiguration().endpointOverride());
            assertEquals(Optional.of(URI.create("http://127.0.0.1:2222")),
                    factory.dynamoDb().serviceClientConfiguration().endpointOverride());
            assertInstanceOf(StaticCredentialsProvider.class, credentials(factory));
        }
    }

    @Test
    void s3_isBuiltOnceAndReused() {
        try (DependencyFactory factory = DependencyFactory.create(config(AwsConnection.aws(Region.US_EAST_1)))) {
            assertSame(factory.s3(), factory.s3());
            assertSame(factory.dynamoDb(), factory.dynamoDb());
        }
    }

    @Test
    void sweepAndRepair_judgeTablesOnlyWhenTheEnvironmentNamesTheTableQueue() {
        try (DependencyFactory factory = DependencyFactory.create(config(AwsConnection.aws(Region.US_EAST_1)))) {
            assertNull(factory.sweep().tables(), "a stack without tables: the sweep judges none");
            assertNull(factory.deployedSweep().tables());
        }
        FunctionConfig withTables = config(AwsConnection.aws(Region.US_EAST_1)).toBuilder()
                .tableQueueUrl("https://sqs.us-east-1.amazonaws.com/123456789012/ll-dev-table-commits.fifo")
                .tableGrace(Duration.ofSeconds(120)).build();
        try (DependencyFactory factory = DependencyFactory.create(withTables)) {
            TableTracking tables = factory.deployedSweep().tables();
            assertNotNull(tables, "the sweep judges the tables");
            assertEquals(Duration.ofSeconds(120), tables.grace());
            assertNotNull(tables.queue(), "and re-drives a TABLE_BEHIND unit to the queue");
            assertNotNull(factory.sweep().tables());
            assertNotNull(factory.sweepThrough("arn:aws:lambda:us-east-1:123456789012:function:v:live").tables());
        }
    }

    private static AwsCredentialsProvider credentials(DependencyFactory factory) {
        return (AwsCredentialsProvider) factory.s3().serviceClientConfiguration().credentialsProvider();
    }
}
