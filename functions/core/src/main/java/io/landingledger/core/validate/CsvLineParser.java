package io.landingledger.core.validate;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.FieldSpec;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * RFC 4180 CSV (comma separated, {@code "} quoted, {@code ""} an escaped quote) whose header row names the
 * contract's fields in any order. Cells are typed by their field: an empty unquoted cell is null (absent), a
 * quoted empty cell is the empty string. Rows are published as the same canonical JSON lines as JSONL input.
 * A quoted cell may span lines; the validator joins them and {@link #split} reports when it needs more.
 */
final class CsvLineParser implements LineParser {
    private enum Split { OK, UNTERMINATED, MALFORMED }

    private static final Pattern JSON_NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

    private final DatasetContract contract;
    private final Map<String, Integer> fieldIndex = new HashMap<>();
    private final Map<String, String> prohibitedByLowerCase = new HashMap<>();
    private int[] columnField;

    private final ByteSink cells = new ByteSink(1024);
    private int[] cellStart = new int[16];
    private int[] cellEnd = new int[16];
    private boolean[] cellQuoted = new boolean[16];
    private int cellCount;
    private char[] chars = new char[1024];
    /** The bytes {@link #scanRecord} has read: each byte of a joined record once, the measure its tests bound. */
    long recordScanBytes;

    CsvLineParser(DatasetContract contract) {
        this.contract = contract;
        for (int i = 0; i < contract.fields().size(); i++) {
            fieldIndex.put(contract.fields().get(i).name(), i);
        }
        for (String name : contract.prohibited()) {
            prohibitedByLowerCase.put(name.toLowerCase(Locale.ROOT), name);
        }
    }

    @Override
    public boolean ready() {
        return columnField != null;
    }

    @Override
    public LineParser copy() {
        CsvLineParser copy = new CsvLineParser(contract);
        copy.columnField = columnField; // never written once read
        return copy;
    }

    /** CSV names its fields once, in the header, which {@link #readHeader} checks. */
    @Override
    public boolean namesProhibitedField(byte[] b, int off, int len, CanonicalRow row, LineOutcome outcome) {
        return false;
    }

    /**
     * {@link #split}'s control flow without its cells, resumable: a record is unterminated only when a quoted cell's
     * closing quote is not found up to the end, and every decision before that point read only bytes before it, so
     * a longer text with the same prefix is split the same way up to there. Resuming at the end (all bytes since the
     * last quote pair held no quote) reads each byte of the record once however many lines it is joined from.
     */
    @Override
    public int scanRecord(byte[] b, int off, int len, int from) {
        int end = off + len;
        int i = from;
        boolean quoted = from != off; // resumed inside a quoted cell, else at the record's first cell
        while (true) {
            if (!quoted) {
                if (i < end && b[i] == '"') {
                    quoted = true;
                    i++;
                } else {
                    int comma = scanFor(b, i, end, (byte) ',');
                    int cellEndAt = comma < 0 ? end : comma;
                    if (scanFor(b, i, cellEndAt, (byte) '"') >= 0) {
                        return RECORD_ENDS; // malformed: split returns MALFORMED
                    }
                    i = cellEndAt;
                }
            }
            if (quoted) {
                while (true) {
                    int quote = scanFor(b, i, end, (byte) '"');
                    if (quote < 0) {
                        return end; // unterminated: no quote in b[i, end), so the next scan starts at end
                    }
                    if (quote + 1 < end && b[quote + 1] == '"') {
                        recordScanBytes++;
                        i = quote + 2;
                    } else {
                        i = quote + 1;
                        break;
                    }
                }
                quoted = false;
                if (i < end && b[i] != ',') {
                    return RECORD_ENDS; // malformed
                }
            }
            if (i >= end) {
                return RECORD_ENDS;
            }
            i++; // the comma
            if (i == end) {
                return RECORD_ENDS; // a trailing comma
            }
        }
    }

    /** {@link #indexOf}, counting the bytes read in {@link #recordScanBytes}. */
    private int scanFor(byte[] b, int from, int to, byte value) {
        int at = indexOf(b, from, to, value);
        recordScanBytes += (at < 0 ? to : at + 1) - from;
        return at;
    }

    @Override
    public Parsed parse(byte[] b, int off, int len, CanonicalRow row, LineOutcome outcome) {
        Split split = split(b, off, len);
        if (split == Split.UNTERMINATED) {
            return Parsed.UNTERMINATED;
        }
        if (split == Split.OK) {
            typeCells(row, outcome);
        } else {
            outcome.reject(ReasonCode.CSV_MALFORMED, null);
        }
        return Parsed.RECORD;
    }

    /** Reads the header row; returns null when it names the contract's fields, else the refusal. */
    @Override
    public Refusal readHeader(byte[] b, int off, int len, long line) {
        if (!Utf8.isValid(b, off, len) || split(b, off, len) != Split.OK) {
            return new Refusal(RefusalCode.CSV_HEADER_MISMATCH, "the header row (line " + line + ") is not a readable CSV row", List.of(line));
        }
        int[] mapping = new int[cellCount];
        boolean[] seen = new boolean[contract.fields().size()];
        // Only contract field names and column numbers go into the detail, never a header cell that is not a field:
        // a file without a header row has its first data row here, and its cells are values (names, account ids).
        List<String> repeated = new ArrayList<>();
        List<String> unexpected = new ArrayList<>();
        for (int col = 0; col < cellCount; col++) {
            String name = cellString(col);
            String prohibited = prohibitedByLowerCase.get(name.toLowerCase(Locale.ROOT));
            if (prohibited != null) {
                return new Refusal(RefusalCode.PROHIBITED_FIELD, "the header names the prohibited field " + prohibited, List.of(line));
            }
            Integer index = fieldIndex.get(name);
            if (index == null || seen[index]) {
                if (index != null) {
                    repeated.add(name + " (column " + (col + 1) + ")");
                } else {
                    unexpected.add(Integer.toString(col + 1));
                }
                continue;
            }
            seen[index] = true;
            mapping[col] = index;
        }
        TreeSet<String> missing = new TreeSet<>();
        for (int i = 0; i < seen.length; i++) {
            if (!seen[i] && contract.fields().get(i).required()) {
                missing.add(contract.fields().get(i).name());
            }
        }
        if (!unexpected.isEmpty() || !repeated.isEmpty() || !missing.isEmpty()) {
            StringBuilder detail = new StringBuilder("the header differs from the contract");
            if (!missing.isEmpty()) {
                detail.append("; missing required fields: ").append(String.join(", ", missing));
            }
            if (!repeated.isEmpty()) {
                detail.append("; repeated fields: ").append(String.join(", ", repeated));
            }
            if (!unexpected.isEmpty()) {
                detail.append("; ").append(unexpected.size() == 1 ? "column " : "columns ").append(String.join(", ", unexpected))
                        .append(unexpected.size() == 1 ? " is not a contract field" : " are not contract fields")
                        .append(" (names withheld: in a file without a header row they are data)");
            }
            return new Refusal(RefusalCode.CSV_HEADER_MISMATCH, detail.toString(), List.of(line));
        }
        columnField = mapping;
        return null;
    }

    /** Splits one record into cells (quotes removed, {@code ""} unescaped). */
    private Split split(byte[] b, int off, int len) {
        cells.reset();
        cellCount = 0;
        int i = off;
        int end = off + len;
        while (true) {
            int start = cells.size;
            boolean quoted = i < end && b[i] == '"';
            if (quoted) {
                i++;
                while (true) {
                    int quote = indexOf(b, i, end, (byte) '"');
                    if (quote < 0) {
                        return Split.UNTERMINATED;
                    }
                    cells.write(b, i, quote - i);
                    if (quote + 1 < end && b[quote + 1] == '"') {
                        cells.write('"');
                        i = quote + 2;
                    } else {
                        i = quote + 1;
                        break;
                    }
                }
                if (i < end && b[i] != ',') {
                    return Split.MALFORMED;
                }
            } else {
                int comma = indexOf(b, i, end, (byte) ',');
                int cellEndAt = comma < 0 ? end : comma;
                if (indexOf(b, i, cellEndAt, (byte) '"') >= 0) {
                    return Split.MALFORMED;
                }
                cells.write(b, i, cellEndAt - i);
                i = cellEndAt;
            }
            addCell(start, cells.size, quoted);
            if (i >= end) {
                return Split.OK;
            }
            i++; // the comma
            if (i == end) {
                addCell(cells.size, cells.size, false); // a trailing comma ends with an empty cell
                return Split.OK;
            }
        }
    }

    private void addCell(int start, int endAt, boolean quoted) {
        if (cellCount == cellStart.length) {
            cellStart = Arrays.copyOf(cellStart, cellCount * 2);
            cellEnd = Arrays.copyOf(cellEnd, cellCount * 2);
            cellQuoted = Arrays.copyOf(cellQuoted, cellCount * 2);
        }
        cellStart[cellCount] = start;
        cellEnd[cellCount] = endAt;
        cellQuoted[cellCount++] = quoted;
    }

    private static int indexOf(byte[] b, int from, int to, byte value) {
        for (int i = from; i < to; i++) {
            if (b[i] == value) {
                return i;
            }
        }
        return -1;
    }

    private String cellString(int col) {
        return new String(cells.bytes, cellStart[col], cellEnd[col] - cellStart[col], StandardCharsets.UTF_8);
    }

    /** Types the cells of a record split by {@link #split} into the row. */
    private void typeCells(CanonicalRow row, LineOutcome out) {
        if (cellCount != columnField.length) {
            out.reject(ReasonCode.CSV_COLUMN_COUNT, null);
            return;
        }
        row.begin();
        for (int col = 0; col < cellCount; col++) {
            int field = columnField[col];
            FieldSpec spec = row.fields[field];
            int length = cellEnd[col] - cellStart[col];
            ReasonCode reason;
            if (length == 0 && !cellQuoted[col]) {
                if (spec.nullable()) {
                    reason = row.putNull(field);
                } else {
                    reason = spec.required() ? ReasonCode.MISSING_FIELD : null;
                }
            } else {
                if (chars.length < length) {
                    chars = new char[Math.max(length, chars.length * 2)];
                }
                int n = Utf8.decode(cells.bytes, cellStart[col], length, chars);
                reason = typed(row, field, spec, n);
            }
            if (reason != null) {
                out.reject(reason, spec.name());
                return;
            }
        }
        int missing = row.firstMissingRequired();
        if (missing >= 0) {
            out.reject(ReasonCode.MISSING_FIELD, row.fields[missing].name());
        }
    }

    /**
     * A number cell meets the rules a JSON value of the same text meets in {@link JsonLineParser#putNumber}, in the
     * same order, so that a row means the same in either format: text that is not a JSON number is TYPE_MISMATCH
     * (JSON would not parse it), then more than {@link JsonLineParser#MAX_NUMBER_LENGTH} characters is
     * NUMBER_OVERFLOW whatever the field, then the field's type decides.
     */
    private ReasonCode typed(CanonicalRow row, int field, FieldSpec spec, int n) {
        switch (spec.type()) {
            case INTEGER: {
                String text = new String(chars, 0, n);
                if (!JSON_NUMBER.matcher(text).matches()) {
                    return ReasonCode.TYPE_MISMATCH;
                }
                if (n > JsonLineParser.MAX_NUMBER_LENGTH) {
                    return ReasonCode.NUMBER_OVERFLOW;
                }
                if (text.indexOf('.') >= 0 || text.indexOf('e') >= 0 || text.indexOf('E') >= 0) {
                    return ReasonCode.TYPE_MISMATCH;
                }
                try {
                    return row.putInteger(field, Long.parseLong(text));
                } catch (NumberFormatException e) {
                    return ReasonCode.NUMBER_OVERFLOW; // the grammar is checked: only beyond int64 is left
                }
            }
            case NUMBER: {
                String text = new String(chars, 0, n);
                if (!JSON_NUMBER.matcher(text).matches()) {
                    return ReasonCode.TYPE_MISMATCH;
                }
                if (n > JsonLineParser.MAX_NUMBER_LENGTH) {
                    return ReasonCode.NUMBER_OVERFLOW;
                }
                BigDecimal value;
                try {
                    value = new BigDecimal(text);
                } catch (NumberFormatException e) {
                    // the grammar is checked, so only an exponent beyond BigDecimal's int scale is left (1e9999999999,
                    // 1e-9999999999): NUMBER_OVERFLOW, as JsonLineParser.decimal decides for the same text
                    return ReasonCode.NUMBER_OVERFLOW;
                }
                return row.putNumber(field, value);
            }
            case BOOLEAN: {
                if (n == 4 && chars[0] == 't' && chars[1] == 'r' && chars[2] == 'u' && chars[3] == 'e') {
                    return row.putBoolean(field, true);
                }
                if (n == 5 && chars[0] == 'f' && chars[1] == 'a' && chars[2] == 'l' && chars[3] == 's' && chars[4] == 'e') {
                    return row.putBoolean(field, false);
                }
                return ReasonCode.TYPE_MISMATCH;
            }
            default:
                return row.putText(field, chars, 0, n);
        }
    }
}
