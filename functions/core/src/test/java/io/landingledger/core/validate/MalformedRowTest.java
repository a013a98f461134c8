package io.landingledger.core.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.FieldSpec;
import io.landingledger.core.contract.FieldType;
import io.landingledger.core.testing.TestContracts;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * Exact reasons for malformed rows. Every malformed variant of a row the contract accepts (each fault class at every
 * position) is judged against jackson-core, the oracle for what is one JSON text (RFC 8259): when Jackson refuses the
 * line its reason is INVALID_JSON (INVALID_UTF8 for bytes that are not UTF-8), whatever field-level reason a member
 * before the syntax error would give; when Jackson reads it, it is never INVALID_JSON, and every string and number
 * the row accepts decodes to exactly what Jackson decodes. Some bases carry a field-level problem (an unknown field,
 * a mistyped value) before the fault, so that the syntax error has something to win over.
 */
class MalformedRowTest {
    private static final DatasetContract EVENTS = TestContracts.progressEvents();
    private static final DatasetContract ALL_TYPES = TestContracts.allTypes();
    private static final JsonFactory JACKSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(10_000).build()).build();

    private static final String EVENT = "{\"event_id\":\"e1\",\"learner_id\":\"l\\u00e9\",\"lesson_id\":\"m\",\"event_type\":\"checkpoint\","
            + "\"attempt_number\":2,\"event_time\":\"2026-03-02T10:00:00Z\",\"checkpoint\":[1][0]}";
    /** Rows and what the contract says of each as it is. */
    private static final Map<String, Row> BASES = new java.util.LinkedHashMap<>();

    private record Row(DatasetContract contract, String text, ReasonCode reason) {
    }

    static {
        BASES.put("acceptable event", new Row(EVENTS, EVENT.replace("[1][0]", "null"), null));
        BASES.put("unknown field first", new Row(EVENTS, EVENT.replace("[1][0]", "null").replace("{\"event_id\"",
                "{\"surprise\":{\"a\":[1,\"x\"]},\"event_id\""), ReasonCode.UNKNOWN_FIELD));
        BASES.put("type mismatch first", new Row(EVENTS, EVENT.replace("[1][0]", "null").replace("\"attempt_number\":2", "\"attempt_number\":\"two\"")
                .replace("{\"event_id\":\"e1\",", "{\"attempt_number\":true,\"event_id\":\"e1\",").replace(",\"attempt_number\":\"two\"", ""),
                ReasonCode.TYPE_MISMATCH));
        BASES.put("every type", new Row(ALL_TYPES, "{\"id\":\"x\",\"ratio\":-12.5e-3,\"amount\":100.25,\"count\":7,\"big\":9007199254740993,"
                + "\"flag\":true,\"at\":\"2026-03-02T10:00:00.5-12:00\",\"day\":\"2026-03-02\",\"kind\":\"a\",\"code\":\"abc\","
                + "\"note\":\"\\ud83d\\ude00 \\t\\\"\\/\"}", null));
    }

    /** Inserted at every position: JSON's punctuation (doubled or trailing commas, missing or extra colons, unclosed or extra brackets), garbage, a NUL. */
    private static final List<String> INSERTS = List.of(",", ":", "}", "]", "{", "[", "\"", "\\", "x", "0", "-", ".", "e", "tru", "/",
            "\u0001", "\u0000", " ,", ",}", "}}", "} {}");
    /** Appended: a second document on the line, or garbage after the value. */
    private static final List<String> SUFFIXES = List.of("{}", " {\"event_id\":\"e2\"}", "1", "\"s\"", "null", "]", ",", "x", "[]",
            "//", "\u00e9");
    /** Put after a backslash inside each string: escapes JSON does not have. */
    private static final List<String> BAD_ESCAPES = List.of("x", "u12", "u00G0", "'", "U0041", "\u0001", "0");

    private int json;
    private int notJson;
    private int overFieldReason;
    /** Every misdiagnosis found, reported together so that one run shows the whole picture. */
    private final List<String> misdiagnoses = new ArrayList<>();

    @Test
    void everyMalformedVariant_isInvalidJson_andEveryWellFormedOne_isNot() throws Exception {
        for (Map.Entry<String, Row> base : BASES.entrySet()) {
            Row row = base.getValue();
            assertEquals(row.reason(), reason(row.contract(), row.text().getBytes(StandardCharsets.UTF_8)), base.getKey());
            for (String variant : variants(row.text())) {
                judge(base.getKey(), row, variant.getBytes(StandardCharsets.UTF_8));
            }
        }
        assertEquals(List.of(), misdiagnoses.subList(0, Math.min(40, misdiagnoses.size())), misdiagnoses.size() + " misdiagnoses");
        // the generator must produce both sides, and syntax errors behind field-level problems, or it proves nothing
        System.out.printf("[malformed rows] %,d variants Jackson reads, %,d it refuses (%,d behind a field-level reason), %d misdiagnoses%n", json, notJson, overFieldReason, misdiagnoses.size());
        assertTrue(json > 500 && notJson > 5_000 && overFieldReason > 2_000, "json " + json + ", not json " + notJson
                + ", over a field-level reason " + overFieldReason);
    }

    @Test
    void bytesThatAreNotUtf8_areInvalidUtf8_atEveryPosition_beforeAnyFieldLevelReason() throws IOException {
        List<byte[]> faults = List.of(new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xC0, (byte) 0x80},
                new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, new byte[] {(byte) 0xE2, (byte) 0x82});
        int checked = 0;
        for (String name : List.of("unknown field first", "type mismatch first")) {
            byte[] text = BASES.get(name).text().getBytes(StandardCharsets.UTF_8);
            for (int at = 0; at <= text.length; at += 3) {
                for (byte[] fault : faults) {
                    int position = at;
                    byte[] line = splice(text, at, 0, fault);
                    ValidationResult result = new StreamingValidator(BASES.get(name).contract(), ValidationLimits.defaults())
                            .validate(new ByteArrayInputStream(line), line.length, new ByteArrayOutputStream(), new ByteArrayOutputStream(),
                                    LineSet.empty());
                    assertEquals(Map.of(ReasonCode.INVALID_UTF8, 1L), result.reasons(), () -> name + " with a bad byte at " + position);
                    checked++;
                }
            }
        }
        assertTrue(checked > 200, "checked " + checked);
    }

    // ---- regressions, one per fault class, each with a field-level problem before the syntax error ----

    @Test
    void anUnknownField_thenGarbageAfterAValue_isInvalidJson() {
        assertReason(ReasonCode.INVALID_JSON, "{\"surprise\":1,\"event_id\":\"e1\" x}");
    }

    @Test
    void aMistypedValue_thenATrailingComma_isInvalidJson() {
        assertReason(ReasonCode.INVALID_JSON, "{\"attempt_number\":\"two\",}");
    }

    @Test
    void anUnknownField_thenADoubledComma_isInvalidJson() {
        assertReason(ReasonCode.INVALID_JSON, "{\"surprise\":1,,\"event_id\":\"e1\"}");
    }

    @Test
    void anUnknownField_thenAMissingColon_isInvalidJson() {
        assertReason(ReasonCode.INVALID_JSON, "{\"surprise\":1,\"event_id\" \"e1\"}");
    }

    @Test
    void aMistypedValue_inAnUnclosedObjectOrArray_isInvalidJson() {
        assertReason(ReasonCode.INVALID_JSON, "{\"attempt_number\":\"two\",\"event_id\":\"e1\"");
        assertReason(ReasonCode.INVALID_JSON, "{\"surprise\":[1,2,\"event_id\":\"e1\"}");
    }

    @Test
    void anUnknownField_thenABadEscape_isInvalidJson() {
        assertReason(ReasonCode.INVALID_JSON, "{\"surprise\":1,\"event_id\":\"e\\x1\"}");
    }

    @Test
    void aSecondDocumentOnTheLine_isInvalidJson_whateverTheFirstSaid() {
        assertReason(ReasonCode.INVALID_JSON, "{\"surprise\":1} {\"event_id\":\"e2\"}");
        assertReason(ReasonCode.INVALID_JSON, "[1,2] 3");
    }

    @Test
    void anUnknownFieldInAMalformedLine_doesNotRefuseAFileWhosePolicyRefusesUnknownFields() {
        DatasetContract refuse = TestContracts.progressEvents(c -> c.put("unknownFields", "refuse-file"));
        LineOutcome outcome = parse(refuse, "{\"surprise\":1,,}");
        assertEquals(ReasonCode.INVALID_JSON, outcome.reason);
        assertEquals(false, outcome.unknownField, "the line is not JSON: its keys are not fields");
    }

    @Test
    void aProhibitedKey_inAMalformedLine_stillRefusesTheFile() {
        LineOutcome outcome = parse(EVENTS, "{\"surprise\":1,\"email\":\"x\",,}");
        assertEquals("email", outcome.prohibited);
    }

    // ---- the generator and the oracle ----

    private static List<String> variants(String text) {
        Set<String> variants = new LinkedHashSet<>();
        for (int at = 0; at <= text.length(); at++) {
            for (String insert : INSERTS) {
                variants.add(text.substring(0, at) + insert + text.substring(at));
            }
            if (at < text.length()) {
                variants.add(text.substring(0, at) + text.substring(at + 1)); // a byte missing: a colon, a quote, a bracket
                for (String single : List.of(",", ":", "}", "]", "\"", "x", " ")) {
                    variants.add(text.substring(0, at) + single + text.substring(at + 1));
                }
                variants.add(text.substring(0, at)); // cut short: unclosed strings, objects and arrays
            }
        }
        for (String suffix : SUFFIXES) {
            variants.add(text + suffix);
            variants.add(text + " " + suffix);
        }
        // inside each string: an escape JSON does not have
        for (int at = text.indexOf('"'); at >= 0; at = text.indexOf('"', at + 1)) {
            for (String escape : BAD_ESCAPES) {
                variants.add(text.substring(0, at + 1) + "\\" + escape + text.substring(at + 1));
            }
        }
        return new ArrayList<>(variants);
    }

    private void judge(String base, Row row, byte[] line) throws IOException {
        String shown = base + ": " + new String(line, StandardCharsets.UTF_8);
        if (!Utf8.isValid(line, 0, line.length)) {
            return; // never from these inserts: all are UTF-8 (the other test covers bytes that are not)
        }
        if (new String(line, StandardCharsets.UTF_8).isBlank()) {
            return; // a blank line is ignored before any parser sees it (docs/contracts.md)
        }
        LineOutcome outcome = parse(row.contract(), line);
        Map<String, Object> jackson = jacksonRead(line);
        if (jackson == null) {
            notJson++;
            if (row.reason() != null) {
                overFieldReason++;
            }
            if (outcome.prohibited == null && (outcome.reason != ReasonCode.INVALID_JSON || outcome.field != null)) {
                misdiagnoses.add(outcome.reason + " where Jackson says it is not JSON: " + shown);
            }
        } else {
            json++;
            if (outcome.reason == ReasonCode.INVALID_JSON) {
                misdiagnoses.add("INVALID_JSON where Jackson reads JSON: " + shown);
                return;
            }
            if (outcome.reason == null && outcome.prohibited == null) {
                assertDecodesAsJacksonDoes(row.contract(), line, jackson, shown);
            }
        }
    }

    /** Every string and number field of an accepted row holds exactly the value Jackson decodes from the line. */
    private static void assertDecodesAsJacksonDoes(DatasetContract contract, byte[] line, Map<String, Object> jackson, String shown)
            throws IOException {
        CanonicalRow row = new CanonicalRow(contract);
        LineOutcome outcome = new LineOutcome();
        new JsonLineParser(contract, ValidationLimits.defaults()).parse(line, 0, line.length, row, outcome);
        ByteSink sink = new ByteSink(256);
        row.appendTo(sink);
        Map<String, Object> canonical = jacksonRead(java.util.Arrays.copyOf(sink.bytes, sink.size - 1));
        for (FieldSpec field : contract.fields()) {
            Object theirs = jackson.get(field.name());
            Object ours = canonical.get(field.name());
            if (theirs instanceof BigDecimal a && ours instanceof BigDecimal b
                    && (field.type() == FieldType.NUMBER || field.type() == FieldType.INTEGER)) {
                assertEquals(0, a.compareTo(b), () -> field.name() + " decodes to " + ours + ", Jackson says " + theirs + ": " + shown);
            } else if (theirs instanceof String && field.type() == FieldType.STRING) {
                assertEquals(theirs, ours, () -> field.name() + " decodes differently from Jackson: " + shown);
            }
        }
    }

    /** One JSON object's top-level scalar members as Jackson decodes them; null when the line is not one JSON text. */
    private static Map<String, Object> jacksonRead(byte[] line) {
        // as text, so that Jackson's byte-encoding detection (UTF-16 when an early byte is NUL) plays no part
        try (JsonParser p = JACKSON.createParser(new String(line, StandardCharsets.UTF_8))) {
            Map<String, Object> members = new HashMap<>();
            int depth = 0;
            int roots = 0;
            String name = null;
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (depth == 0) {
                    roots++;
                }
                if (t.isStructStart()) {
                    depth++;
                } else if (t.isStructEnd()) {
                    depth--;
                } else if (t == JsonToken.FIELD_NAME) {
                    name = p.currentName();
                } else if (depth == 1 && name != null) {
                    members.putIfAbsent(name, switch (t) {
                        case VALUE_STRING -> p.getText();
                        case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> decimal(p);
                        default -> t.name();
                    });
                } else if (t == JsonToken.VALUE_STRING) {
                    p.getText(); // decoded, so a bad escape anywhere counts
                }
            }
            return roots == 1 ? members : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The number as a BigDecimal, or its text when BigDecimal cannot hold it (an exponent past int's range). */
    private static Object decimal(JsonParser p) throws IOException {
        try {
            return p.getDecimalValue();
        } catch (NumberFormatException e) {
            return p.getText();
        }
    }

    private static ReasonCode reason(DatasetContract contract, byte[] line) {
        return parse(contract, line).reason;
    }

    private static LineOutcome parse(DatasetContract contract, String line) {
        return parse(contract, line.getBytes(StandardCharsets.UTF_8));
    }

    private static LineOutcome parse(DatasetContract contract, byte[] line) {
        LineOutcome outcome = new LineOutcome();
        new JsonLineParser(contract, ValidationLimits.defaults()).parse(line, 0, line.length, new CanonicalRow(contract), outcome);
        return outcome;
    }

    private static void assertReason(ReasonCode expected, String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        assertTrue(jacksonRead(bytes) == null, "the case must be one Jackson refuses: " + line);
        assertEquals(expected, reason(EVENTS, bytes), line);
    }

    private static byte[] splice(byte[] text, int at, int remove, byte[] insert) {
        byte[] out = new byte[text.length - remove + insert.length];
        System.arraycopy(text, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(text, at + remove, out, at + insert.length, text.length - at - remove);
        return out;
    }
}
