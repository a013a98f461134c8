package io.landingledger.core.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.testing.TestContracts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The line parser reads JSON itself (for speed); Jackson, a parser many systems trust, is the reference for what
 * is JSON. Thousands of seeded random mutations of realistic lines (bytes deleted, inserted or replaced with JSON's
 * own punctuation, digits, escapes, control bytes and UTF-8) must never be accepted when Jackson says they are not
 * one JSON value, and must never be called INVALID_JSON when Jackson reads them as one.
 */
class JsonGrammarParityTest {
    private static final DatasetContract ALL_TYPES = TestContracts.allTypes();
    private static final DatasetContract EVENTS = TestContracts.progressEvents();
    private static final JsonFactory JACKSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(10_000).build())
            .build();
    private static final byte[] ALPHABET = "{}[]\":,\\ 0123456789.eE+-tfnrulasb/\t\r\u00e9x".getBytes(StandardCharsets.UTF_8);
    /** Lines each contract accepts as they are, so that a mutation's effect is rarely masked by another reason. */
    private static final Map<DatasetContract, List<String>> BASES = Map.of(
            EVENTS, List.of(
                    "{\"event_id\":\"e1\",\"learner_id\":\"l\",\"lesson_id\":\"m\",\"event_type\":\"checkpoint\",\"attempt_number\":2,"
                            + "\"event_time\":\"2026-03-02T10:00:00.120+01:00\",\"checkpoint\":null}",
                    "{ \"event_id\" : \"caf\\u00e9 \\\"q\\\" \\\\ \\/\", \"learner_id\":\"l\u00e9\",\"lesson_id\":\"m\",\"event_type\":\"completed\","
                            + "\"attempt_number\":10,\"event_time\":\"2026-03-02t10:00:00z\",\"checkpoint\":-0 }",
                    "  [ {\"k\" : {\"n\" : [ 1 , 2.0 , -3E+2, true, false, null ] } } , \"s\" , 0 ]  "),
            ALL_TYPES, List.of(
                    "{\"id\":\"x\",\"ratio\":-12.5e-3,\"amount\":100.25,\"count\":7,\"big\":9007199254740993,\"flag\":true,"
                            + "\"at\":\"2026-03-02T10:00:00.5-12:00\",\"day\":\"2026-03-02\",\"kind\":\"a\",\"code\":\"abc\","
                            + "\"note\":\"\\ud83d\\ude00 \\t\"}",
                    "{\"id\":\"y\",\"ratio\":0.0,\"amount\":-1E+2,\"count\":0,\"big\":-9223372036854775808,\"flag\":false,\"note\":null}"));

    @Test
    void neverAcceptsWhatJacksonRefusesNorRefusesWhatJacksonReads() {
        Random random = new Random(20261130);
        int jsonSeen = 0;
        int notJsonSeen = 0;
        for (DatasetContract contract : List.of(EVENTS, ALL_TYPES)) {
            List<String> bases = BASES.get(contract);
            JsonLineParser parser = new JsonLineParser(contract, ValidationLimits.defaults());
            CanonicalRow row = new CanonicalRow(contract);
            LineOutcome outcome = new LineOutcome();
            for (String base : bases) {
                byte[] bytes = base.getBytes(StandardCharsets.UTF_8);
                outcome.clear();
                parser.parse(bytes, 0, bytes.length, row, outcome);
                assertEquals(base.startsWith("{") ? null : ReasonCode.NOT_AN_OBJECT, outcome.reason, base);
            }
            for (int round = 0; round < 20_000; round++) {
                byte[] line = mutate(bases.get(random.nextInt(bases.size())).getBytes(StandardCharsets.UTF_8), random);
                if (!Utf8.isValid(line, 0, line.length)) {
                    continue; // the validator rejects such a line before parsing it
                }
                outcome.clear();
                parser.parse(line, 0, line.length, row, outcome);
                boolean json = isOneJsonValue(line);
                String shown = new String(line, StandardCharsets.UTF_8);
                if (json) {
                    jsonSeen++;
                    assertNotEquals(ReasonCode.INVALID_JSON, outcome.reason, () -> "Jackson reads this as JSON: " + shown);
                } else {
                    notJsonSeen++;
                    if (outcome.prohibited == null) {
                        assertNotNull(outcome.reason, () -> "Jackson says this is not JSON, but it was accepted: " + shown);
                    }
                }
            }
        }
        // the mutations must exercise both sides, or the test proves nothing
        assertEquals(true, jsonSeen > 2_000 && notJsonSeen > 10_000, "json " + jsonSeen + ", not json " + notJsonSeen);
    }

    private static byte[] mutate(byte[] base, Random random) {
        byte[] line = base;
        int edits = random.nextInt(3);
        for (int i = 0; i <= edits; i++) {
            if (random.nextInt(5) == 0) {
                continue; // some lines stay valid, so the "reads as JSON" side is exercised too
            }
            int at = random.nextInt(line.length + 1);
            int op = random.nextInt(3);
            byte b = random.nextInt(20) == 0 ? (byte) random.nextInt(0x20) : ALPHABET[random.nextInt(ALPHABET.length)];
            if (op == 0 && at < line.length) {
                byte[] shorter = new byte[line.length - 1];
                System.arraycopy(line, 0, shorter, 0, at);
                System.arraycopy(line, at + 1, shorter, at, line.length - at - 1);
                line = shorter;
            } else if (op == 1) {
                byte[] longer = new byte[line.length + 1];
                System.arraycopy(line, 0, longer, 0, at);
                longer[at] = b;
                System.arraycopy(line, at, longer, at + 1, line.length - at);
                line = longer;
            } else if (at < line.length) {
                line = line.clone();
                line[at] = b;
            }
        }
        return line;
    }

    /** Jackson reads exactly one JSON value from the line and nothing after it (strings decoded, so escapes count). */
    private static boolean isOneJsonValue(byte[] line) {
        // as text, so that Jackson's byte-encoding detection (UTF-16 when an early byte is NUL) plays no part
        try (JsonParser p = JACKSON.createParser(new String(line, StandardCharsets.UTF_8))) {
            int depth = 0;
            int rootValues = 0;
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (depth == 0) {
                    rootValues++;
                }
                if (t.isStructStart()) {
                    depth++;
                } else if (t.isStructEnd()) {
                    depth--;
                } else if (t == JsonToken.VALUE_STRING || t == JsonToken.FIELD_NAME) {
                    p.getText();
                }
            }
            return rootValues == 1;
        } catch (IOException e) {
            return false;
        }
    }
}
