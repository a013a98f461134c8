package io.landingledger.lambda.handlers;

import io.landingledger.lambda.testing.Invocations;
import static io.landingledger.core.validate.Events.event;
import static io.landingledger.core.validate.Events.lines;
import static io.landingledger.core.validate.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.testing.Gzip;
import io.landingledger.core.validate.ReasonCode;
import io.landingledger.core.validate.RefusalCode;
import io.landingledger.lambda.CapturedReporter;
import io.landingledger.lambda.testing.AwsEmulators;
import io.landingledger.lambda.testing.PipelineFixture;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * Issue 7's hostile files, each uploaded to the inbox on the embedded emulators and delivered to the handler Lambda
 * runs, reporting through the functions' own log and metrics reporter. Each file ends with its documented reject or
 * refusal code (docs/contracts.md, "Validation rules"). A refused file publishes nothing, leaves nothing staged or open,
 * and records a REFUSED ledger item with no publish. None of the values planted in a file reaches the log lines, the
 * metrics, the handler's response, the quarantine, the ledger or any other lake object.
 *
 * <p>The validator's own tests vary each case (JsonLineRulesTest, LimitsTest, RefusalTest, CsvTest, NoContentLeakTest);
 * this one proves the function keeps the promise end to end. Files are built from the same fixtures ({@code Events},
 * {@code Gzip}).
 */
class HostileFilesIT {
    @RegisterExtension
    static final AwsEmulators EMULATORS = new AwsEmulators();

    private static final String SECRET = "PLANTED-SECRET-5d1c";
    private static final String EMAIL = "jane.doe@example.com";
    /** What no observable output may contain: the start of each planted value. */
    private static final List<String> PLANTED = List.of("PLANTED", "jane.doe");

    private static final String EVENTS_KEY = "progress_events/progress-2026-03-02.jsonl";
    private static final String EVENTS_GZ_KEY = "progress_events/progress-2026-03-02.jsonl.gz";
    private static final String CSV_KEY = "transactions/transactions-2026-10-01.csv";
    private static final String CSV_HEADER = "txn_id,account_id,business_date,amount,batch_date\n";

    /** A valid line. */
    private static final String OK = event("e1").line();
    /** A line rejected as TYPE_MISMATCH that carries both planted values. */
    private static final String PLANTED_TYPE_MISMATCH = event(SECRET).text("learner_id", EMAIL).raw("attempt_number", "true").line();

    /**
     * How a file must end: refused with {@code refusal}, or published with {@code accepted} rows, the quarantine
     * holding {@code rejects} (one reason per rejected line, in line order) and the published object each fragment.
     */
    record Expected(String refusal, long accepted, List<String> rejects, List<String> publishedFragments) {
        static Expected refused(RefusalCode code) {
            return new Expected(code.name(), 0, List.of(), List.of());
        }

        static Expected published(long accepted, ReasonCode... rejects) {
            return new Expected(null, accepted, Arrays.stream(rejects).map(Enum::name).toList(), List.of());
        }

        Expected containing(String... fragments) {
            return new Expected(refusal, accepted, rejects, List.of(fragments));
        }
    }

    private static Arguments file(String name, String key, Supplier<byte[]> bytes, Expected expected) {
        return Arguments.of(name, key, bytes, expected);
    }

    /** {@code line} as UTF-8, with each {@code ~} replaced by the raw bytes given (to build invalid encodings). */
    private static byte[] withRawBytes(String line, int... raw) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte b : utf8(line)) {
            if (b == '~') {
                for (int r : raw) {
                    out.write(r);
                }
            } else {
                out.write(b);
            }
        }
        return out.toByteArray();
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] joined = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, joined, first.length, second.length);
        return joined;
    }

    /**
     * A gzip bomb: a planted line, then 100 MB of spaces (about 100 KB stored), well past the default ratio (200)
     * beyond the default grace (64 MiB). Streamed, so the test never holds the expanded text.
     */
    private static byte[] gzipBomb() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(utf8(PLANTED_TYPE_MISMATCH + "\n"));
            byte[] spaces = new byte[1 << 20];
            Arrays.fill(spaces, (byte) ' ');
            for (int i = 0; i < 100; i++) {
                gz.write(spaces);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static Stream<Arguments> hostileFiles() {
        return Stream.of(
                file("an empty file", EVENTS_KEY, () -> new byte[0], Expected.published(0)),
                file("only blank lines", EVENTS_KEY, () -> utf8("\n \t\n\r\n\n"), Expected.published(0)),
                file("only a byte-order mark", EVENTS_KEY, () -> new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, Expected.published(0)),
                file("no trailing newline", EVENTS_KEY, () -> utf8(OK + "\n" + PLANTED_TYPE_MISMATCH),
                        Expected.published(1, ReasonCode.TYPE_MISMATCH)),
                file("CRLF line ends", EVENTS_KEY, () -> utf8(OK + "\r\n" + PLANTED_TYPE_MISMATCH + "\r\n"),
                        Expected.published(1, ReasonCode.TYPE_MISMATCH)),
                file("a 50 MB single line", EVENTS_KEY,
                        () -> utf8(event(SECRET).text("learner_id", EMAIL + " " + "x".repeat(50_000_000)).line() + "\n" + OK + "\n"),
                        Expected.published(1, ReasonCode.LINE_TOO_LONG)),
                file("invalid UTF-8 in a value", EVENTS_KEY,
                        () -> lines(utf8(OK), withRawBytes(event(SECRET).text("learner_id", EMAIL + "~").line(), 0xFF)),
                        Expected.published(1, ReasonCode.INVALID_UTF8)),
                file("invalid UTF-8 in a key", EVENTS_KEY,
                        () -> lines(utf8(OK), withRawBytes(event(SECRET).text("learner_id", EMAIL).raw("extra~", "1").line(), 0xFE)),
                        Expected.published(1, ReasonCode.INVALID_UTF8)),
                file("an overlong UTF-8 encoding", EVENTS_KEY,
                        () -> lines(utf8(OK), withRawBytes(event(SECRET).text("learner_id", EMAIL + "~").line(), 0xC0, 0xAF)),
                        Expected.published(1, ReasonCode.INVALID_UTF8)),
                file("a NUL byte", EVENTS_KEY,
                        () -> lines(utf8(OK), withRawBytes(event(SECRET).text("learner_id", EMAIL + "~").line(), 0x00)),
                        Expected.published(1, ReasonCode.INVALID_JSON)),
                file("an array, a number and a string per line", EVENTS_KEY,
                        () -> utf8(lines(OK, "[\"" + SECRET + "\",\"" + EMAIL + "\"]", "9007199254740993", "\"" + SECRET + "\"")),
                        Expected.published(1, ReasonCode.NOT_AN_OBJECT, ReasonCode.NOT_AN_OBJECT, ReasonCode.NOT_AN_OBJECT)),
                file("a key twice in one object", EVENTS_KEY,
                        () -> utf8(lines(OK, "{\"event_id\":\"" + SECRET + "\",\"event_id\":\"" + EMAIL + "\"}")),
                        Expected.published(1, ReasonCode.DUPLICATE_FIELD)),
                file("objects nested 10,000 deep", EVENTS_KEY,
                        () -> utf8(lines(OK, event(SECRET).raw("checkpoint",
                                "{\"a\":".repeat(10_000) + "\"" + EMAIL + "\"" + "}".repeat(10_000)).line())),
                        Expected.published(1, ReasonCode.NESTING_TOO_DEEP)),
                file("1e400, -0 and 9007199254740993 for integer fields", EVENTS_KEY,
                        () -> utf8(lines(OK,
                                event(SECRET + "-1").text("learner_id", EMAIL).raw("attempt_number", "1e400").line(),
                                event(SECRET + "-2").text("learner_id", EMAIL).raw("attempt_number", "-0").line(),
                                event("e2").raw("checkpoint", "9007199254740993").line(),
                                event("e3").raw("checkpoint", "-0").line())),
                        Expected.published(3, ReasonCode.TYPE_MISMATCH, ReasonCode.OUT_OF_RANGE)
                                .containing("\"checkpoint\":9007199254740993,", "\"checkpoint\":0,")),
                file("timestamps: a leap second, +14:00, -12:00, lower-case z, no offset, a date", EVENTS_KEY,
                        () -> utf8(lines(OK,
                                event(SECRET + "-1").text("learner_id", EMAIL).text("event_time", "2026-03-02T23:59:60Z").line(),
                                event("e2").text("event_time", "2026-03-02T00:30:00+14:00").line(),
                                event("e3").text("event_time", "2026-03-02T00:30:00-12:00").line(),
                                event("e4").text("event_time", "2026-03-02t14:02:11.5z").line(),
                                event(SECRET + "-2").text("learner_id", EMAIL).text("event_time", "2026-03-02T14:02:11").line(),
                                event(SECRET + "-3").text("learner_id", EMAIL).text("event_time", "2026-03-02").line())),
                        Expected.published(4, ReasonCode.TIMESTAMP_INVALID, ReasonCode.TIMESTAMP_NO_OFFSET, ReasonCode.TIMESTAMP_NO_OFFSET)
                                .containing("\"2026-03-01T10:30:00Z\"", "\"2026-03-02T12:30:00Z\"", "\"2026-03-02T14:02:11.500Z\"")),
                file("a prohibited field three levels down, spelt Email", EVENTS_KEY,
                        () -> utf8(lines(OK, event(SECRET).raw("meta", "{\"a\":{\"b\":{\"Email\":\"" + EMAIL + "\"}}}").line())),
                        Expected.refused(RefusalCode.PROHIBITED_FIELD)),
                file("a gzip bomb", EVENTS_GZ_KEY, HostileFilesIT::gzipBomb, Expected.refused(RefusalCode.DECOMPRESSION_RATIO)),
                file("a truncated gzip stream", EVENTS_GZ_KEY, () -> {
                    byte[] gz = Gzip.gzip(utf8(lines(PLANTED_TYPE_MISMATCH) + lines(OK).repeat(2_000)));
                    return Arrays.copyOf(gz, gz.length / 2);
                }, Expected.refused(RefusalCode.UNREADABLE)),
                file("gzip bytes under a name without .gz", EVENTS_KEY, () -> Gzip.gzip(utf8(lines(OK, PLANTED_TYPE_MISMATCH))),
                        Expected.published(1, ReasonCode.TYPE_MISMATCH)),
                file("a .gz name over plain text", EVENTS_GZ_KEY, () -> utf8(lines(OK, PLANTED_TYPE_MISMATCH)),
                        Expected.published(1, ReasonCode.TYPE_MISMATCH)),
                file("plain text after the last gzip member", EVENTS_GZ_KEY,
                        () -> concat(Gzip.gzipMembers(utf8(lines(OK)), utf8(lines(event("e2").line()))), utf8(lines(PLANTED_TYPE_MISMATCH))),
                        Expected.refused(RefusalCode.GZIP_TRAILING_BYTES)),
                file("CSV: a quoted newline", CSV_KEY, () -> utf8(CSV_HEADER + "t1,\"acct\n2\",2026-10-01,1.50,2026-10-01\n"),
                        Expected.published(1).containing("\"account_id\":\"acct\\n2\"", "\"amount\":1.5,")),
                file("CSV: a missing column", CSV_KEY,
                        () -> utf8(CSV_HEADER + "t1,a1,2026-10-01,1,2026-10-01\n" + SECRET + "," + EMAIL + ",2026-10-01,1\n"),
                        Expected.refused(RefusalCode.REJECT_CAP)),
                file("CSV: an extra column", CSV_KEY,
                        () -> utf8(CSV_HEADER + "t1,a1,2026-10-01,1,2026-10-01\n" + SECRET + "," + EMAIL + ",2026-10-01,1,2026-10-01," + SECRET + "\n"),
                        Expected.refused(RefusalCode.REJECT_CAP)),
                file("CSV: a header that is not the contract's", CSV_KEY,
                        () -> utf8("txn_id,account_id,business_date,amount,PLANTED_COLUMN\n" + SECRET + "," + EMAIL + ",2026-10-01,1,2026-10-01\n"),
                        Expected.refused(RefusalCode.CSV_HEADER_MISMATCH)));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> onlyRecord(Map<String, Object> response) {
        List<Map<String, Object>> records = (List<Map<String, Object>>) response.get("records");
        assertEquals(1, records.size());
        return records.get(0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileFiles")
    void handleRequest_whenHostileFileDelivered_endsWithItsDocumentedCodeAndLeaksNoPlantedValue(
            String name, String key, Supplier<byte[]> content, Expected expected) throws Exception {
        byte[] stored = content.get();
        try (PipelineFixture pipeline = new PipelineFixture(EMULATORS); CapturedReporter captured = new CapturedReporter()) {
            ValidateObjectHandler handler = new ValidateObjectHandler(new UnitRouter(pipeline.contracts()),
                    pipeline.service(IngestService.StepListener.NONE), captured.reporter(), () -> UUID.randomUUID().toString());
            Map<String, Object> response = Invocations.invoke(handler, pipeline.eventFor(pipeline.put(key, stored)), null);

            Map<String, Object> record = onlyRecord(response);
            String dataset = key.substring(0, key.indexOf('/'));
            LedgerItem item = pipeline.ledgerItem(dataset, (String) record.get("unit"));
            if (expected.refusal() != null) {
                assertEquals("refused", record.get("action"), () -> "the outcome was " + record);
                assertEquals(expected.refusal(), record.get("refusal"));
                assertEquals(List.of(), pipeline.keys(LakeLayout.PUBLISHED_PREFIX), "a refused file publishes nothing");
                assertEquals(List.of(), pipeline.keys(LakeLayout.QUARANTINE_PREFIX), "nor quarantines anything");
                assertEquals(LedgerStatus.REFUSED, item.status());
                assertEquals(expected.refusal(), item.reason());
                assertEquals(0, item.publishCount());
                assertNull(item.published(), "the ledger vouches for no publish");
            } else {
                assertEquals("published", record.get("action"), () -> "the outcome was " + record);
                assertEquals(LedgerStatus.PUBLISHED, item.status());
                assertEquals(expected.accepted(), item.published().accepted());
                assertEquals(expected.rejects().size(), item.published().rejected());
                List<String> quarantined = item.published().quarantineKey() == null ? List.of()
                        : new String(pipeline.s3.getObjectAsBytes(r -> r.bucket(pipeline.lake()).key(item.published().quarantineKey()))
                        .asByteArray(), StandardCharsets.UTF_8).lines()
                        .map(line -> line.replaceAll(".*\"reason\":\"([A-Z0-9_]+)\".*", "$1")).toList();
                assertEquals(expected.rejects(), quarantined, "the quarantine's reasons, in line order");
                String published = new String(pipeline.published(dataset, (String) record.get("unit")), StandardCharsets.UTF_8);
                assertEquals(expected.accepted(), published.lines().count());
                for (String fragment : expected.publishedFragments()) {
                    assertTrue(published.contains(fragment), () -> "the published rows hold " + fragment + ": " + published);
                }
            }
            assertEquals(List.of(), pipeline.keys(LakeLayout.STAGING_PREFIX), "nothing is left staged");
            assertEquals(0, pipeline.openMultipartUploads(), "no multipart upload is left open");

            // invariant 7: everything an operator or reader can observe, none of what the file held
            assertTrue(captured.logLines() > 0, "the outcome was logged");
            String observed = response + "\n" + captured.output() + "\n" + pipeline.snapshot();
            for (String planted : PLANTED) {
                assertFalse(observed.contains(planted), () -> "a planted value (" + planted + ") reached the output: " + observed);
            }
        }
    }
}
