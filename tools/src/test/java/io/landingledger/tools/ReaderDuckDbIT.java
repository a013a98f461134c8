package io.landingledger.tools;

import io.landingledger.cli.testing.LandingRun;
import io.landingledger.cli.testing.LandingScript;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.contract.ContractLoader;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.reader.ReaderTables;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real reader (issue 15): DuckDB reads the lake {@code ./landing local --export DIR} writes, with Hive partitioning,
 * as Athena reads the deployed lake through the template's tables.
 *
 * <p>The inbox is the examples plus one more re-delivery: {@code transactions-2026-10-01.csv} again with a prohibited
 * {@code email} column, refused while the unit's first publish stands. Checked: per unit the rows DuckDB reads equal
 * the ledger's accepted count; the refused unit reads its previous publish; the status table joins
 * {@code USING (unit)}; and every query of docs/readers.md's "Queries" (the README points there) runs.
 *
 * <p>How the tables are made in DuckDB: each Glue table is a view with the same name and columns
 * ({@link ReaderTables}, Hive types as DuckDB types: string VARCHAR, bigint BIGINT, double DOUBLE, boolean BOOLEAN,
 * date DATE) over {@code read_ndjson} of the table's location, {@code hive_partitioning} giving the {@code unit}
 * column from {@code unit=<unit>/} as partition projection does (typed VARCHAR, Athena's {@code string}). Dialect
 * differences, the only changes made to the documented queries: Athena's {@code from_iso8601_timestamp(x)} is DuckDB's
 * {@code CAST(x AS TIMESTAMPTZ)}. DuckDB's JSON reader is statically linked in duckdb_jdbc; extension autoloading and
 * autoinstalling are switched off, so the test never downloads anything.
 */
class ReaderDuckDbIT {
    private static final Path ROOT = Path.of("..");
    private static final Pattern ISO = Pattern.compile("from_iso8601_timestamp\\(([^()]+)\\)");

    @TempDir
    static Path work;
    private static Path export;
    private static Map<String, Long> acceptedByUnit;
    private static Map<String, Map<String, Object>> ledger;
    private static List<DatasetContract> contracts;

    @BeforeAll
    static void runLocalAndExport() throws Exception {
        Path inbox = work.resolve("inbox");
        Path redelivery = work.resolve("redelivery");
        copyTree(ROOT.resolve("examples/inbox"), inbox);
        copyTree(ROOT.resolve("examples/redelivery"), redelivery);
        Files.createDirectories(redelivery.resolve("transactions"));
        // the producer re-sends 2026-10-01 with a prohibited column: refused, the first publish stays the unit's latest
        Files.writeString(redelivery.resolve("transactions/transactions-2026-10-01.csv"),
                "txn_id,account_id,business_date,amount,batch_date,email\nT-0101,A-001,2026-10-01,120.00,2026-10-01,x@example.com\n");
        export = work.resolve("out");
        long started = System.nanoTime();
        LandingRun run = LandingScript.landing("local", "--json", "--inbox", inbox.toAbsolutePath().toString(),
                "--redelivery", redelivery.toAbsolutePath().toString(), "--export", export.toAbsolutePath().toString());
        System.out.printf("[duckdb] landing local --export: exit %d in %d ms%n", run.exit(), (System.nanoTime() - started) / 1_000_000);
        assertEquals(0, run.exit(), run.stderr());
        contracts = ContractLoader.loadDirectory(ROOT.resolve("datasets")).values().stream()
                .sorted(java.util.Comparator.comparing(DatasetContract::dataset)).toList();
        ledger = ledgerOf(export);
        acceptedByUnit = new TreeMap<>();
        ledger.forEach((id, map) -> {
            if (map.get("published") instanceof Map<?, ?> published) {
                acceptedByUnit.put(id, ((Number) published.get("accepted")).longValue());
            }
        });
    }

    /** The export's {@code ledger.json}: each ledger item by {@code dataset/unit}. */
    static Map<String, Map<String, Object>> ledgerOf(Path export) throws IOException {
        Map<String, Map<String, Object>> items = new TreeMap<>();
        for (Object item : JSON.std.listFrom(Files.readString(export.resolve("ledger.json")))) {
            @SuppressWarnings("unchecked")
            Map<String, Object> map = (Map<String, Object>) item;
            items.put(map.get("dataset") + "/" + map.get("unit"), map);
        }
        return items;
    }

    /** Copies every file under {@code from} to the same place under {@code to} (an inbox for a test's run). */
    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                Files.createDirectories(target.getParent());
                Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static String duckType(String hive) {
        return switch (hive) {
            case "string" -> "VARCHAR";
            case "bigint" -> "BIGINT";
            case "double" -> "DOUBLE";
            case "boolean" -> "BOOLEAN";
            case "date" -> "DATE";
            default -> {
                if (hive.matches("decimal\\(\\d+,\\d+\\)")) {
                    yield hive.toUpperCase(java.util.Locale.ROOT); // an exact decimal: the same type in DuckDB
                }
                throw new IllegalArgumentException("no DuckDB type for Hive " + hive);
            }
        };
    }

    /** A DuckDB connection with one view per reader table, over the export. Nothing is downloaded. */
    private static Connection open() throws SQLException {
        Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement sql = connection.createStatement()) {
            sql.execute("SET autoinstall_known_extensions = false");
            sql.execute("SET autoload_known_extensions = false");
            sql.execute("SET TimeZone = 'UTC'");
            for (ReaderTables.Table table : ReaderTables.all(contracts)) {
                String columns = table.columns().stream().map(c -> "'" + c.name() + "': '" + duckType(c.type()) + "'")
                        .collect(Collectors.joining(", ", "{", "}"));
                Path location = export.resolve(table.prefix()).toAbsolutePath();
                String view = table.partitions().isEmpty()
                        ? "SELECT * FROM read_ndjson('" + location + "/*.jsonl', columns = " + columns + ")"
                        : "SELECT * FROM read_ndjson('" + location + "/unit=*/*.jsonl', columns = " + columns
                                + ", hive_partitioning = true, hive_types = {'unit': 'VARCHAR'})";
                sql.execute("CREATE VIEW " + table.name() + " AS " + view);
            }
        }
        return connection;
    }

    private static List<List<Object>> query(Connection connection, String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            int n = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(result.getObject(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static Map<String, Object> column(Connection connection, String sql) throws SQLException {
        Map<String, Object> out = new TreeMap<>();
        for (List<Object> row : query(connection, sql)) {
            out.put(String.valueOf(row.get(0)), row.get(1));
        }
        return out;
    }

    @Test
    void rowsPerUnit_equalTheLedgersAcceptedCounts_andTheStatusTableHasEveryExpectedUnit() throws Exception {
        try (Connection duck = open()) {
            for (DatasetContract contract : contracts) {
                String dataset = contract.dataset();
                long started = System.nanoTime();
                Map<String, Object> rows = column(duck, "SELECT unit, count(*) FROM " + dataset + " GROUP BY unit ORDER BY unit");
                long micros = (System.nanoTime() - started) / 1000;
                Map<String, Object> expected = new TreeMap<>();
                acceptedByUnit.forEach((id, accepted) -> {
                    if (id.startsWith(dataset + "/")) {
                        expected.put(id.substring(dataset.length() + 1), accepted);
                    }
                });
                System.out.printf("[duckdb] %s rows per unit %s (ledger accepted %s) in %d us%n", dataset, rows, expected, micros);
                assertFalse(expected.isEmpty(), dataset);
                assertEquals(expected, rows, dataset + ": DuckDB's rows per unit against the ledger's accepted counts");

                Map<String, Object> status = column(duck, "SELECT unit, status FROM " + dataset + "_status ORDER BY unit");
                Map<String, Object> accepted = column(duck, "SELECT unit, accepted FROM " + dataset + "_status WHERE accepted IS NOT NULL");
                System.out.printf("[duckdb] %s_status %s%n", dataset, status);
                assertEquals(expected, accepted, dataset + "_status: accepted per published unit");
                assertTrue(status.keySet().containsAll(expected.keySet()), "every published unit has a status line");
            }
        }
    }

    @Test
    void aRefusedUnit_readsItsPreviousPublish_andTheStatusNamesIt() throws Exception {
        try (Connection duck = open()) {
            List<List<Object>> status = query(duck, "SELECT status, reason, publish_count, published_etag, run_id, accepted "
                    + "FROM transactions_status WHERE unit = '2026-10-01'");
            System.out.printf("[duckdb] transactions 2026-10-01 status %s%n", status);
            assertEquals(1, status.size());
            assertEquals("REFUSED", status.get(0).get(0));
            assertEquals("PROHIBITED_FIELD", status.get(0).get(1));
            assertEquals(1L, ((Number) status.get(0).get(2)).longValue(), "published once, before the refused re-send");
            Map<String, Object> item = ledger.get("transactions/2026-10-01");
            @SuppressWarnings("unchecked")
            Map<String, Object> published = (Map<String, Object>) item.get("published");
            assertEquals(published.get("etag"), status.get(0).get(3), "the standing publish's ETag");
            assertEquals(item.get("runId"), status.get(0).get(4), "the run that built the standing publish");

            List<String> ids = query(duck, "SELECT txn_id FROM transactions WHERE unit = '2026-10-01' ORDER BY txn_id").stream()
                    .map(r -> (String) r.get(0)).toList();
            List<String> first = Files.readAllLines(ROOT.resolve("examples/inbox/transactions/transactions-2026-10-01.csv")).stream()
                    .skip(1).filter(l -> !l.isBlank()).map(l -> l.split(",")[0]).sorted().distinct().toList();
            assertEquals(first, ids, "the refused unit reads its first publish, every row of it");
            assertEquals(((Number) status.get(0).get(5)).longValue(), ids.size());
        }
    }

    @Test
    void theStatusJoin_keepsTheOkUnitsOnly() throws Exception {
        try (Connection duck = open()) {
            Map<String, Object> ok = column(duck, "SELECT unit, count(*) FROM progress_events JOIN progress_events_status USING (unit) "
                    + "WHERE status = 'OK' GROUP BY unit ORDER BY unit");
            Map<String, Object> expected = column(duck, "SELECT unit, accepted FROM progress_events_status WHERE status = 'OK'");
            System.out.printf("[duckdb] progress_events OK units via the join %s%n", ok);
            assertEquals(expected, ok);
            assertEquals(List.of("2026-03-01", "2026-03-03", "2026-03-05", "2026-03-06"), List.copyOf(ok.keySet()), "the examples' OK days");
            Map<String, Object> statuses = column(duck, "SELECT unit, status FROM progress_events_status");
            assertEquals("MISSING", statuses.get("2026-03-04"), "no file: a status line, and no rows");
            assertEquals("REFUSED", statuses.get("2026-03-07"));
            assertEquals(0L, ((Number) query(duck, "SELECT count(*) FROM progress_events WHERE unit IN ('2026-03-04', '2026-03-07')")
                    .get(0).get(0)).longValue(), "a missing and a never-published refused unit read as zero rows: only the status tells them apart");
        }
    }

    /** The documented queries (docs/readers.md, section Queries), adapted only where the dialects differ. */
    static List<String> documentedQueries() throws IOException {
        String docs = Files.readString(ROOT.resolve("docs/readers.md"));
        int from = docs.indexOf("\n## Queries");
        int to = docs.indexOf("\n## ", from + 1);
        assertTrue(from >= 0, "docs/readers.md has no Queries section");
        Matcher blocks = Pattern.compile("```sql\n(.*?)```", Pattern.DOTALL).matcher(docs.substring(from, to < 0 ? docs.length() : to));
        List<String> queries = new ArrayList<>();
        while (blocks.find()) {
            queries.add(blocks.group(1).trim());
        }
        return queries;
    }

    static String toDuckDb(String athena) {
        return ISO.matcher(athena).replaceAll("CAST($1 AS TIMESTAMPTZ)");
    }

    @Test
    void documentedQueries_runOnDuckDb() throws Exception {
        List<String> queries = documentedQueries();
        assertTrue(queries.size() >= 4, "the documented reader queries: " + queries.size());
        Map<String, Integer> results = new LinkedHashMap<>();
        try (Connection duck = open()) {
            for (String athena : queries) {
                String sql = toDuckDb(athena);
                long started = System.nanoTime();
                List<List<Object>> rows = query(duck, sql);
                long micros = (System.nanoTime() - started) / 1000;
                System.out.printf("[duckdb] query (%d rows, %d us):%n%s%n  -> %s%n", rows.size(), micros, sql,
                        rows.stream().limit(12).map(Object::toString).collect(Collectors.joining("\n     ")));
                assertFalse(rows.isEmpty(), "no rows from\n" + sql);
                results.put(sql.lines().findFirst().orElse(""), rows.size());
            }
        }
        System.out.println("[duckdb] documented queries: " + results);
    }
}
