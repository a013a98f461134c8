package io.landingledger.core.contract;

import java.util.List;
import java.util.Optional;

/**
 * A dataset's contract ({@code datasets/<dataset>.json}): what a valid input line is, which fields refuse a
 * file, how file names map to units. Load one with {@link ContractLoader}.
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
 */
public record DatasetContract(String dataset, int version, DataFormat format, UnitSpec unit, String key,
                              List<FieldSpec> fields, List<String> prohibited, UnknownFieldPolicy unknownFields,
                              long maxRejectedLines, boolean allowEmpty, String source, boolean acceptEmptyUnits) {

    public DatasetContract {
        fields = List.copyOf(fields);
        prohibited = List.copyOf(prohibited);
    }

    /** A contract whose empty units need an operator's acceptance (the default). */
    public DatasetContract(String dataset, int version, DataFormat format, UnitSpec unit, String key,
                           List<FieldSpec> fields, List<String> prohibited, UnknownFieldPolicy unknownFields,
                           long maxRejectedLines, boolean allowEmpty, String source) {
        this(dataset, version, format, unit, key, fields, prohibited, unknownFields, maxRejectedLines, allowEmpty, source, false);
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
}
