package io.landingledger.tables;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.table.TableCommit;
import io.landingledger.core.table.TableSnapshot;
import io.landingledger.core.testing.TestContracts;

import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.CloseableIterable;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One dataset's table on Iceberg's in-memory catalog (tables, metadata and Parquet files in memory, written and read
 * by Iceberg's real code), with the test contract and helpers to publish units and read them back.
 */
final class TableFixture {
    static final Namespace NAMESPACE = Namespace.of("landing_test");

    /** Every column type the contract model has, {@code amount} an exact decimal(12,2). */
    static final String PAYMENTS = """
            {
              "dataset": "payments", "version": 1, "format": "jsonl",
              "unit": { "pattern": "payments-(?<unit>\\\\d{4}-\\\\d{2}-\\\\d{2})\\\\.jsonl", "cadence": "%s",
                        "first": "%s" },
              "key": "id",
              "fields": {
                "id":       { "type": "string",    "required": true },
                "amount":   { "type": "number",    "required": true, "precision": 12, "scale": 2 },
                "attempt":  { "type": "integer",   "required": true },
                "paid_at":  { "type": "timestamp", "required": true },
                "booked":   { "type": "date",      "required": true },
                "ratio":    { "type": "number" },
                "refunded": { "type": "boolean",   "nullable": true }
              },
              "unknownFields": "reject-line"
            }
            """;

    final InMemoryCatalog catalog = new InMemoryCatalog();
    final IcebergTablePort port;
    final DatasetContract contract;

    TableFixture() {
        this(contract("daily"));
    }

    TableFixture(DatasetContract contract) {
        catalog.initialize("test", Map.of("warehouse", "memory://warehouse"));
        catalog.createNamespace(NAMESPACE);
        this.port = new IcebergTablePort(catalog, NAMESPACE);
        this.contract = contract;
        port.ensureTable(contract);
    }

    static DatasetContract contract(String cadence) {
        return TestContracts.fromJson("payments.json", payments(cadence));
    }

    /** The payments contract's text for a cadence (daily, hourly; a list cadence edits its first into units). */
    static String payments(String cadence) {
        return PAYMENTS.formatted(cadence, cadence.equals("hourly") ? "2026-10-01T00" : "2026-10-01");
    }

    Table table() {
        return catalog.loadTable(port.identifier(contract.dataset()));
    }

    /** A published line of the payments contract, canonical (sorted keys, compact). */
    static String line(String id, String amount, long attempt, String paidAt, String booked) {
        return "{\"amount\":" + amount + ",\"attempt\":" + attempt + ",\"booked\":\"" + booked + "\",\"id\":\"" + id
                + "\",\"paid_at\":\"" + paidAt + "\",\"ratio\":null,\"refunded\":null}";
    }

    /** {@code rows} lines of the payments contract, amounts {@code cents}/100 apart by one cent each. */
    static String lines(int rows, long cents) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < rows; i++) {
            out.append(line("p" + i, java.math.BigDecimal.valueOf(cents + i, 2).stripTrailingZeros().toPlainString(),
                    i, "2026-10-01T21:30:00.123456Z", "2026-09-30")).append('\n');
        }
        return out.toString();
    }

    static InputStream bytes(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    TableSnapshot publish(String unit, String runId, String text) {
        return publish(unit, runId, text, port.currentSnapshotId(contract.dataset()).orElse(null));
    }

    TableSnapshot publish(String unit, String runId, String text, Long basedOn) {
        TableCommit commit = new TableCommit(contract.dataset(), unit, runId, "sha-" + runId, "v-" + runId,
                contract.version(), basedOn);
        return port.replaceUnit(contract, commit, bytes(text));
    }

    /** Every row of the table's current snapshot, or of {@code snapshotId}. */
    List<Record> rows(Long snapshotId) {
        Table table = table();
        IcebergGenerics.ScanBuilder scan = IcebergGenerics.read(table);
        if (snapshotId != null) {
            scan = scan.useSnapshot(snapshotId);
        }
        List<Record> rows = new ArrayList<>();
        try (CloseableIterable<Record> read = scan.build()) {
            read.forEach(r -> rows.add(r.copy()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }

    /**
     * The data files of the snapshot's scan plan (never a listing of data/: a replaced file stays there for the older
     * snapshots), copied out of the catalog's storage into {@code directory} for a reader that takes local paths.
     */
    List<Path> scanFiles(Long snapshotId, Path directory) {
        Table table = table();
        List<Path> files = new ArrayList<>();
        var scan = snapshotId == null ? table.newScan() : table.newScan().useSnapshot(snapshotId);
        try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
            for (FileScanTask task : tasks) {
                Path copy = directory.resolve(files.size() + ".parquet");
                try (InputStream in = table.io().newInputFile(task.file().location()).newStream()) {
                    Files.copy(in, copy);
                }
                files.add(copy);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }
}
