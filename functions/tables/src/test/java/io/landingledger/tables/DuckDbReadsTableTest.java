package io.landingledger.tables;

import io.landingledger.core.table.TableSnapshot;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A reader no one here wrote: DuckDB's own Parquet reader over the data files a snapshot's scan plan lists (DuckDB's
 * iceberg extension is downloaded at run time, which the build cannot do). Counts per unit, exact decimals, UTC
 * instants, and the snapshot before a restatement.
 */
class DuckDbReadsTableTest {

    @Test
    void readsCountsExactDecimalsAndUtcTimestampsOfTheCurrentAndAnOlderSnapshot(@TempDir Path directory)
            throws Exception {
        TableFixture fixture = new TableFixture();
        TableSnapshot first = fixture.publish("2026-10-01", "run-1", TableFixture.lines(1000, 1999));
        fixture.publish("2026-10-02", "run-2", TableFixture.line("x", "0.1", 1, "2026-10-02T23:30:00.000001Z",
                "2026-10-02") + "\n" + TableFixture.line("y", "0.2", 1, "2026-10-02T00:00:00Z", "2026-10-02") + "\n");
        fixture.publish("2026-10-01", "run-3", TableFixture.lines(10, 2000));

        Path current = Files.createDirectory(directory.resolve("current"));
        Path before = Files.createDirectory(directory.resolve("before"));
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            try (Statement s = duck.createStatement()) {
                s.execute("SET TimeZone='UTC'");
            }
            String now = files(fixture.scanFiles(null, current));
            assertEquals(Map.of("2026-10-01", "10 rows, sum 200.45 DECIMAL(38,2)",
                    "2026-10-02", "2 rows, sum 0.30 DECIMAL(38,2)"), perUnit(duck, now));
            assertEquals(List.of("DECIMAL(12,2)", "TIMESTAMP WITH TIME ZONE", "DATE", "BIGINT", "DOUBLE", "BOOLEAN",
                    "VARCHAR"), single(duck, "SELECT typeof(amount), typeof(paid_at), typeof(booked), typeof(attempt),"
                    + " typeof(ratio), typeof(refunded), typeof(id) FROM read_parquet(" + now + ") LIMIT 1"));
            assertEquals(List.of("2026-10-02 00:00:00+00", "2026-10-02 23:30:00.000001+00"), single(duck,
                    "SELECT min(paid_at)::VARCHAR, max(paid_at)::VARCHAR FROM read_parquet(" + now + ")"
                            + " WHERE unit = DATE '2026-10-02'"));
            assertEquals(List.of("true"), single(duck, "SELECT sum(amount) = 0.3 FROM read_parquet(" + now + ")"
                    + " WHERE unit = DATE '2026-10-02'"), "0.1 + 0.2 is exactly 0.3: decimals, never doubles");

            String old = files(fixture.scanFiles(first.snapshotId(), before));
            // 1000 rows of 19.99 + i/100: 19990.00 + 4995.00
            assertEquals(Map.of("2026-10-01", "1000 rows, sum 24985.00 DECIMAL(38,2)"), perUnit(duck, old));
        }
    }

    private static String files(List<Path> files) {
        return files.stream().map(f -> "'" + f + "'").collect(Collectors.joining(", ", "[", "]"));
    }

    private static Map<String, String> perUnit(Connection duck, String files) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery("SELECT unit::VARCHAR, count(*),"
                + " sum(amount)::VARCHAR, typeof(sum(amount)) FROM read_parquet(" + files + ")"
                + " GROUP BY unit ORDER BY unit")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getLong(2) + " rows, sum " + rs.getString(3) + " " + rs.getString(4));
            }
        }
        return out;
    }

    private static List<String> single(Connection duck, String sql) throws SQLException {
        try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            List<String> out = new java.util.ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                out.add(rs.getString(i));
            }
            return out;
        }
    }
}
