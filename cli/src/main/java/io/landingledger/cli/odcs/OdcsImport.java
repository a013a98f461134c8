package io.landingledger.cli.odcs;

import com.fasterxml.jackson.jr.ob.JSON;
import io.landingledger.core.contract.InvalidContractException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Maps an ODCS v3 document to this product's dataset contract (docs/contracts.md, "Open Data Contract Standard", has
 * the table). The document is first checked against the standard's JSON Schema ({@link OdcsSchema}); then every element
 * is either mapped or refused with its path: an element this product cannot enforce or keep (a second schema object, a
 * composite primary key, an unsupported logical type, a quality rule or SLA property it does not read, a custom
 * property without the {@code landing.} prefix) is an {@link InvalidContractException}, never dropped, so what an
 * export gives back is what was imported. The contract's own checks (ranges, names, the key's type) stay the
 * contract loader's, run when the result is registered.
 */
public final class OdcsImport {
    private static final Pattern VERSION = Pattern.compile("([1-9][0-9]{0,8})\\.0\\.0");
    private static final Pattern DECIMAL =
            Pattern.compile("(?i)(?:decimal|numeric)\\(\\s*(\\d{1,3})\\s*,\\s*(\\d{1,3})\\s*\\)");
    private static final Map<String, String> LOGICAL_TYPES = Map.of("string", "string", "integer", "integer",
            "number", "number", "boolean", "boolean", "date", "date", "timestamp", "timestamp");
    private static final JSON WRITER = JSON.std.with(JSON.Feature.PRETTY_PRINT_OUTPUT);

    private OdcsImport() {
    }

    /** Reads, checks and maps the document {@code bytes} (YAML or JSON). */
    public static ImportedContract read(String source, byte[] bytes) {
        var tree = OdcsYaml.read(source, bytes);
        OdcsSchema.check(source, tree);
        return new Mapper(source).contract(OdcsYaml.plain(tree));
    }

    /** One document's mapping: the contract being built and where each of its settings came from. */
    private static final class Mapper {
        private final String source;
        private final Map<String, String> origins = new HashMap<>();

        Mapper(String source) {
            this.source = source;
        }

        private InvalidContractException refuse(String path, String problem) {
            return new InvalidContractException(source, path, problem);
        }

        ImportedContract contract(Map<String, Object> doc) {
            allowOnly(doc, "$", "not mapped to a Landing Ledger contract", "apiVersion", "kind", "id", "name",
                    "version", "status", "schema", "slaProperties", "customProperties");
            String apiVersion = (String) doc.get("apiVersion");
            if (!apiVersion.startsWith("v3.")) {
                throw refuse("$.apiVersion", apiVersion + " is not read: give an ODCS v3 document (v3.0.0 to v3.1.0)");
            }
            if (!"active".equals(doc.get("status"))) {
                throw refuse("$.status", "\"" + doc.get("status") + "\": a registered contract is enforced at once, so"
                        + " its status is active (a retirement is landing dataset retire)");
            }
            Matcher version = VERSION.matcher((String) doc.get("version"));
            if (!version.matches()) {
                throw refuse("$.version", "\"" + doc.get("version") + "\": Landing Ledger numbers a dataset's contract"
                        + " versions 1, 2, ...; write N.0.0 where N is the dataset's next version");
            }
            Map<String, Object> contract = new LinkedHashMap<>();
            List<?> schema = list(doc.get("schema"), "$.schema");
            if (schema.isEmpty()) {
                throw refuse("$.schema", "declares no schema object: one object, the dataset, is needed");
            }
            if (schema.size() > 1) {
                throw refuse("$.schema[1]", "a second schema object: a Landing Ledger contract is one dataset; register"
                        + " each object as its own dataset, from its own document");
            }
            String objectPath = "$.schema[0]";
            @SuppressWarnings("unchecked")
            Map<String, Object> object = (Map<String, Object>) schema.get(0);
            allowOnly(object, objectPath, "not mapped", "name", "logicalType", "description", "properties", "quality");
            contract.put("dataset", object.get("name"));
            origin("$.dataset", objectPath + ".name");
            contract.put("version", Integer.parseInt(version.group(1)));
            origin("$.version", "$.version");
            if (object.containsKey("description")) {
                contract.put("description", object.get("description"));
                origin("$.description", objectPath + ".description");
            }
            Map<String, Object> settings = customProperties(doc.get("customProperties"), "$.customProperties", null);
            Map<String, Object> unit = unit(doc, settings);
            put(contract, settings, LandingProperty.FORMAT);
            contract.put("unit", unit);
            MappedProperties fields = properties(object.get("properties"), objectPath + ".properties");
            contract.put("key", fields.key);
            contract.put("fields", fields.fields);
            if (!fields.prohibited.isEmpty()) {
                contract.put("prohibited", fields.prohibited);
            }
            put(contract, settings, LandingProperty.UNKNOWN_FIELDS);
            put(contract, settings, LandingProperty.MAX_REJECTED_LINES);
            put(contract, settings, LandingProperty.ALLOW_EMPTY);
            put(contract, settings, LandingProperty.ACCEPT_EMPTY_UNITS);
            Map<String, Object> volume = rowCount(object.get("quality"), objectPath + ".quality");
            if (settings.containsKey(LandingProperty.VOLUME_MAX_CHANGE_PERCENT.odcsName())) {
                volume.put("maxChangePercent", settings.get(LandingProperty.VOLUME_MAX_CHANGE_PERCENT.odcsName()));
            }
            if (!volume.isEmpty()) {
                contract.put("volume", volume);
            }
            Map<String, Object> identity = new LinkedHashMap<>();
            identity.put("id", doc.get("id"));
            origin("$.odcs.id", "$.id");
            if (doc.containsKey("name")) {
                identity.put("name", doc.get("name"));
                origin("$.odcs.name", "$.name");
            }
            contract.put("odcs", identity);
            try {
                byte[] json = WRITER.asString(contract).getBytes(StandardCharsets.UTF_8);
                return new ImportedContract(source, json, origins);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        // ---- the unit: cadence from frequency, deadline from latency or time of availability ----

        private Map<String, Object> unit(Map<String, Object> doc, Map<String, Object> settings) {
            Map<String, Object> unit = new LinkedHashMap<>();
            Sla sla = slaProperties(doc.get("slaProperties"), "$.slaProperties");
            String units = LandingProperty.UNIT_UNITS.odcsName();
            put(unit, settings, LandingProperty.UNIT_PATTERN);
            if (!settings.containsKey(LandingProperty.UNIT_PATTERN.odcsName())) {
                throw refuse("$.customProperties", "needs " + LandingProperty.UNIT_PATTERN.odcsName()
                        + ": the file name pattern, with a named group (?<unit>...) that captures the unit");
            }
            if (sla.cadence != null && settings.containsKey(units)) {
                throw refuse(origins.get("$.unit.units"), "a dataset with a list of units has no frequency: drop"
                        + " the frequency SLA property or " + units);
            }
            if (sla.cadence == null && !settings.containsKey(units)) {
                throw refuse("$.slaProperties", "needs the dataset's cadence: a frequency SLA property (value 1, unit d"
                        + " for daily files or h for hourly ones), or " + units + " for a fixed list of units");
            }
            unit.put("cadence", sla.cadence == null ? "list" : sla.cadence);
            if (sla.cadence != null) {
                origin("$.unit.cadence", sla.cadencePath);
            }
            put(unit, settings, LandingProperty.UNIT_FIRST);
            put(unit, settings, LandingProperty.UNIT_UNITS);
            Integer grace = sla.latencyHours;
            if (sla.availabilityHour != null) {
                if (!"daily".equals(sla.cadence)) {
                    throw refuse(sla.availabilityPath, "a time of availability is read for daily datasets only (the"
                            + " hour after the day's end by which its file lands); give a latency instead");
                }
                if (grace != null && !grace.equals(sla.availabilityHour)) {
                    throw refuse(sla.availabilityPath, "is " + sla.availabilityHour
                            + " h after the day's end (UTC), but the latency says " + grace
                            + " h: one deadline, stated once or twice the same");
                }
                grace = sla.availabilityHour;
                origin("$.unit.graceHours", sla.availabilityPath);
            }
            if (grace != null) {
                unit.put("graceHours", grace);
            }
            put(unit, settings, LandingProperty.UNIT_LOOKBACK_DAYS);
            put(unit, settings, LandingProperty.UNIT_DEPENDS_ON_PREVIOUS);
            put(unit, settings, LandingProperty.UNIT_AUTO_REDRIVE);
            return unit;
        }

        /** What the SLA properties say: cadence (frequency), deadline (latency, time of availability). */
        private static final class Sla {
            String cadence;
            String cadencePath;
            Integer latencyHours;
            Integer availabilityHour;
            String availabilityPath;
        }

        private Sla slaProperties(Object value, String path) {
            Sla sla = new Sla();
            if (value == null) {
                return sla;
            }
            List<?> list = list(value, path);
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < list.size(); i++) {
                String at = path + "[" + i + "]";
                @SuppressWarnings("unchecked")
                Map<String, Object> property = (Map<String, Object>) list.get(i);
                allowOnly(property, at, "not kept", "property", "value", "unit");
                String name = canonicalSla((String) property.get("property"));
                if (!seen.add(name)) {
                    throw refuse(at + ".property", name + " is given twice");
                }
                switch (name) {
                    case "frequency" -> {
                        long every = whole(property.get("value"), at + ".value");
                        long hours = hours(property, at);
                        if (every != 1 || hours != 1 && hours != 24) {
                            throw refuse(at, "a frequency of " + every + " " + property.get("unit") + ": Landing"
                                    + " Ledger's units are one day (value 1, unit d) or one hour (value 1, unit h)");
                        }
                        sla.cadence = hours == 24 ? "daily" : "hourly";
                        sla.cadencePath = at;
                    }
                    case "latency" -> {
                        long latency = whole(property.get("value"), at + ".value") * hours(property, at);
                        sla.latencyHours = (int) Math.min(latency, Integer.MAX_VALUE);
                        origin("$.unit.graceHours", at + ".value");
                    }
                    case "timeOfAvailability" -> {
                        sla.availabilityHour = availabilityHour(property.get("value"), at + ".value");
                        sla.availabilityPath = at + ".value";
                    }
                    default -> throw refuse(at + ".property", "\"" + property.get("property") + "\" is not enforced:"
                            + " Landing Ledger reads frequency (the unit), latency and timeOfAvailability (the unit's"
                            + " deadline)");
                }
            }
            return sla;
        }

        private static String canonicalSla(String name) {
            return switch (name.toLowerCase(Locale.ROOT)) {
                case "frequency", "fy" -> "frequency";
                case "latency", "ly" -> "latency";
                case "timeofavailability" -> "timeOfAvailability";
                default -> name;
            };
        }

        /** Hours in one {@code unit} of an SLA property: h (hour, hours) or d (day, days). */
        private long hours(Map<String, Object> property, String path) {
            Object unit = property.get("unit");
            if (!(unit instanceof String u)) {
                throw refuse(path + ".unit", "is needed: h (hours) or d (days)");
            }
            return switch (u.toLowerCase(Locale.ROOT)) {
                case "h", "hour", "hours" -> 1;
                case "d", "day", "days" -> 24;
                default -> throw refuse(path + ".unit", "\"" + u + "\": give h (hours) or d (days)");
            };
        }

        /** A time of availability {@code HH:MM[:SS][offset]} (UTC without one) as whole hours after midnight UTC. */
        private int availabilityHour(Object value, String path) {
            String text = String.valueOf(value);
            LocalTime utc;
            try {
                utc = text.matches(".*(Z|[+-]\\d{2}:\\d{2})$")
                        ? OffsetTime.parse(text).withOffsetSameInstant(ZoneOffset.UTC).toLocalTime()
                        : LocalTime.parse(text);
            } catch (DateTimeParseException e) {
                throw refuse(path, "\"" + text + "\" is not a time of day such as 06:00Z or 09:00-08:00");
            }
            if (utc.getMinute() != 0 || utc.getSecond() != 0 || utc.getNano() != 0) {
                throw refuse(path, "\"" + text + "\" is " + utc + " UTC: the deadline is a whole number of hours after"
                        + " the day's end, so give a whole UTC hour");
            }
            return utc.getHour();
        }

        // ---- schema properties: fields, the key, prohibited names ----

        /** The schema object's properties, mapped: the fields, the key, the prohibited names. */
        private static final class MappedProperties {
            final Map<String, Object> fields = new LinkedHashMap<>();
            final List<String> prohibited = new ArrayList<>();
            String key;
        }

        private MappedProperties properties(Object value, String path) {
            if (value == null) {
                throw refuse(path.substring(0, path.lastIndexOf('.')), "declares no properties: a dataset has fields");
            }
            List<?> list = list(value, path);
            MappedProperties schema = new MappedProperties();
            String keyPath = null;
            for (int i = 0; i < list.size(); i++) {
                String at = path + "[" + i + "]";
                @SuppressWarnings("unchecked")
                Map<String, Object> property = (Map<String, Object>) list.get(i);
                String name = (String) property.get("name");
                if (property.containsKey("classification")) {
                    Object classification = property.get("classification");
                    if (!"restricted".equals(classification)) {
                        throw refuse(at + ".classification", "\"" + classification + "\" is not kept: Landing Ledger"
                                + " reads classification: restricted (a field no file may carry) only");
                    }
                    allowOnly(property, at, "means nothing on a restricted property: a file that carries it is"
                            + " refused whatever its value", "name", "classification");
                    origin("$.prohibited[" + schema.prohibited.size() + "]", at + ".name");
                    schema.prohibited.add(name);
                    continue;
                }
                if (schema.fields.containsKey(name)) {
                    throw refuse(at + ".name", "\"" + name + "\" is declared twice");
                }
                schema.fields.put(name, field(property, at));
                if (Boolean.TRUE.equals(property.get("primaryKey"))) {
                    if (schema.key != null) {
                        throw refuse(at + ".primaryKey", "a primary key of more than one property (" + schema.key + ", "
                                + name + "): the duplicate-key rule takes one field");
                    }
                    schema.key = name;
                    keyPath = at;
                }
            }
            if (schema.key == null) {
                throw refuse(path, "no property has primaryKey: true: the dataset's key (one field, the duplicate-key"
                        + " rule) is needed");
            }
            origin("$.key", keyPath + ".primaryKey");
            return schema;
        }

        private Map<String, Object> field(Map<String, Object> property, String at) {
            Object logical = property.get("logicalType");
            if (logical == null) {
                throw refuse(at + ".logicalType", "is needed: one of "
                        + String.join(", ", new TreeSet<>(LOGICAL_TYPES.keySet())));
            }
            String type = LOGICAL_TYPES.get((String) logical);
            if (type == null) {
                throw refuse(at + ".logicalType", "\"" + logical + "\" is not supported: a field is one of "
                        + String.join(", ", new TreeSet<>(LOGICAL_TYPES.keySet())));
            }
            // the type first: an object or array property is refused as such, not for the nested keys it carries
            allowOnly(property, at, "not mapped to a field setting", "name", "description", "logicalType",
                    "physicalType", "logicalTypeOptions", "required", "primaryKey", "primaryKeyPosition", "unique",
                    "quality", "customProperties");
            String name = (String) property.get("name");
            String fieldPath = "$.fields." + name;
            origin(fieldPath, at);
            Map<String, Object> field = new LinkedHashMap<>();
            if (property.containsKey("description")) {
                field.put("description", property.get("description"));
            }
            field.put("type", type);
            origin(fieldPath + ".type", at + ".logicalType");
            boolean required = Boolean.TRUE.equals(property.get("required"));
            if (required) {
                field.put("required", true);
                origin(fieldPath + ".required", at + ".required");
            }
            Map<String, Object> custom = customProperties(property.get("customProperties"), at + ".customProperties",
                    fieldPath);
            // ODCS's required means "never null"; a field that may be absent but not null (or present and null)
            // is the product's own combination and rides in landing.nullable
            Object nullable = custom.getOrDefault("landing.nullable", !required);
            if (Boolean.TRUE.equals(nullable)) {
                field.put("nullable", true);
            } else if (!Boolean.FALSE.equals(nullable)) {
                field.put("nullable", nullable);
            }
            if (!custom.containsKey("landing.nullable")) {
                origin(fieldPath + ".nullable", at + ".required");
            }
            if (Boolean.TRUE.equals(property.get("primaryKey"))) {
                Object position = property.get("primaryKeyPosition");
                if (position != null && !BigInteger.ONE.equals(position) && !BigInteger.ONE.negate().equals(position)) {
                    throw refuse(at + ".primaryKeyPosition", "is " + position + ": the key is one field (position 1)");
                }
            } else if (property.containsKey("primaryKeyPosition")) {
                throw refuse(at + ".primaryKeyPosition", "is given on a property that is not the primary key");
            }
            if (Boolean.TRUE.equals(property.get("unique")) && !Boolean.TRUE.equals(property.get("primaryKey"))) {
                throw refuse(at + ".unique", "is not enforced on a field other than the key (the key is unique: the"
                        + " duplicate-key rule)");
            }
            physicalType(property, at, type, field, fieldPath);
            options(property, at, type, field, fieldPath);
            enumeration(property.get("quality"), at + ".quality", field, fieldPath);
            return field;
        }

        private void physicalType(Map<String, Object> property, String at, String type, Map<String, Object> field,
                                  String fieldPath) {
            Object physical = property.get("physicalType");
            if (physical == null) {
                return;
            }
            Matcher decimal = DECIMAL.matcher((String) physical);
            if (!"number".equals(type) || !decimal.matches()) {
                throw refuse(at + ".physicalType", "\"" + physical + "\" is not kept: Landing Ledger reads a"
                        + " physicalType decimal(precision,scale) on a number (an exact decimal) only");
            }
            field.put("precision", Integer.parseInt(decimal.group(1)));
            field.put("scale", Integer.parseInt(decimal.group(2)));
            origin(fieldPath + ".precision", at + ".physicalType");
            origin(fieldPath + ".scale", at + ".physicalType");
        }

        private void options(Map<String, Object> property, String at, String type, Map<String, Object> field,
                             String fieldPath) {
            Object value = property.get("logicalTypeOptions");
            if (value == null) {
                return;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> options = (Map<String, Object>) value;
            String path = at + ".logicalTypeOptions";
            switch (type) {
                case "string" -> {
                    allowOnly(options, path, "not enforced on a string", "minLength", "maxLength");
                    copy(options, path, "minLength", field, fieldPath, "minLength");
                    copy(options, path, "maxLength", field, fieldPath, "maxLength");
                }
                case "integer", "number" -> {
                    allowOnly(options, path, "not enforced on a " + type + " (minimum and maximum are)", "minimum",
                            "maximum");
                    copy(options, path, "minimum", field, fieldPath, "min");
                    copy(options, path, "maximum", field, fieldPath, "max");
                }
                case "timestamp" -> {
                    allowOnly(options, path, "not enforced on a timestamp", "timezone");
                    if (!Boolean.TRUE.equals(options.get("timezone"))) {
                        throw refuse(path + ".timezone", "a timestamp here always carries its offset (RFC 3339), so"
                                + " timezone is true");
                    }
                }
                default -> allowOnly(options, path, "not enforced on a " + type);
            }
        }

        private void copy(Map<String, Object> options, String path, String option, Map<String, Object> field,
                          String fieldPath, String setting) {
            if (options.containsKey(option)) {
                field.put(setting, options.get(option));
                origin(fieldPath + "." + setting, path + "." + option);
            }
        }

        /** An enum is the standard's invalidValues rule with validValues that must count 0. */
        private void enumeration(Object value, String path, Map<String, Object> field, String fieldPath) {
            if (value == null) {
                return;
            }
            List<?> rules = list(value, path);
            for (int i = 0; i < rules.size(); i++) {
                String at = path + "[" + i + "]";
                @SuppressWarnings("unchecked")
                Map<String, Object> rule = (Map<String, Object>) rules.get(i);
                if (!"invalidValues".equals(rule.get("metric")) || field.containsKey("enum")) {
                    throw refuse(at, "not enforced: a property's quality rule here is one invalidValues rule with"
                            + " arguments.validValues and mustBe: 0 (the field's allowed values)");
                }
                allowOnly(rule, at, "not kept on the allowed-values rule", "type", "metric", "arguments", "mustBe");
                library(rule, at);
                if (!isZero(rule.get("mustBe"))) {
                    throw refuse(at + ".mustBe", "a value outside validValues rejects its line, so the rule is"
                            + " mustBe: 0");
                }
                Object arguments = rule.get("arguments");
                if (!(arguments instanceof Map<?, ?> args) || !args.containsKey("validValues")) {
                    throw refuse(at + ".arguments", "needs validValues (a pattern is not enforced)");
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> argumentMap = (Map<String, Object>) args;
                allowOnly(argumentMap, at + ".arguments", "not enforced", "validValues");
                field.put("enum", args.get("validValues"));
                origin(fieldPath + ".enum", at + ".arguments.validValues");
            }
        }

        private static boolean isZero(Object value) {
            return value instanceof BigInteger i && i.signum() == 0 || value instanceof BigDecimal d && d.signum() == 0;
        }

        // ---- the object's quality: row counts to the volume expectations ----

        private Map<String, Object> rowCount(Object value, String path) {
            Map<String, Object> volume = new LinkedHashMap<>();
            if (value == null) {
                return volume;
            }
            List<?> rules = list(value, path);
            for (int i = 0; i < rules.size(); i++) {
                String at = path + "[" + i + "]";
                @SuppressWarnings("unchecked")
                Map<String, Object> rule = (Map<String, Object>) rules.get(i);
                if (!"rowCount".equals(rule.get("metric"))) {
                    throw refuse(at, "not enforced: an object's quality rule here is a rowCount rule (the unit's"
                            + " expected rows)");
                }
                allowOnly(rule, at, "not kept on a rowCount rule", "type", "metric", "unit", "description",
                        "mustBe", "mustBeGreaterThan", "mustBeGreaterOrEqualTo", "mustBeLessThan",
                        "mustBeLessOrEqualTo", "mustBeBetween");
                library(rule, at);
                if (rule.containsKey("unit") && !"rows".equals(rule.get("unit"))) {
                    throw refuse(at + ".unit", "\"" + rule.get("unit") + "\": a row count is in rows");
                }
                if (rule.containsKey("description")) {
                    if (volume.containsKey("description")) {
                        throw refuse(at + ".description", "a second rowCount description: the volume has one");
                    }
                    volume.put("description", rule.get("description"));
                    origin("$.volume.description", at + ".description");
                }
                for (String operator : List.of("mustBe", "mustBeGreaterThan", "mustBeGreaterOrEqualTo",
                        "mustBeLessThan", "mustBeLessOrEqualTo", "mustBeBetween")) {
                    if (rule.containsKey(operator)) {
                        bound(volume, operator, rule.get(operator), at + "." + operator);
                    }
                }
            }
            return volume;
        }

        private void library(Map<String, Object> rule, String at) {
            if (rule.containsKey("type") && !"library".equals(rule.get("type"))) {
                throw refuse(at + ".type", "\"" + rule.get("type") + "\" rules are not enforced: a library metric is");
            }
        }

        private void bound(Map<String, Object> volume, String operator, Object value, String at) {
            switch (operator) {
                case "mustBe" -> {
                    long rows = whole(value, at);
                    setBound(volume, "minRows", rows, at);
                    setBound(volume, "maxRows", rows, at);
                }
                case "mustBeGreaterThan" -> setBound(volume, "minRows", whole(value, at) + 1, at);
                case "mustBeGreaterOrEqualTo" -> setBound(volume, "minRows", whole(value, at), at);
                case "mustBeLessThan" -> setBound(volume, "maxRows", whole(value, at) - 1, at);
                case "mustBeLessOrEqualTo" -> setBound(volume, "maxRows", whole(value, at), at);
                default -> {
                    List<?> between = (List<?>) value;
                    setBound(volume, "minRows", whole(between.get(0), at + "[0]"), at + "[0]");
                    setBound(volume, "maxRows", whole(between.get(1), at + "[1]"), at + "[1]");
                }
            }
        }

        private void setBound(Map<String, Object> volume, String bound, long rows, String at) {
            if (volume.containsKey(bound)) {
                throw refuse(at, "a second " + ("minRows".equals(bound) ? "lower" : "upper") + " row-count bound: the"
                        + " unit's expected rows have one of each");
            }
            volume.put(bound, rows);
            origin("$.volume." + bound, at);
        }

        // ---- custom properties ----

        /**
         * The {@code landing.} custom properties of one element, by name; any other name is refused. The document's
         * own ({@code fieldPath} null) are the {@link LandingProperty} settings; a property's is landing.nullable.
         */
        private Map<String, Object> customProperties(Object value, String path, String fieldPath) {
            Map<String, Object> settings = new LinkedHashMap<>();
            if (value == null) {
                return settings;
            }
            List<?> list = list(value, path);
            for (int i = 0; i < list.size(); i++) {
                String at = path + "[" + i + "]";
                @SuppressWarnings("unchecked")
                Map<String, Object> custom = (Map<String, Object>) list.get(i);
                allowOnly(custom, at, "not kept", "property", "value");
                String name = (String) custom.get("property");
                boolean known = fieldPath != null ? "landing.nullable".equals(name)
                        : LandingProperty.named(name).isPresent();
                if (!known) {
                    throw refuse(at + ".property", "\"" + name + "\" is not a Landing Ledger setting here (allowed: "
                            + (fieldPath != null ? "landing.nullable" : LandingProperty.names()) + ")");
                }
                if (settings.containsKey(name)) {
                    throw refuse(at + ".property", "\"" + name + "\" is given twice");
                }
                settings.put(name, custom.get("value"));
                String setting = fieldPath != null ? fieldPath + ".nullable"
                        : LandingProperty.named(name).get().contractPath();
                origin(setting, at + ".value");
            }
            return settings;
        }

        private void put(Map<String, Object> target, Map<String, Object> settings, LandingProperty property) {
            if (settings.containsKey(property.odcsName())) {
                String path = property.contractPath();
                target.put(path.substring(path.lastIndexOf('.') + 1), settings.get(property.odcsName()));
            }
        }

        // ---- small helpers, each failing with the path ----

        private void origin(String contractPath, String documentPath) {
            origins.put(contractPath, documentPath);
        }

        private void allowOnly(Map<String, Object> object, String path, String why, String... allowed) {
            Set<String> names = Set.of(allowed);
            for (String key : object.keySet()) {
                if (!names.contains(key)) {
                    throw refuse(path + "." + key, why + (allowed.length == 0 ? " (nothing is read here)"
                            : " (read here: " + String.join(", ", allowed) + ")"));
                }
            }
        }

        private List<?> list(Object value, String path) {
            if (value instanceof List<?> list) {
                return list;
            }
            throw refuse(path, "must be a list");
        }

        private long whole(Object value, String path) {
            BigDecimal number = value instanceof BigInteger i ? new BigDecimal(i)
                    : value instanceof BigDecimal d ? d : null;
            if (number == null || number.signum() < 0 || number.stripTrailingZeros().scale() > 0
                    || number.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 2)) > 0) {
                throw refuse(path, "must be a whole number of at least 0, not " + value);
            }
            return number.longValueExact();
        }
    }
}
