package io.landingledger.core.validate;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.exc.StreamReadException;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.FieldSpec;
import io.landingledger.core.contract.FieldType;

import java.io.IOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Checks one JSON line against the contract with Jackson's streaming tokens and writes the values into a
 * {@link CanonicalRow}. The whole line is always walked, even after a reject reason is found, because a
 * prohibited key anywhere in it (nested too, any ASCII case) refuses the file.
 */
final class JsonLineParser {
    private final JsonFactory factory;
    private final Map<String, Integer> fieldIndex = new HashMap<>();
    private final Map<String, String> prohibitedByLowerCase = new HashMap<>();
    private final int maxDepth;

    JsonLineParser(DatasetContract contract, ValidationLimits limits) {
        this.maxDepth = limits.maxNestingDepth();
        this.factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        // our own depth check reports NESTING_TOO_DEEP first; this is the parser's backstop
                        .maxNestingDepth(limits.maxNestingDepth() + 2)
                        .maxStringLength(Math.max(limits.maxLineBytes(), StreamReadConstraints.DEFAULT_MAX_STRING_LEN))
                        // names as long as a line, so that the only other limit Jackson can hit is maxNumberLength
                        .maxNameLength(Math.max(limits.maxLineBytes(), StreamReadConstraints.DEFAULT_MAX_NAME_LEN))
                        .build())
                .build();
        for (int i = 0; i < contract.fields().size(); i++) {
            fieldIndex.put(contract.fields().get(i).name(), i);
        }
        for (String name : contract.prohibited()) {
            prohibitedByLowerCase.put(name.toLowerCase(Locale.ROOT), name);
        }
    }

    void parse(byte[] b, int off, int len, CanonicalRow row, LineOutcome out) {
        // Jackson guesses UTF-16 or UTF-32 when any of the first four bytes is NUL (so "{\0\"\0..." would be parsed as
        // a valid UTF-16LE object, and '{' followed by three NULs as UTF-32LE). A NUL is never valid JSON text, so such
        // a line is rejected before Jackson sees it. (Checking only the first non-blank byte let '{' + NUL through.)
        for (int i = off; i < off + Math.min(len, 4); i++) {
            if (b[i] == 0) {
                out.reject(ReasonCode.INVALID_JSON, null);
                return;
            }
        }
        JsonParser parser = null;
        try (JsonParser p = factory.createParser(b, off, len)) {
            parser = p;
            JsonToken token = p.nextToken();
            if (token != JsonToken.START_OBJECT) {
                walkValue(p, token, 1, out);
                if (out.prohibited == null && out.reason != ReasonCode.NESTING_TOO_DEEP) {
                    walkTrailing(p, out);
                }
                out.reject(ReasonCode.NOT_AN_OBJECT, null);
                return;
            }
            row.begin();
            for (token = p.nextToken(); token != JsonToken.END_OBJECT; token = p.nextToken()) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                Integer index = fieldIndex.get(name);
                if (index == null) {
                    if (checkProhibited(name, out)) {
                        return;
                    }
                    out.unknownField = true;
                    out.reject(ReasonCode.UNKNOWN_FIELD, safeName(name));
                    walkValue(p, value, 2, out);
                } else if (row.has(index)) {
                    out.reject(ReasonCode.DUPLICATE_FIELD, name);
                    walkValue(p, value, 2, out);
                } else if (out.reason != null) {
                    walkValue(p, value, 2, out); // the line is rejected already; keep looking for prohibited keys
                } else {
                    ReasonCode reason = putValue(p, value, index, row, out);
                    if (reason != null) {
                        out.reject(reason, name);
                    }
                }
                if (out.prohibited != null || out.reason == ReasonCode.NESTING_TOO_DEEP) {
                    return;
                }
            }
            if (walkTrailing(p, out)) {
                return;
            }
            if (out.reason == null) {
                int missing = row.firstMissingRequired();
                if (missing >= 0) {
                    out.reject(ReasonCode.MISSING_FIELD, row.fields[missing].name());
                }
            }
        } catch (StreamConstraintsException e) {
            // Jackson's own limits. Our depth check stops before its nesting backstop and names and strings may be as
            // long as a line, so what trips here is maxNumberLength: a number of more than 1000 digits, beyond int64 and
            // beyond any double (and costly to parse exactly). It used to be reported as NESTING_TOO_DEEP.
            out.reject(ReasonCode.NUMBER_OVERFLOW, topLevelField(parser));
        } catch (StreamReadException e) {
            out.reject(ReasonCode.INVALID_JSON, null);
        } catch (IOException e) {
            // parsing a byte array performs no I/O; anything else is a malformed line
            out.reject(ReasonCode.INVALID_JSON, null);
        }
    }

    private ReasonCode putValue(JsonParser p, JsonToken value, int index, CanonicalRow row, LineOutcome out) throws IOException {
        switch (value) {
            case VALUE_STRING:
                return row.putText(index, p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
            case VALUE_NUMBER_INT:
                if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                    FieldType type = row.fields[index].type();
                    if (type == FieldType.NUMBER) {
                        return row.putNumber(index, p.getDecimalValue());
                    }
                    return type == FieldType.INTEGER ? ReasonCode.NUMBER_OVERFLOW : ReasonCode.TYPE_MISMATCH;
                }
                return row.putInteger(index, p.getLongValue());
            case VALUE_NUMBER_FLOAT:
                if (row.fields[index].type() != FieldType.NUMBER) {
                    return ReasonCode.TYPE_MISMATCH;
                }
                return row.putNumber(index, p.getDecimalValue());
            case VALUE_TRUE:
                return row.putBoolean(index, true);
            case VALUE_FALSE:
                return row.putBoolean(index, false);
            case VALUE_NULL:
                return row.putNull(index);
            default:
                walkValue(p, value, 2, out);
                return out.reason == ReasonCode.NESTING_TOO_DEEP ? null : ReasonCode.TYPE_MISMATCH;
        }
    }

    /**
     * Content after the line's first value makes the line INVALID_JSON; returns whether there was any. Two records run
     * together on one line ("}{") are walked on, so a prohibited key in the second one still refuses the file.
     */
    private boolean walkTrailing(JsonParser p, LineOutcome out) throws IOException {
        JsonToken token = p.nextToken();
        if (token == null) {
            return false;
        }
        out.reject(ReasonCode.INVALID_JSON, null);
        while (token != null && out.prohibited == null && out.reason != ReasonCode.NESTING_TOO_DEEP) {
            walkValue(p, token, 1, out);
            token = p.nextToken(); // throws at the first byte that is not JSON: the line is INVALID_JSON already
        }
        return true;
    }

    /** The contract field whose value the parser is in, when it is directly in the line's object; else null. */
    private String topLevelField(JsonParser p) {
        if (p == null) {
            return null;
        }
        JsonStreamContext context = p.getParsingContext();
        if (context == null || !context.inObject() || context.getParent() == null || !context.getParent().inRoot()) {
            return null;
        }
        String name = context.getCurrentName();
        return name != null && fieldIndex.containsKey(name) ? name : null;
    }

    /** Walks one value to its end, checking every nested key against the prohibited names. */
    private void walkValue(JsonParser p, JsonToken token, int depth, LineOutcome out) throws IOException {
        if (token != JsonToken.START_OBJECT && token != JsonToken.START_ARRAY) {
            return;
        }
        int level = depth;
        if (level > maxDepth) {
            out.reason = ReasonCode.NESTING_TOO_DEEP;
            out.field = null;
            return;
        }
        int open = 1;
        while (open > 0) {
            JsonToken t = p.nextToken();
            if (t == null) {
                throw new IOException("truncated JSON");
            }
            switch (t) {
                case START_OBJECT, START_ARRAY -> {
                    open++;
                    if (++level > maxDepth) {
                        out.reason = ReasonCode.NESTING_TOO_DEEP;
                        out.field = null;
                        return;
                    }
                }
                case END_OBJECT, END_ARRAY -> {
                    open--;
                    level--;
                }
                case FIELD_NAME -> {
                    if (checkProhibited(p.currentName(), out)) {
                        return;
                    }
                }
                default -> {
                }
            }
        }
    }

    private boolean checkProhibited(String name, LineOutcome out) {
        if (prohibitedByLowerCase.isEmpty()) {
            return false;
        }
        String match = prohibitedByLowerCase.get(name.toLowerCase(Locale.ROOT));
        if (match != null) {
            out.prohibited = match;
            return true;
        }
        return false;
    }

    /** An unknown field's name is reported only when it looks like a field name, never as free text. */
    static String safeName(String name) {
        return name.length() <= 64 && FieldSpec.isValidName(name) ? name : null;
    }
}
