package io.landingledger.tables;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.table.TableCommit;
import io.landingledger.core.table.TableConflictException;
import io.landingledger.core.table.TableSnapshot;
import io.landingledger.core.testing.TestContracts;

import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import software.amazon.awssdk.services.s3.S3Client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The port as the function runs it: S3FileIO over HTTP with the function's catalog properties, against S3Proxy
 * checking signatures (a JDBC catalog in sqlite stands in for the REST catalog, which is the local stack's). The
 * shipped transactions contract; DuckDB reads the Parquet files the snapshots' scan plans name, fetched from S3.
 */
class IcebergTablePortS3IT {

    @Test
    void publishesRestatesAndRefusesAConflictOnS3(@TempDir Path directory) throws Exception {
        DatasetContract contract = TestContracts.transactions();
        try (S3ProxyLake lake = S3ProxyLake.start()) {
            Namespace namespace = Namespace.of("landing_it");
            JdbcCatalog catalog = lake.catalog(namespace, directory.resolve("catalog.db"));
            IcebergTablePort port = new IcebergTablePort(catalog, namespace);
            port.ensureTable(contract);

            TableSnapshot first = replace(port, contract, "2026-10-01", "run-1", 500, null);
            TableSnapshot other = replace(port, contract, "2026-10-02", "run-2", 20, first.snapshotId());
            TableSnapshot restated = replace(port, contract, "2026-10-01", "run-3", 300, other.snapshotId());
            assertThrows(TableConflictException.class,
                    () -> replace(port, contract, "2026-10-01", "run-4", 5, other.snapshotId()));

            Table table = catalog.loadTable(port.identifier("transactions"));
            assertEquals(restated.snapshotId(), table.currentSnapshot().snapshotId());
            assertTrue(table.location().startsWith("s3://lake/_tables/"), table.location());
            assertEquals(List.of("run-3", "run-1"), port.unitSnapshots("transactions", "2026-10-01").stream()
                    .map(TableSnapshot::runId).toList());

            try (S3Client s3 = io.landingledger.lambda.DependencyFactory.s3Client(lake.connection());
                 Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
                String now = download(s3, table, null, Files.createDirectory(directory.resolve("now")));
                String before = download(s3, table, first.snapshotId(),
                        Files.createDirectory(directory.resolve("old")));
                assertEquals("2026-10-01 300 DECIMAL(12,2), 2026-10-02 20 DECIMAL(12,2)", perUnit(duck, now));
                assertEquals("2026-10-01 500 DECIMAL(12,2)", perUnit(duck, before));
                assertEquals(exactSum(300, LocalDate.parse("2026-10-01")), sum(duck, now, "2026-10-01"));
                assertEquals(exactSum(500, LocalDate.parse("2026-10-01")), sum(duck, before, "2026-10-01"));
            }
        }
    }

    private static TableSnapshot replace(IcebergTablePort port, DatasetContract contract, String unit, String run,
                                         int rows, Long basedOn) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TransactionLines.write(out, rows, LocalDate.parse(unit));
        return port.replaceUnit(contract, new TableCommit("transactions", unit, run, "sha-" + run, "v1", 1, basedOn),
                new ByteArrayInputStream(out.toByteArray()));
    }

    /** The snapshot's scan-plan files fetched from S3 into {@code into}, as a DuckDB list literal. */
    private static String download(S3Client s3, Table table, Long snapshotId, Path into) throws Exception {
        List<String> files = new ArrayList<>();
        var scan = snapshotId == null ? table.newScan() : table.newScan().useSnapshot(snapshotId);
        try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
            for (FileScanTask task : tasks) {
                URI location = URI.create(task.file().location());
                Path copy = into.resolve(files.size() + ".parquet");
                String key = location.getPath().substring(1);
                try (InputStream in = s3.getObject(b -> b.bucket(location.getHost()).key(key))) {
                    Files.copy(in, copy);
                }
                files.add("'" + copy + "'");
            }
        }
        return files.stream().collect(Collectors.joining(", ", "[", "]"));
    }

    private static String perUnit(Connection duck, String files) throws Exception {
        List<String> out = new ArrayList<>();
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery("SELECT unit::VARCHAR, count(*),"
                + " typeof(any_value(amount)) FROM read_parquet(" + files + ") GROUP BY unit ORDER BY unit")) {
            while (rs.next()) {
                out.add(rs.getString(1) + " " + rs.getLong(2) + " " + rs.getString(3));
            }
        }
        return String.join(", ", out);
    }

    private static String sum(Connection duck, String files, String unit) throws Exception {
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery("SELECT sum(amount)::VARCHAR FROM"
                + " read_parquet(" + files + ") WHERE unit = DATE '" + unit + "'")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** The exact sum of the generated amounts, computed from the lines themselves with BigDecimal. */
    private static String exactSum(int rows, LocalDate unit) {
        java.math.BigDecimal total = java.math.BigDecimal.ZERO;
        for (int i = 0; i < rows; i++) {
            String line = TransactionLines.line(i, unit);
            int at = line.indexOf("\"amount\":") + 9;
            total = total.add(new java.math.BigDecimal(line.substring(at, line.indexOf(',', at))));
        }
        return total.setScale(2).toPlainString();
    }
}
