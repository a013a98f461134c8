package io.landingledger.cli.ops;

import io.landingledger.cli.stack.StackTables;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.regions.Region;

import java.net.URI;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Resources' builder: what is not named is empty (or null), the required components are named when missing. */
class ResourcesTest {

    private static Resources.Builder local() {
        return Resources.builder().source("--endpoint http://localhost:4566").region(Region.EU_WEST_1).inboxBucket("inbox")
                .lakeBucket("lake").ledgerTable("ledger").historyTable("history");
    }

    @Test
    void unnamedEndpointsCredentialsAndFunctions_areEmpty() {
        Resources resources = local().s3Endpoint(URI.create("http://localhost:4566")).build();
        assertEquals(Optional.of(URI.create("http://localhost:4566")), resources.s3Endpoint());
        assertEquals(Optional.empty(), resources.dynamoDbEndpoint());
        assertEquals(Optional.empty(), resources.credentials());
        assertEquals(Optional.empty(), resources.repairFunction());
        assertEquals(Optional.empty(), resources.sweepFunction());
        assertNull(resources.consumersTable());
        assertEquals(Optional.empty(), resources.tables());
        assertEquals(resources, resources.toBuilder().build());
        StackTables tables = new StackTables(URI.create("http://localhost:4566/iceberg"),
                "arn:aws:s3tables:eu-west-1:123456789012:bucket/tables", "landing_local");
        Resources withTables = resources.toBuilder().tables(tables).build();
        assertEquals(Optional.of(tables), withTables.tables());
        assertEquals(withTables, withTables.toBuilder().build());
        assertEquals(Optional.of("repair-fn"), resources.toBuilder().repairFunction("repair-fn").build().repairFunction());
    }

    @Test
    void build_namesTheMissingComponent() {
        assertEquals("Resources: historyTable is required", assertThrows(IllegalStateException.class,
                () -> local().historyTable(null).build()).getMessage());
        assertEquals("Resources: source is required", assertThrows(IllegalStateException.class,
                () -> Resources.builder().build()).getMessage());
    }
}
