package io.landingledger.core.reference;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.testing.TestContracts;
import io.landingledger.core.validate.LineSet;
import io.landingledger.core.validate.StreamingValidator;
import io.landingledger.core.validate.ValidationLimits;
import io.landingledger.core.validate.ValidationResult;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reference's contract rules agree with the production {@link StreamingValidator} on seeded generated files: the
 * simulation's files and their neighbours (valid events in any key order and offset, identical and conflicting
 * repeats, one defect a line of every kind the reference models, blank lines, gzip, reject caps 0, 1 and 10). For
 * each file: the same decision, a refusal code the reference names, and for a publishable file the same published
 * bytes, counts and quarantine. {@code -Dreference.files=N} generates more.
 */
class ReferenceValidatorPropertyTest {
    private static final long FILES = Long.getLong("reference.files", 3_000);

    @Test
    void theReferenceRulesAgreeWithTheStreamingValidator_onGeneratedFiles() throws IOException {
        int[] caps = {0, 1, 10};
        Map<Integer, DatasetContract> production = new LinkedHashMap<>();
        for (int cap : caps) {
            production.put(cap, TestContracts.progressEvents(c -> c.put("maxRejectedLines", cap)));
        }
        int refused = 0;
        int withRejects = 0;
        for (long seed = 0; seed < FILES; seed++) {
            Random random = new Random(seed);
            int cap = caps[random.nextInt(caps.length)];
            byte[] file = file(random);
            ReferenceValidator.Verdict expected =
                    ReferenceValidator.judge(ReferenceContract.progressEvents("progress_events", 1, cap), file);
            ByteArrayOutputStream rows = new ByteArrayOutputStream();
            ByteArrayOutputStream rejects = new ByteArrayOutputStream();
            ValidationResult actual = new StreamingValidator(production.get(cap), ValidationLimits.defaults())
                    .validate(new ByteArrayInputStream(file), file.length, rows, rejects, LineSet.empty());
            String where = "seed " + seed + " (cap " + cap + "):\n" + text(file);
            assertEquals(expected.publishable(), actual.publishable(), where + "\nreference: " + expected.refusals()
                    + ", production: " + actual.document().refusal());
            if (!actual.publishable()) {
                refused++;
                assertTrue(expected.refusals().contains(actual.refusal().code().name()), where + "\nproduction refused "
                        + actual.refusal().code() + ", the reference " + expected.refusals());
                continue;
            }
            withRejects += expected.rejected() > 0 ? 1 : 0;
            assertEquals(new String(expected.rows(), StandardCharsets.UTF_8), rows.toString(StandardCharsets.UTF_8),
                    where);
            assertEquals(List.of((long) expected.accepted(), (long) expected.rejected(), (long) expected.duplicates()),
                    List.of(actual.accepted(), actual.rejected(), actual.duplicates()), where);
            assertEquals(new String(expected.quarantine(), StandardCharsets.UTF_8),
                    withoutUnknownNames(rejects.toString(StandardCharsets.UTF_8)),
                    where);
        }
        System.out.printf("reference rules vs StreamingValidator: %,d files agree (%,d refused, %,d published with"
                        + " rejects)%n",
                FILES, refused, withRejects);
        assertTrue(refused > FILES / 20 && withRejects > FILES / 20, "the generator exercises refusals and rejects");
    }

    /** An unknown field's quarantine record names no field the contract knows: compared by line and reason. */
    private static String withoutUnknownNames(String quarantine) {
        return quarantine.replaceAll("(\"reason\":\"UNKNOWN_FIELD\")[^}]*}", "$1}");
    }

    static byte[] file(Random random) {
        List<String> lines = new ArrayList<>();
        int n = random.nextInt(7);
        for (int i = 0; i < n; i++) {
            lines.add(line(random));
        }
        String text = String.join("\n", lines) + (random.nextInt(4) == 0 ? "" : "\n");
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return random.nextInt(5) == 0 ? gzip(bytes) : bytes;
    }

    /** One line: a valid event two times in three, else an event with one defect (or a blank line). */
    static String line(Random random) {
        Map<String, String> fields = new LinkedHashMap<>();
        int id = random.nextInt(5);
        fields.put("event_id", quote("e" + id));
        // few distinct payloads per id: identical repeats (duplicates) and different ones (conflicts) both happen
        fields.put("learner_id", quote("L" + (random.nextInt(3) == 0 ? 2 : 1)));
        fields.put("lesson_id", quote("les"));
        fields.put("event_type", quote(random.nextBoolean() ? "checkpoint" : "completed"));
        fields.put("attempt_number", "1");
        String[] offsets = {"Z", "z", "+01:00", "-05:30", "+00:00"};
        int hour = 9 + random.nextInt(2);
        String offset = offsets[random.nextInt(offsets.length)];
        fields.put("event_time", quote(time(hour, offset)));
        switch (random.nextInt(3)) {
            case 0 -> fields.put("checkpoint", Integer.toString(random.nextInt(3)));
            case 1 -> fields.put("checkpoint", "null");
            default -> {
            }
        }
        if (random.nextInt(3) == 0) {
            switch (random.nextInt(19)) {
                case 0 -> fields.remove("lesson_id");
                case 1 -> fields.put("learner_id", "null");
                case 2 -> fields.put("attempt_number", quote("one"));
                case 3 -> fields.put("attempt_number", "1.0");
                case 4 -> fields.put("attempt_number", "0");
                case 5 -> fields.put("event_type", quote("started"));
                case 6 -> fields.put("learner_id", quote(""));
                case 7 -> fields.put("extra", quote("x"));
                case 8 -> fields.put(random.nextBoolean() ? "email" : "Email", quote("planted@example.com"));
                case 9 -> fields.put("lesson_id", "{\"name\":\"x\"}");
                case 10 -> fields.put("event_time", quote("2026-03-01T09:00:00"));
                case 11 -> fields.put("event_time", quote("2026-13-01T09:00:00Z"));
                case 12 -> fields.put("event_time", quote("2026-03-01"));
                case 13 -> fields.put("checkpoint", "true");
                case 14 -> fields.put("lesson_id", "7");
                case 15 -> {
                    return "{\"event_id\":\"e1\",\"event_id\":\"e1\"}";
                }
                case 16 -> {
                    return random.nextBoolean() ? "[1,2]" : "\"text\"";
                }
                case 17 -> {
                    return "{\"event_id\":\"e" + id + "\",";
                }
                default -> {
                    return "";
                }
            }
        }
        List<String> names = new ArrayList<>(fields.keySet());
        if (random.nextBoolean()) {
            Collections.shuffle(names, random);
        }
        String separator = random.nextInt(4) == 0 ? ", " : ",";
        StringBuilder out = new StringBuilder("{");
        for (String name : names) {
            out.append(out.length() == 1 ? "" : separator).append(quote(name)).append(':').append(fields.get(name));
        }
        return out.append('}').toString();
    }

    /** 09:00:01 UTC (or 10:00:01) written in {@code offset}. */
    private static String time(int utcHour, String offset) {
        java.time.ZoneOffset zone = offset.equalsIgnoreCase("z") ? java.time.ZoneOffset.UTC
                : java.time.ZoneOffset.of(offset);
        java.time.OffsetDateTime t = java.time.OffsetDateTime.of(2026, 3, 1, utcHour, 0, 1, 0, java.time.ZoneOffset.UTC)
                .withOffsetSameInstant(zone);
        String local = t.toLocalDateTime()
                .format(java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss"));
        return local + offset;
    }

    private static String quote(String s) {
        return "\"" + s + "\"";
    }

    private static String text(byte[] file) {
        return file.length > 1 && (file[0] & 0xff) == 0x1f ? "(gzip)" : new String(file, StandardCharsets.UTF_8);
    }

    private static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
