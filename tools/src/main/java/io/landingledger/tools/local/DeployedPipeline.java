package io.landingledger.tools.local;

import io.landingledger.cli.stack.LocalStackRecord;
import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.cli.Progress;
import io.landingledger.localcloud.deploy.FunctionSpec;
import io.landingledger.localcloud.deploy.InvokeResult;
import io.landingledger.localcloud.deploy.LocalDeployment;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.FunctionConfig;


import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The examples on the stack as the template deploys it ({@link LocalDeployment}): each file is put into the inbox
 * bucket through the stack's endpoint with the operator's credentials, as a producer puts it; S3's notification
 * reaches the validator function its bucket names; the local run waits for the stack to go idle and reads the
 * validator's answers (as an operator reads its logs) for its progress lines. The sweep is the deployed sweep
 * function, invoked with the range of units seen.
 */
final class DeployedPipeline implements Pipeline {
    private static final Duration IDLE = Duration.ofMinutes(15);

    private final LocalDeployment stack;
    private final PrintStream progress;
    /** The operator's clients on the stack's endpoint: a producer's puts and the export's reads. */
    private final DependencyFactory operator;
    private final String inbox;
    private final String lake;
    private final String validator;
    private final String sweepFunction;
    private final List<IngestOutcome> outcomes = new ArrayList<>();
    private final List<Map<String, Object>> unroutable = new ArrayList<>();
    private final List<Map<String, Object>> failures = new ArrayList<>();
    private final Map<String, TreeSet<String>> unitsSeen = new TreeMap<>();
    /** The S3 events the validator received, by key@version: replays re-send them, as S3's duplicates do. */
    private final Map<String, String> events = new ConcurrentHashMap<>();
    /**
     * key@version of the objects S3's notifications brought to the validator: what --watch's poll calls new. A re-drive
     * or a repair (an event with no sequencer: no S3 event ordered it) is an operator's or a sweep's own run of an
     * object, and does not make the watch sweep again behind the operator's back.
     */
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    /** bucket/key of the files this run is putting: with lostBucketEvents, only these are announced. */
    private final Set<String> ownPuts = ConcurrentHashMap.newKeySet();
    private boolean debug;

    DeployedPipeline(LocalDeployment stack, PrintStream progress) {
        this.stack = stack;
        this.progress = progress;
        this.inbox = stack.physicalId("InboxBucket");
        this.lake = stack.physicalId("LakeBucket");
        this.operator = DependencyFactory.create(FunctionConfig.builder().inboxBucket(inbox).lakeBucket(lake)
                .ledgerTable(stack.physicalId("LedgerTable")).ledgerHistoryTable(stack.physicalId("LedgerHistoryTable"))
                .aws(LandingRuntime.aws(stack.operatorConnection())).build());
        this.validator = stack.physicalId("ValidatorFunction");
        this.sweepFunction = stack.physicalId("CompletenessSweepFunction");
        stack.lambda().addListener(this::completed);
    }

    /** The validator's answers, as they come: progress lines, outcomes, failures (after Lambda's last retry). */
    private synchronized void completed(FunctionSpec function, String payload, InvokeResult result, int attempt, boolean async) {
        if (!function.name().equals(validator)) {
            return;
        }
        String[] object = object(payload);
        if (object != null) {
            events.putIfAbsent(object[0] + "@" + object[1], payload);
            if (object[2] != null) {
                seen.add(object[0] + "@" + object[1]);
            }
        }
        try {
            if (!result.failed()) {
                Map<String, Object> answer = JSON.std.mapFrom(result.payloadText());
                for (Object r : (List<?>) answer.getOrDefault("records", List.of())) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> record = (Map<String, Object>) r;
                    if ("unroutable".equals(record.get("action"))) {
                        Map<String, Object> entry = new LinkedHashMap<>();
                        entry.put("key", record.get("key"));
                        entry.put("reason", record.get("reason"));
                        entry.put("detail", record.get("detail"));
                        unroutable.add(entry);
                        progress.printf("  unroutable %s  %s: %s%n", record.get("key"), record.get("reason"), record.get("detail"));
                        continue;
                    }
                    IngestOutcome outcome = io.landingledger.core.json.JsonCodec.convert(record, IngestOutcome.class);
                    outcomes.add(outcome);
                    unitsSeen.computeIfAbsent(outcome.dataset(), d -> new TreeSet<>()).add(outcome.unit());
                    progress.println(Pipeline.progressLine(outcome));
                }
                return;
            }
            Map<String, Object> error = JSON.std.mapFrom(result.payloadText());
            String type = String.valueOf(error.get("errorType"));
            String reason = type.substring(type.lastIndexOf('.') + 1) + ": " + LocalPipeline.firstLine(String.valueOf(error.get("errorMessage")));
            int attempts = 1 + 2; // the validator's EventInvokeConfig: MaximumRetryAttempts 2
            if (async && attempt < attempts) {
                progress.printf("  %-9s %s  %s (attempt %d; Lambda retries it)%n", "retried", object == null ? "?" : object[0], reason, attempt);
                return;
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("key", object == null ? null : object[0]);
            entry.put("version", object == null ? null : object[1]);
            entry.put("reason", reason);
            failures.add(entry);
            progress.printf("  %-9s %s  %s%n", "failed", entry.get("key"), reason);
            if (debug && error.get("stackTrace") instanceof List<?> trace) {
                progress.println(type + ": " + error.get("errorMessage"));
                trace.forEach(line -> progress.println("\tat " + line));
            }
        } catch (IOException e) {
            progress.println("  (the validator's answer is not JSON: " + e.getMessage() + ")");
        }
    }


    /** {key (decoded), version, sequencer or null} of the first record of an S3 event, or null. */
    @SuppressWarnings("unchecked")
    private static String[] object(String payload) {
        try {
            Map<String, Object> event = JSON.std.mapFrom(payload);
            List<Object> records = (List<Object>) event.get("Records");
            if (records == null || records.isEmpty()) {
                return null;
            }
            Map<String, Object> s3 = (Map<String, Object>) ((Map<String, Object>) records.get(0)).get("s3");
            Map<String, Object> object = (Map<String, Object>) s3.get("object");
            return new String[] {URLDecoder.decode(String.valueOf(object.get("key")), StandardCharsets.UTF_8),
                    String.valueOf(object.get("versionId")), (String) object.get("sequencer")};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    @Override
    public void drop(String dataset, Path file, int replay) throws IOException {
        String key = dataset + "/" + file.getFileName();
        long size = Files.size(file);
        int before = outcomes.size();
        try (Progress meter = Progress.start(progress, "landing local " + key, size, quietProgress, progressInterval)) {
            ownPuts.add(inbox + "/" + key);
            InboxUpload.Uploaded put;
            try {
                put = InboxUpload.put(operator.s3(), inbox, key, file, meter);
            } finally {
                ownPuts.remove(inbox + "/" + key);
            }
            progress.printf("  put s3://%s/%s (%d bytes, version %s)%n", inbox, key, put.size(), put.versionId());
            awaitIdle();
            String event = events.get(key + "@" + put.versionId());
            if (event == null) {
                // S3 invoked nothing for this object: the template's notification does not cover it
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("key", key);
                entry.put("version", put.versionId());
                entry.put("reason", "no S3 notification reached the validator: InboxBucket (" + inbox + ") "
                        + stack.notificationsFor(inbox, key));
                failures.add(entry);
                progress.printf("  %-9s %s  %s%n", "failed", key, entry.get("reason"));
            }
            for (int i = 1; i < replay && event != null; i++) {
                stack.lambda().invokeAsync(validator, null, event); // S3 delivers at least once: a duplicate event
                awaitIdle();
            }
            long rows = -1;
            for (IngestOutcome outcome : outcomes.subList(before, outcomes.size())) {
                rows = Math.max(rows, 0) + outcome.accepted() + outcome.rejected() + outcome.duplicates();
            }
            meter.finish(rows);
        }
    }

    private boolean quietProgress;
    private Duration progressInterval;

    @Override
    public void progress(boolean quiet, Duration pipeInterval) {
        this.quietProgress = quiet;
        this.progressInterval = pipeInterval;
    }

    private void awaitIdle() {
        try {
            stack.awaitIdle(IDLE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the stack's functions ran", e);
        }
    }

    /** The stack delivers its own notifications: here only whether the validator has run since the last call. */
    @Override
    public boolean deliverNewVersions(int replay) {
        awaitIdle();
        int before = lastSeen;
        lastSeen = seen.size();
        return lastSeen != before;
    }

    private volatile int lastSeen;

    /** Objects other clients put into the inbox arrive with their S3 event lost (landing local --no-bucket-events). */
    void loseOtherClientsEvents() {
        stack.announceOnly(ownPuts::contains);
    }

    @Override
    public Map<String, Object> sweep() {
        // what this sweep covers is what --watch's next poll need not sweep again: without this its first poll swept
        // round 1's objects a second time, and re-drove whatever an operator had changed since (a publish deleted
        // to practise LEDGER_DRIFT was restored behind the operator's back, and DeployedTargetIT's repair found
        // nothing to repair when the machine was slow enough for that poll to come after the deletion)
        lastSeen = seen.size();
        Map<String, Object> results = new LinkedHashMap<>();
        for (Map.Entry<String, TreeSet<String>> units : unitsSeen.entrySet()) {
            var payload = Pipeline.sweepPayload(units.getKey(), units.getValue());
            InvokeResult result;
            try {
                result = stack.lambda().invoke(sweepFunction, "live", io.landingledger.core.json.JsonCodec.writeString(payload));
                results.put(units.getKey(), result.failed() ? Map.of("error", result.payloadText()) : JSON.std.mapFrom(result.payloadText()));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            if (result.failed()) {
                progress.println("  the sweep of " + units.getKey() + " failed: " + result.payloadText());
            }
            awaitIdle(); // its re-drives run on the validator, asynchronously
        }
        return results;
    }

    @Override
    public void export(Path directory) throws IOException {
        LakeExport.write(operator, lake, unitsSeen.keySet(), directory);
        // the tables' files under tables/<table bucket>/<namespace>/<table>/, as each table's location holds them
        for (var tables : stack.tableBuckets()) {
            tables.export(directory.resolve("tables").resolve(tables.name()));
        }
    }

    @Override
    public List<IngestOutcome> outcomes() {
        return outcomes;
    }

    @Override
    public List<Map<String, Object>> unroutable() {
        return unroutable;
    }

    @Override
    public List<Map<String, Object>> failures() {
        return failures;
    }

    @Override
    public void debug(boolean on) {
        this.debug = on;
    }

    @Override
    public LocalStackRecord record() {
        URI endpoint = stack.endpoint();
        return new LocalStackRecord(stack.region(), endpoint, endpoint, inbox, lake, stack.physicalId("LedgerTable"),
                stack.physicalId("LedgerHistoryTable"), stack.operatorCredentials().accessKeyId(), stack.operatorCredentials().secretAccessKey(),
                ProcessHandle.current().pid(), stack.physicalId("ConsumersTable"), stack.stackName());
    }

    @Override
    public List<String> banner() {
        return List.of(
                "  stack             " + stack.stackName() + " (infra/template.yaml, deployed here)",
                "  endpoint          " + stack.endpoint() + "   (every API: S3, DynamoDB, Lambda, CloudFormation, SQS, EventBridge)",
                "  inbox bucket      " + inbox + "   lake bucket " + lake,
                "  credentials       AWS_ACCESS_KEY_ID=" + stack.operatorCredentials().accessKeyId() + " AWS_SECRET_ACCESS_KEY="
                        + stack.operatorCredentials().secretAccessKey() + " AWS_REGION=" + stack.region(),
                "  e.g. aws --endpoint-url " + stack.endpoint() + " s3 cp FILE s3://" + inbox + "/progress_events/progress-2026-03-07.jsonl",
                "  or   AWS_ENDPOINT_URL=" + stack.endpoint() + " ./landing status --stack " + stack.stackName());
    }

    @Override
    public URI s3Endpoint() {
        return stack.endpoint();
    }

    @Override
    public String inboxBucket() {
        return inbox;
    }

    @Override
    public void close() {
        operator.close();
    }
}
