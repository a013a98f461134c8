package io.landingledger.core.reader;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.FieldSpec;
import io.landingledger.core.contract.FieldType;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.sweep.UnitStatusExport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The readers' tables (docs/readers.md), derived from a dataset's contract: one definition that {@code infra/template.yaml}'s
 * Glue tables must equal (TemplateIT), that Athena's DDL is generated from ({@link Table#ddl}), and that the DuckDB
 * reader test reads the exported lake with.
 *
 * <p>Per dataset two tables: {@code <dataset>} over {@code published/<dataset>/}, partitioned by {@code unit} with
 * partition projection (no crawler, no MSCK REPAIR: a unit is readable as soon as it is published), and
 * {@code <dataset>_status} over {@code _status/<dataset>/} (one line per expected unit, {@code unit} a column).
 * Both use the OpenX JSON SerDe over the published canonical JSON lines.
 *
 * <p>Types: string, integer (bigint), number (double), boolean, date (date) map to Hive types. A {@code timestamp}
 * field is a {@code string} column on purpose: published timestamps are ISO-8601 UTC with {@code T} and {@code Z}
 * and up to nine fraction digits ({@code Instant.toString}); the OpenX SerDe's timestamp parsing expects
 * {@code yyyy-MM-dd HH:mm:ss[.f...]} unless told a {@code timestamp.formats} list, and Athena's timestamp has millisecond
 * precision, so a timestamp column would return NULL or drop digits. The string keeps every digit and sorts in time
 * order (same width within a publish apart from the fraction); a reader converts with
 * {@code from_iso8601_timestamp(event_time)} in Athena ({@code CAST(event_time AS TIMESTAMPTZ)} in DuckDB). A
 * {@code number} is a double unless the contract declares its {@code precision} and {@code scale}: then it is
 * {@code decimal(p,s)} (the SerDe reads the published digits exactly), as in the dataset's Iceberg table. A number
 * without them stays a double (no decimal(p,s) can hold every value it accepts; the published text keeps the exact
 * digits).
 */
public final class ReaderTables {
    /** The SerDe of every reader table: reads one JSON object per line, columns by name. */
    public static final String SERDE = "org.openx.data.jsonserde.JsonSerDe";
    public static final String INPUT_FORMAT = "org.apache.hadoop.mapred.TextInputFormat";
    public static final String OUTPUT_FORMAT = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
    /** The partition column of every dataset table: the unit, as published/ names it ({@code unit=<unit>/}). */
    public static final String PARTITION = "unit";
    /** Suffix of a dataset's status table. */
    public static final String STATUS_SUFFIX = "_status";

    private ReaderTables() {
    }

    /** A column: its name and Hive type. */
    public record Column(String name, String type) {
    }

    /**
     * One Glue/Athena table.
     *
     * @param name        the table's name
     * @param prefix      its location in the lake bucket (a key prefix ending with /)
     * @param columns     the data columns, in order
     * @param partitions  the partition columns (empty for a status table)
     * @param projection  the table properties that configure partition projection, {@code ${bucket}} standing for
     *                    the lake bucket's name in {@code storage.location.template} (empty for a status table)
     */
    public record Table(String name, String prefix, List<Column> columns, List<Column> partitions, Map<String, String> projection) {
        public Table {
            columns = List.copyOf(columns);
            partitions = List.copyOf(partitions);
            projection = Map.copyOf(projection);
        }

        /** The table's S3 location in {@code bucket}. */
        public String location(String bucket) {
            return "s3://" + bucket + "/" + prefix;
        }

        /** The projection properties with the bucket's name filled in, in name order. */
        public Map<String, String> parameters(String bucket) {
            Map<String, String> out = new LinkedHashMap<>();
            projection.keySet().stream().sorted().forEach(k -> out.put(k, projection.get(k).replace("${bucket}", bucket)));
            return out;
        }

        /** Athena's {@code CREATE EXTERNAL TABLE} for this table in {@code database}, over {@code bucket}. */
        public String ddl(String database, String bucket) {
            StringBuilder sql = new StringBuilder("CREATE EXTERNAL TABLE `").append(database).append("`.`").append(name).append("` (\n");
            sql.append(columns.stream().map(c -> "  `" + c.name() + "` " + c.type()).collect(Collectors.joining(",\n")));
            sql.append("\n)\n");
            if (!partitions.isEmpty()) {
                sql.append("PARTITIONED BY (").append(partitions.stream().map(c -> "`" + c.name() + "` " + c.type())
                        .collect(Collectors.joining(", "))).append(")\n");
            }
            sql.append("ROW FORMAT SERDE '").append(SERDE).append("'\n");
            sql.append("STORED AS INPUTFORMAT '").append(INPUT_FORMAT).append("'\n");
            sql.append("  OUTPUTFORMAT '").append(OUTPUT_FORMAT).append("'\n");
            sql.append("LOCATION '").append(location(bucket)).append("'");
            Map<String, String> parameters = parameters(bucket);
            if (!parameters.isEmpty()) {
                sql.append("\nTBLPROPERTIES (\n").append(parameters.entrySet().stream()
                        .map(e -> "  '" + e.getKey() + "' = '" + e.getValue() + "'").collect(Collectors.joining(",\n"))).append("\n)");
            }
            return sql.append(";\n").toString();
        }
    }

    /** The Hive type of a contract field type (see the class comment for timestamp and number). */
    public static String hiveType(FieldType type) {
        return switch (type) {
            case STRING, TIMESTAMP -> "string";
            case INTEGER -> "bigint";
            case NUMBER -> "double";
            case BOOLEAN -> "boolean";
            case DATE -> "date";
        };
    }

    /**
     * The Hive type of a contract field: an exact decimal ({@link FieldSpec#decimal()}) is {@code decimal(p,s)}, as in
     * the dataset's Iceberg table, so that a JSONL reader sums 19.99 exactly too; otherwise {@link #hiveType(FieldType)}.
     */
    public static String hiveType(FieldSpec field) {
        return field.decimal() ? "decimal(" + field.precision() + "," + field.scale() + ")" : hiveType(field.type());
    }

    /** The dataset's table over {@code published/<dataset>/}: the contract's fields in its order, {@code unit} projected. */
    public static Table published(DatasetContract contract) {
        List<Column> columns = new ArrayList<>();
        for (FieldSpec field : contract.fields()) {
            columns.add(new Column(field.name(), hiveType(field)));
        }
        String prefix = LakeLayout.PUBLISHED_PREFIX + contract.dataset() + "/";
        Map<String, String> projection = new LinkedHashMap<>();
        projection.put("projection.enabled", "true");
        switch (contract.unit().cadence()) {
            case DAILY -> {
                projection.put("projection.unit.type", "date");
                projection.put("projection.unit.format", "yyyy-MM-dd");
                projection.put("projection.unit.range", contract.unit().first() + ",NOW");
                projection.put("projection.unit.interval", "1");
                projection.put("projection.unit.interval.unit", "DAYS");
            }
            case HOURLY -> {
                projection.put("projection.unit.type", "date");
                projection.put("projection.unit.format", "yyyy-MM-dd'T'HH");
                projection.put("projection.unit.range", contract.unit().first() + ",NOW");
                projection.put("projection.unit.interval", "1");
                projection.put("projection.unit.interval.unit", "HOURS");
            }
            case LIST -> {
                projection.put("projection.unit.type", "enum");
                projection.put("projection.unit.values", String.join(",", contract.unit().units()));
            }
        }
        projection.put("storage.location.template", "s3://${bucket}/" + prefix + "unit=${unit}/");
        return new Table(contract.dataset(), prefix, columns, List.of(new Column(PARTITION, "string")), projection);
    }

    /** The dataset's status table over {@code _status/<dataset>/} (one object, {@code unit} a column: no projection). */
    public static Table status(DatasetContract contract) {
        return new Table(contract.dataset() + STATUS_SUFFIX, LakeLayout.STATUS_PREFIX + contract.dataset() + "/", statusColumns(),
                List.of(), Map.of());
    }

    /** The status line's fields ({@link UnitStatusExport#FIELDS}) with their Hive types. */
    public static List<Column> statusColumns() {
        return UnitStatusExport.FIELDS.stream().map(f -> new Column(f, switch (f) {
            case "publish_count", "accepted", "rejected", "age_seconds", "published_after_deadline_seconds",
                 "unpublished_age_seconds", "table_snapshot_id" -> "bigint";
            default -> "string";
        })).toList();
    }

    /** Both tables of every contract, in dataset order. */
    public static List<Table> all(List<DatasetContract> contracts) {
        List<Table> tables = new ArrayList<>();
        for (DatasetContract contract : contracts) {
            tables.add(published(contract));
            tables.add(status(contract));
        }
        return tables;
    }
}
