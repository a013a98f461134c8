package io.landingledger.core.contract;

import java.util.List;
import java.util.Optional;

/**
 * A dataset's contract ({@code datasets/<dataset>.json}): what a valid input line is, which fields refuse a
 * file, how file names map to units. Load one with {@link ContractLoader}; derive one with {@link #toBuilder()} or
 * {@link #withUnit}. A {@link #builder()} requires {@code dataset}, {@code format}, {@code unit}, {@code key} and
 * {@code unknownFields}; {@code fields} and {@code prohibited} default to none.
 *
 * @param dataset          the dataset's name; also the inbox prefix its files land under
 * @param version          the contract's version, recorded with every publish
 * @param format           jsonl or csv
 * @param unit             file name to unit mapping and the expected units
 * @param key              the identity field: identical duplicates collapse, conflicting ones refuse the file
 * @param fields           the contract's fields, sorted by name (the published row's key order)
 * @param prohibited       field names that refuse the file wherever they appear, matched ignoring ASCII case
 * @param unknownFields    what a field the contract does not name does
 * @param maxRejectedLines more rejected lines than this refuses the file
 * @param allowEmpty       whether a file with no accepted row may publish (an empty unit)
 * @param source           where the contract was loaded from, for messages
 * @param acceptEmptyUnits whether an empty published unit is complete without an operator accepting it (the sweep
 *                         shows EMPTY_ACCEPTED, not EMPTY)
 * @param volume           the contract's declared expectations of a unit's accepted rows ({@link VolumeSpec#NONE}
 *                         when it declares none); the sweep also compares each unit with the dataset's own history
 */
public record DatasetContract(String dataset, int version, DataFormat format, UnitSpec unit, String key,
                              List<FieldSpec> fields, List<String> prohibited, UnknownFieldPolicy unknownFields,
                              long maxRejectedLines, boolean allowEmpty, String source, boolean acceptEmptyUnits,
                              VolumeSpec volume) {

    public DatasetContract {
        fields = List.copyOf(fields);
        prohibited = List.copyOf(prohibited);
        volume = volume == null ? VolumeSpec.NONE : volume;
    }

    /** A builder with every component unset (null, 0, false; no fields). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this contract's components, to build a copy that differs in some. */
    public Builder toBuilder() {
        return new Builder()
                .dataset(dataset)
                .version(version)
                .format(format)
                .unit(unit)
                .key(key)
                .fields(fields)
                .prohibited(prohibited)
                .unknownFields(unknownFields)
                .maxRejectedLines(maxRejectedLines)
                .allowEmpty(allowEmpty)
                .source(source)
                .acceptEmptyUnits(acceptEmptyUnits)
                .volume(volume);
    }

    /** This contract with {@code value} as its unit mapping, everything else kept. */
    public DatasetContract withUnit(UnitSpec value) {
        return toBuilder().unit(value).build();
    }

    public Optional<FieldSpec> field(String name) {
        return fields.stream().filter(f -> f.name().equals(name)).findFirst();
    }

    /** The field index of {@link #key()} within {@link #fields()}. */
    public int keyIndex() {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(key)) {
                return i;
            }
        }
        throw new IllegalStateException("key " + key + " is not a field of " + dataset);
    }

    /** Names each component of a {@link DatasetContract}; {@link #build()} checks the required ones. */
    public static final class Builder {
        private String dataset;
        private int version;
        private DataFormat format;
        private UnitSpec unit;
        private String key;
        private List<FieldSpec> fields = List.of();
        private List<String> prohibited = List.of();
        private UnknownFieldPolicy unknownFields;
        private long maxRejectedLines;
        private boolean allowEmpty;
        private String source;
        private boolean acceptEmptyUnits;
        private VolumeSpec volume = VolumeSpec.NONE;

        private Builder() {
        }

        public Builder dataset(String value) {
            this.dataset = value;
            return this;
        }

        public Builder version(int value) {
            this.version = value;
            return this;
        }

        public Builder format(DataFormat value) {
            this.format = value;
            return this;
        }

        public Builder unit(UnitSpec value) {
            this.unit = value;
            return this;
        }

        public Builder key(String value) {
            this.key = value;
            return this;
        }

        public Builder fields(List<FieldSpec> value) {
            this.fields = value;
            return this;
        }

        public Builder prohibited(List<String> value) {
            this.prohibited = value;
            return this;
        }

        public Builder unknownFields(UnknownFieldPolicy value) {
            this.unknownFields = value;
            return this;
        }

        public Builder maxRejectedLines(long value) {
            this.maxRejectedLines = value;
            return this;
        }

        public Builder allowEmpty(boolean value) {
            this.allowEmpty = value;
            return this;
        }

        public Builder source(String value) {
            this.source = value;
            return this;
        }

        public Builder acceptEmptyUnits(boolean value) {
            this.acceptEmptyUnits = value;
            return this;
        }

        public Builder volume(VolumeSpec value) {
            this.volume = value;
            return this;
        }

        /** The contract; throws {@link IllegalStateException} naming the first required component left unset. */
        public DatasetContract build() {
            require(dataset, "dataset");
            require(format, "format");
            require(unit, "unit");
            require(key, "key");
            require(unknownFields, "unknownFields");
            return new DatasetContract(dataset, version, format, unit, key, fields, prohibited, unknownFields,
                    maxRejectedLines, allowEmpty, source, acceptEmptyUnits, volume);
        }

        private static void require(Object value, String component) {
            if (value == null) {
                throw new IllegalStateException("DatasetContract: " + component + " is required");
            }
        }
    }
}
