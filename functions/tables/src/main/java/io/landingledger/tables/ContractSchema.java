package io.landingledger.tables;

import io.landingledger.core.contract.Cadence;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.FieldSpec;

import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * A dataset's Iceberg schema, derived from its contract, and how a table follows a newer contract.
 *
 * <p>Columns: every contract field in the contract's order, then {@value #UNIT_COLUMN}, the partition (identity).
 * Types:
 * string -> string, integer -> long, number with precision and scale -> decimal(p, s) (exact), number without ->
 * double, boolean -> boolean, date -> date, timestamp -> timestamptz (microseconds, UTC). A column is required when
 * every published row holds a value (the field is required and not nullable). The unit column's type follows the
 * cadence: daily -> date, hourly -> timestamptz (the UTC hour's start: typed like the daily date, so an engine prunes
 * partitions with a time range), list -> string.
 *
 * <p>Field ids are Iceberg's: assigned at creation and kept forever; a newer contract only adds columns (optional,
 * since older units hold no value), widens a decimal's precision, or makes a required column optional. Anything else
 * is a change the table cannot follow, refused at registration before the writer ever sees it, so here it is an
 * {@link IllegalStateException} naming the column.
 */
final class ContractSchema {
    /** The partition column every dataset table has: the unit the rows were published for. */
    static final String UNIT_COLUMN = "unit";

    private ContractSchema() {
    }

    /** The schema of a new table for {@code contract} (ids assigned from 1, the unit column last). */
    static Schema schemaOf(DatasetContract contract) {
        List<Types.NestedField> columns = new ArrayList<>();
        int id = 1;
        for (FieldSpec field : contract.fields()) {
            if (field.name().equals(UNIT_COLUMN)) {
                throw new IllegalStateException("dataset " + contract.dataset() + " has a field named '" + UNIT_COLUMN
                        + "', the name of the table's partition column");
            }
            columns.add(Types.NestedField.of(id++, !valueAlways(field), field.name(), typeOf(field)));
        }
        columns.add(Types.NestedField.required(id, UNIT_COLUMN, unitType(contract.unit().cadence())));
        return new Schema(columns);
    }

    /** The partition spec: identity on the unit column. */
    static PartitionSpec specOf(Schema schema) {
        return PartitionSpec.builderFor(schema).identity(UNIT_COLUMN).build();
    }

    /** The Iceberg type of a contract field. */
    static Type typeOf(FieldSpec field) {
        return switch (field.type()) {
            case STRING -> Types.StringType.get();
            case INTEGER -> Types.LongType.get();
            case NUMBER -> field.decimal()
                    ? Types.DecimalType.of(field.precision(), field.scale()) : Types.DoubleType.get();
            case BOOLEAN -> Types.BooleanType.get();
            case DATE -> Types.DateType.get();
            case TIMESTAMP -> Types.TimestampType.withZone();
        };
    }

    /** The unit column's type for a cadence. */
    static Type unitType(Cadence cadence) {
        return switch (cadence) {
            case DAILY -> Types.DateType.get();
            case HOURLY -> Types.TimestampType.withZone();
            case LIST -> Types.StringType.get();
        };
    }

    /**
     * The unit column's value for {@code unit} as Iceberg's generic records hold it: a {@link LocalDate}, an
     * {@link OffsetDateTime} at UTC, or the name itself.
     */
    static Object unitValue(Type unitType, String unit) {
        return switch (unitType.typeId()) {
            case DATE -> LocalDate.parse(unit);
            case TIMESTAMP -> LocalDateTime.parse(unit + ":00").atOffset(ZoneOffset.UTC); // YYYY-MM-DDTHH, UTC
            case STRING -> unit;
            default -> throw new IllegalStateException("the unit column has an unexpected type " + unitType);
        };
    }

    /**
     * The unit column's value as an Iceberg expression literal takes it: a date as its ISO text, an hour as its
     * microseconds since the epoch, a name as itself (Iceberg converts a literal to the column's type when it binds).
     */
    static Object unitLiteral(Type unitType, String unit) {
        Object value = unitValue(unitType, unit);
        if (value instanceof OffsetDateTime hour) {
            return Math.multiplyExact(hour.toEpochSecond(), 1_000_000L);
        }
        return value.toString();
    }

    /**
     * Brings {@code table}'s schema to {@code contract}'s in {@code update}; returns false when nothing changes. The
     * update is committed by the caller, once.
     */
    static boolean evolve(Schema table, DatasetContract contract, UpdateSchema update) {
        boolean changed = false;
        List<String> names = new ArrayList<>();
        for (FieldSpec field : contract.fields()) {
            names.add(field.name());
            Types.NestedField column = table.findField(field.name());
            Type wanted = typeOf(field);
            if (column == null) {
                update.addColumn(field.name(), wanted); // optional: the units published before hold no value
                changed = true;
                continue;
            }
            if (!column.type().equals(wanted)) {
                if (!widens(column.type(), wanted)) {
                    throw new IllegalStateException("column " + field.name() + " of dataset " + contract.dataset()
                            + " is " + column.type() + " in the table and " + wanted + " in contract version "
                            + contract.version() + ": the table cannot follow that change");
                }
                update.updateColumn(field.name(), wanted.asPrimitiveType());
                changed = true;
            }
            if (column.isRequired() && !valueAlways(field)) {
                update.makeColumnOptional(field.name());
                changed = true;
            }
        }
        for (Types.NestedField column : table.columns()) {
            // a column the contract no longer names keeps its older values; newer rows hold null in it
            if (!column.name().equals(UNIT_COLUMN) && !names.contains(column.name()) && column.isRequired()) {
                update.makeColumnOptional(column.name());
                changed = true;
            }
        }
        return changed;
    }

    /** True when every published row holds a value for {@code field}. */
    private static boolean valueAlways(FieldSpec field) {
        return field.required() && !field.nullable();
    }

    /** A decimal whose precision grows with the same scale: the one type change Iceberg and every reader follow. */
    private static boolean widens(Type from, Type to) {
        return from instanceof Types.DecimalType a && to instanceof Types.DecimalType b
                && a.scale() == b.scale() && b.precision() > a.precision();
    }
}
