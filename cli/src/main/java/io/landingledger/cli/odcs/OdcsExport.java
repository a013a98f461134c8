package io.landingledger.cli.odcs;

import com.fasterxml.jackson.jr.ob.JSON;
import io.landingledger.core.contract.Cadence;
import io.landingledger.core.contract.ContractEntry;
import io.landingledger.core.contract.ContractLoader;
import io.landingledger.core.contract.ContractState;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.FieldSpec;
import io.landingledger.core.contract.VolumeSpec;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A registered contract version as an ODCS v3.1.0 document ({@code landing dataset show --odcs}), the inverse of
 * {@link OdcsImport}: what an import mapped comes back as the same elements, written in one canonical spelling
 * (docs/contracts.md, "Open Data Contract Standard", says which). Every setting is written, defaults included, so the
 * document says everything the product enforces.
 */
public final class OdcsExport {
    static final String API_VERSION = "v3.1.0";

    private OdcsExport() {
    }

    /** The entry as a document; a retirement is the contract in force before it, with status retired. */
    public static Map<String, Object> of(ContractEntry entry) {
        DatasetContract contract = entry.state() == ContractState.ACTIVE ? entry.contract().orElseThrow()
                : ContractLoader.load(entry.source(),
                        new ByteArrayInputStream(entry.contractJson().getBytes(StandardCharsets.UTF_8)));
        return of(contract, entry.version(), entry.state(), raw(entry.contractJson()));
    }

    /**
     * The document for {@code contract}; {@code raw} is its JSON as registered, for what the loaded contract does not
     * keep (descriptions, the imported document's id and name).
     */
    static Map<String, Object> of(DatasetContract contract, int version, ContractState state, Map<String, Object> raw) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("apiVersion", API_VERSION);
        doc.put("kind", "DataContract");
        Map<String, Object> identity = map(raw.get("odcs"));
        doc.put("id", identity.isEmpty() ? contract.dataset() : identity.get("id"));
        if (identity.isEmpty() || identity.containsKey("name")) {
            doc.put("name", identity.isEmpty() ? contract.dataset() : identity.get("name"));
        }
        doc.put("version", version + ".0.0");
        doc.put("status", state == ContractState.ACTIVE ? "active" : "retired");
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("name", contract.dataset());
        if (raw.containsKey("description")) {
            object.put("description", raw.get("description"));
        }
        Map<String, Object> rawFields = map(raw.get("fields"));
        List<Object> properties = new ArrayList<>();
        for (FieldSpec field : contract.fields()) {
            properties.add(property(field, field.name().equals(contract.key()), map(rawFields.get(field.name()))));
        }
        for (String name : contract.prohibited()) {
            Map<String, Object> restricted = new LinkedHashMap<>();
            restricted.put("name", name);
            restricted.put("classification", "restricted");
            properties.add(restricted);
        }
        object.put("properties", properties);
        Map<String, Object> rowCount = rowCount(contract.volume(), map(raw.get("volume")));
        if (rowCount != null) {
            object.put("quality", List.of(rowCount));
        }
        doc.put("schema", List.of(object));
        List<Object> sla = new ArrayList<>();
        if (contract.unit().cadence() != Cadence.LIST) {
            sla.add(slaProperty("frequency", 1, contract.unit().cadence() == Cadence.DAILY ? "d" : "h"));
        }
        sla.add(slaProperty("latency", contract.unit().graceHours(), "h"));
        doc.put("slaProperties", sla);
        List<Object> custom = new ArrayList<>();
        for (LandingProperty setting : LandingProperty.values()) {
            Object value = setting.valueIn(contract);
            if (value != null) {
                custom.add(customProperty(setting.odcsName(), value));
            }
        }
        doc.put("customProperties", custom);
        return doc;
    }

    private static Map<String, Object> property(FieldSpec field, boolean key, Map<String, Object> raw) {
        Map<String, Object> property = new LinkedHashMap<>();
        property.put("name", field.name());
        if (raw.containsKey("description")) {
            property.put("description", raw.get("description"));
        }
        property.put("logicalType", field.type().wireName());
        if (field.decimal()) {
            property.put("physicalType", "decimal(" + field.precision() + "," + field.scale() + ")");
        }
        Map<String, Object> options = new LinkedHashMap<>();
        if (field.minLength() > 0) {
            options.put("minLength", field.minLength());
        }
        if (field.maxLength() >= 0) {
            options.put("maxLength", field.maxLength());
        }
        if (field.min() != null) {
            options.put("minimum", field.min());
        }
        if (field.max() != null) {
            options.put("maximum", field.max());
        }
        if (!options.isEmpty()) {
            property.put("logicalTypeOptions", options);
        }
        if (field.required()) {
            property.put("required", true);
        }
        if (key) {
            property.put("primaryKey", true);
            property.put("primaryKeyPosition", 1);
        }
        if (!field.enumValues().isEmpty()) {
            Map<String, Object> rule = new LinkedHashMap<>();
            rule.put("metric", "invalidValues");
            rule.put("arguments", Map.of("validValues", field.enumValues()));
            rule.put("mustBe", 0);
            property.put("quality", List.of(rule));
        }
        // ODCS's required is "never null": the product's other two combinations say so explicitly
        if (field.nullable() == field.required()) {
            property.put("customProperties", List.of(customProperty("landing.nullable", field.nullable())));
        }
        return property;
    }

    private static Map<String, Object> rowCount(VolumeSpec volume, Map<String, Object> raw) {
        if (volume.minRows() == null && volume.maxRows() == null) {
            return null;
        }
        Map<String, Object> rule = new LinkedHashMap<>();
        rule.put("metric", "rowCount");
        if (volume.minRows() != null && volume.maxRows() != null) {
            rule.put("mustBeBetween", List.of(volume.minRows(), volume.maxRows()));
        } else if (volume.minRows() != null) {
            rule.put("mustBeGreaterOrEqualTo", volume.minRows());
        } else {
            rule.put("mustBeLessOrEqualTo", volume.maxRows());
        }
        if (raw.containsKey("description")) {
            rule.put("description", raw.get("description"));
        }
        return rule;
    }

    private static Map<String, Object> slaProperty(String property, Object value, String unit) {
        Map<String, Object> sla = new LinkedHashMap<>();
        sla.put("property", property);
        sla.put("value", value);
        sla.put("unit", unit);
        return sla;
    }

    private static Map<String, Object> customProperty(String property, Object value) {
        Map<String, Object> custom = new LinkedHashMap<>();
        custom.put("property", property);
        custom.put("value", value);
        return custom;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private static Map<String, Object> raw(String contractJson) {
        try {
            return JSON.std.mapFrom(contractJson);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
