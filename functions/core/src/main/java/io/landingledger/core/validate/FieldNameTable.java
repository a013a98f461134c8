package io.landingledger.core.validate;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.FieldSpec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A contract's field names and prohibited names, looked up by a JSON key's bytes for {@link JsonLineParser}: which
 * field a key names, and which prohibited name it is in any ASCII case. Apart from the parser, as Jackson keeps its
 * name canonicalizer apart from its parser: the parser is the grammar alone, and this the lookup alone.
 *
 * <p>Keys are matched as bytes, without building a string: an open-addressing table finds a field by a cheap hash,
 * and the k-th key of a record is first compared with the name the k-th key of the last record had, because
 * producers write their keys in one order. A key that is not plain ASCII (escapes, other scripts) is matched as a
 * decoded string instead ({@link #fieldOf(String)}, {@link #prohibited(String)}).
 *
 * <p>One table per parser: the prediction changes with every record, so a table is not shared between threads.
 */
final class FieldNameTable {
    private final byte[][] fieldNames;
    /**
     * The field the k-th member of the last record named. Producers write their keys in one order, so the next
     * record's k-th key is usually the same name and one comparison finds it (-1: compare with every name).
     */
    private final int[] expectedField;
    /** Per field: its name is [A-Za-z0-9_]+, so the name's bytes and a quote are the whole key. */
    private final boolean[] plainNames;
    /** Field indexes by a hash of their names ({@link #fieldOf(byte[], int, int)}); -1 marks an empty slot. */
    private final int[] fieldSlots;
    private final Map<String, Integer> fieldIndex = new HashMap<>();
    /** Prohibited names in lower case, as ASCII bytes for the fast comparison and as strings for the general one. */
    private final byte[][] prohibitedLower;
    private final Map<String, String> prohibitedByLowerCase = new HashMap<>();

    FieldNameTable(DatasetContract contract) {
        List<FieldSpec> fields = contract.fields();
        this.fieldNames = new byte[fields.size()][];
        this.plainNames = new boolean[fields.size()];
        for (int i = 0; i < fieldNames.length; i++) {
            String name = fields.get(i).name();
            fieldNames[i] = name.getBytes(StandardCharsets.UTF_8);
            fieldIndex.put(name, i);
            plainNames[i] = name.chars().allMatch(c -> c == '_' || c < 0x80 && Character.isLetterOrDigit(c));
        }
        this.fieldSlots = fieldSlots(fieldNames);
        this.expectedField = new int[fieldNames.length];
        Arrays.fill(expectedField, -1);
        this.prohibitedLower = new byte[contract.prohibited().size()][];
        for (int i = 0; i < prohibitedLower.length; i++) {
            String name = contract.prohibited().get(i);
            String lower = name.toLowerCase(Locale.ROOT);
            prohibitedByLowerCase.put(lower, name);
            prohibitedLower[i] = lower.getBytes(StandardCharsets.UTF_8);
        }
    }

    /**
     * The field the record's {@code member}-th key named in the last record, when the key starting at {@code pos}
     * (after its opening quote) is that name followed by its closing quote; otherwise -1 (then {@link #learn} what
     * it was). For a name that is a plain ASCII word ({@link #plainNames}; ContractLoader accepts no other) the
     * name's bytes followed by a quote are the whole key, exactly what a full read and match would have found.
     */
    int expected(int member, byte[] b, int pos, int end) {
        if (member >= expectedField.length) {
            return -1;
        }
        int expected = expectedField[member];
        if (expected >= 0) {
            byte[] name = fieldNames[expected];
            int close = pos + name.length;
            if (close < end && b[close] == '"' && Arrays.equals(name, 0, name.length, b, pos, close)) {
                return expected;
            }
        }
        return -1;
    }

    /** Remembers that the record's {@code member}-th key named field {@code index} (-1: no field) for the next one. */
    void learn(int member, int index) {
        if (member < expectedField.length) {
            // only names that are plain ASCII words (as ContractLoader demands) are matched by their bytes alone
            expectedField[member] = index >= 0 && plainNames[index] ? index : -1;
        }
    }

    /** The length in bytes of field {@code index}'s name. */
    int nameLength(int index) {
        return fieldNames[index].length;
    }

    /** The field an ASCII key {@code b[start .. start + length)} names exactly, or -1. */
    int fieldOf(byte[] b, int start, int length) {
        int mask = fieldSlots.length - 1;
        for (int slot = nameHash(b, start, length) & mask; ; slot = (slot + 1) & mask) {
            int i = fieldSlots[slot];
            if (i < 0) {
                return -1;
            }
            byte[] name = fieldNames[i];
            if (name.length == length && Arrays.equals(name, 0, length, b, start, start + length)) {
                return i;
            }
        }
    }

    /** The field a decoded key names exactly, or -1. */
    int fieldOf(String name) {
        Integer index = fieldIndex.get(name);
        return index == null ? -1 : index;
    }

    /**
     * The prohibited name (as the contract spells it) that the ASCII key {@code b[start .. start + length)} is in any
     * case, or null.
     */
    String prohibitedAscii(byte[] b, int start, int length) {
        for (int p = 0; p < prohibitedLower.length; p++) {
            byte[] name = prohibitedLower[p];
            if (name.length != length) {
                continue;
            }
            int i = 0;
            while (i < length) {
                int c = b[start + i];
                if (c >= 'A' && c <= 'Z') {
                    c += 'a' - 'A';
                }
                if (c != name[i]) {
                    break;
                }
                i++;
            }
            if (i == length) {
                return prohibitedByLowerCase.get(new String(name, StandardCharsets.US_ASCII));
            }
        }
        return null;
    }

    /**
     * The prohibited name (as the contract spells it) a decoded key is, lower-cased as Java does (U+212A KELVIN SIGN
     * lower-cases to 'k'), or null.
     */
    String prohibited(String name) {
        return prohibitedByLowerCase.get(name.toLowerCase(Locale.ROOT));
    }

    /** A cheap hash of a key for {@link #fieldSlots}: its length and its first and last bytes. */
    private static int nameHash(byte[] bytes, int start, int length) {
        return length == 0 ? 0 : (length * 31 + bytes[start]) * 31 + bytes[start + length - 1];
    }

    /** An open-addressing table (linear probing, at most a quarter full) of field indexes by {@link #nameHash}. */
    private static int[] fieldSlots(byte[][] names) {
        int[] slots = new int[Integer.highestOneBit(Math.max(1, names.length) * 4) * 2];
        Arrays.fill(slots, -1);
        for (int i = 0; i < names.length; i++) {
            int slot = nameHash(names[i], 0, names[i].length) & (slots.length - 1);
            while (slots[slot] >= 0) {
                slot = (slot + 1) & (slots.length - 1);
            }
            slots[slot] = i;
        }
        return slots;
    }
}
