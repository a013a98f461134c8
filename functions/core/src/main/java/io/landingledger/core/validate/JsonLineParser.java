package io.landingledger.core.validate;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.FieldSpec;
import io.landingledger.core.contract.FieldType;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Checks one JSON line (RFC 8259, strict: no comments, no NaN, no leading zeros, no trailing commas, no unescaped
 * control characters) against the contract in one pass over its bytes, writing the values into a
 * {@link CanonicalRow}. The whole line is always walked, even after a reject reason is found and past the nesting
 * limit, because a prohibited key anywhere in it (nested too, any ASCII case) refuses the file.
 *
 * <p>Why not a general JSON parser: Jackson's streaming parser, for one, builds a parser per line, detects the encoding
 * and decodes every string to chars that are then encoded back to UTF-8, which a profile put at a fifth of the
 * validator. The line is already known to be valid UTF-8 ({@link Utf8#isValid}), and a string without escapes is then
 * byte for byte its canonical form (RFC 8785 escapes only quote, backslash and control characters), so the common value
 * is copied, not decoded. Keys are matched against the contract's names as bytes ({@link FieldNameTable}). The grammar
 * checks follow Jackson's defaults: JsonLineRulesTest pins each rule, and JsonGrammarParityTest holds random mutations
 * of real lines to what Jackson says is JSON.
 */
final class JsonLineParser implements LineParser {
    /** Jackson's default StreamReadConstraints.maxNumberLength: a longer number is NUMBER_OVERFLOW, not parsed. */
    static final int MAX_NUMBER_LENGTH = 1000;

    /** Thrown at the first byte that is not JSON; preallocated, because a malformed line is data, not a fault. */
    private static final RuntimeException SYNTAX = new RuntimeException("invalid JSON", null, false, false) {
        private static final long serialVersionUID = 1L;
    };
    /** Thrown when a prohibited key is found: nothing else in the line matters then. */
    private static final RuntimeException PROHIBITED = new RuntimeException("prohibited key", null, false, false) {
        private static final long serialVersionUID = 1L;
    };

    private final FieldSpec[] fields;
    /** The contract's field and prohibited names by a key's bytes, with the guess of each member's field. */
    private final FieldNameTable names;
    private final int maxDepth;

    // the line being parsed
    private byte[] b;
    private int pos;
    private int end;
    private LineOutcome out;
    private boolean tooDeep;
    /** Decoded text of the last string that had escapes (or of a key that is not plain ASCII). */
    private char[] chars = new char[256];
    private int charCount;
    /** Container kinds of the value being walked, one per level: true for an object. */
    private boolean[] objectAt = new boolean[64];

    private final DatasetContract contract;
    private final ValidationLimits limits;

    JsonLineParser(DatasetContract contract, ValidationLimits limits) {
        this.contract = contract;
        this.limits = limits;
        this.maxDepth = limits.maxNestingDepth();
        this.fields = contract.fields().toArray(new FieldSpec[0]);
        this.names = new FieldNameTable(contract);
    }

    @Override
    public boolean ready() {
        return true;
    }

    /** JSON Lines has no header row. */
    @Override
    public Refusal readHeader(byte[] b, int off, int len, long line) {
        throw new IllegalStateException("JSON Lines has no header row");
    }

    /**
     * The parser does not decode plain values, so it reads on past a bad byte in one: keys before it count, and keys
     * after it while the line stays JSON (a Latin-1 export that joined a profile: {@code "name":"Zo\xEB"}).
     */
    @Override
    public boolean namesProhibitedField(byte[] b, int off, int len, CanonicalRow row, LineOutcome outcome) {
        outcome.clear();
        parse(b, off, len, row, outcome);
        return outcome.prohibited != null;
    }

    /** A JSON record is one line. */
    @Override
    public int scanRecord(byte[] b, int off, int len, int from) {
        return RECORD_ENDS;
    }

    @Override
    public LineParser copy() {
        return new JsonLineParser(contract, limits);
    }

    @Override
    public Parsed parse(byte[] bytes, int off, int len, CanonicalRow row, LineOutcome outcome) {
        this.b = bytes;
        this.pos = off;
        this.end = off + len;
        this.out = outcome;
        this.tooDeep = false;
        try {
            skipWhitespace();
            if (pos < end && b[pos] == '{') {
                pos++;
                parseRecord(row);
                trailing();
                if (out.reason == null) {
                    int missing = row.firstMissingRequired();
                    if (missing >= 0) {
                        out.reject(ReasonCode.MISSING_FIELD, fields[missing].name());
                    }
                }
            } else {
                if (pos < end) {
                    walkValue(1);
                    trailing();
                }
                out.reject(ReasonCode.NOT_AN_OBJECT, null);
            }
        } catch (RuntimeException e) {
            if (e == SYNTAX) {
                out.syntaxError();
            } else if (e != PROHIBITED) {
                throw e;
            }
        } finally {
            this.b = null;
            this.out = null;
        }
        return Parsed.RECORD;
    }

    /** The line's object, after its '{': each member checked against the contract and put into the row. */
    private void parseRecord(CanonicalRow row) {
        row.begin();
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            return;
        }
        for (int member = 0; ; member++) {
            expect('"');
            int index = fieldKey(member);
            skipWhitespace();
            expect(':');
            skipWhitespace();
            if (index < 0 || row.has(index)) {
                checkScalarToken(); // Jackson reads the value's token before the member is judged
            }
            if (index < 0) {
                out.unknownField = true;
                if (out.reason == null) { // only the line's first reason is kept: hash the name only when it is
                    out.reject(ReasonCode.UNKNOWN_FIELD, UnknownFieldName.hash(lastKey()));
                }
                walkValue(2);
            } else if (row.has(index)) {
                out.reject(ReasonCode.DUPLICATE_FIELD, fields[index].name());
                walkValue(2);
            } else if (out.reason != null) {
                walkValue(2); // the line is rejected already; keep looking for prohibited keys
            } else {
                ReasonCode reason = putValue(index, row);
                if (reason != null) {
                    out.reject(reason, fields[index].name());
                }
            }
            skipWhitespace();
            byte c = next();
            if (c == '}') {
                return;
            }
            if (c != ',') {
                throw SYNTAX;
            }
            skipWhitespace();
        }
    }

    /**
     * Content after the line's first value makes the line INVALID_JSON, over any reason its members gave. Two records
     * run together on one line ("}{")
     * are walked on, so a prohibited key in the second one still refuses the file; the first byte that is not JSON
     * ends the walk.
     */
    private void trailing() {
        skipWhitespace();
        if (pos == end) {
            return;
        }
        out.syntaxError(); // a second value, or garbage, after the first: not one JSON text
        while (pos < end) {
            walkValue(1);
            skipWhitespace();
        }
    }

    // ---- values ----

    private ReasonCode putValue(int index, CanonicalRow row) {
        byte c = peek();
        switch (c) {
            case '"' -> {
                pos++;
                int start = pos;
                int close = plainStringEnd(start);
                if (close >= 0) {
                    pos = close + 1;
                    return row.putUtf8(index, b, start, close - start);
                }
                decodeString(start);
                return row.putText(index, chars, 0, charCount);
            }
            case 't' -> {
                literal("true");
                return row.putBoolean(index, true);
            }
            case 'f' -> {
                literal("false");
                return row.putBoolean(index, false);
            }
            case 'n' -> {
                literal("null");
                return row.putNull(index);
            }
            case '{', '[' -> {
                walkValue(2);
                return tooDeep ? null : ReasonCode.TYPE_MISMATCH;
            }
            default -> {
                return putNumber(index, row);
            }
        }
    }

    /**
     * Checks a number or literal value's token without consuming it, so that a malformed one ("x", "01", "tru") makes
     * the line INVALID_JSON before the member is judged, as when Jackson's nextToken read it. Strings and containers
     * are only checked as they are walked.
     */
    private void checkScalarToken() {
        int start = pos;
        switch (peek()) {
            case '"', '{', '[' -> {
            }
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> number();
        }
        pos = start;
    }

    private ReasonCode putNumber(int index, CanonicalRow row) {
        int start = pos;
        boolean integral = number();
        int length = pos - start;
        FieldType type = fields[index].type();
        if (length > MAX_NUMBER_LENGTH) {
            // beyond int64 and beyond any double, and costly to parse exactly (Jackson's maxNumberLength)
            return ReasonCode.NUMBER_OVERFLOW;
        }
        if (integral) {
            long value = parseLong(start, pos);
            if (!overflowed) {
                return row.putInteger(index, value);
            }
            if (type != FieldType.NUMBER) {
                return type == FieldType.INTEGER ? ReasonCode.NUMBER_OVERFLOW : ReasonCode.TYPE_MISMATCH;
            }
        } else if (type != FieldType.NUMBER) {
            return ReasonCode.TYPE_MISMATCH;
        }
        BigDecimal value = decimal(start, pos);
        return value == null ? ReasonCode.NUMBER_OVERFLOW : row.putNumber(index, value);
    }

    /** Set by {@link #parseLong} when the integer is beyond int64. */
    private boolean overflowed;

    /** The integer in {@code b[from..to)} (grammar already checked); sets {@link #overflowed} beyond int64. */
    private long parseLong(int from, int to) {
        overflowed = false;
        boolean negative = b[from] == '-';
        int i = negative ? from + 1 : from;
        long value = 0; // accumulated negatively, so that Long.MIN_VALUE fits
        for (; i < to; i++) {
            int digit = b[i] - '0';
            if (value < (Long.MIN_VALUE + digit) / 10) {
                overflowed = true;
                return 0;
            }
            value = value * 10 - digit;
        }
        if (negative) {
            return value;
        }
        if (value == Long.MIN_VALUE) {
            overflowed = true;
            return 0;
        }
        return -value;
    }

    /** The number in {@code b[from..to)}, or null when its exponent is beyond what BigDecimal holds (1e9999999999). */
    private BigDecimal decimal(int from, int to) {
        char[] text = new char[to - from];
        for (int i = from; i < to; i++) {
            text[i - from] = (char) b[i];
        }
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Steps over one number ({@code -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?}); true when it has neither
     * fraction nor exponent. A leading zero followed by a digit is a syntax error here, as in Jackson; other bytes
     * after a number are the next token's problem, so a mistyped value before them is reported first.
     */
    private boolean number() {
        boolean integral = true;
        if (peek() == '-') {
            pos++;
        }
        byte c = peek();
        if (c == '0') {
            pos++;
            if (pos < end && isDigit(b[pos])) {
                throw SYNTAX; // "01"
            }
        } else if (c >= '1' && c <= '9') {
            digits();
        } else {
            throw SYNTAX;
        }
        if (pos < end && b[pos] == '.') {
            pos++;
            if (!isDigit(peek())) {
                throw SYNTAX;
            }
            digits();
            integral = false;
        }
        if (pos < end && (b[pos] == 'e' || b[pos] == 'E')) {
            pos++;
            if (pos < end && (b[pos] == '+' || b[pos] == '-')) {
                pos++;
            }
            if (!isDigit(peek())) {
                throw SYNTAX;
            }
            digits();
            integral = false;
        }
        return integral;
    }

    private void digits() {
        while (pos < end && isDigit(b[pos])) {
            pos++;
        }
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    /** Jackson's check after a literal: "truex" or "null1" is one unrecognised token, not a literal and garbage. */
    private static boolean continuesToken(byte c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' || c < 0;
    }

    private void literal(String word) {
        int n = word.length();
        if (end - pos < n) {
            throw SYNTAX;
        }
        for (int i = 0; i < n; i++) {
            if (b[pos + i] != word.charAt(i)) {
                throw SYNTAX;
            }
        }
        pos += n;
        if (pos < end && continuesToken(b[pos])) {
            throw SYNTAX;
        }
    }

    /**
     * Walks one value to its end without keeping it, checking every key against the prohibited names. A container
     * deeper than the limit makes the line NESTING_TOO_DEEP, and the walk goes on: a prohibited key below the limit
     * still refuses the file. Iterative, so 10,000 levels cost an array, not a stack.
     */
    private void walkValue(int depth) {
        int level = 0; // containers open inside this walk
        while (true) {
            byte c = next();
            switch (c) {
                case '{', '[' -> {
                    if (depth + level > maxDepth && !tooDeep) {
                        tooDeep = true;
                        out.reason = ReasonCode.NESTING_TOO_DEEP;
                        out.field = null;
                    }
                    if (level == objectAt.length) {
                        objectAt = Arrays.copyOf(objectAt, level * 2);
                    }
                    boolean object = c == '{';
                    objectAt[level++] = object;
                    skipWhitespace();
                    if (peek() == (object ? '}' : ']')) {
                        pos++;
                        level--;
                        break;
                    }
                    if (object) {
                        member();
                    }
                    continue; // the first element or member value follows
                }
                case '"' -> skipString();
                case 't' -> {
                    pos--;
                    literal("true");
                }
                case 'f' -> {
                    pos--;
                    literal("false");
                }
                case 'n' -> {
                    pos--;
                    literal("null");
                }
                default -> {
                    int start = --pos;
                    number();
                    if (pos - start > MAX_NUMBER_LENGTH) {
                        out.reject(ReasonCode.NUMBER_OVERFLOW, null);
                    }
                }
            }
            // a value ended: close containers until one continues with ','
            while (true) {
                if (level == 0) {
                    return;
                }
                skipWhitespace();
                byte d = next();
                boolean object = objectAt[level - 1];
                if (d == ',') {
                    skipWhitespace();
                    if (object) {
                        member();
                    }
                    break;
                }
                if (d != (object ? '}' : ']')) {
                    throw SYNTAX;
                }
                level--;
            }
        }
    }

    /** A member's key and colon inside a walked object; the key is checked against the prohibited names. */
    private void member() {
        expect('"');
        key();
        skipWhitespace();
        expect(':');
        skipWhitespace();
    }

    // ---- strings and keys ----

    private int keyStart;
    private int keyEnd;
    private boolean keyDecoded;

    /**
     * {@link #key()} for the record's {@code member}-th key, trying the field that position held in the last record
     * first ({@link FieldNameTable#expected}): a match there is exactly what {@link #key()} would have read.
     */
    private int fieldKey(int member) {
        int expected = names.expected(member, b, pos, end);
        if (expected >= 0) {
            int close = pos + names.nameLength(expected);
            keyStart = pos;
            keyEnd = close;
            keyDecoded = false;
            pos = close + 1;
            return expected;
        }
        int index = key();
        names.learn(member, index);
        return index;
    }

    /**
     * Reads a key (after its opening quote), checks it against the prohibited names and returns its contract field
     * index, or -1. A prohibited key throws {@link #PROHIBITED} with the outcome set.
     */
    private int key() {
        int start = pos;
        int close = plainStringEnd(start);
        if (close >= 0 && Utf8.isAscii(b, start, close - start)) {
            pos = close + 1;
            keyStart = start;
            keyEnd = close;
            keyDecoded = false;
            int index = names.fieldOf(b, start, close - start);
            if (index < 0) {
                refuseIfProhibited(names.prohibitedAscii(b, start, close - start));
            }
            return index;
        }
        return decodedKey(start, close);
    }

    /**
     * {@link #key()} for a key with escapes or non-ASCII bytes, from its first byte: compared as text. Apart from the
     * ASCII path so that {@link #key()} stays small enough to be inlined where it is hot.
     */
    private int decodedKey(int start, int close) {
        if (close >= 0) {
            pos = close + 1;
            setDecodedKey(new String(b, start, close - start, StandardCharsets.UTF_8));
        } else {
            decodeString(start);
        }
        keyDecoded = true;
        String name = new String(chars, 0, charCount);
        int index = names.fieldOf(name);
        if (index >= 0) {
            return index;
        }
        refuseIfProhibited(names.prohibited(name));
        return -1;
    }

    /** Throws {@link #PROHIBITED} with the outcome set when a key matched a prohibited name (null: it did not). */
    private void refuseIfProhibited(String prohibitedName) {
        if (prohibitedName != null) {
            out.prohibited = prohibitedName;
            throw PROHIBITED;
        }
    }

    private void setDecodedKey(String name) {
        ensureChars(name.length());
        name.getChars(0, name.length(), chars, 0);
        charCount = name.length();
    }

    /** The last key read, as a string (only to hash an unknown field's name: the name itself is never reported). */
    private String lastKey() {
        return keyDecoded ? new String(chars, 0, charCount) : new String(b, keyStart, keyEnd - keyStart, StandardCharsets.US_ASCII);
    }

    /**
     * The index of the closing quote of a string starting at {@code from} that has no escape, or -1 when it has one
     * (the caller decodes it then). Control characters must be escaped in JSON: a raw one is a syntax error.
     */
    private int plainStringEnd(int from) {
        int i = from;
        // eight bytes at a time up to the first byte that needs a look (most strings have none until their quote)
        for (int last = end - Long.BYTES; i <= last; i += Long.BYTES) {
            long special = quoteBackslashOrControl((long) Swar.LONGS.get(b, i));
            if (special != 0) {
                i += Swar.firstMarked(special);
                break;
            }
        }
        for (; i < end; i++) {
            byte c = b[i];
            if (c == '"') {
                return i;
            }
            if (c == '\\') {
                return -1;
            }
            if (c >= 0 && c < 0x20) {
                throw SYNTAX;
            }
        }
        throw SYNTAX; // unterminated
    }

    /** The high bit of each byte of {@code word} that is a quote, a backslash or a control character (below 0x20). */
    private static long quoteBackslashOrControl(long word) {
        // a byte below 0x20 has its high bit clear and stays below 0x80 when 0x60 is added to it
        long control = ~(((word & Swar.LOW_SEVEN_BITS) + 0x60 * Swar.ONES) | word | Swar.LOW_SEVEN_BITS);
        return Swar.zeroBytes(word ^ ('"' * Swar.ONES)) | Swar.zeroBytes(word ^ ('\\' * Swar.ONES)) | control;
    }

    /** Steps over a string (after its opening quote), checking its escapes. */
    private void skipString() {
        while (true) {
            byte c = next();
            if (c == '"') {
                return;
            }
            if (c == '\\') {
                escape();
            } else if (c >= 0 && c < 0x20) {
                throw SYNTAX;
            }
        }
    }

    /** Decodes a string with escapes (from after its opening quote) into {@link #chars}; ends after its quote. */
    private void decodeString(int from) {
        pos = from;
        charCount = 0;
        while (true) {
            byte c = next();
            if (c == '"') {
                return;
            }
            ensureChars(charCount + 2);
            if (c == '\\') {
                chars[charCount++] = escape();
            } else if (c >= 0 && c < 0x20) {
                throw SYNTAX;
            } else if (c >= 0) {
                chars[charCount++] = (char) c;
            } else {
                int length = sequenceLength(c);
                if (length == 0 || pos - 1 + length > end) {
                    throw SYNTAX; // only on a line that is not valid UTF-8 (searched for prohibited keys only)
                }
                charCount += Utf8.decode(b, pos - 1, length, chars, charCount);
                pos += length - 1;
            }
        }
    }

    private static int sequenceLength(byte lead) {
        int c = lead & 0xFF;
        return c >= 0xF0 ? (c < 0xF5 ? 4 : 0) : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    }

    /** One escape after its backslash; returns the char it stands for (a \\u escape may be half a surrogate pair). */
    private char escape() {
        byte c = next();
        switch (c) {
            case '"':
                return '"';
            case '\\':
                return '\\';
            case '/':
                return '/';
            case 'b':
                return '\b';
            case 'f':
                return '\f';
            case 'n':
                return '\n';
            case 'r':
                return '\r';
            case 't':
                return '\t';
            case 'u':
                if (end - pos < 4) {
                    throw SYNTAX;
                }
                int value = 0;
                for (int i = 0; i < 4; i++) {
                    int h = Character.digit(b[pos++], 16);
                    if (h < 0) {
                        throw SYNTAX;
                    }
                    value = value << 4 | h;
                }
                return (char) value;
            default:
                throw SYNTAX;
        }
    }

    private void ensureChars(int n) {
        if (n > chars.length) {
            chars = Arrays.copyOf(chars, Math.max(n, chars.length * 2));
        }
    }

    // ---- bytes ----

    private void skipWhitespace() {
        while (pos < end) {
            byte c = b[pos];
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                return;
            }
            pos++;
        }
    }

    private byte peek() {
        if (pos >= end) {
            throw SYNTAX;
        }
        return b[pos];
    }

    private byte next() {
        if (pos >= end) {
            throw SYNTAX;
        }
        return b[pos++];
    }

    private void expect(char c) {
        if (next() != c) {
            throw SYNTAX;
        }
    }
}
