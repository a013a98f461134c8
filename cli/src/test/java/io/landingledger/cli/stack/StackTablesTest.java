package io.landingledger.cli.stack;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where a stack's tables are, from its outputs: S3 Tables' endpoint on AWS, the stack's own gateway locally. */
class StackTablesTest {
    private static final String ARN = "arn:aws:s3tables:us-east-1:123456789012:bucket/landing-ledger-dev-tables";
    private static final Map<String, String> OUTPUTS = Map.of(
            "TableCatalogUri", "https://s3tables.us-east-1.amazonaws.com/iceberg",
            "TableBucketArn", ARN,
            "TableNamespace", "landing_ledger_dev",
            "InboxBucketName", "landing-ledger-dev-inbox");

    @Test
    void onAws_theCatalogIsTheOutputsUri() {
        StackTables tables = StackTables.fromOutputs(OUTPUTS, null).orElseThrow();
        assertEquals(URI.create("https://s3tables.us-east-1.amazonaws.com/iceberg"), tables.catalogUri());
        assertEquals(ARN, tables.warehouse());
        assertEquals("landing_ledger_dev", tables.namespace());
        assertEquals("landing-ledger-dev-tables", tables.bucketName());
    }

    @Test
    void onTheLocalStack_theCatalogIsTheGatewaysIceberg() {
        StackTables tables = StackTables.fromOutputs(OUTPUTS, URI.create("http://127.0.0.1:40123/")).orElseThrow();
        assertEquals(URI.create("http://127.0.0.1:40123/iceberg"), tables.catalogUri());
        assertEquals(ARN, tables.warehouse());
    }

    @Test
    void aStackDeployedBeforeItsTables_namesNone() {
        assertTrue(StackTables.fromOutputs(Map.of("InboxBucketName", "x"), null).isEmpty());
    }
}
