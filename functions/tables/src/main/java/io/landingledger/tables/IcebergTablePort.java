package io.landingledger.tables;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.table.TableCommit;
import io.landingledger.core.table.TableConflictException;
import io.landingledger.core.table.TablePort;
import io.landingledger.core.table.TableSnapshot;

import org.apache.iceberg.DataFile;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.util.SnapshotUtil;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The dataset tables on an Iceberg catalog ({@link TablePort}): one table per dataset in one namespace, format v2,
 * Parquet with zstd, partitioned by identity on the unit column ({@link ContractSchema}). In production the catalog is
 * a {@code RESTCatalog} (S3 Tables' Iceberg REST endpoint on AWS, the local stack's REST catalog locally: {@link
 * TableCatalogConfig}); any {@link Catalog} works, which the tests use.
 *
 * <p>{@link #replaceUnit} writes the publish's rows as one Parquet data file, then commits one overwrite of the unit's
 * partition, validated from the snapshot the writer read: Iceberg refuses it when another commit added data to the
 * partition since ({@code validateNoConflictingData}). Deletes are not validated: a whole-partition replace removes
 * whatever a compaction rewrote in between, so compaction's {@code replace} snapshots need not cost a retry. The
 * snapshot's summary carries the publish's identity ({@code landing.*}), which {@link #unitSnapshots} reads back.
 */
public final class IcebergTablePort implements TablePort {
    static final String DATASET = "landing.dataset";
    static final String UNIT = "landing.unit";
    static final String RUN_ID = "landing.run-id";
    static final String CONTENT_SHA256 = "landing.content-sha256";
    static final String INPUT_VERSION = "landing.input-version";
    static final String CONTRACT_VERSION = "landing.contract-version";
    static final String ROWS = "landing.rows";

    /** Table property: the newest contract version the table's schema follows. */
    static final String FOLLOWS_CONTRACT_VERSION = "landing.contract-version";

    /** Properties of every table this port creates. */
    static final Map<String, String> TABLE_PROPERTIES = Map.of(
            TableProperties.FORMAT_VERSION, "2",
            TableProperties.PARQUET_COMPRESSION, "zstd");

    private final Catalog catalog;
    private final Namespace namespace;

    /**
     * @param catalog   the catalog holding the tables
     * @param namespace the namespace they live in (the stack's: created with the stack, never by the writer)
     */
    public IcebergTablePort(Catalog catalog, Namespace namespace) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.namespace = Objects.requireNonNull(namespace, "namespace");
    }

    /**
     * The table's identifier for {@code dataset}: its name with {@code -} as {@code _}, since S3 Tables' names allow
     * lower-case letters, digits and underscores only (a dataset name is lower case already).
     */
    public TableIdentifier identifier(String dataset) {
        return TableIdentifier.of(namespace, dataset.replace('-', '_'));
    }

    @Override
    public void ensureTable(DatasetContract contract) {
        TableIdentifier id = identifier(contract.dataset());
        Table table;
        try {
            table = catalog.loadTable(id);
        } catch (NoSuchTableException missing) {
            Schema schema = ContractSchema.schemaOf(contract);
            try {
                catalog.buildTable(id, schema)
                        .withPartitionSpec(ContractSchema.specOf(schema))
                        .withProperties(TABLE_PROPERTIES)
                        .withProperty(FOLLOWS_CONTRACT_VERSION, Integer.toString(contract.version()))
                        .create();
                return;
            } catch (AlreadyExistsException raced) {
                table = catalog.loadTable(id); // another writer created it first: follow the contract as below
            }
        }
        // A publish of an older contract version (a unit not republished since) must not take the schema back: the
        // table follows the newest version it has seen, whose columns hold every older version's values.
        int follows = Integer.parseInt(table.properties().getOrDefault(FOLLOWS_CONTRACT_VERSION, "0"));
        if (follows >= contract.version()) {
            return;
        }
        Transaction transaction = table.newTransaction();
        UpdateSchema update = transaction.updateSchema();
        if (ContractSchema.evolve(table.schema(), contract, update)) {
            update.commit();
        }
        transaction.updateProperties().set(FOLLOWS_CONTRACT_VERSION, Integer.toString(contract.version())).commit();
        transaction.commitTransaction();
    }

    @Override
    public Optional<Long> currentSnapshotId(String dataset) {
        try {
            Snapshot current = catalog.loadTable(identifier(dataset)).currentSnapshot();
            return current == null ? Optional.empty() : Optional.of(current.snapshotId());
        } catch (NoSuchTableException missing) {
            return Optional.empty();
        }
    }

    @Override
    public List<TableSnapshot> unitSnapshots(String dataset, String unit) {
        Table table;
        try {
            table = catalog.loadTable(identifier(dataset));
        } catch (NoSuchTableException missing) {
            return List.of();
        }
        List<TableSnapshot> found = new ArrayList<>();
        if (table.currentSnapshot() == null) {
            return found;
        }
        for (Snapshot snapshot : SnapshotUtil.ancestorsOf(table.currentSnapshot().snapshotId(), table::snapshot)) {
            Map<String, String> summary = snapshot.summary();
            // compaction's and other engines' snapshots carry no publish identity: not ours, skipped
            if (unit.equals(summary.get(UNIT)) && dataset.equals(summary.get(DATASET))) {
                found.add(snapshotOf(snapshot));
            }
        }
        return found;
    }

    @Override
    public TableSnapshot replaceUnit(DatasetContract contract, TableCommit commit, InputStream publishedRows) {
        if (!contract.dataset().equals(commit.dataset())) {
            throw new IllegalArgumentException("the commit is for dataset " + commit.dataset() + ", the contract for "
                    + contract.dataset());
        }
        // the table's schema, not the contract, shapes the rows: ensureTable made it follow the newest version
        Table table = catalog.loadTable(identifier(commit.dataset()));
        Schema schema = table.schema();
        Object unitValue = ContractSchema.unitValue(schema.findType(ContractSchema.UNIT_COLUMN), commit.unit());
        DataFile file = writeDataFile(table, commit, unitValue, publishedRows);
        Expression partition = Expressions.equal(ContractSchema.UNIT_COLUMN,
                ContractSchema.unitLiteral(schema.findType(ContractSchema.UNIT_COLUMN), commit.unit()));
        OverwriteFiles overwrite = table.newOverwrite()
                .overwriteByRowFilter(partition)
                .conflictDetectionFilter(partition)
                .validateNoConflictingData()
                .set(DATASET, commit.dataset())
                .set(UNIT, commit.unit())
                .set(RUN_ID, commit.runId())
                .set(CONTENT_SHA256, commit.contentSha256())
                .set(CONTRACT_VERSION, Integer.toString(commit.contractVersion()))
                .set(ROWS, Long.toString(file.recordCount()));
        if (commit.inputVersion() != null) {
            overwrite.set(INPUT_VERSION, commit.inputVersion());
        }
        if (commit.basedOnSnapshotId() != null) {
            overwrite.validateFromSnapshot(commit.basedOnSnapshotId());
        }
        if (file.recordCount() > 0) {
            overwrite.addFile(file); // an empty unit's partition is only emptied: no file of no rows
        } else {
            deleteQuietly(table, file);
        }
        try {
            overwrite.commit();
        } catch (ValidationException conflict) {
            deleteQuietly(table, file);
            // Iceberg's message names files and the filter, which say nothing a reader needs: say what happened
            String since = commit.basedOnSnapshotId() == null ? "since the writer read the table empty"
                    : "after snapshot " + commit.basedOnSnapshotId();
            throw new TableConflictException("another commit added data to unit " + commit.unit() + " of table "
                    + identifier(commit.dataset()) + " " + since + "; nothing was committed");
        } catch (CommitStateUnknownException unknown) {
            throw unknown; // the file may be in the committed snapshot: never delete it; the writer reads the table
        } catch (RuntimeException failed) {
            deleteQuietly(table, file);
            throw failed;
        }
        return snapshotOf(table.currentSnapshot());
    }

    /**
     * Writes the publish's rows as one Parquet file in the unit's partition. Its name says which publish it holds
     * ({@code <content sha256>-<run id>-<attempt>.parquet}); the attempt's random part means a file is never written
     * twice, so a committed file's bytes can never be replaced by a concurrent writer of the same publish (a repair
     * beside the queue's writer). A failed attempt deletes its file; one that crashed leaves an unreferenced file,
     * which the table bucket's unreferenced-file removal deletes.
     */
    private static DataFile writeDataFile(Table table, TableCommit commit, Object unitValue, InputStream rows) {
        Schema schema = table.schema();
        PartitionKey key = new PartitionKey(table.spec(), schema);
        GenericRecord partition = GenericRecord.create(schema);
        partition.setField(ContractSchema.UNIT_COLUMN, unitValue);
        // the partition key takes Iceberg's internal representation (days since epoch, micros), not java.time
        key.partition(new InternalRecordWrapper(schema.asStruct()).wrap(partition));
        String name = commit.contentSha256() + "-" + commit.runId() + "-" + UUID.randomUUID() + ".parquet";
        OutputFile out = table.io().newOutputFile(table.locationProvider().newDataLocation(table.spec(), key, name));
        DataWriter<Record> writer;
        try {
            writer = Parquet.writeData(out)
                    .forTable(table)
                    .withSpec(table.spec())
                    .withPartition(key)
                    .createWriterFunc(GenericParquetWriter::create)
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the data file for unit " + commit.unit(), e);
        }
        boolean written = false;
        try (PublishedRowReader reader = new PublishedRowReader(schema, unitValue, rows)) {
            for (Record row = reader.next(); row != null; row = reader.next()) {
                writer.write(row);
            }
            written = true;
        } finally {
            try {
                writer.close();
            } catch (IOException e) {
                if (written) {
                    throw new UncheckedIOException("cannot finish the data file for unit " + commit.unit(), e);
                }
            }
            if (!written) {
                table.io().deleteFile(out.location());
            }
        }
        return writer.toDataFile();
    }

    private static void deleteQuietly(Table table, DataFile file) {
        try {
            table.io().deleteFile(file.location());
        } catch (RuntimeException e) {
            // an orphan of a failed attempt: unreferenced, so the table bucket's maintenance removes it
        }
    }

    private static TableSnapshot snapshotOf(Snapshot snapshot) {
        Map<String, String> summary = snapshot.summary();
        return new TableSnapshot(snapshot.snapshotId(), Instant.ofEpochMilli(snapshot.timestampMillis()),
                summary.get(DATASET), summary.get(UNIT), summary.get(RUN_ID), summary.get(CONTENT_SHA256),
                summary.get(INPUT_VERSION), Integer.parseInt(summary.getOrDefault(CONTRACT_VERSION, "0")),
                Long.parseLong(summary.getOrDefault(ROWS, "0")));
    }
}
