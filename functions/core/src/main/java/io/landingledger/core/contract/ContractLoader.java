package io.landingledger.core.contract;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.jr.ob.JSON;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads and checks dataset contracts. Every problem is an {@link InvalidContractException} naming the file, the
 * JSON path and what is wrong; unknown keys are errors too, so a misspelt {@code "requried"} cannot silently
 * loosen a contract.
 */
public final class ContractLoader {

    static final Pattern DATASET_NAME = Pattern.compile("[a-z][a-z0-9_-]{0,62}");
    private static final int DEFAULT_GRACE_HOURS = 6;
    private static final int DEFAULT_LOOKBACK_DAYS = 35;

    private static final JSON JSON_READER = JSON.std.with(
            JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());

    private ContractLoader() {
    }

    /** Loads one contract file; its {@code dataset} must equal the file's base name. */
    public static DatasetContract load(Path file) {
        String source = file.toString();
        try (InputStream in = Files.newInputStream(file)) {
            DatasetContract contract = load(source, in);
            String base = file.getFileName().toString().replaceFirst("\\.json$", "");
            if (!base.equals(contract.dataset())) {
                throw new InvalidContractException(source, "$.dataset",
                        "\"" + contract.dataset() + "\" does not match the file name; name the file " + contract.dataset() + ".json");
            }
            return contract;
        } catch (IOException e) {
            throw new InvalidContractException(source, "$", "cannot read the file: " + e.getMessage());
        }
    }

    /** Loads every {@code *.json} contract in a directory, keyed by dataset name. */
    public static Map<String, DatasetContract> loadDirectory(Path directory) {
        Map<String, DatasetContract> contracts = new TreeMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*.json")) {
            List<Path> sorted = new ArrayList<>();
            files.forEach(sorted::add);
            sorted.sort(Comparator.naturalOrder());
            for (Path file : sorted) {
                DatasetContract contract = load(file);
                contracts.put(contract.dataset(), contract);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list contracts in " + directory, e);
        }
        return contracts;
    }

    /** Loads a contract from a stream; {@code source} names it in messages. */
    public static DatasetContract load(String source, InputStream in) {
        Object root;
        try {
            root = JSON_READER.anyFrom(in);
        } catch (JsonProcessingException e) {
            var location = e.getLocation();
            String where = location == null ? "" : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
            // the parser knows where it was: a duplicate "type" is reported at $.fields.x.type rather than at $
            String path = e.getProcessor() instanceof JsonParser parser ? jsonPath(parser.getParsingContext()) : "$";
            throw new InvalidContractException(source, path, "not valid JSON" + where + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new InvalidContractException(source, "$", "cannot read: " + e.getMessage());
        }
        return new Reader(source).contract(root);
    }

    /** A parser position as a JSON path like {@code $.fields.x.type} or {@code $.prohibited[2]}. */
    private static String jsonPath(JsonStreamContext context) {
        StringBuilder path = new StringBuilder();
        for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inArray()) {
                path.insert(0, "[" + Math.max(0, c.getCurrentIndex()) + "]");
            } else if (c.getCurrentName() != null) {
                path.insert(0, "." + c.getCurrentName());
            }
        }
        return "$" + path;
    }

    /** Walks the parsed JSON with its path, so each message can say where the problem is. */
    private static final class Reader {
        private final String source;

        Reader(String source) {
            this.source = source;
        }

        private InvalidContractException error(String path, String problem) {
            return new InvalidContractException(source, path, problem);
        }

        DatasetContract contract(Object root) {
            Map<String, Object> top = object(root, "$");
            allowOnly(top, "$", "dataset", "version", "format", "unit", "key", "fields", "prohibited",
                    "unknownFields", "maxRejectedLines", "allowEmpty", "acceptEmptyUnits", "volume", "description", "odcs");
            String dataset = string(top, "$", "dataset", true);
            if (!DATASET_NAME.matcher(dataset).matches()) {
                throw error("$.dataset", "\"" + dataset + "\" is not a dataset name (lower case letters, digits, _ and -; it is the inbox prefix)");
            }
            int version = (int) integer(top, "$", "version", true, 1, 1, Integer.MAX_VALUE);
            DataFormat format = enumValue(top, "$", "format", DataFormat.class, DataFormat.JSONL);
            UnitSpec unit = unit(require(top, "$", "unit"), "$.unit");
            List<FieldSpec> fields = fields(require(top, "$", "fields"), "$.fields");
            String key = string(top, "$", "key", true);
            FieldSpec keyField = fields.stream().filter(f -> f.name().equals(key)).findFirst()
                    .orElseThrow(() -> error("$.key", "\"" + key + "\" is not among the fields ("
                            + String.join(", ", fields.stream().map(FieldSpec::name).toList()) + ")"));
            if (!keyField.required() || keyField.nullable()) {
                throw error("$.fields." + key, "the key field must be \"required\": true and not nullable");
            }
            if (keyField.type() != FieldType.STRING && keyField.type() != FieldType.INTEGER) {
                throw error("$.fields." + key + ".type", "the key field must be a string or an integer, not " + keyField.type().wireName());
            }
            List<String> prohibited = prohibited(top.get("prohibited"), "$.prohibited", fields);
            UnknownFieldPolicy unknown = policy(top);
            long cap = integer(top, "$", "maxRejectedLines", false, 0, 0, Long.MAX_VALUE);
            boolean allowEmpty = bool(top, "$", "allowEmpty", true);
            boolean acceptEmptyUnits = bool(top, "$", "acceptEmptyUnits", false);
            if (acceptEmptyUnits && !allowEmpty) {
                throw error("$.acceptEmptyUnits", "an empty unit cannot be accepted when \"allowEmpty\" is false (such a file is refused, never published)");
            }
            VolumeSpec volume = volume(top.get("volume"), "$.volume");
            odcsIdentity(top.get("odcs"), "$.odcs");
            return DatasetContract.builder()
                    .dataset(dataset)
                    .version(version)
                    .format(format)
                    .unit(unit)
                    .key(key)
                    .fields(fields)
                    .prohibited(prohibited)
                    .unknownFields(unknown)
                    .maxRejectedLines(cap)
                    .allowEmpty(allowEmpty)
                    .source(source)
                    .acceptEmptyUnits(acceptEmptyUnits)
                    .volume(volume)
                    .build();
        }

        private VolumeSpec volume(Object value, String path) {
            if (value == null) {
                return VolumeSpec.NONE;
            }
            Map<String, Object> volume = object(value, path);
            allowOnly(volume, path, "minRows", "maxRows", "maxChangePercent", "description");
            Long minRows = volume.containsKey("minRows") ? integer(volume, path, "minRows", true, 0, 0, Long.MAX_VALUE) : null;
            Long maxRows = volume.containsKey("maxRows") ? integer(volume, path, "maxRows", true, 0, 0, Long.MAX_VALUE) : null;
            if (minRows != null && maxRows != null && minRows > maxRows) {
                throw error(path, "minRows (" + minRows + ") is above maxRows (" + maxRows + ")");
            }
            Integer maxChange = volume.containsKey("maxChangePercent")
                    ? (int) integer(volume, path, "maxChangePercent", true, 0, 1, 1_000_000) : null;
            return new VolumeSpec(minRows, maxRows, maxChange);
        }

        /**
         * The identity of the ODCS document a contract was imported from ({@code landing dataset add --odcs}): kept
         * only so {@code landing dataset show --odcs} exports the same {@code id} and {@code name}; nothing else reads it.
         */
        private void odcsIdentity(Object value, String path) {
            if (value == null) {
                return;
            }
            Map<String, Object> identity = object(value, path);
            allowOnly(identity, path, "id", "name");
            string(identity, path, "id", true);
            string(identity, path, "name", false);
        }

        private UnknownFieldPolicy policy(Map<String, Object> top) {
            Object value = top.get("unknownFields");
            if (value == null) {
                return UnknownFieldPolicy.REJECT_LINE;
            }
            if ("reject-line".equals(value)) {
                return UnknownFieldPolicy.REJECT_LINE;
            }
            if ("refuse-file".equals(value)) {
                return UnknownFieldPolicy.REFUSE_FILE;
            }
            throw error("$.unknownFields", "must be \"reject-line\" or \"refuse-file\", not " + describe(value));
        }

        private UnitSpec unit(Object value, String path) {
            Map<String, Object> unit = object(value, path);
            allowOnly(unit, path, "pattern", "cadence", "first", "units", "graceHours", "lookbackDays",
                    "dependsOnPrevious", "autoRedrive");
            String regex = string(unit, path, "pattern", true);
            Pattern pattern;
            try {
                pattern = Pattern.compile(regex);
            } catch (PatternSyntaxException e) {
                throw error(path + ".pattern", "not a valid regular expression: " + e.getDescription() + " near index " + e.getIndex());
            }
            if (!regex.contains("(?<unit>")) {
                throw error(path + ".pattern", "needs a named group (?<unit>...) that captures the unit from the file name");
            }
            Cadence cadence = enumValue(unit, path, "cadence", Cadence.class, null);
            if (cadence == null) {
                throw error(path + ".cadence", "is required: one of daily, hourly, list");
            }
            String first = null;
            List<String> units = List.of();
            if (cadence == Cadence.LIST) {
                if (unit.containsKey("first")) {
                    throw error(path + ".first", "applies to daily and hourly cadences; a list cadence names its units in \"units\"");
                }
                units = stringList(require(unit, path, "units"), path + ".units");
                if (units.isEmpty()) {
                    throw error(path + ".units", "must name at least one unit");
                }
                if (new HashSet<>(units).size() != units.size()) {
                    throw error(path + ".units", "names a unit twice");
                }
            } else {
                if (unit.containsKey("units")) {
                    throw error(path + ".units", "applies to the list cadence only");
                }
                first = string(unit, path, "first", true);
                try {
                    if (cadence == Cadence.DAILY) {
                        LocalDate.parse(first);
                    } else {
                        LocalDateTime.parse(first + ":00");
                    }
                } catch (DateTimeParseException e) {
                    throw error(path + ".first", "\"" + first + "\" is not a " + (cadence == Cadence.DAILY ? "date YYYY-MM-DD" : "UTC hour YYYY-MM-DDTHH"));
                }
            }
            int grace = (int) integer(unit, path, "graceHours", false, DEFAULT_GRACE_HOURS, 0, 24 * 366);
            int lookback = (int) integer(unit, path, "lookbackDays", false, DEFAULT_LOOKBACK_DAYS, 1, 3660);
            boolean dependsOnPrevious = bool(unit, path, "dependsOnPrevious", false);
            boolean autoRedrive = bool(unit, path, "autoRedrive", true);
            return UnitSpec.builder()
                    .pattern(pattern)
                    .cadence(cadence)
                    .first(first)
                    .units(units)
                    .graceHours(grace)
                    .lookbackDays(lookback)
                    .dependsOnPrevious(dependsOnPrevious)
                    .autoRedrive(autoRedrive)
                    .build();
        }

        private List<FieldSpec> fields(Object value, String path) {
            Map<String, Object> fields = object(value, path);
            if (fields.isEmpty()) {
                throw error(path, "must declare at least one field");
            }
            List<FieldSpec> specs = new ArrayList<>();
            for (Map.Entry<String, Object> entry : fields.entrySet()) {
                String name = entry.getKey();
                String fieldPath = path + "." + name;
                if (!FieldSpec.isValidName(name)) {
                    throw error(fieldPath, "\"" + name + "\" is not a field name (letters, digits and _, not starting with a digit)");
                }
                specs.add(field(name, entry.getValue(), fieldPath));
            }
            specs.sort(Comparator.comparing(FieldSpec::name));
            return specs;
        }

        private FieldSpec field(String name, Object value, String path) {
            Map<String, Object> field = object(value, path);
            allowOnly(field, path, "type", "required", "nullable", "enum", "min", "max", "minLength", "maxLength",
                    "precision", "scale", "description");
            String typeName = string(field, path, "type", true);
            FieldType type = FieldType.fromWireName(typeName).orElseThrow(() -> error(path + ".type",
                    "unknown type \"" + typeName + "\" (expected one of " + FieldType.wireNames() + ")"));
            boolean required = bool(field, path, "required", false);
            boolean nullable = bool(field, path, "nullable", false);
            List<String> enumValues = List.of();
            if (field.containsKey("enum")) {
                if (type != FieldType.STRING) {
                    throw error(path + ".enum", "applies to string fields only, and this field is " + type.wireName());
                }
                enumValues = stringList(field.get("enum"), path + ".enum");
                if (enumValues.isEmpty()) {
                    throw error(path + ".enum", "must list at least one value");
                }
            }
            BigDecimal min = bound(field, path, "min", type);
            BigDecimal max = bound(field, path, "max", type);
            if (min != null && max != null && min.compareTo(max) > 0) {
                throw error(path, "min (" + min.toPlainString() + ") is above max (" + max.toPlainString() + ")");
            }
            int minLength = (int) integer(field, path, "minLength", false, 0, 0, Integer.MAX_VALUE);
            int maxLength = (int) integer(field, path, "maxLength", false, -1, 0, Integer.MAX_VALUE);
            if ((field.containsKey("minLength") || field.containsKey("maxLength")) && type != FieldType.STRING) {
                throw error(path + (field.containsKey("minLength") ? ".minLength" : ".maxLength"),
                        "applies to string fields only, and this field is " + type.wireName());
            }
            if (maxLength >= 0 && minLength > maxLength) {
                throw error(path, "minLength (" + minLength + ") is above maxLength (" + maxLength + ")");
            }
            Integer precision = null;
            Integer scale = null;
            if (field.containsKey("precision") || field.containsKey("scale")) {
                String declared = field.containsKey("precision") ? "precision" : "scale";
                if (type != FieldType.NUMBER) {
                    throw error(path + "." + declared, "applies to number fields only, and this field is " + type.wireName());
                }
                if (!field.containsKey("precision") || !field.containsKey("scale")) {
                    throw error(path, "declares " + declared + " without " + ("precision".equals(declared) ? "scale" : "precision")
                            + " (an exact decimal needs both)");
                }
                precision = (int) integer(field, path, "precision", true, 0, 1, FieldSpec.MAX_PRECISION);
                scale = (int) integer(field, path, "scale", true, 0, 0, precision);
            }
            return new FieldSpec(name, type, required, nullable, enumValues, min, max, minLength, maxLength,
                    precision, scale);
        }

        private BigDecimal bound(Map<String, Object> field, String path, String name, FieldType type) {
            Object value = field.get(name);
            if (value == null) {
                return null;
            }
            if (type != FieldType.INTEGER && type != FieldType.NUMBER) {
                throw error(path + "." + name, "applies to integer and number fields only, and this field is " + type.wireName());
            }
            if (!(value instanceof Number number) || value instanceof Double d && (d.isNaN() || d.isInfinite())) {
                throw error(path + "." + name, "must be a number, not " + describe(value));
            }
            BigDecimal bound = number instanceof BigDecimal b ? b
                    : number instanceof BigInteger bi ? new BigDecimal(bi)
                    : number instanceof Double || number instanceof Float ? new BigDecimal(number.toString())
                    : BigDecimal.valueOf(number.longValue());
            if (type == FieldType.INTEGER && bound.stripTrailingZeros().scale() > 0) {
                throw error(path + "." + name, "must be a whole number for an integer field, not " + bound.toPlainString());
            }
            return bound;
        }

        private List<String> prohibited(Object value, String path, List<FieldSpec> fields) {
            if (value == null) {
                return List.of();
            }
            List<String> names = stringList(value, path);
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < names.size(); i++) {
                String lower = names.get(i).toLowerCase(Locale.ROOT);
                if (lower.isEmpty()) {
                    throw error(path + "[" + i + "]", "must not be empty");
                }
                if (!seen.add(lower)) {
                    throw error(path + "[" + i + "]", "\"" + names.get(i) + "\" is listed twice (names match ignoring case)");
                }
                for (FieldSpec field : fields) {
                    if (field.name().toLowerCase(Locale.ROOT).equals(lower)) {
                        throw error(path + "[" + i + "]", "\"" + names.get(i) + "\" is also a field of the contract; a field cannot be prohibited");
                    }
                }
            }
            return names;
        }

        // ---- small typed accessors, each failing with the path ----

        @SuppressWarnings("unchecked")
        private Map<String, Object> object(Object value, String path) {
            if (value instanceof Map<?, ?> map) {
                return new LinkedHashMap<>((Map<String, Object>) map);
            }
            throw error(path, "must be a JSON object, not " + describe(value));
        }

        private Object require(Map<String, Object> object, String path, String name) {
            Object value = object.get(name);
            if (value == null) {
                throw error(path + "." + name, "is required");
            }
            return value;
        }

        private void allowOnly(Map<String, Object> object, String path, String... allowed) {
            Set<String> names = Set.of(allowed);
            for (String key : object.keySet()) {
                if (!names.contains(key)) {
                    throw error(path + "." + key, "is not a contract setting here (allowed: " + String.join(", ", allowed) + ")");
                }
            }
        }

        private String string(Map<String, Object> object, String path, String name, boolean required) {
            Object value = required ? require(object, path, name) : object.get(name);
            if (value == null) {
                return null;
            }
            if (!(value instanceof String s) || s.isEmpty()) {
                throw error(path + "." + name, "must be a non-empty string, not " + describe(value));
            }
            return s;
        }

        private long integer(Map<String, Object> object, String path, String name, boolean required, long defaultValue, long min, long max) {
            Object value = required ? require(object, path, name) : object.get(name);
            if (value == null) {
                return defaultValue;
            }
            if (!(value instanceof Integer || value instanceof Long || value instanceof BigInteger)) {
                throw error(path + "." + name, "must be a whole number, not " + describe(value));
            }
            BigInteger big = value instanceof BigInteger b ? b : BigInteger.valueOf(((Number) value).longValue());
            if (big.compareTo(BigInteger.valueOf(min)) < 0 || big.compareTo(BigInteger.valueOf(max)) > 0) {
                String range = max == Long.MAX_VALUE || max == Integer.MAX_VALUE ? "at least " + min : "between " + min + " and " + max;
                throw error(path + "." + name, "must be " + range + ", not " + big);
            }
            return big.longValue();
        }

        private boolean bool(Map<String, Object> object, String path, String name, boolean defaultValue) {
            Object value = object.get(name);
            if (value == null) {
                return defaultValue;
            }
            if (!(value instanceof Boolean b)) {
                throw error(path + "." + name, "must be true or false, not " + describe(value));
            }
            return b;
        }

        private <E extends Enum<E>> E enumValue(Map<String, Object> object, String path, String name, Class<E> type, E defaultValue) {
            Object value = object.get(name);
            if (value == null) {
                return defaultValue;
            }
            List<String> names = new ArrayList<>();
            for (E constant : type.getEnumConstants()) {
                String wire = constant.name().toLowerCase(Locale.ROOT);
                names.add(wire);
                if (wire.equals(value)) {
                    return constant;
                }
            }
            throw error(path + "." + name, "must be one of " + String.join(", ", names) + ", not " + describe(value));
        }

        private List<String> stringList(Object value, String path) {
            if (!(value instanceof List<?> list)) {
                throw error(path, "must be a JSON array of strings, not " + describe(value));
            }
            List<String> strings = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                if (!(list.get(i) instanceof String s)) {
                    throw error(path + "[" + i + "]", "must be a string, not " + describe(list.get(i)));
                }
                strings.add(s);
            }
            return strings;
        }

        private static String describe(Object value) {
            if (value == null) {
                return "null";
            }
            if (value instanceof String s) {
                return "the string \"" + s + "\"";
            }
            if (value instanceof Map) {
                return "an object";
            }
            if (value instanceof List) {
                return "an array";
            }
            if (value instanceof Boolean b) {
                return b.toString();
            }
            return "the number " + value;
        }
    }
}
