package io.landingledger.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;


import io.landingledger.cli.testing.LandingRun;
import io.landingledger.cli.testing.LandingScript;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader no one here wrote reads the Iceberg tables {@code ./landing local} writes (issue 31, item 6): DuckDB's
 * {@code read_parquet} over the files of a snapshot's scan plan, on the tables' files {@code --export DIR} copies.
 *
 * <p>The scan plan comes from Iceberg's own API over the exported metadata ({@link StaticTableOperations} on the
 * table's newest {@code metadata.json}), through a read-only {@link FileIO} that maps the table's {@code s3://}
 * locations to the export's {@code tables/} tree, where the export writes them as the table's location holds them.
 * DuckDB's {@code iceberg} extension is not used: it is downloaded at run time, which an offline machine cannot do
 * (autoloading and autoinstalling are off, so nothing is downloaded).
 *
 * <p>The inbox is the examples plus one restatement: {@code transactions-2026-10-03.csv} re-sent with other rows
 * (two amounts, 0.10 and 0.20, whose sum a binary float cannot hold), so the unit's table has a second snapshot.
 * Checked: per unit the rows of the snapshot the ledger records equal the ledger's accepted rows; {@code amount} is
 * {@code DECIMAL(12,2)} and sums exactly; {@code event_time} is {@code TIMESTAMP WITH TIME ZONE} in UTC (an input's
 * {@code +01:00} offset reads as its UTC instant); the restatement is a new snapshot and the previous one still
 * reads the old rows.
 */
class ReaderIcebergIT {
    private static final Path ROOT = Path.of("..");
    private static final String RESTATED = "2026-10-03";

    @TempDir
    static Path work;
    private static Path export;
    private static Map<String, Map<String, Object>> ledger;

    @BeforeAll
    static void runLocalAndExport() throws Exception {
        Path inbox = work.resolve("inbox");
        Path redelivery = work.resolve("redelivery");
        ReaderDuckDbIT.copyTree(ROOT.resolve("examples/inbox"), inbox);
        ReaderDuckDbIT.copyTree(ROOT.resolve("examples/redelivery"), redelivery);
        Files.createDirectories(redelivery.resolve("transactions"));
        // the producer restates 2026-10-03 with other rows: a second publish, a second snapshot of the unit
        Files.writeString(redelivery.resolve("transactions/transactions-" + RESTATED + ".csv"),
                "txn_id,account_id,business_date,amount,batch_date\n"
                        + "T-0311,A-001,2026-10-03,0.10,2026-10-03\nT-0312,A-002,2026-10-03,0.20,2026-10-03\n");
        export = work.resolve("out");
        long started = System.nanoTime();
        LandingRun run = LandingScript.landing("local", "--json", "--inbox", inbox.toAbsolutePath().toString(),
                "--redelivery", redelivery.toAbsolutePath().toString(), "--export", export.toAbsolutePath().toString());
        System.out.printf("[iceberg] landing local --export: exit %d in %d ms%n", run.exit(),
                (System.nanoTime() - started) / 1_000_000);
        assertEquals(0, run.exit(), run.stderr());
        ledger = ReaderDuckDbIT.ledgerOf(export);
    }

    @Test
    void everyPublishedUnit_readsTheLedgersAcceptedRows_atTheSnapshotTheLedgerRecords() throws Exception {
        int units = 0;
        try (Connection duck = open()) {
            for (Map.Entry<String, Map<String, Object>> entry : ledger.entrySet()) {
                Map<String, Object> item = entry.getValue();
                String dataset = (String) item.get("dataset");
                String unit = (String) item.get("unit");
                Table table = table(dataset);
                if (!(item.get("published") instanceof Map<?, ?> published)) {
                    // never published (the refused 2026-03-07): the table has no row of it
                    assertTrue(unitFiles(table, table.currentSnapshot().snapshotId(), unit).isEmpty(), entry.getKey());
                    continue;
                }
                Map<?, ?> recorded = (Map<?, ?>) item.get("table");
                assertNotNull(recorded, entry.getKey() + " has no table_snapshot_id in the ledger");
                long snapshotId = ((Number) recorded.get("snapshotId")).longValue();
                assertEquals(published.get("contentSha256"), recorded.get("contentSha256"), entry.getKey());
                Snapshot snapshot = table.snapshot(snapshotId);
                assertNotNull(snapshot, entry.getKey() + ": the ledger's snapshot is not in the table");
                assertEquals(unit, snapshot.summary().get("landing.unit"), entry.getKey());
                assertEquals(published.get("contentSha256"), snapshot.summary().get("landing.content-sha256"));
                long accepted = ((Number) published.get("accepted")).longValue();
                assertEquals(accepted, count(duck, unitFiles(table, snapshotId, unit), unit), entry.getKey());
                // and the table as it stands now (its newest snapshot) reads the same rows of the unit
                assertEquals(accepted, count(duck, unitFiles(table, table.currentSnapshot().snapshotId(), unit), unit),
                        entry.getKey() + " at the current snapshot");
                units++;
            }
        }
        assertEquals(8, units, "the published units of the examples");
    }

    @Test
    void amount_isDecimal12x2_andSumsExactly() throws Exception {
        Table transactions = table("transactions");
        long current = transactions.currentSnapshot().snapshotId();
        try (Connection duck = open()) {
            List<String> files = unitFiles(transactions, current, "2026-10-01");
            assertEquals("DECIMAL(12,2)", columnType(duck, files, "amount"));
            // 120.00 + 15.50 - 20.25 + 8.99, exactly
            assertEquals(new BigDecimal("124.24"), sum(duck, files, "2026-10-01"));
            // the restated unit: 0.10 + 0.20 is 0.30, not 0.30000000000000004
            assertEquals(new BigDecimal("0.30"), sum(duck, unitFiles(transactions, current, RESTATED), RESTATED));
        }
    }

    @Test
    void eventTime_isTimestampWithTimeZone_inUtc() throws Exception {
        Table events = table("progress_events");
        String unit = "2026-03-02";
        List<String> files = unitFiles(events, events.currentSnapshot().snapshotId(), unit);
        try (Connection duck = open(); Statement sql = duck.createStatement()) {
            assertEquals("TIMESTAMP WITH TIME ZONE", columnType(duck, files, "event_time"));
            // sent as 2026-03-01T23:58:40+01:00: the table holds the instant, read in UTC
            try (ResultSet row = sql.executeQuery("SELECT CAST(event_time AS VARCHAR) FROM " + parquet(files)
                    + " WHERE event_id = 'evt_20260302_late_0001'")) {
                assertTrue(row.next());
                assertEquals("2026-03-01 22:58:40+00", row.getString(1));
            }
            // every row's instant equals the published JSON line's (ISO-8601 UTC), both ways
            String published = export.resolve("published/progress_events/unit=" + unit + "/part-00000.jsonl")
                    .toAbsolutePath().toString();
            String json = "(SELECT event_id, CAST(event_time AS TIMESTAMPTZ) AS event_time FROM read_ndjson('"
                    + published + "', columns = {'event_id': 'VARCHAR', 'event_time': 'VARCHAR'}))";
            String table = "(SELECT event_id, event_time FROM " + parquet(files) + ")";
            for (String difference : List.of(table + " EXCEPT " + json, json + " EXCEPT " + table)) {
                try (ResultSet rows = sql.executeQuery("SELECT count(*) FROM (" + difference + ")")) {
                    assertTrue(rows.next());
                    assertEquals(0, rows.getLong(1), difference);
                }
            }
        }
    }

    @Test
    void aRestatement_isANewSnapshot_andThePreviousSnapshotStillReadsTheOldRows() throws Exception {
        Table transactions = table("transactions");
        List<Snapshot> ofUnit = StreamSupport.stream(transactions.snapshots().spliterator(), false)
                .filter(s -> RESTATED.equals(s.summary().get("landing.unit")))
                .sorted(Comparator.comparingLong(Snapshot::sequenceNumber)).toList();
        assertEquals(2, ofUnit.size(), "one snapshot per publish of the unit");
        Snapshot previous = ofUnit.get(0);
        Snapshot restated = ofUnit.get(1);
        Map<String, Object> item = ledger.get("transactions/" + RESTATED);
        assertEquals(((Number) ((Map<?, ?>) item.get("table")).get("snapshotId")).longValue(), restated.snapshotId());
        assertEquals(item.get("runId"), restated.summary().get("landing.run-id"));
        assertNotEquals(item.get("runId"), previous.summary().get("landing.run-id"));
        try (Connection duck = open()) {
            List<String> before = unitFiles(transactions, previous.snapshotId(), RESTATED);
            List<String> after = unitFiles(transactions, restated.snapshotId(), RESTATED);
            assertFalse(before.isEmpty());
            assertTrue(before.stream().noneMatch(after::contains), "the restatement replaced the unit's files");
            // 19.99 + 250.00 + 1.25 + 64.00, the rows the first publish put in the table
            assertEquals(4, count(duck, before, RESTATED));
            assertEquals(new BigDecimal("335.24"), sum(duck, before, RESTATED));
            assertEquals(2, count(duck, after, RESTATED));
            assertEquals(new BigDecimal("0.30"), sum(duck, after, RESTATED));
            // the other units are untouched by the restatement's commit: their files are the same in both snapshots
            for (String other : List.of("2026-10-01", "2026-10-02")) {
                assertEquals(unitFiles(transactions, previous.snapshotId(), other),
                        unitFiles(transactions, restated.snapshotId(), other), other);
            }
        }
    }

    // ---- the table through Iceberg's API over the export

    /** The dataset's table as its newest exported metadata describes it (read-only). */
    private static Table table(String dataset) throws IOException {
        Path metadata;
        try (Stream<Path> files = Files.walk(export.resolve("tables"))) {
            metadata = files.filter(f -> f.getFileName().toString().endsWith(".metadata.json"))
                    .filter(f -> f.getParent().getParent().getFileName().toString().equals(dataset))
                    .max(Comparator.comparing(f -> f.getFileName().toString()))
                    .orElseThrow(() -> new AssertionError("no exported table metadata for " + dataset));
        }
        FileIO io = new ExportFileIO(export.resolve("tables"));
        return new BaseTable(new StaticTableOperations(metadata.toAbsolutePath().toString(), io), dataset);
    }

    /** The local paths of the data files snapshot {@code snapshotId} holds for {@code unit}, from its scan plan. */
    private static List<String> unitFiles(Table table, long snapshotId, String unit) throws IOException {
        List<String> paths = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().useSnapshot(snapshotId)
                .filter(Expressions.equal("unit", unit)).planFiles()) {
            for (FileScanTask task : tasks) {
                paths.add(ExportFileIO.local(export.resolve("tables"), task.file().location()).toString());
            }
        }
        paths.sort(null);
        return paths;
    }

    /** Maps {@code s3://<table bucket>/<key>} to {@code <export>/tables/<table bucket>/<key>}; reads only. */
    private static final class ExportFileIO implements FileIO {
        private final Path tables;

        ExportFileIO(Path tables) {
            this.tables = tables;
        }

        static Path local(Path tables, String location) {
            if (location.startsWith("s3://")) {
                return tables.resolve(location.substring("s3://".length())).toAbsolutePath();
            }
            return Path.of(location);
        }

        @Override
        public InputFile newInputFile(String path) {
            return org.apache.iceberg.Files.localInput(local(tables, path).toFile());
        }

        @Override
        public OutputFile newOutputFile(String path) {
            throw new UnsupportedOperationException("the export is read-only");
        }

        @Override
        public void deleteFile(String path) {
            throw new UnsupportedOperationException("the export is read-only");
        }
    }

    // ---- DuckDB

    private static Connection open() throws SQLException {
        Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement sql = connection.createStatement()) {
            sql.execute("SET autoinstall_known_extensions = false");
            sql.execute("SET autoload_known_extensions = false");
            sql.execute("SET TimeZone = 'UTC'");
        }
        return connection;
    }

    private static String parquet(List<String> files) {
        assertFalse(files.isEmpty(), "no data files");
        return files.stream().map(f -> "'" + f + "'").collect(Collectors.joining(", ", "read_parquet([", "])"));
    }

    private static long count(Connection duck, List<String> files, String unit) throws SQLException {
        if (files.isEmpty()) {
            return 0;
        }
        try (Statement sql = duck.createStatement(); ResultSet row = sql.executeQuery(
                "SELECT count(*) FROM " + parquet(files) + " WHERE unit = DATE '" + unit + "'")) {
            assertTrue(row.next());
            return row.getLong(1);
        }
    }

    private static BigDecimal sum(Connection duck, List<String> files, String unit) throws SQLException {
        try (Statement sql = duck.createStatement(); ResultSet row = sql.executeQuery(
                "SELECT sum(amount) FROM " + parquet(files) + " WHERE unit = DATE '" + unit + "'")) {
            assertTrue(row.next());
            return row.getBigDecimal(1);
        }
    }

    private static String columnType(Connection duck, List<String> files, String column) throws SQLException {
        try (Statement sql = duck.createStatement();
                ResultSet rows = sql.executeQuery("DESCRIBE SELECT " + column + " FROM " + parquet(files))) {
            assertTrue(rows.next());
            return rows.getString("column_type");
        }
    }
}
