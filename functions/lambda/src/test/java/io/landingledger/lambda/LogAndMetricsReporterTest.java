package io.landingledger.lambda;

import static java.nio.charset.StandardCharsets.UTF_8;
import static io.landingledger.lambda.testing.MetricDirectives.directive;
import static io.landingledger.lambda.testing.MetricDirectives.units;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ingest.IngestAction;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.validate.Events;
import io.landingledger.core.validate.StreamingValidator;
import io.landingledger.core.validate.ValidationResult;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What an operator sees per record (docs/design.md section 8): the JSON log line through the functions' own log4j
 * configuration, and the EMF document, both captured; and that no value from a file reaches either (invariant 7).
 */
class LogAndMetricsReporterTest {
    private static final String SHA = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    private CapturedLogs logs;
    private ByteArrayOutputStream emf;
    private LogAndMetricsReporter reporter;

    @BeforeEach
    void setUp() {
        logs = new CapturedLogs();
        emf = new ByteArrayOutputStream();
        reporter = new LogAndMetricsReporter(logs.logger(LogAndMetricsReporter.class),
                new DatasetMetrics(new PrintStream(emf, true, UTF_8)));
    }

    @AfterEach
    void tearDown() {
        logs.close();
    }

    @Test
    void outcome_whenPublished_writesOneJsonLineWithEveryField() throws IOException {
        reporter.outcome(published());

        Map<String, Object> line = onlyLogLine();
        assertEquals("INFO", line.get("level"));
        assertEquals("outcome", line.get("message"));
        assertEquals(LogAndMetricsReporter.class.getName(), line.get("logger"));
        assertTrue(String.valueOf(line.get("timestamp")).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z"),
                "timestamp " + line.get("timestamp"));
        assertEquals("published", line.get("action"));
        assertEquals("progress_events", line.get("dataset"));
        assertEquals("2026-03-02", line.get("unit"));
        assertEquals("progress_events/progress-2026-03-02.jsonl", line.get("key"));
        assertEquals("3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY", line.get("version"));
        assertEquals(SHA, line.get("sha256"));
        // counts are JSON numbers, so CloudWatch Logs Insights can sum them
        assertEquals(4096, line.get("bytes"));
        assertEquals(12, line.get("accepted"));
        assertEquals(2, line.get("rejected"));
        assertEquals(1, line.get("duplicates"));
        assertEquals("published/progress_events/unit=2026-03-02/part-00000.jsonl", line.get("published_key"));
        assertEquals("0a1b2c3d4e5f60718293a4b5c6d7e8f9", line.get("published_etag"));
        assertEquals("run-0001", line.get("run_id"));
        assertEquals("INGEST", line.get("run_kind"));
        assertEquals(1234, line.get("duration_ms"));
        assertFalse(line.containsKey("error"), "no exception, no error object: " + line);
    }

    @Test
    void outcome_whenPublished_writesOneEmfDocumentForTheDataset() throws IOException {
        reporter.outcome(published());

        Map<String, Object> document = onlyEmfDocument();
        assertEquals("progress_events", document.get("dataset"));
        Map<String, Object> directive = directive(document);
        assertEquals(DatasetMetrics.NAMESPACE, directive.get("Namespace"));
        assertEquals(List.of(List.of("dataset"), List.of()), directive.get("Dimensions")); // per dataset, and the fleet's aggregate
        assertEquals(Map.ofEntries(
                        Map.entry("FilesPublished", "Count"), Map.entry("FilesRefused", "Count"),
                        Map.entry("FilesSkipped", "Count"), Map.entry("FilesFinished", "Count"),
                        Map.entry("FilesUnchanged", "Count"), Map.entry("FilesStale", "Count"), Map.entry("RowsAccepted", "Count"),
                        Map.entry("RowsRejected", "Count"), Map.entry("RowsDuplicate", "Count"),
                        Map.entry("Bytes", "Bytes"), Map.entry("DurationMs", "Milliseconds")),
                units(directive));
        assertEquals(1.0, document.get("FilesPublished"));
        assertEquals(0.0, document.get("FilesRefused"));
        assertEquals(0.0, document.get("FilesSkipped"));
        assertEquals(0.0, document.get("FilesFinished"));
        assertEquals(0.0, document.get("FilesUnchanged"));
        assertEquals(0.0, document.get("FilesStale"));
        assertEquals(12.0, document.get("RowsAccepted"));
        assertEquals(2.0, document.get("RowsRejected"));
        assertEquals(1.0, document.get("RowsDuplicate"));
        assertEquals(4096.0, document.get("Bytes"));
        assertEquals(1234.0, document.get("DurationMs"));
        // setDimensions dropped the library's defaults: a metric is the same one whichever function emits it
        for (String absent : List.of("LogGroup", "ServiceName", "ServiceType")) {
            assertFalse(document.containsKey(absent), absent + " in " + document);
        }
    }

    @ParameterizedTest
    @EnumSource(value = IngestAction.class, mode = EnumSource.Mode.EXCLUDE, names = "SUBMITTED")
    void outcome_countsOneFileUnderItsOwnActionAndZeroUnderTheOthers(IngestAction action) throws IOException {
        reporter.outcome(outcome(action, action == IngestAction.REFUSED ? "EMPTY" : null, null));

        Map<String, Object> document = onlyEmfDocument();
        assertFalse(document.containsKey("FilesSubmitted"), "a submitted re-drive is no run: " + document);
        for (IngestAction other : IngestAction.values()) {
            if (!other.ran()) {
                continue;
            }
            assertEquals(other == action ? 1.0 : 0.0, document.get(LogAndMetricsReporter.filesMetric(other)), other.name());
        }
        assertEquals(action.name().toLowerCase(java.util.Locale.ROOT), onlyLogLine().get("action"));
    }

    @ParameterizedTest
    @EnumSource(value = IngestAction.class, names = {"SKIPPED", "FINISHED", "STALE"})
    void outcome_whenAnotherRunDecidedTheFile_countsTheFileButNoRowsOrBytes(IngestAction action) throws IOException {
        // these carry the counts of a publish another run made; counting them again would count a file once more
        // on every replayed or concurrent event
        reporter.outcome(outcome(action, null, null));

        Map<String, Object> document = onlyEmfDocument();
        assertEquals(1.0, document.get(LogAndMetricsReporter.filesMetric(action)));
        assertEquals(0.0, document.get("FilesPublished"));
        for (String metric : List.of("RowsAccepted", "RowsRejected", "RowsDuplicate", "Bytes")) {
            assertEquals(0.0, document.get(metric), metric);
        }
        assertEquals(12, onlyLogLine().get("accepted"), "the log line still says what the publish holds");
    }

    @Test
    void outcome_whenRefused_logsAWarningAndCountsRejectedRowsOnly() throws IOException {
        reporter.outcome(outcome(IngestAction.REFUSED, "REJECT_CAP", "11 lines rejected, above maxRejectedLines (10)"));

        Map<String, Object> line = onlyLogLine();
        assertEquals("WARN", line.get("level"));
        assertEquals("REJECT_CAP", line.get("refusal"));
        assertEquals("11 lines rejected, above maxRejectedLines (10)", line.get("detail"));
        Map<String, Object> document = onlyEmfDocument();
        assertEquals(1.0, document.get("FilesRefused"));
        assertEquals(0.0, document.get("RowsAccepted"), "no row of a refused file reached published/");
        assertEquals(2.0, document.get("RowsRejected"));
        assertEquals(4096.0, document.get("Bytes"));
    }

    /** Files whose rows carry a planted value: each is refused, and the value must reach neither logs nor metrics. */
    static Stream<Arguments> refusedFiles() {
        String rejects = Stream.generate(() -> new Events.Event().text("event_id", "evt_planted_0042")
                .text("learner_id", "planted.leak@example.com").line()).limit(11).collect(Collectors.joining("\n"));
        return Stream.of(
                Arguments.of("PROHIBITED_FIELD", Events.lines(ok("evt_1").line(),
                        ok("evt_2").text("email", "planted.leak@example.com").line())),
                Arguments.of("KEY_CONFLICT", Events.lines(ok("evt_planted_0042").line(),
                        ok("evt_planted_0042").text("learner_id", "planted.leak@example.com").line())),
                Arguments.of("REJECT_CAP", rejects + "\n"));
    }

    /** A valid row of 2026-03-02. */
    private static Events.Event ok(String id) {
        return Events.event(id).text("learner_id", "lrn_1").text("lesson_id", "les_1").text("event_time", "2026-03-02T08:00:00Z")
                .raw("checkpoint", "1");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedFiles")
    void outcome_whenTheValidatorRefusesAFile_writesNoValueFromIt(String code, String file) throws IOException {
        DatasetContract contract = ContractRegistry.fromClasspath(LogAndMetricsReporter.class).get("progress_events")
                .orElseThrow();
        ValidationResult result = new StreamingValidator(contract).validate(
                new ByteArrayInputStream(file.getBytes(UTF_8)), OutputStream.nullOutputStream(), OutputStream.nullOutputStream());
        assertNotNull(result.refusal(), "the file must be refused");
        assertEquals(code, result.refusal().code().name());

        // the outcome exactly as IngestService builds it for a refusal
        reporter.outcome(IngestOutcome.builder(IngestAction.REFUSED, contract.dataset(), "2026-03-02")
                .input("progress_events/progress-2026-03-02.jsonl", "v1")
                .sha256(result.sha256())
                .bytes(result.storedBytes())
                .counts(result.accepted(), result.rejected(), result.duplicates())
                .refusal(result.refusal().code().name())
                .detail(result.refusal().detail())
                .run("run-0002", "INGEST")
                .duration(Duration.ofMillis(7))
                .build());

        String everything = String.join("\n", logs.lines()) + "\n" + emf.toString(UTF_8);
        for (String planted : List.of("planted.leak@example.com", "evt_planted_0042", "lrn_1", "les_1")) {
            assertFalse(everything.contains(planted), planted + " reached the logs or metrics:\n" + everything);
        }
        Map<String, Object> line = onlyLogLine();
        assertEquals(code, line.get("refusal"));
        assertTrue(String.valueOf(line.get("detail")).matches(".*\\bline \\d+.*|\\d+ lines rejected.*"),
                "the detail is a sentence of names and line numbers: " + line.get("detail"));
        assertEquals(1.0, onlyEmfDocument().get("FilesRefused"));
    }

    @Test
    void unroutable_logsAWarningAndCountsUnderTheUnroutableDataset() throws IOException {
        reporter.unroutable("inbox", "nowhere/file.csv", "v9", "NO_CONTRACT", "no contract for dataset nowhere");

        Map<String, Object> line = onlyLogLine();
        assertEquals("WARN", line.get("level"));
        assertEquals("unroutable", line.get("message"));
        assertEquals(Map.of("action", "unroutable", "bucket", "inbox", "key", "nowhere/file.csv", "version", "v9",
                "reason", "NO_CONTRACT", "detail", "no contract for dataset nowhere"), fieldsOf(line));
        Map<String, Object> document = onlyEmfDocument();
        assertEquals(DatasetMetrics.UNROUTABLE, document.get("dataset"), "a producer's key never becomes a dimension");
        assertEquals(Map.of("FilesUnroutable", "Count"), units(directive(document)));
        assertEquals(1.0, document.get("FilesUnroutable"));
    }

    @Test
    void failed_logsTheFaultWithoutItsTraceAndCountsUnderTheKeysDataset() throws IOException {
        reporter.failed("inbox", "transactions/transactions-2026-10-01.csv", "v3", "run-0003",
                new IllegalStateException("throttled by DynamoDB"));

        Map<String, Object> line = onlyLogLine();
        assertEquals("ERROR", line.get("level"));
        assertEquals("failed", line.get("message"));
        assertEquals(Map.of("action", "failed", "bucket", "inbox", "key", "transactions/transactions-2026-10-01.csv",
                "version", "v3", "run_id", "run-0003", "error", IllegalStateException.class.getName(),
                "error_message", "throttled by DynamoDB"), fieldsOf(line));
        Map<String, Object> document = onlyEmfDocument();
        assertEquals("transactions", document.get("dataset"));
        assertEquals(1.0, document.get("FilesFailed"));
    }

    @Test
    void outcome_whenTheMetricsCannotBeWritten_logsThatAndDoesNotThrow() throws IOException {
        // CloudWatch dimension values are ASCII: the library refuses this one; the record must not fail for it
        reporter.outcome(IngestOutcome.builder(IngestAction.PUBLISHED, "donn\u00e9es", "u")
                .input("donn\u00e9es/u.jsonl", null)
                .sha256(SHA)
                .bytes(1)
                .counts(1, 0, 0)
                .published("published/x", "e")
                .run("run-0004", "INGEST")
                .duration(Duration.ZERO)
                .build());

        List<Map<String, Object>> lines = logLines();
        assertEquals(2, lines.size(), String.valueOf(lines));
        assertEquals("outcome", lines.get(0).get("message"));
        assertEquals(null, lines.get(0).get("version"), "an unversioned input logs version null");
        assertTrue(lines.get(0).containsKey("version"));
        assertEquals("metrics not emitted", lines.get(1).get("message"));
        assertEquals("WARN", lines.get(1).get("level"));
        assertEquals("", emf.toString(UTF_8));
    }

    @Test
    void sdkLoggers_logAtWarnOnlyThroughTheSameLayout() throws IOException {
        // the SDK and aws-embedded-metrics log through SLF4J to these loggers; the configuration keeps them at WARN
        logs.logger("software.amazon.awssdk.request").info("request sent");
        logs.logger("software.amazon.awssdk.request").warn("retrying after a throttle");

        Map<String, Object> line = onlyLogLine();
        assertEquals("WARN", line.get("level"));
        assertEquals("software.amazon.awssdk.request", line.get("logger"));
        assertEquals("retrying after a throttle", line.get("message"));
    }

    private static IngestOutcome published() {
        return IngestOutcome.builder(IngestAction.PUBLISHED, "progress_events", "2026-03-02")
                .input("progress_events/progress-2026-03-02.jsonl", "3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY")
                .sha256(SHA)
                .bytes(4096)
                .counts(12, 2, 1)
                .published("published/progress_events/unit=2026-03-02/part-00000.jsonl", "0a1b2c3d4e5f60718293a4b5c6d7e8f9")
                .run("run-0001", "INGEST")
                .duration(Duration.ofMillis(1234))
                .build();
    }

    private static IngestOutcome outcome(IngestAction action, String refusal, String detail) {
        return IngestOutcome.builder(action, "progress_events", "2026-03-02")
                .input("progress_events/progress-2026-03-02.jsonl", "v1")
                .sha256(SHA)
                .bytes(4096)
                .counts(12, 2, 1)
                .refusal(refusal)
                .detail(detail)
                .run("run-0001", "INGEST")
                .duration(Duration.ofMillis(5))
                .build();
    }

    private List<Map<String, Object>> logLines() throws IOException {
        List<Map<String, Object>> parsed = new java.util.ArrayList<>();
        for (String line : logs.lines()) {
            parsed.add(JSON.std.mapFrom(line));
        }
        return parsed;
    }

    private Map<String, Object> onlyLogLine() throws IOException {
        List<Map<String, Object>> lines = logLines();
        assertEquals(1, lines.size(), "one log line per record: " + logs.lines());
        return lines.get(0);
    }

    private Map<String, Object> onlyEmfDocument() throws IOException {
        List<String> documents = emf.toString(UTF_8).lines().toList();
        assertEquals(1, documents.size(), "one EMF document per record: " + documents);
        return JSON.std.mapFrom(documents.get(0));
    }

    /** The log line without the layout's own fields. */
    private static Map<String, Object> fieldsOf(Map<String, Object> line) {
        Map<String, Object> fields = new java.util.HashMap<>(line);
        fields.keySet().removeAll(List.of("timestamp", "level", "logger", "message"));
        return fields;
    }
}
