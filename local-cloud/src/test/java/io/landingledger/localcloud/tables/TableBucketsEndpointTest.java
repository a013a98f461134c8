package io.landingledger.localcloud.tables;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchWarehouseException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stock Iceberg {@link RESTCatalog} client against the local table bucket endpoint: the protocol's routes, its
 * error codes as the client reads them, and Iceberg's optimistic commit (a conflicting overwrite refused, a disjoint
 * one rebased) through them. The files are Iceberg's in-memory FileIO: what is tested here is the catalog.
 */
class TableBucketsEndpointTest {
    private static final String ARN = "arn:aws:s3tables:us-east-1:123456789012:bucket/lake-tables";
    private static final Schema SCHEMA = new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.required(2, "amount", Types.DecimalType.of(12, 2)),
            Types.NestedField.required(3, "unit", Types.DateType.get()));
    private static final PartitionSpec SPEC = PartitionSpec.builderFor(SCHEMA).identity("unit").build();
    private static final TableIdentifier ORDERS = TableIdentifier.of("landing_local", "orders");

    @TempDir
    Path directory;
    private TableBucketsEndpoint endpoint;
    private HttpServer server;

    @BeforeEach
    void serve() throws IOException {
        JdbcCatalog catalog = new JdbcCatalog();
        String warehouse = "mem://lake-tables-" + UUID.randomUUID();
        catalog.initialize("lake-tables", Map.of(CatalogProperties.URI, "jdbc:sqlite:" + directory.resolve("c.sqlite"),
                "jdbc.schema-version", "V1", CatalogProperties.WAREHOUSE_LOCATION, warehouse,
                CatalogProperties.FILE_IO_IMPL, "org.apache.iceberg.inmemory.InMemoryFileIO"));
        LocalTableBucket bucket = new LocalTableBucket("lake-tables", ARN, catalog);
        bucket.createNamespace("landing_local");
        endpoint = new TableBucketsEndpoint(URI.create("http://127.0.0.1:1"));
        endpoint.add(bucket);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::exchange);
        server.start();
    }

    private void exchange(HttpExchange exchange) throws IOException {
        Map<String, String> query = new LinkedHashMap<>();
        String raw = exchange.getRequestURI().getRawQuery();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                String[] kv = pair.split("=", 2);
                query.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                        kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
            }
        }
        byte[] body = exchange.getRequestBody().readAllBytes();
        IcebergRestRouter.Response answer = endpoint.handle(exchange.getRequestMethod(),
                exchange.getRequestURI().getRawPath(), query, body);
        if (answer.json() == null || exchange.getRequestMethod().equals("HEAD")) {
            exchange.sendResponseHeaders(answer.status(), -1);
        } else {
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(answer.status(), answer.json().length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer.json());
            }
        }
        exchange.close();
    }

    @AfterEach
    void stop() {
        server.stop(0);
        endpoint.close();
    }

    private RESTCatalog client(String warehouse) {
        RESTCatalog client = new RESTCatalog();
        client.initialize("reader", Map.of(CatalogProperties.URI, "http://127.0.0.1:" + server.getAddress().getPort() + "/iceberg",
                CatalogProperties.WAREHOUSE_LOCATION, warehouse,
                CatalogProperties.FILE_IO_IMPL, "org.apache.iceberg.inmemory.InMemoryFileIO"));
        return client;
    }

    private static DataFile file(Table table, String unit, String name, long rows) {
        return DataFiles.builder(table.spec()).withPath(table.location() + "/data/unit=" + unit + "/" + name + ".parquet")
                .withFileSizeInBytes(100).withRecordCount(rows).withPartitionPath("unit=" + unit).build();
    }

    @Test
    void aClientCreatesATableCommitsAndAnotherClientReadsTheSnapshot() throws IOException {
        try (RESTCatalog writer = client(ARN); RESTCatalog reader = client(ARN)) {
            assertEquals(List.of(Namespace.of("landing_local")), writer.listNamespaces());
            Table table = writer.createTable(ORDERS, SCHEMA, SPEC, Map.of("format-version", "2"));
            table.newOverwrite().overwriteByRowFilter(Expressions.equal("unit", "2026-10-01"))
                    .addFile(file(table, "2026-10-01", "run-1", 10)).set("landing.run-id", "run-1").commit();
            Snapshot read = reader.loadTable(ORDERS).currentSnapshot();
            assertEquals("run-1", read.summary().get("landing.run-id"));
            assertEquals("10", read.summary().get("total-records"));
            assertEquals(List.of(ORDERS), reader.listTables(Namespace.of("landing_local")));
            assertTrue(reader.tableExists(ORDERS));
        }
    }

    @Test
    void anOverwriteFromAStaleReadOfTheSameUnitIsRefusedAndADisjointOneIsRebased() throws IOException {
        try (RESTCatalog first = client(ARN); RESTCatalog second = client(ARN)) {
            Table created = first.createTable(ORDERS, SCHEMA, SPEC, Map.of("format-version", "2"));
            created.newAppend().appendFile(file(created, "2026-10-01", "run-0", 5)).commit();
            Table a = first.loadTable(ORDERS);
            Table b = second.loadTable(ORDERS);
            long bRead = b.currentSnapshot().snapshotId();
            a.newOverwrite().overwriteByRowFilter(Expressions.equal("unit", "2026-10-01"))
                    .addFile(file(a, "2026-10-01", "run-a", 7)).commit();
            // the catalog answers B's commit 409 (its base is stale); the client refreshes and validates from its read
            assertThrows(ValidationException.class, () -> b.newOverwrite()
                    .overwriteByRowFilter(Expressions.equal("unit", "2026-10-01"))
                    .addFile(file(b, "2026-10-01", "run-b", 9))
                    .conflictDetectionFilter(Expressions.equal("unit", "2026-10-01"))
                    .validateFromSnapshot(bRead).validateNoConflictingData().commit());
            b.newOverwrite().overwriteByRowFilter(Expressions.equal("unit", "2026-10-02"))
                    .addFile(file(b, "2026-10-02", "run-c", 3))
                    .conflictDetectionFilter(Expressions.equal("unit", "2026-10-02"))
                    .validateFromSnapshot(bRead).validateNoConflictingData().commit();
            assertEquals("10", first.loadTable(ORDERS).currentSnapshot().summary().get("total-records"));
        }
    }

    @Test
    void aMissingTableIsNoSuchTableAndAnUnknownWarehouseIsRefused() throws IOException {
        try (RESTCatalog client = client(ARN)) {
            assertThrows(NoSuchTableException.class, () -> client.loadTable(TableIdentifier.of("landing_local", "nothing")));
        }
        assertThrows(NoSuchWarehouseException.class, () -> client(ARN.replace("lake-tables", "other-tables")).close());
    }

    @Test
    void theConfigNamesTheBucketsPrefixAndWhereItsFilesAre() {
        IcebergRestRouter.Response answer = endpoint.handle("GET", "/iceberg/v1/config", Map.of("warehouse", ARN), new byte[0]);
        String json = new String(answer.json(), StandardCharsets.UTF_8);
        assertEquals(200, answer.status(), json);
        assertTrue(json.contains("\"prefix\":\"lake-tables\""), json);
        assertTrue(json.contains("\"s3.endpoint\":\"http://127.0.0.1:1\""), json);
        assertEquals(400, endpoint.handle("GET", "/iceberg/v1/config", Map.of(), new byte[0]).status());
    }

    @Test
    void aTablesMaintenanceConfigurationIsRecordedAndReadBack() throws IOException {
        try (RESTCatalog writer = client(ARN)) {
            writer.createTable(ORDERS, SCHEMA, SPEC);
        }
        String path = "/tables/" + java.net.URLEncoder.encode(ARN, StandardCharsets.UTF_8) + "/landing_local/orders/maintenance";
        byte[] put = ("{\"type\":\"icebergSnapshotManagement\",\"value\":{\"status\":\"enabled\",\"settings\":"
                + "{\"icebergSnapshotManagement\":{\"minSnapshotsToKeep\":100,\"maxSnapshotAgeHours\":2160}}}}")
                .getBytes(StandardCharsets.UTF_8);
        assertEquals(204, endpoint.handle("PUT", path, Map.of(), put).status());
        IcebergRestRouter.Response read = endpoint.handle("GET", path, Map.of(), new byte[0]);
        String json = new String(read.json(), StandardCharsets.UTF_8);
        assertEquals(200, read.status(), json);
        assertTrue(json.contains("\"maxSnapshotAgeHours\":2160") && json.contains(ARN + "/table/landing_local/orders"), json);
        assertEquals(404, endpoint.handle("PUT", path.replace("orders", "nothing"), Map.of(), put).status());
        assertEquals(400, endpoint.handle("PUT", path, Map.of(), "{}".getBytes(StandardCharsets.UTF_8)).status());
    }
}
