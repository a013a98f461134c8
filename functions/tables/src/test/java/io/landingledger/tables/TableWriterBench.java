package io.landingledger.tables;

import io.landingledger.core.contract.ContractLoader;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.table.TableCommit;
import io.landingledger.core.table.TableSnapshot;
import io.landingledger.core.testing.TestContracts;

import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.jdbc.JdbcCatalog;

import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The table writer's figures for docs/performance.md (a command, never a test): a unit of N canonical
 * {@code transactions} lines (default 2,000,000) replaced through {@link IcebergTablePort} into a table whose files go
 * to S3Proxy over HTTP through S3FileIO (the JSONL read from a local file stands in for the GetObject stream), then
 * ten small units for the commit latency. Prints rows/s, MB/s of JSONL in and of Parquet out, the writer thread's CPU
 * and the load average.
 *
 * <pre>
 * cd functions/tables
 * mvn -B -o -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/cp.txt
 * java -Xmx1g -cp target/test-classes:target/classes:$(cat target/cp.txt) \
 *     io.landingledger.tables.TableWriterBench 2000000 3
 * </pre>
 */
public final class TableWriterBench {
    private TableWriterBench() {
    }

    public static void main(String[] args) throws Exception {
        long lines = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000L;
        int repeat = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path directory = Files.createTempDirectory("table-bench");
        Path file = directory.resolve("transactions-2026-10-01.jsonl");
        long bytes;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            bytes = TransactionLines.write(out, lines, LocalDate.parse("2026-10-01"));
        }
        System.out.printf(Locale.ROOT, "input: %,d canonical transactions lines, %,d bytes%n", lines, bytes);
        DatasetContract contract = ContractLoader.load(TestContracts.DATASETS.resolve("transactions.json"));
        try (S3ProxyLake lake = S3ProxyLake.start()) {
            Namespace namespace = Namespace.of("landing_bench");
            JdbcCatalog catalog = lake.catalog(namespace, directory.resolve("catalog.db"));
            IcebergTablePort port = new IcebergTablePort(catalog, namespace);
            port.ensureTable(contract);
            var threads = ManagementFactory.getThreadMXBean();
            for (int round = 1; round <= repeat; round++) {
                Long basedOn = port.currentSnapshotId(contract.dataset()).orElse(null);
                long cpu0 = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                TableSnapshot snapshot;
                try (InputStream in = Files.newInputStream(file)) {
                    // the same unit each round: a restatement replaces the partition, as a re-publish would
                    snapshot = port.replaceUnit(contract, commit(contract, "2026-10-01", "big-" + round, basedOn), in);
                }
                double seconds = (System.nanoTime() - t0) / 1e9;
                double cpu = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
                long parquet = parquetBytes(catalog.loadTable(port.identifier(contract.dataset())));
                System.out.printf(Locale.ROOT, "round %d: %,d rows in %.2f s (writer thread CPU %.2f s): %,.0f rows/s,"
                                + " JSONL in %.1f MB/s, Parquet out %,d bytes = %.1f MB/s%n", round, snapshot.rows(),
                        seconds, cpu, snapshot.rows() / seconds, bytes / 1e6 / seconds, parquet,
                        parquet / 1e6 / seconds);
            }
            List<Long> commits = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                String unit = LocalDate.parse("2026-11-01").plusDays(i).toString();
                ByteArrayOutputStream small = new ByteArrayOutputStream();
                TransactionLines.write(small, 10, LocalDate.parse(unit));
                Long basedOn = port.currentSnapshotId(contract.dataset()).orElse(null);
                long t0 = System.nanoTime();
                port.replaceUnit(contract, commit(contract, unit, "small-" + i, basedOn),
                        new ByteArrayInputStream(small.toByteArray()));
                commits.add((System.nanoTime() - t0) / 1_000_000);
            }
            System.out.println("10-row units, write + commit ms each: " + commits);
        }
        System.out.println("load average (1, 5, 15 min): " + Files.readString(Path.of("/proc/loadavg")).strip());
        System.exit(0);
    }

    private static TableCommit commit(DatasetContract contract, String unit, String run, Long basedOn) {
        return new TableCommit(contract.dataset(), unit, run, "sha-" + run, null, contract.version(), basedOn);
    }

    private static long parquetBytes(Table table) {
        return Long.parseLong(table.currentSnapshot().summary().get("added-files-size"));
    }
}
