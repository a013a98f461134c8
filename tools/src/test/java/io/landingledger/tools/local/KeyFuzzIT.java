package io.landingledger.tools.local;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.cli.testing.LandingRun;
import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnitCalendar;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.tools.testing.RecordedLocalStack;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30's key fuzzer: seeded hostile inbox keys ({@link InboxKeyGenerator}) put into the inbox bucket of the
 * stack the template deploys, each reaching the validator through S3's own notification (the key URL-encoded as S3
 * encodes it), and seeded S3 event payloads ({@link S3EventPayloads}) delivered straight to the validator function
 * as Lambda delivers S3's events (asynchronously, retried). After each batch: every answer is a documented action
 * with its reason, the ledger holds no unit its contract's cadence cannot name, and {@code landing status} (every
 * dataset, then each) and {@code landing sweep} exit with a documented code and no stack trace. Short in ./verify;
 * {@code -Dfuzz.keys=N -Dfuzz.events=N -Dfuzz.seed=S} for a long run (docs/testing.md). A failure prints the seed
 * and every offending key, escaped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class KeyFuzzIT {
    static final int KEYS = Integer.getInteger("fuzz.keys", 40);
    static final int EVENTS = Integer.getInteger("fuzz.events", 30);
    static final long SEED = Long.getLong("fuzz.seed", 30L);
    static final int BATCH = 20;
    static final Path EXAMPLES = Path.of("").toAbsolutePath().getParent().resolve("examples/inbox");
    /** What the validator answers for one record (docs/operations.md; IngestAction, RecordResult). */
    static final Set<String> ACTIONS = Set.of("published", "unchanged", "skipped", "refused", "finished", "stale", "unroutable");
    static final Set<String> UNROUTABLE = Set.of("FOLDER_MARKER", "NO_DATASET_PREFIX", "UNKNOWN_DATASET", "RETIRED_DATASET",
            "PATTERN_MISMATCH", "UNIT_INVALID", "NOT_A_CREATE_EVENT", "MALFORMED_RECORD");

    record Run(String payload, String answer, boolean failed, int attempt) {
    }

    Path work;
    RecordedLocalStack local;
    Map<String, DatasetContract> contracts;
    final List<Run> validatorRuns = new CopyOnWriteArrayList<>();
    final List<String> findings = new ArrayList<>();
    /** How many answers of each action (and reason): the run's printed tally. */
    final Map<String, Integer> tally = new java.util.TreeMap<>();

    @BeforeAll
    void deploy() throws Exception {
        work = Files.createTempDirectory("key-fuzz-");
        local = RecordedLocalStack.start(work);
        contracts = ContractRegistry.fromClasspath(DependencyFactory.class).all();
        String validator = local.stack.physicalId("ValidatorFunction");
        local.stack.lambda().addListener((function, payload, result, attempt, async) -> {
            if (function.name().equals(validator)) {
                validatorRuns.add(new Run(payload, result.payloadText(), result.failed(), attempt));
            }
        });
        System.out.println("[key-fuzz] seed " + SEED + ", " + KEYS + " keys, " + EVENTS + " event payloads (-Dfuzz.seed -Dfuzz.keys -Dfuzz.events)");
    }

    @AfterAll
    void close() {
        if (local != null) {
            local.close();
        }
    }

    @org.junit.jupiter.api.BeforeEach
    void freshFindings() {
        findings.clear();
        tally.clear();
    }

    @Test
    void hostileInboxKeys_throughS3sNotifications_areEachAnsweredWithAReason_andNeverBlindStatusOrSweep() throws Exception {
        InboxKeyGenerator keys = new InboxKeyGenerator(SEED);
        String inbox = local.record.inboxBucket();
        int published = 0;
        int refusedByS3 = 0;
        Set<String> put = new java.util.HashSet<>();
        for (int done = 0; done < KEYS; done += BATCH) {
            int before = validatorRuns.size();
            List<InboxKeyGenerator.FuzzedKey> batch = new ArrayList<>();
            for (int i = done; i < Math.min(KEYS, done + BATCH); i++) {
                InboxKeyGenerator.FuzzedKey fuzzed = keys.next();
                while (!put.add(fuzzed.key())) {
                    fuzzed = keys.next(); // one put per key: each answer is then the answer to that put
                }
                InboxKeyGenerator.FuzzedKey chosen = fuzzed;
                try {
                    local.s3.putObject(r -> r.bucket(inbox).key(chosen.key()), RequestBody.fromBytes(body(chosen)));
                    batch.add(chosen);
                } catch (S3Exception e) {
                    // S3 may refuse a key outright (a 4xx naming why): the producer sees it; nothing reaches the stack
                    refusedByS3++;
                    if (e.statusCode() >= 500 || e.awsErrorDetails() == null || e.awsErrorDetails().errorCode() == null) {
                        findings.add("S3 answered " + e.statusCode() + " with no error code for " + describe(chosen));
                    }
                }
            }
            local.stack.awaitIdle(Duration.ofMinutes(5));
            List<Run> runs = List.copyOf(validatorRuns.subList(before, validatorRuns.size()));
            for (InboxKeyGenerator.FuzzedKey fuzzed : batch) {
                published += checkAnswered(fuzzed, runs);
            }
            checkTheStackStillAnswers("after keys " + done + ".." + (done + batch.size() - 1));
        }
        System.out.println("[key-fuzz] " + KEYS + " keys: " + published + " published, " + refusedByS3 + " refused by S3, "
                + findings.size() + " finding(s); answers " + tally);
        assertTrue(findings.isEmpty(), "seed " + SEED + ":\n" + String.join("\n", findings));
        assertTrue(published > 0, "the plain names among the keys are published: the run did reach the validator");
    }

    @Test
    void generatedS3EventPayloads_deliveredToTheValidatorAsLambdaDelivers_areAnsweredOrRefusedClearly() throws Exception {
        String inbox = local.record.inboxBucket();
        // one real object per dataset for the payloads to name (and versions that do not exist)
        List<String[]> objects = new ArrayList<>();
        for (String key : List.of("progress_events/progress-2026-03-02.jsonl", "transactions/transactions-2026-10-02.csv")) {
            String version = local.s3.putObject(r -> r.bucket(inbox).key(key), RequestBody.fromBytes(body(key))).versionId();
            objects.add(new String[] {key, version});
        }
        local.stack.awaitIdle(Duration.ofMinutes(2));
        S3EventPayloads payloads = new S3EventPayloads(SEED, inbox, objects);
        String validator = local.stack.physicalId("ValidatorFunction");
        for (int done = 0; done < EVENTS; done += BATCH) {
            int before = validatorRuns.size();
            List<S3EventPayloads.Payload> batch = new ArrayList<>();
            for (int i = done; i < Math.min(EVENTS, done + BATCH); i++) {
                S3EventPayloads.Payload payload = payloads.next();
                batch.add(payload);
                local.stack.lambda().invokeAsync(validator, "live", payload.json());
            }
            local.stack.awaitIdle(Duration.ofMinutes(5));
            List<Run> runs = List.copyOf(validatorRuns.subList(before, validatorRuns.size()));
            for (S3EventPayloads.Payload payload : batch) {
                checkAnswered(payload, runs);
            }
            checkTheStackStillAnswers("after event payloads " + done + ".." + (done + batch.size() - 1));
        }
        System.out.println("[key-fuzz] " + EVENTS + " event payloads: " + findings.size() + " finding(s); answers " + tally);
        assertTrue(findings.isEmpty(), "seed " + SEED + ":\n" + String.join("\n", findings));
    }

    /** One answer per record, each a documented action with its reason; 1 when the key was published. */
    @SuppressWarnings("unchecked")
    private int checkAnswered(InboxKeyGenerator.FuzzedKey fuzzed, List<Run> runs) throws Exception {
        String inbox = local.record.inboxBucket();
        boolean notified = !local.stack.notificationsFor(inbox, fuzzed.key()).startsWith("none");
        List<Map<String, Object>> answers = new ArrayList<>();
        for (Run run : runs) {
            if (run.failed()) {
                if (S3EventPayloads.decodedKeys(run.payload()).contains(fuzzed.key())) {
                    findings.add("the validator failed (attempt " + run.attempt() + ") on " + describe(fuzzed) + ": " + errorOf(run.answer()));
                }
                continue;
            }
            for (Map<String, Object> record : (List<Map<String, Object>>) JSON.std.mapFrom(run.answer()).get("records")) {
                if (fuzzed.key().equals(record.get("key"))) {
                    answers.add(record);
                }
            }
        }
        if (!notified) {
            if (!answers.isEmpty()) {
                findings.add("answered although no notification matches: " + describe(fuzzed));
            }
            return 0;
        }
        if (answers.size() != 1) {
            findings.add(answers.size() + " answers carry the key as put (S3 encodes it, the handler must decode it exactly): " + describe(fuzzed));
            return 0;
        }
        Map<String, Object> answer = answers.get(0);
        checkReason(answer, describe(fuzzed));
        return "published".equals(answer.get("action")) ? 1 : 0;
    }

    @SuppressWarnings("unchecked")
    private void checkAnswered(S3EventPayloads.Payload payload, List<Run> runs) throws Exception {
        List<Run> mine = runs.stream().filter(r -> r.payload().equals(payload.json())).toList();
        if (mine.isEmpty()) {
            findings.add("no run of the validator for event payload " + payload.how());
            return;
        }
        Run last = mine.get(mine.size() - 1);
        if (last.failed()) {
            Map<String, Object> error = JSON.std.mapFrom(last.answer());
            String type = String.valueOf(error.get("errorType"));
            String message = String.valueOf(error.get("errorMessage"));
            // Lambda retries a failed S3 event and parks it on the failure queue: only for a fault worth retrying, and
            // never an unexplained one (a NullPointerException says nothing an operator can act on)
            tally.merge("failed " + type, 1, Integer::sum);
            if (!payload.mayFail() || type.contains("NullPointer") || type.contains("ClassCast") || type.contains("IndexOutOfBounds")
                    || message.isBlank() || "null".equals(message)) {
                findings.add("the validator failed on event payload " + payload.how() + ": " + type + ": " + message);
            }
            return;
        }
        List<Map<String, Object>> records = (List<Map<String, Object>>) JSON.std.mapFrom(last.answer()).get("records");
        if (records.size() != payload.records()) {
            findings.add(records.size() + " answers for " + payload.records() + " records of event payload " + payload.how());
        }
        for (Map<String, Object> record : records) {
            checkReason(record, "event payload " + payload.how());
        }
    }

    private void checkReason(Map<String, Object> answer, String what) {
        Object action = answer.get("action");
        tally.merge(action + ("unroutable".equals(action) ? " " + answer.get("reason") : "refused".equals(action) ? " " + answer.get("refusal") : ""),
                1, Integer::sum);
        if (!ACTIONS.contains(action)) {
            findings.add("undocumented action " + action + " for " + what + ": " + answer);
        } else if ("refused".equals(action) && blank(answer.get("refusal"))) {
            findings.add("refused with no refusal code: " + what + ": " + answer);
        } else if ("unroutable".equals(action) && (!UNROUTABLE.contains(answer.get("reason")) || blank(answer.get("detail")))) {
            findings.add("unroutable with no documented reason and detail: " + what + ": " + answer);
        }
    }

    /** The ledger names only units a cadence can name; status and sweep answer with their documented codes. */
    @SuppressWarnings("unchecked")
    private void checkTheStackStillAnswers(String when) throws Exception {
        for (Map<String, AttributeValue> item : local.dynamo.scanPaginator(r -> r.tableName(local.record.ledgerTable())).items()) {
            String dataset = item.get("dataset").s();
            String unit = item.get("unit").s();
            DatasetContract contract = contracts.get(dataset);
            if (contract == null || !UnitCalendar.of(contract).canName(unit)) {
                findings.add(when + ": the ledger holds " + dataset + "/" + InboxKeyGenerator.escape(unit) + ", which no cadence names");
            }
        }
        List<String[]> commands = new ArrayList<>();
        commands.add(new String[] {"status", "--json"});
        commands.add(new String[] {"status"});
        contracts.keySet().forEach(dataset -> commands.add(new String[] {"status", dataset, "--json"}));
        commands.add(new String[] {"sweep", "--json"});
        for (String[] command : commands) {
            LandingRun run = LandingRun.inProcess(command);
            String shown = "landing " + String.join(" ", command);
            if (run.exit() != 0 && run.exit() != 1) {
                findings.add(when + ": " + shown + " exited " + run.exit() + ": " + firstLines(run.stderr()));
            }
            if (run.stderr().contains("\tat ") || run.stdout().contains("\tat ") || run.stderr().contains("Exception:")) {
                findings.add(when + ": " + shown + " printed a stack trace or an exception: " + firstLines(run.stderr()));
            }
            if (command[command.length - 1].equals("--json") && run.exit() <= 1) {
                Map<String, Object> doc = run.json();
                if (!doc.containsKey("complete")) {
                    findings.add(when + ": " + shown + " answered no completeness: " + firstLines(run.stdout()));
                }
            }
        }
    }

    /** The file's bytes: the dataset's example (so a plain name publishes), gzipped for a .gz name. */
    private static byte[] body(InboxKeyGenerator.FuzzedKey fuzzed) throws Exception {
        return body(fuzzed.key());
    }

    private static byte[] body(String key) throws Exception {
        boolean transactions = key.toLowerCase(Locale.ROOT).contains("transactions");
        byte[] plain = Files.readAllBytes(EXAMPLES.resolve(transactions ? "transactions/transactions-2026-10-01.csv"
                : "progress_events/progress-2026-03-01.jsonl"));
        if (!key.toLowerCase(Locale.ROOT).endsWith(".gz")) {
            return plain;
        }
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(plain);
        }
        return gz.toByteArray();
    }

    private static String describe(InboxKeyGenerator.FuzzedKey fuzzed) {
        return "'" + InboxKeyGenerator.escape(fuzzed.key()) + "' (" + fuzzed.utf8Length() + " bytes; " + fuzzed.how() + ")";
    }

    private static String errorOf(String answer) {
        return answer.length() > 300 ? answer.substring(0, 300) + "..." : answer;
    }

    private static String firstLines(String text) {
        String[] lines = text.split("\n");
        return String.join(" | ", java.util.Arrays.asList(lines).subList(0, Math.min(3, lines.length)));
    }

    private static boolean blank(Object value) {
        return value == null || value.toString().isBlank();
    }
}
