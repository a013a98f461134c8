package io.landingledger.cli.ops;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.reader.ReaderTables;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.SerDeInfo;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * A dataset's reader tables in the stack's Glue database (docs/readers.md), made by {@code landing dataset add} and
 * {@code update} with the operator's credentials ({@code ContractAdminPolicy}: glue:GetTable, CreateTable,
 * UpdateTable): datasets are registered at run time, so the template cannot hold their tables. One definition,
 * {@link ReaderTables}: the {@code <dataset>} table over {@code published/<dataset>/} with {@code unit} projected from
 * the contract's cadence, and {@code <dataset>_status} over the sweep's {@code _status/<dataset>/}. A table that exists
 * is updated to the definition (a field added to the contract becomes a column); one that does not is created.
 */
final class GlueReaderTables {
    private GlueReaderTables() {
    }

    /** The Glue table input of one reader table over {@code bucket}: the shape the template's tables had. */
    static TableInput tableInput(ReaderTables.Table table, String bucket) {
        return TableInput.builder()
                .name(table.name())
                .tableType("EXTERNAL_TABLE")
                .parameters(table.parameters(bucket))
                .partitionKeys(columns(table.partitions()))
                .storageDescriptor(StorageDescriptor.builder()
                        .location(table.location(bucket))
                        .inputFormat(ReaderTables.INPUT_FORMAT)
                        .outputFormat(ReaderTables.OUTPUT_FORMAT)
                        .serdeInfo(SerDeInfo.builder().serializationLibrary(ReaderTables.SERDE).build())
                        .columns(columns(table.columns()))
                        .build())
                .build();
    }

    /**
     * Creates or updates {@code contract}'s two tables in {@code database}; returns one line per table ("created
     * progress_events", "updated progress_events_status").
     */
    static List<String> apply(GlueClient glue, String database, String bucket, DatasetContract contract) {
        List<String> done = new ArrayList<>();
        for (ReaderTables.Table table : List.of(ReaderTables.published(contract), ReaderTables.status(contract))) {
            TableInput input = tableInput(table, bucket);
            boolean exists;
            try {
                glue.getTable(r -> r.databaseName(database).name(table.name()));
                exists = true;
            } catch (EntityNotFoundException e) {
                exists = false;
            }
            if (exists) {
                glue.updateTable(r -> r.databaseName(database).tableInput(input));
                done.add("updated " + database + "." + table.name());
            } else {
                glue.createTable(r -> r.databaseName(database).tableInput(input));
                done.add("created " + database + "." + table.name());
            }
        }
        return done;
    }

    private static List<Column> columns(List<ReaderTables.Column> columns) {
        return columns.stream().map(c -> Column.builder().name(c.name()).type(c.type()).build()).toList();
    }
}
