package io.landingledger.cli.tables;

import io.landingledger.cli.ops.Resources;
import io.landingledger.cli.ops.TableCatalogs;
import io.landingledger.cli.stack.StackTables;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.regions.Region;

import java.net.URI;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line's table provider: found by the ServiceLoader, naming the stack's tables as Athena and Spark do. */
class IcebergTableCatalogsTest {
    private static final StackTables TABLES = new StackTables(URI.create("https://s3tables.us-east-1.amazonaws.com/iceberg"),
            "arn:aws:s3tables:us-east-1:123456789012:bucket/landing-ledger-dev-tables", "landing_ledger_dev");

    private static Resources.Builder resources() {
        return Resources.builder().source("test").region(Region.US_EAST_1).inboxBucket("in").lakeBucket("lake")
                .ledgerTable("Ledger").historyTable("History");
    }

    @Test
    void theJarRegistersIt() {
        assertInstanceOf(IcebergTableCatalogs.class, ServiceLoader.load(TableCatalogs.Provider.class).findFirst().orElseThrow());
    }

    @Test
    void namesTheTableBucketsCatalogAndTheNamespace() {
        TableCatalogs.Names names = new IcebergTableCatalogs().names(resources().tables(TABLES).build());
        assertEquals("\"s3tablescatalog/landing-ledger-dev-tables\".\"landing_ledger_dev\"", names.athenaPrefix());
        assertEquals("landing.landing_ledger_dev", names.sparkPrefix());
    }

    @Test
    void aTargetWithoutTables_opensNoneAndKeepsThePlaceholders() {
        Resources none = resources().build();
        assertTrue(new IcebergTableCatalogs().open(none).isEmpty());
        assertEquals(TableCatalogs.Names.PLACEHOLDERS, new IcebergTableCatalogs().names(none));
    }
}
