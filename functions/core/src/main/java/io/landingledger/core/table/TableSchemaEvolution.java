package io.landingledger.core.table;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.FieldSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Whether a dataset's table can follow a new contract version (docs/design.md section 12): the table keeps every
 * column it ever had and its rows stay readable, so a version may add optional fields, drop optional ones (the
 * column stays, later rows hold null), loosen or tighten {@code required} and {@code nullable} of a field (the column
 * is optional), and widen a decimal's precision with the same scale (Iceberg's one decimal promotion). Everything
 * else is refused at registration, one sentence per field: a type change (a column's type is fixed; Iceberg's other
 * promotions, int to long and float to double, have no contract counterpart), a decimal's precision narrowed or its
 * scale changed, a required field dropped (readers of the table rely on it), a new required field (the rows already
 * in the table have no value for it).
 */
public final class TableSchemaEvolution {

    private TableSchemaEvolution() {
    }

    /** The changes from {@code from} to {@code to} the table cannot follow, one sentence each; empty when none. */
    public static List<String> refusals(DatasetContract from, DatasetContract to) {
        List<String> refused = new ArrayList<>();
        Map<String, FieldSpec> after = byName(to);
        Map<String, FieldSpec> before = byName(from);
        for (FieldSpec field : before.values()) {
            FieldSpec next = after.get(field.name());
            if (next == null) {
                if (field.required()) {
                    refused.add("field " + field.name() + " dropped: it was required, and the table's readers rely on"
                            + " its column");
                }
                continue;
            }
            change(field, next).ifPresent(refused::add);
        }
        for (FieldSpec field : after.values()) {
            if (!before.containsKey(field.name()) && field.required()) {
                refused.add("field " + field.name() + " added as required: the rows already in the table have no value"
                        + " for it; add it as optional");
            }
        }
        return refused;
    }

    /** The column type a field has in the table: its wire type, or {@code decimal(p,s)} for an exact number. */
    public static String columnType(FieldSpec field) {
        return field.decimal() ? "decimal(" + field.precision() + "," + field.scale() + ")" : field.type().wireName();
    }

    private static Optional<String> change(FieldSpec from, FieldSpec to) {
        String name = "field " + from.name() + " ";
        if (from.type() != to.type() || from.decimal() != to.decimal()) {
            return Optional.of(name + columnType(from) + " -> " + columnType(to) + ": the table's column holds "
                    + columnType(from) + " values and its type cannot change");
        }
        if (!from.decimal()) {
            return Optional.empty();
        }
        if (!from.scale().equals(to.scale())) {
            return Optional.of(name + columnType(from) + " -> " + columnType(to) + ": a decimal's scale cannot change"
                    + " (the table's values would change meaning)");
        }
        if (to.precision() < from.precision()) {
            return Optional.of(name + columnType(from) + " -> " + columnType(to) + ": a decimal's precision can only"
                    + " widen (the table holds values of " + from.precision() + " digits)");
        }
        return Optional.empty();
    }

    private static Map<String, FieldSpec> byName(DatasetContract contract) {
        Map<String, FieldSpec> fields = new TreeMap<>();
        contract.fields().forEach(field -> fields.put(field.name(), field));
        return fields;
    }
}
