package io.landingledger.core.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;

import io.landingledger.core.contract.DataFormat;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.FieldSpec;
import io.landingledger.core.testing.Gzip;
import io.landingledger.core.testing.TestContracts;
import io.landingledger.core.validate.Validation.Outcome;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The validator's promise that content never makes it throw: every input ends in a decision (publishable, or refused
 * with a code), and the counts of a publishable result account for every line read. Seeded mutations of valid
 * progress_events JSONL lines and transactions CSV rows (digits, exponents, signs, quotes, escapes, cut, repeated and
 * random bytes, bytes that are not UTF-8, CR and LF, very long numbers, empty cells, commas inside quotes), several to
 * a file, mixed with valid and blank lines, some files gzip, are validated one by one.
 *
 * <p>Reproducible: the seed is fixed, and every failure message names it with the file's index and seed. Run other
 * seeds or more cases with {@code -Dfuzz.seed=N -Dfuzz.count=N} (count is mutated lines, at least), or one file with
 * {@code -Dfuzz.fileSeed=N} as printed.
 */
class ValidatorFuzzTest {
    private static final long DEFAULT_SEED = 20260321L;
    private static final int DEFAULT_COUNT = 100_000;

    private static final DatasetContract EVENTS = TestContracts.progressEvents();
    private static final DatasetContract TRANSACTIONS = TestContracts.transactions();
    // A cap no file here reaches, so that most files stay publishable and their counts can be checked; the shipped
    // caps (10, 0) are used too, for the refusals.
    private static final DatasetContract EVENTS_UNCAPPED = TestContracts.progressEvents(c -> c.put("maxRejectedLines", 1_000_000));
    private static final DatasetContract TRANSACTIONS_UNCAPPED = TestContracts.transactions(c -> c.put("maxRejectedLines", 1_000_000));

    private static final ValidationLimits DEFAULT_LIMITS = ValidationLimits.defaults();
    /** Small enough that the long-number and repeated-byte mutations make some lines too long. */
    private static final ValidationLimits SMALL_LINES = ValidationLimits.builder().maxLineBytes(2048).build();
    private static final ValidationLimits TINY_LINES = ValidationLimits.builder().maxLineBytes(64).build();

    private static final String[] CSV_COLUMNS = {"txn_id", "account_id", "business_date", "amount", "batch_date"};

    /** Numbers at and beyond every limit the parsers have: int64, double, BigDecimal's int scale, 1000 characters. */
    private static final String[] NUMBERS = {
        "1e9999999999", "-1e9999999999", "1E+9999999999", "1e-9999999999", "0e9999999999", "1e2147483647", "1e-2147483647",
        "1e-2147483648", "1.5E-2147483647", "10e2147483647", "0.000e-2147483647", "1e400", "-1e400", "2e308", "1e-400",
        "4.9e-324", "1.7976931348623157e308", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "-9223372036854775809", "99999999999999999999999", "-0", "0", "0.0", "-0.0e-0", "00", "01", "-01", "1.", "1.e5", ".5",
        "+1", "1e", "1e+", "1E-", "--1", "-", "NaN", "Infinity", "-Infinity", "0x1F", "1_000", "1,5", "1 000",
        "\u0661\u0662\u0663", "\uff11\uff12", "1e\u0663", "1" + "0".repeat(1000), "1" + "0".repeat(999),
        "0." + "0".repeat(997) + "1", "0." + "0".repeat(998) + "1", "-1." + "0".repeat(1000), "1." + "0".repeat(1000) + "e5",
        "1.5e+0005", "1E00000000000000000000000001", "123456789012345678901234567890.123456789e-30",
    };
    private static final String[] EXPONENTS = {"e9999999999", "E+9999999999", "e-9999999999", "e2147483647", "e-2147483648",
        "e400", "E-400", "e+", "e-", "E", "e0", "e00001", "e+5", "E-5", ".5e5", "e1.5", "ee1"};
    private static final String[] TIMESTAMPS = {
        "2026-03-02T14:02:11Z", "9999-12-31T23:59:59-23:59", "0000-01-01T00:00:00+23:59", "9999-12-31T23:59:59Z",
        "0000-01-01T00:00:00Z", "2026-02-29T00:00:00Z", "2024-02-29T00:00:00Z", "2026-03-02T14:02:11.1234567891Z",
        "2026-03-02T14:02:11.123456789+05:30", "2026-03-02T14:02:11.Z", "2026-03-02T14:02:11+24:00", "2026-03-02T14:02:11+0100",
        "2026-03-02", "2026-03-02T", "2026-03-02T14:02:60Z", "2026-03-02T14:02:11", "2026-03-02t14:02:11z",
        "1970-01-01T00:00:00-00:00", "\uff12\uff10\uff12\uff16-03-02T14:02:11Z", "2026-03-02T14:02:11Z ", " 2026-03-02T14:02:11Z",
        "2026-3-2T14:02:11Z", "+2026-03-02T14:02:11Z", "2026-03-02T14:02:11\u00e9", "", "T", "2026-03-02T14:02:11-",
    };
    private static final String[] DATES = {"2026-10-01", "2026-02-29", "2024-02-29", "0000-01-01", "9999-12-31", "2026-13-01",
        "2026-00-10", "2026-10-32", "2026-1-01", "20261001", "2026-10-01T00:00:00Z", "\uff12026-10-01", "", "-2026-10-01"};
    /** JSON string contents with every kind of escape, good and bad, and raw bytes JSON forbids. */
    private static final String[] JSON_STRINGS = {"", "caf\\u00e9", "\\ud83d\\ude00", "\\ud800", "\\udc00", "\\udc00\\ud800",
        "\\u0000", "\\u001f", "\\uZZZZ", "\\u12", "\\u", "\\x41", "\\'", "\\", "\\\\", "\\\"", "\\/", "\\b\\f\\n\\r\\t",
        "\u0001", "\t", "\u00e9", "\uD83D\uDE00", "name", "email", "a,b", "a\"b", "x".repeat(3000)};
    /** CSV cells, quoted and not, well and badly formed. */
    private static final String[] CSV_CELLS = {"", "\"\"", "\"a,b\"", "\"a\"\"b\"", "\"a,\"\"b\"\",c\"", "a\"b", "\"unterminated",
        "\"x\"y", "\"\"\"\"", " 1", "1 ", "\"1e9999999999\"", "\"line\nbreak\"", "\"cr\r\nlf\"", "\"", "\"a\"\"", "\u00e9",
        "\t", "T-0101", "x".repeat(3000), ",", "\"a\",\"b\""};
    /** Byte sequences that are not UTF-8: continuation bytes, overlong forms, surrogates, beyond U+10FFFF, cut sequences. */
    private static final byte[][] NOT_UTF8 = {{(byte) 0x80}, {(byte) 0xBF}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xC1, (byte) 0xBF},
        {(byte) 0xE0, (byte) 0x80, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
        {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xFF}, {(byte) 0xFE}, {(byte) 0xE2, (byte) 0x82},
        {(byte) 0xF0, (byte) 0x9F, (byte) 0x98}, {(byte) 0xC3}, {(byte) 0xEB}};

    private static final JsonFactory JACKSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNumberLength(Integer.MAX_VALUE).build())
            .build();
    private static final Pattern REJECT = Pattern.compile(
            "\\{\"line\":(\\d+),\"reason\":\"([A-Z0-9_]+)\"(?:,\"field\":\"([A-Za-z0-9_]+|sha256:[0-9a-f]{16})\")?(?:,\"detail\":\"[^\"\\\\]*\")?}");

    /** What the run saw, so that a mutation scheme that stopped reaching the validator's paths shows up. */
    private final Map<ReasonCode, Long> reasonsSeen = new EnumMap<>(ReasonCode.class);
    private final Map<RefusalCode, Long> refusalsSeen = new EnumMap<>(RefusalCode.class);
    private long publishableWithRejects;
    private long accepted;
    private long duplicates;
    private long multiLineRecords;

    @Test
    void validate_onSeededMutationsOfValidLines_alwaysEndsInADecisionWithCountsThatAddUp() {
        long seed = Long.getLong("fuzz.seed", DEFAULT_SEED);
        int count = Integer.getInteger("fuzz.count", DEFAULT_COUNT);
        Long onlyFile = Long.getLong("fuzz.fileSeed");
        if (onlyFile != null) {
            check(new FuzzFile(onlyFile), "fuzz.fileSeed=" + onlyFile);
            return;
        }
        Random master = new Random(seed);
        long mutated = 0;
        int files = 0;
        while (mutated < count) {
            long fileSeed = master.nextLong();
            FuzzFile file = new FuzzFile(fileSeed);
            check(file, "fuzz.seed=" + seed + ", file #" + files + " (rerun it alone with -Dfuzz.fileSeed=" + fileSeed + ")");
            mutated += file.mutatedLines;
            files++;
        }
        System.out.printf("ValidatorFuzzTest: seed %d, %d files, %d mutated lines, %d publishable with rejects, %d rows accepted,"
                + " %d duplicates, %d CSV records over several lines; reasons %s; refusals %s%n", seed, files, mutated,
                publishableWithRejects, accepted, duplicates, multiLineRecords, reasonsSeen, refusalsSeen);
        if (count < DEFAULT_COUNT) {
            return; // a short run is for a quick look; the coverage below is what the default count reaches
        }
        // the mutations must reach the validator's decisions, or a passing run proves little
        String seen = "seed " + seed + ": reasons " + reasonsSeen + ", refusals " + refusalsSeen;
        for (ReasonCode reason : List.of(ReasonCode.INVALID_UTF8, ReasonCode.INVALID_UNICODE, ReasonCode.INVALID_JSON,
                ReasonCode.NOT_AN_OBJECT, ReasonCode.UNKNOWN_FIELD, ReasonCode.MISSING_FIELD, ReasonCode.TYPE_MISMATCH,
                ReasonCode.ENUM_MISMATCH, ReasonCode.OUT_OF_RANGE, ReasonCode.NUMBER_OVERFLOW, ReasonCode.STRING_LENGTH,
                ReasonCode.TIMESTAMP_NO_OFFSET, ReasonCode.TIMESTAMP_INVALID, ReasonCode.DATE_INVALID, ReasonCode.LINE_TOO_LONG,
                ReasonCode.NESTING_TOO_DEEP, ReasonCode.CSV_COLUMN_COUNT, ReasonCode.CSV_MALFORMED, ReasonCode.DUPLICATE_FIELD)) {
            assertTrue(reasonsSeen.getOrDefault(reason, 0L) > 0, () -> reason + " never seen; " + seen);
        }
        for (RefusalCode refusal : List.of(RefusalCode.REJECT_CAP, RefusalCode.KEY_CONFLICT, RefusalCode.CSV_HEADER_MISMATCH,
                RefusalCode.UNREADABLE, RefusalCode.PROHIBITED_FIELD)) {
            assertTrue(refusalsSeen.getOrDefault(refusal, 0L) > 0, () -> refusal + " never seen; " + seen);
        }
        assertTrue(publishableWithRejects > 1000 && accepted > 10_000 && duplicates > 100 && multiLineRecords > 100,
                () -> "publishable with rejects " + publishableWithRejects + ", accepted " + accepted + ", duplicates " + duplicates
                        + ", CSV records over several lines " + multiLineRecords + "; " + seen);
    }

    private void check(FuzzFile file, String where) {
        Where context = new Where(where, file, "");
        Outcome outcome = validate(file, file.stored, context);
        assertDecidedAndCounted(file, outcome, context);
        if (file.gzip && !file.gzipDamaged) {
            // the same lines as plain text decide the same
            Outcome plain = validate(file, file.plain, new Where(where, file, " (as plain text)"));
            ValidationResult g = outcome.result();
            ValidationResult p = plain.result();
            assertEquals(List.of(p.lines(), p.blankLines(), p.accepted(), p.duplicates(), p.rejected(), p.reasons(), String.valueOf(p.refusal())),
                    List.of(g.lines(), g.blankLines(), g.accepted(), g.duplicates(), g.rejected(), g.reasons(), String.valueOf(g.refusal())),
                    () -> "gzip and plain text decide differently; " + context);
            assertEquals(plain.acceptedText(), outcome.acceptedText(), () -> "gzip and plain text accept differently; " + context);
            assertEquals(plain.rejectsText(), outcome.rejectsText(), () -> "gzip and plain text reject differently; " + context);
        }
        // every file, parsed by workers in chunks as small as a 7-byte read, decides and writes what one thread does
        Outcome single = Validation.once(new StreamingValidator(file.contract, file.limits.withWorkers(1)), file.stored, Integer.MAX_VALUE);
        try {
            Validation.assertSameWithWorkers(single, file.contract, file.limits, file.stored, 4, 7);
        } catch (RuntimeException | AssertionError e) {
            throw new AssertionError("worker counts disagree or throw; " + context, e);
        }
        if (file.crossCheckReads) {
            try {
                Validation.validate(file.contract, file.limits, file.stored); // 1-, 7- and 8 KiB reads give the same result
            } catch (RuntimeException | AssertionError e) {
                throw new AssertionError("read sizes disagree or throw; " + context, e);
            }
        }
    }

    private static Outcome validate(FuzzFile file, byte[] bytes, Where context) {
        try {
            return Validation.once(new StreamingValidator(file.contract, file.limits), bytes, Integer.MAX_VALUE);
        } catch (RuntimeException e) {
            // content must never make the validator throw: that is what this test guards
            throw new AssertionError("the validator threw instead of deciding; " + context, e);
        }
    }

    private void assertDecidedAndCounted(FuzzFile file, Outcome outcome, Where context) {
        ValidationResult r = outcome.result();
        Refusal refusal = r.refusal();
        if (refusal != null) {
            assertTrue(refusal.code() != null && refusal.detail() != null, () -> "a refusal without a code; " + context);
            refusalsSeen.merge(refusal.code(), 1L, Long::sum);
        }
        r.reasons().forEach((reason, n) -> reasonsSeen.merge(reason, n, Long::sum));
        // The outputs hold what the counts say, refused or not (a refused file's outputs are discarded, but the
        // counts in its result are still reported to the producer).
        List<String> rejectLines = outcome.rejectLines();
        assertEquals(r.rejected(), rejectLines.size(), () -> "rejects lines differ from rejected; " + context);
        assertEquals(r.rejected(), r.reasons().values().stream().mapToLong(Long::longValue).sum(),
                () -> "reasons do not add up to rejected; " + context);
        Map<ReasonCode, Long> written = new EnumMap<>(ReasonCode.class);
        long previousLine = 0;
        for (String record : rejectLines) {
            Matcher m = REJECT.matcher(record);
            assertTrue(m.matches(), () -> "a rejects record that is not {line, reason, field, detail}: " + record + "; " + context);
            long line = Long.parseLong(m.group(1));
            assertTrue(line > previousLine && line <= r.lines(), () -> "rejects lines out of order or past the end: " + record + "; " + context);
            previousLine = line;
            written.merge(ReasonCode.valueOf(m.group(2)), 1L, Long::sum);
        }
        assertEquals(r.reasons(), written, () -> "the rejects records' reasons differ from the result's; " + context);
        List<String> acceptedLines = outcome.acceptedLines();
        assertEquals(r.accepted(), acceptedLines.size(), () -> "accepted lines differ from accepted; " + context);
        assertEquals(r.acceptedBytes(), outcome.accepted().length, () -> "accepted bytes differ from acceptedBytes; " + context);
        for (String row : acceptedLines) {
            assertCanonicalRow(file.contract, row, context);
        }
        if (refusal == null) {
            // Every physical line read is accounted for once: a row accepted, a duplicate collapsed, a line rejected
            // or a blank line. CSV also reads its header, and a record whose quoted cell holds line breaks is
            // several physical lines (counted in lines, one record in the other counts); those come from a model
            // of the documented CSV rules, not from the validator.
            long records = r.accepted() + r.duplicates() + r.rejected() + r.blankLines();
            long expectedLines = records;
            if (file.contract.format() == DataFormat.CSV) {
                CsvLines csv = CsvLines.of(file.decoded(context), file.limits.maxLineBytes());
                multiLineRecords += csv.joinedRecords;
                expectedLines += csv.headerLines + csv.continuationLines;
            }
            long lines = expectedLines;
            assertEquals(lines, r.lines(), () -> "accepted " + r.accepted() + " + duplicates " + r.duplicates() + " + rejected "
                    + r.rejected() + " + blank " + r.blankLines() + " (+ CSV header and continuation lines) is not lines " + r.lines()
                    + "; " + context);
            accepted += r.accepted();
            duplicates += r.duplicates();
            if (r.rejected() > 0) {
                publishableWithRejects++;
            }
        }
    }

    /** An accepted row is one JSON object holding exactly the contract's fields, in the canonical (sorted) order. */
    private static void assertCanonicalRow(DatasetContract contract, String row, Where context) {
        List<String> names = new ArrayList<>();
        try (JsonParser parser = JACKSON.createParser(row)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                fail("an accepted row is not a JSON object; " + context);
            }
            for (JsonToken token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
                names.add(parser.currentName());
                if (parser.nextToken().isStructStart()) {
                    fail("an accepted row holds a nested value; " + context);
                }
                if (parser.currentToken() == JsonToken.VALUE_STRING) {
                    parser.getText(); // decodes the string: a broken escape would throw here
                }
            }
            if (parser.nextToken() != null) {
                fail("an accepted row has content after its object; " + context);
            }
        } catch (IOException e) {
            throw new AssertionError("an accepted row is not JSON: " + e.getMessage() + "; " + context, e);
        }
        List<String> expected = contract.fields().stream().map(FieldSpec::name).sorted().toList();
        assertEquals(expected, names, () -> "an accepted row does not hold exactly the contract's fields; " + context);
    }

    /** Where a check failed, for its message: only turned into text when one fails (it holds the file). */
    private record Where(String run, FuzzFile file, String note) {
        @Override
        public String toString() {
            return run + ", " + file.describe() + note;
        }
    }

    // ---- the files ----

    /** One generated input: its lines, which of them were mutated, and how it is validated. */
    private static final class FuzzFile {
        final long seed;
        final DatasetContract contract;
        final ValidationLimits limits;
        final byte[] plain;
        final byte[] stored;
        final boolean gzip;
        final boolean gzipDamaged;
        final boolean crossCheckReads;
        int mutatedLines;

        FuzzFile(long seed) {
            this.seed = seed;
            Random r = new Random(seed);
            boolean csv = r.nextBoolean();
            boolean capped = r.nextInt(5) == 0;
            this.contract = csv ? (capped ? TRANSACTIONS : TRANSACTIONS_UNCAPPED) : (capped ? EVENTS : EVENTS_UNCAPPED);
            int l = r.nextInt(20);
            this.limits = l == 0 ? TINY_LINES : l < 4 ? DEFAULT_LIMITS : SMALL_LINES;
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            if (r.nextInt(20) == 0) {
                out.writeBytes(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}); // a byte order mark
            }
            String eol = r.nextInt(4) == 0 ? "\r\n" : "\n";
            List<byte[]> earlier = new ArrayList<>();
            if (csv) {
                List<String> header = new ArrayList<>(List.of(CSV_COLUMNS));
                if (r.nextInt(3) == 0) {
                    Collections.shuffle(header, r);
                }
                byte[] headerLine = String.join(",", header).getBytes(StandardCharsets.UTF_8);
                if (r.nextInt(50) == 0) {
                    headerLine = mutateBytes(headerLine, r); // mostly a CSV_HEADER_MISMATCH refusal
                    mutatedLines++;
                }
                out.writeBytes(headerLine);
                out.writeBytes(eol.getBytes(StandardCharsets.US_ASCII));
                writeLines(out, r, eol, earlier, () -> csvRow(r, header));
            } else {
                writeLines(out, r, eol, earlier, () -> jsonLine(r));
            }
            byte[] text = out.toByteArray();
            if (r.nextInt(8) == 0 && text.length > 0) {
                text = Arrays.copyOf(text, text.length - 1 - r.nextInt(Math.min(text.length, 3))); // no final terminator, or a cut one
            }
            this.plain = text;
            this.gzip = r.nextInt(10) == 0;
            this.gzipDamaged = gzip && r.nextInt(4) == 0;
            byte[] bytes = gzip ? Gzip.gzip(plain) : plain;
            if (gzipDamaged) {
                bytes = damageGzip(bytes, r);
            }
            this.stored = bytes;
            this.crossCheckReads = r.nextInt(100) == 0;
        }

        private void writeLines(ByteArrayOutputStream out, Random r, String eol, List<byte[]> earlier, java.util.function.Supplier<byte[]> valid) {
            int lines = 2 + r.nextInt(10);
            for (int i = 0; i < lines; i++) {
                byte[] line;
                int kind = r.nextInt(20);
                if (kind == 0) {
                    line = new String[] {"", " ", "\t", " \t "}[r.nextInt(4)].getBytes(StandardCharsets.US_ASCII);
                } else if (kind == 1 && !earlier.isEmpty()) {
                    line = earlier.get(r.nextInt(earlier.size())); // an exact repeat: a duplicate, or its reject again
                } else if (kind < 5) {
                    line = valid.get();
                } else {
                    line = mutateBytes(valid.get(), r);
                    mutatedLines++;
                }
                earlier.add(line);
                out.writeBytes(line);
                out.writeBytes(eol.getBytes(StandardCharsets.US_ASCII));
            }
        }

        /**
         * The text the validator read: the plain lines, or for a damaged gzip file what a GZIPInputStream makes of it
         * (a damage can leave it no gzip at all: too short for the magic bytes, it is plain text).
         */
        byte[] decoded(Where context) {
            if (!gzipDamaged) {
                return plain;
            }
            if (stored.length < 2 || stored[0] != (byte) 0x1f || stored[1] != (byte) 0x8b) {
                return stored;
            }
            try (java.util.zip.GZIPInputStream in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(stored))) {
                return in.readAllBytes();
            } catch (IOException e) {
                throw new AssertionError("published a gzip file the JDK cannot read (" + e + "); " + context, e);
            }
        }

        String describe() {
            return "contract " + contract.dataset() + " (cap " + contract.maxRejectedLines() + "), maxLineBytes " + limits.maxLineBytes()
                    + (gzip ? ", gzip" + (gzipDamaged ? " (damaged)" : "") : "") + ", file " + escape(plain);
        }
    }

    private static byte[] damageGzip(byte[] gz, Random r) {
        byte[] out = gz.clone();
        switch (r.nextInt(4)) {
            case 0 -> out = Arrays.copyOf(out, r.nextInt(out.length)); // truncated
            case 1 -> out[r.nextInt(out.length)] ^= (byte) (1 << r.nextInt(8)); // a flipped bit
            case 2 -> { // trailing bytes that are not another member
                out = Arrays.copyOf(out, out.length + 1 + r.nextInt(8));
                for (int i = gz.length; i < out.length; i++) {
                    out[i] = (byte) r.nextInt(256);
                }
            }
            default -> { // a second member, itself cut
                byte[] second = Arrays.copyOf(gz, Math.max(10, r.nextInt(gz.length)));
                out = Arrays.copyOf(gz, gz.length + second.length);
                System.arraycopy(second, 0, out, gz.length, second.length);
            }
        }
        return out;
    }

    // ---- valid lines, with their values sometimes swapped for hostile ones ----

    private static byte[] jsonLine(Random r) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("event_id", jsonString(r.nextInt(10) == 0 ? "caf\\u00e9-" + r.nextInt(1000) : "e-" + r.nextInt(1000)));
        fields.put("learner_id", jsonString(r.nextInt(8) == 0 ? "L\u00e9\\\"" + r.nextInt(9) : "L" + r.nextInt(100)));
        fields.put("lesson_id", jsonString("lesson-" + r.nextInt(20)));
        fields.put("event_type", jsonString(r.nextBoolean() ? "checkpoint" : "completed"));
        fields.put("attempt_number", Integer.toString(1 + r.nextInt(r.nextBoolean() ? 9 : 1_000_000)));
        fields.put("event_time", jsonString(timestamp(r)));
        fields.put("checkpoint", r.nextInt(5) == 0 ? "null" : r.nextInt(3) == 0 ? "-" + r.nextInt(100) : Integer.toString(r.nextInt(1000)));
        if (r.nextInt(6) == 0) {
            fields.remove("checkpoint");
        }
        int swaps = r.nextInt(4) == 0 ? 1 + r.nextInt(2) : 0;
        List<String> names = new ArrayList<>(fields.keySet());
        for (int i = 0; i < swaps; i++) {
            String name = names.get(r.nextInt(names.size()));
            fields.put(name, hostileJsonValue(r, name));
        }
        if (r.nextInt(40) == 0) {
            fields.put(new String[] {"extra", "Email", "NAME", "payment_Token", "event_id2", "ev\\u0065nt_id"}[r.nextInt(6)], "1");
        }
        List<String> order = new ArrayList<>(fields.keySet());
        if (r.nextInt(3) == 0) {
            Collections.shuffle(order, r);
        }
        String colon = r.nextInt(6) == 0 ? " : " : ":";
        String comma = r.nextInt(6) == 0 ? " , " : ",";
        StringBuilder line = new StringBuilder(r.nextInt(10) == 0 ? " {" : "{");
        for (int i = 0; i < order.size(); i++) {
            if (i > 0) {
                line.append(comma);
            }
            line.append('"').append(order.get(i)).append('"').append(colon).append(fields.get(order.get(i)));
        }
        if (r.nextInt(50) == 0) {
            line.append(comma).append('"').append(order.get(0)).append('"').append(colon).append("1"); // a repeated field
        }
        line.append(r.nextInt(10) == 0 ? "} " : "}");
        return line.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String hostileJsonValue(Random r, String field) {
        return switch (r.nextInt(7)) {
            case 0, 1 -> NUMBERS[r.nextInt(NUMBERS.length)];
            case 2 -> jsonString(JSON_STRINGS[r.nextInt(JSON_STRINGS.length)]);
            case 3 -> jsonString(TIMESTAMPS[r.nextInt(TIMESTAMPS.length)]);
            case 4 -> new String[] {"null", "true", "false", "[]", "{}", "[1,2]", "{\"email\":1}", "{\"a\":[{\"b\":null}]}", "tru", "nul"}[r.nextInt(10)];
            case 5 -> "[".repeat(1 + r.nextInt(200)) + "]".repeat(r.nextInt(201)); // deep, and often unbalanced
            default -> longNumber(r);
        };
    }

    private static byte[] csvRow(Random r, List<String> header) {
        Map<String, String> cells = new LinkedHashMap<>();
        cells.put("txn_id", r.nextInt(12) == 0 ? "\"T," + r.nextInt(1000) + "\"" : "T-" + r.nextInt(1000));
        cells.put("account_id", switch (r.nextInt(12)) {
            case 0 -> "\"A \"\"quoted\"\", " + r.nextInt(9) + "\"";
            case 1 -> "\"A-" + r.nextInt(9) + "\nsecond line\"";
            case 2 -> "\"A,\r\n\"\",\"\"\n" + r.nextInt(9) + "\"";
            case 3 -> "A-\u00e9" + r.nextInt(9);
            default -> "A-" + r.nextInt(20);
        });
        cells.put("business_date", date(r));
        cells.put("amount", switch (r.nextInt(6)) {
            case 0 -> Integer.toString(r.nextInt(1000) - 500);
            case 1 -> r.nextInt(100) + "e" + (r.nextInt(7) - 3);
            case 2 -> "\"" + r.nextInt(1000) + "." + r.nextInt(100) + "\"";
            default -> r.nextInt(1000) + "." + two(r.nextInt(100));
        });
        cells.put("batch_date", date(r));
        int swaps = r.nextInt(4) == 0 ? 1 + r.nextInt(2) : 0;
        for (int i = 0; i < swaps; i++) {
            String name = CSV_COLUMNS[r.nextInt(CSV_COLUMNS.length)];
            cells.put(name, switch (r.nextInt(6)) {
                case 0, 1 -> NUMBERS[r.nextInt(NUMBERS.length)];
                case 2 -> CSV_CELLS[r.nextInt(CSV_CELLS.length)];
                case 3 -> r.nextBoolean() ? DATES[r.nextInt(DATES.length)] : TIMESTAMPS[r.nextInt(TIMESTAMPS.length)];
                case 4 -> "\"" + NUMBERS[r.nextInt(NUMBERS.length)].replace("\"", "\"\"") + "\""; // quoted: the same number
                default -> longNumber(r);
            });
        }
        List<String> row = new ArrayList<>();
        for (String column : header) {
            row.add(cells.get(column));
        }
        if (r.nextInt(40) == 0) {
            row.add(r.nextBoolean() ? "" : "extra"); // one cell too many
        } else if (r.nextInt(40) == 0) {
            row.remove(row.size() - 1);
        }
        return String.join(",", row).getBytes(StandardCharsets.UTF_8);
    }

    private static String timestamp(Random r) {
        String date = (1990 + r.nextInt(50)) + "-" + two(1 + r.nextInt(12)) + "-" + two(1 + r.nextInt(28));
        String time = two(r.nextInt(24)) + ":" + two(r.nextInt(60)) + ":" + two(r.nextInt(60));
        String fraction = r.nextInt(3) == 0 ? "." + "123456789".substring(0, 1 + r.nextInt(9)) : "";
        String offset = r.nextInt(3) == 0 ? "Z" : (r.nextBoolean() ? "+" : "-") + two(r.nextInt(24)) + ":" + two(r.nextInt(60));
        return date + (r.nextInt(10) == 0 ? "t" : "T") + time + fraction + offset;
    }

    private static String date(Random r) {
        return (2000 + r.nextInt(40)) + "-" + two(1 + r.nextInt(12)) + "-" + two(1 + r.nextInt(28));
    }

    /** Two digits (String.format costs more than the validation of a line). */
    private static String two(int value) {
        return value < 10 ? "0" + value : Integer.toString(value);
    }

    private static String jsonString(String content) {
        return "\"" + content + "\"";
    }

    /** 900 to 1100 digits, sometimes signed, with a fraction or an exponent: around the 1000-character limit. */
    private static String longNumber(Random r) {
        StringBuilder number = new StringBuilder(r.nextBoolean() ? "-" : "");
        number.append((char) ('1' + r.nextInt(9)));
        int digits = 900 + r.nextInt(200);
        for (int i = 0; i < digits; i++) {
            number.append((char) ('0' + r.nextInt(10)));
        }
        if (r.nextBoolean()) {
            number.insert(1 + r.nextInt(number.length() - 1), '.');
            if (number.charAt(number.length() - 1) == '.') {
                number.append('5');
            }
        }
        if (r.nextInt(3) == 0) {
            number.append(EXPONENTS[r.nextInt(EXPONENTS.length)]);
        }
        return number.toString().replace("-.", "-0.");
    }

    // ---- byte-level mutations ----

    /** One to three byte-level edits of a line, each aimed at one of the parsers' hard cases. */
    static byte[] mutateBytes(byte[] line, Random r) {
        byte[] b = line;
        int edits = 1 + r.nextInt(3);
        for (int e = 0; e < edits; e++) {
            int at = r.nextInt(b.length + 1);
            b = switch (r.nextInt(15)) {
                case 0 -> { // another digit, or a digit that is not ASCII
                    int digit = indexOfDigit(b, at);
                    yield digit < 0 ? b : r.nextInt(10) == 0 ? replace(b, digit, 1, "\u0663".getBytes(StandardCharsets.UTF_8))
                            : replace(b, digit, 1, new byte[] {(byte) ('0' + r.nextInt(10))});
                }
                case 1 -> { // an exponent after a digit run
                    int digit = indexOfDigit(b, at);
                    int end = digit;
                    while (end >= 0 && end < b.length && b[end] >= '0' && b[end] <= '9') {
                        end++;
                    }
                    yield digit < 0 ? b : insert(b, end, ascii(EXPONENTS[r.nextInt(EXPONENTS.length)]));
                }
                case 2 -> insert(b, at, ascii(new String[] {"-", "+", "--", "-0", "+-"}[r.nextInt(5)]));
                case 3 -> r.nextBoolean() ? insert(b, at, new byte[] {'"'}) : delete(b, indexOf(b, at, (byte) '"'), 1);
                case 4 -> insert(b, at, ascii(new String[] {"\\u", "\\u00", "\\uD800", "\\udfff", "\\uD83D\\uDE00", "\\u00e9", "\\x",
                    "\\", "\\\\", "\\\"", "\\0", "\\U0041", "\\u+041", "\\u-041"}[r.nextInt(14)]));
                case 5 -> r.nextBoolean() ? Arrays.copyOf(b, at) : delete(b, at, 1 + r.nextInt(8)); // cut short, or bytes cut out
                case 6 -> { // a byte or a few repeated: short runs, and runs past maxLineBytes
                    if (b.length == 0) {
                        yield b;
                    }
                    int from = Math.min(at, b.length - 1);
                    byte[] unit = Arrays.copyOfRange(b, from, Math.min(b.length, from + 1 + r.nextInt(3)));
                    int times = r.nextInt(4) == 0 ? 500 + r.nextInt(3000) : 2 + r.nextInt(10);
                    ByteArrayOutputStream run = new ByteArrayOutputStream();
                    for (int i = 0; i < times; i++) {
                        run.writeBytes(unit);
                    }
                    yield insert(b, from, run.toByteArray());
                }
                case 7 -> { // random bytes, any value
                    byte[] random = new byte[1 + r.nextInt(4)];
                    r.nextBytes(random);
                    yield insert(b, at, random);
                }
                case 8 -> insert(b, at, NOT_UTF8[r.nextInt(NOT_UTF8.length)]);
                case 9 -> insert(b, at, ascii(new String[] {"\r", "\n", "\r\n", "\n\n", "\r\r\n"}[r.nextInt(5)]));
                case 10 -> { // a number made very long
                    int digit = indexOfDigit(b, at);
                    yield digit < 0 ? b : insert(b, digit, ascii(r.nextInt(20) == 0 ? "9".repeat(20_000) : longNumber(r).replace("-", "")));
                }
                case 11 -> { // a cell or value emptied: the bytes between two separators removed
                    int start = indexOf(b, at, (byte) ',');
                    int end = start < 0 ? -1 : indexOf(b, start + 1, (byte) ',');
                    yield start < 0 || end < 0 ? b : delete(b, start + 1, end - start - 1);
                }
                case 12 -> { // a comma inside quotes (or a quoted cell around a comma)
                    int comma = indexOf(b, at, (byte) ',');
                    yield comma < 0 ? insert(b, at, ascii("\",\"")) : insert(insert(b, comma + 1, ascii("\"x,")), comma, ascii(",\""));
                }
                case 13 -> insert(b, at, ascii(new String[] {",", ":", "{", "}", "[", "]", "\"\"", "null", "true", "\"email\":1,", "}{",
                    ",,", "\t", " "}[r.nextInt(14)]));
                default -> r.nextBoolean() ? b : replace(b, Math.min(at, Math.max(0, b.length - 1)), b.length == 0 ? 0 : 1,
                        new byte[] {(byte) r.nextInt(256)});
            };
        }
        return b;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static int indexOfDigit(byte[] b, int from) {
        for (int k = 0; k < b.length; k++) {
            int i = (from + k) % b.length;
            if (b[i] >= '0' && b[i] <= '9') {
                return i;
            }
        }
        return -1;
    }

    private static int indexOf(byte[] b, int from, byte value) {
        for (int i = Math.max(0, from); i < b.length; i++) {
            if (b[i] == value) {
                return i;
            }
        }
        return -1;
    }

    private static byte[] insert(byte[] b, int at, byte[] what) {
        byte[] out = new byte[b.length + what.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(what, 0, out, at, what.length);
        System.arraycopy(b, at, out, at + what.length, b.length - at);
        return out;
    }

    private static byte[] delete(byte[] b, int at, int length) {
        if (at < 0 || at >= b.length) {
            return b;
        }
        int n = Math.min(length, b.length - at);
        byte[] out = new byte[b.length - n];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(b, at + n, out, at, b.length - at - n);
        return out;
    }

    private static byte[] replace(byte[] b, int at, int length, byte[] with) {
        return insert(delete(b, at, length), Math.min(at, b.length - length), with);
    }

    /** The file for a failure message: printable ASCII as is, anything else escaped, and long files shortened. */
    private static String escape(byte[] bytes) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < bytes.length; i++) {
            if (out.length() > 4000) {
                out.append("... (").append(bytes.length).append(" bytes)");
                break;
            }
            int c = bytes[i] & 0xFF;
            if (c >= 0x20 && c < 0x7F && c != '\\') {
                out.append((char) c);
            } else {
                out.append(switch (c) {
                    case '\n' -> "\\n";
                    case '\r' -> "\\r";
                    case '\t' -> "\\t";
                    case '\\' -> "\\\\";
                    default -> String.format("\\x%02X", c);
                });
            }
        }
        return out.append('"').toString();
    }

    // ---- the line accounting of a CSV file, from the documented rules ----

    /**
     * How a CSV file's physical lines group into records, by RFC 4180 as the validator documents it (StreamingValidator,
     * CsvLineParser): lines end at LF (a CR before it dropped); the first line that is not blank, too long or (with
     * its byte order mark) only whitespace is the header; a record whose quoted cell is still open at the end of its
     * line takes the next line too, until the quote closes, the file ends, or the record would pass maxLineBytes (that
     * line is then taken as well). A line that is not UTF-8 never starts a joined record, and does not end one.
     */
    private record CsvLines(long headerLines, long continuationLines, long joinedRecords) {
        static CsvLines of(byte[] text, int maxLineBytes) {
            List<byte[]> lines = physicalLines(text);
            long header = 0;
            long continuation = 0;
            long joined = 0;
            int i = 0;
            while (i < lines.size()) {
                byte[] line = lines.get(i);
                boolean tooLong = line.length > maxLineBytes; // measured with the byte order mark, as LineReader does
                if (i == 0 && line.length >= 3 && line[0] == (byte) 0xEF && line[1] == (byte) 0xBB && line[2] == (byte) 0xBF) {
                    line = Arrays.copyOfRange(line, 3, line.length);
                }
                i++;
                if (tooLong || isBlank(line) || !Utf8.isValid(line, 0, line.length)) {
                    continue; // one line: rejected, blank, or (before the header) a refusal, never a publishable file
                }
                if (header == 0) {
                    header = 1;
                    continue;
                }
                if (!opensAQuote(line)) {
                    continue;
                }
                int start = i - 1;
                ByteArrayOutputStream record = new ByteArrayOutputStream();
                record.writeBytes(line);
                while (i < lines.size()) {
                    byte[] next = lines.get(i++);
                    if (next.length > maxLineBytes || record.size() + 1 + next.length > maxLineBytes) {
                        break;
                    }
                    record.write('\n');
                    record.writeBytes(next);
                    if (Utf8.isValid(next, 0, next.length) && !opensAQuote(record.toByteArray())) {
                        break;
                    }
                }
                continuation += i - start - 1;
                joined++;
            }
            return new CsvLines(header, continuation, joined);
        }

        private static List<byte[]> physicalLines(byte[] text) {
            List<byte[]> lines = new ArrayList<>();
            int start = 0;
            for (int i = 0; i <= text.length; i++) {
                if (i == text.length ? i > start : text[i] == '\n') {
                    int end = i > start && text[i - 1] == '\r' ? i - 1 : i;
                    lines.add(Arrays.copyOfRange(text, start, end));
                    start = i + 1;
                }
            }
            return lines;
        }

        private static boolean isBlank(byte[] line) {
            for (byte c : line) {
                if (c != ' ' && c != '\t') {
                    return false;
                }
            }
            return true;
        }

        /**
         * True when the record's last cell is a quoted cell that has not closed: a cell that starts with a quote
         * runs to a quote not followed by another ({@code ""} is a quote inside it); a quote anywhere else, or text
         * after a closing quote, makes the record malformed, which ends it.
         */
        private static boolean opensAQuote(byte[] record) {
            int i = 0;
            while (true) {
                if (i < record.length && record[i] == '"') {
                    i++;
                    while (true) {
                        if (i >= record.length) {
                            return true;
                        }
                        if (record[i++] == '"') {
                            if (i < record.length && record[i] == '"') {
                                i++;
                            } else {
                                break;
                            }
                        }
                    }
                    if (i < record.length && record[i] != ',') {
                        return false;
                    }
                } else {
                    while (i < record.length && record[i] != ',') {
                        if (record[i++] == '"') {
                            return false;
                        }
                    }
                }
                if (i >= record.length) {
                    return false;
                }
                i++; // the comma
            }
        }
    }
}
