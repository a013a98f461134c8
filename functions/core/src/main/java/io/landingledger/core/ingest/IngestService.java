package io.landingledger.core.ingest;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ledger.AttemptOutcome;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.InputIdentity;
import io.landingledger.core.ledger.LastAttempt;
import io.landingledger.core.ledger.Ledger;
import io.landingledger.core.ledger.LedgerConflictException;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.PublishedRef;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.store.ConcurrentUpdateException;
import io.landingledger.core.store.ObjectNotFoundException;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.store.Precondition;
import io.landingledger.core.store.PreconditionFailedException;
import io.landingledger.core.store.StoredObject;
import io.landingledger.core.validate.LineSet;
import io.landingledger.core.validate.StreamingValidator;
import io.landingledger.core.validate.ValidationLimits;
import io.landingledger.core.validate.Refusal;
import io.landingledger.core.validate.ValidationResult;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The publish protocol (docs/design.md section 2): one inbox object becomes exactly one published unit, or a
 * recorded refusal, whatever S3 and Lambda do to it. The run reads the state (ledger item, published object, the
 * unit's inbox versions), asks {@link PublishDecision#decide} what to do, does it, and asks again until the answer
 * ends the run. Every conditional write that fails (a 412 or 409 on the promote, a ledger write whose revision moved)
 * sends it back to read the state and decide again, so every race is settled by the same table.
 *
 * <p>Infrastructure faults (throttling, 5xx, timeouts) propagate as runtime exceptions so Lambda retries; a crash
 * at any step leaves a state the next run's decision finishes (the crash table in docs/design.md).
 */
public final class IngestService implements IngestPath {
    /**
     * How many decisions one run makes before it gives up and lets Lambda retry: an uncontended publish takes six
     * (list, read, promote, record, end), and each lost race adds a re-read and one or two more.
     */
    static final int MAX_DECISIONS = 40;
    /**
     * A step is not started with less time left than this: enough for the promote's server-side copy of a peak-day
     * unit (~12.5 GB in 5 GiB parts) or a ledger transaction with the SDK's retries. The staging step streams the
     * whole file and cannot be bounded in advance; it too starts only with this much left.
     */
    public static final Duration DEFAULT_STEP_MARGIN = Duration.ofSeconds(30);

    private final ObjectStore store;
    private final Ledger ledger;
    private final String lakeBucket;
    private final Clock clock;
    private final ValidationLimits limits;
    private final StepListener steps;
    private final Duration stepMargin;

    /**
     * @param steps called after each durable step; tests inject crashes here, production passes {@link StepListener#NONE}
     */
    public IngestService(ObjectStore store, Ledger ledger, String lakeBucket, Clock clock, ValidationLimits limits, StepListener steps) {
        this(store, ledger, lakeBucket, clock, limits, steps, DEFAULT_STEP_MARGIN);
    }

    /** @param stepMargin the least time left ({@link Request#deadline()}) with which a step is started */
    public IngestService(ObjectStore store, Ledger ledger, String lakeBucket, Clock clock, ValidationLimits limits, StepListener steps,
                         Duration stepMargin) {
        this.stepMargin = Objects.requireNonNull(stepMargin);
        this.store = Objects.requireNonNull(store);
        this.ledger = Objects.requireNonNull(ledger);
        this.lakeBucket = Objects.requireNonNull(lakeBucket);
        this.clock = Objects.requireNonNull(clock);
        this.limits = Objects.requireNonNull(limits);
        this.steps = Objects.requireNonNull(steps);
    }

    /** The durable steps of a run, for crash drills. */
    public enum Step { STAGED, PROMOTED, LEDGER_WRITTEN }

    /** Observes the end of each durable step (a test throws from here to simulate a crash after it). */
    @FunctionalInterface
    public interface StepListener {
        StepListener NONE = (step, unit) -> { };

        void after(Step step, String unit);
    }

    /**
     * What to ingest and how.
     *
     * @param force    rebuild even when the input is unchanged (repair with force: republish under current code)
     * @param choice   how the input was chosen: an event or re-drive ({@link PublishDecision.Choice#NEWEST}) or an
     *                 operator's repair ({@link PublishDecision.Choice#OPERATOR})
     * @param reason   the operator's reason (repair), or null
     * @param deadline the invocation's time left; checked before the stage, the promote and each ledger write
     */
    public record Request(DatasetContract contract, String unit, InputRef input, String runId, RunKind runKind,
                          boolean force, PublishDecision.Choice choice, String reason, Deadline deadline) {
        public Request {
            Objects.requireNonNull(contract);
            Objects.requireNonNull(unit);
            Objects.requireNonNull(input);
            Objects.requireNonNull(runId);
            Objects.requireNonNull(runKind);
            Objects.requireNonNull(choice);
            Objects.requireNonNull(deadline);
        }

        /** An S3 event or the sweep's re-drive: the unit's newest input wins, no reason, no force. */
        public static Request event(DatasetContract contract, String unit, InputRef input, String runId, Deadline deadline) {
            return new Request(contract, unit, input, runId, RunKind.INGEST, false, PublishDecision.Choice.NEWEST, null, deadline);
        }

        /** An operator's repair of the version the operator chose. */
        public static Request repair(DatasetContract contract, String unit, InputRef input, String runId, boolean force,
                                     String reason, Deadline deadline) {
            return new Request(contract, unit, input, runId, RunKind.REPAIR, force, PublishDecision.Choice.OPERATOR, reason, deadline);
        }
    }

    @Override
    public IngestOutcome ingest(Request request) {
        IngestRun run = new IngestRun(request);
        try {
            return run.execute();
        } finally {
            run.cleanUp();
        }
    }

    /** What this run itself wrote: the outcome it reports. */
    private enum Effect { NONE, PUBLISHED, FINISHED, REFUSED, UNCHANGED }

    /** One run's state: what it read, what it has done, and what it reports. */
    private final class IngestRun {
        private final Request request;
        private final DatasetContract contract;
        private final String dataset;
        private final String unit;
        private final InputRef input;
        private final String publishedKey;
        private final String stagingKey;
        private final Instant started;

        // what the run knows (refreshed after every lost race)
        private LedgerItem item;
        private PublishDecision.Published published;
        private UnitInputs inputs;
        // what it has done
        private Validated validated;
        private ObjectStore.StreamingUpload staging;
        private boolean staged;
        private boolean quarantineWritten;
        private boolean rebuildPending;
        private boolean promoted;
        private Effect effect = Effect.NONE;

        IngestRun(Request request) {
            this.request = request;
            this.contract = request.contract();
            this.dataset = contract.dataset();
            this.unit = request.unit();
            this.input = request.input();
            this.publishedKey = LakeLayout.publishedKey(dataset, unit);
            this.stagingKey = LakeLayout.stagingKey(dataset, unit, request.runId());
            this.started = clock.instant();
            this.rebuildPending = request.force();
        }

        IngestOutcome execute() {
            item = ledger.get(dataset, unit).orElse(null);
            published = headPublished();
            for (int decisions = 0; decisions < MAX_DECISIONS; decisions++) {
                PublishDecision.Facts facts = new PublishDecision.Facts(input.key(), input.versionId(), request.choice(),
                        rebuildPending, item, published, inputs, validated == null ? null : validated.validation());
                switch (PublishDecision.decide(facts)) {
                    case PublishDecision.Skip skip -> {
                        return ended(skip.why());
                    }
                    case PublishDecision.ListInputs list -> inputs = listInputs();
                    case PublishDecision.RecordPublished record -> {
                        if (recordPublished(record.object()) && effect == Effect.PUBLISHED) {
                            return ended("published");
                        }
                    }
                    case PublishDecision.Gone gone -> {
                        return gone();
                    }
                    case PublishDecision.Stale stale -> {
                        return outcome(IngestAction.STALE, validated == null ? null : validated.result().sha256(),
                                validated == null ? input.size() : validated.result().storedBytes(), null, null, stale.why());
                    }
                    case PublishDecision.Read read -> {
                        if (!read()) {
                            return gone();
                        }
                    }
                    case PublishDecision.RecordRefusal refusal -> {
                        if (recordRefusal()) {
                            return ended("refused");
                        }
                    }
                    case PublishDecision.RecordSameInput same -> {
                        if (recordSameInput()) {
                            return ended("unchanged");
                        }
                    }
                    case PublishDecision.Promote promote -> {
                        if (promoted) {
                            throw new RunSupersededException("run " + request.runId() + " promoted " + dataset + "/" + unit
                                    + " and its publish was replaced while it ran; a run publishes once: the retry decides again");
                        }
                        promote(promote.precondition());
                    }
                }
            }
            throw new IllegalStateException("gave up after " + MAX_DECISIONS + " decisions on " + dataset + "/" + unit
                    + ": too much contention; Lambda's retry decides again");
        }

        /** The version is gone (from the listing, or between the listing and the read): nothing to publish or refuse. */
        private IngestOutcome gone() {
            return outcome(IngestAction.SKIPPED, null, input.size(), null, "INPUT_GONE",
                    "the input version no longer exists (deleted before it was read)");
        }

        /** The run ends: what it reports is what it wrote (nothing, for a replay). */
        private IngestOutcome ended(String why) {
            ValidationResult result = validated == null ? null : validated.result();
            String sha = result != null ? result.sha256() : item != null && item.input() != null ? item.input().sha256() : null;
            long bytes = result != null ? result.storedBytes() : input.size();
            return switch (effect) {
                // this run read the input: its rejected lines' reason codes go with the outcome (to the producer)
                case PUBLISHED -> outcome(IngestAction.PUBLISHED, sha, bytes, item.published(), null, null,
                        result == null ? Map.of() : rejectReasons(result));
                case FINISHED -> outcome(IngestAction.FINISHED, sha, bytes, item.published(), null,
                        "an earlier run (" + item.runId() + ") promoted this input; this run recorded it");
                case UNCHANGED -> outcome(IngestAction.UNCHANGED, sha, bytes, item.published(), null,
                        "the same bytes as the published input: recorded as the unit's input, not republished");
                case REFUSED -> {
                    Refusal refusal = result.refusal();
                    yield report(IngestAction.REFUSED)
                            .input(input.key(), validated.identity().versionId())
                            .sha256(result.sha256())
                            .bytes(result.storedBytes())
                            .counts(result.accepted(), result.rejected(), result.duplicates())
                            .refusal(refusal.code().name())
                            .detail(refusal.detail())
                            .rejectReasons(rejectReasons(result))
                            .build();
                }
                case NONE -> outcome(IngestAction.SKIPPED, sha, bytes, item == null ? null : item.published(),
                        PublishDecision.recordedRefusal(item, input.key(), input.versionId()), why);
            };
        }

        private PublishDecision.Published headPublished() {
            return store.head(lakeBucket, publishedKey)
                    .map(o -> new PublishDecision.Published(o.etag(), PublishMetadata.from(o.metadata())))
                    .orElse(null);
        }

        /** Every version of the unit's inbox keys: one listing under the unit's file-name prefix. */
        private UnitInputs listInputs() {
            String prefix = dataset + "/" + contract.unit().fileNamePrefix(unit);
            return UnitInputs.of(store.versions(input.bucket(), prefix), key -> belongsToUnit(key));
        }

        private boolean belongsToUnit(String key) {
            if (!key.startsWith(dataset + "/")) {
                return false;
            }
            return contract.unit().unitOf(key.substring(dataset.length() + 1)).map(unit::equals).orElse(false);
        }

        /**
         * After a lost race: read everything again. A write whose response was lost (the SDK retried it, and the
         * retry's condition failed because the first attempt had written) shows up here as this run's own write.
         */
        private void refresh(LedgerItem current) {
            item = current;
            published = headPublished();
            inputs = listInputs();
            if (item != null && item.lastAttempt() != null && request.runId().equals(item.lastAttempt().runId())) {
                switch (item.lastAttempt().outcome()) {
                    case REFUSED -> effect = Effect.REFUSED;
                    case UNCHANGED -> effect = Effect.UNCHANGED;
                    default -> {
                    }
                }
            }
            if (item != null && item.published() != null && request.runId().equals(item.runId())) {
                effect = Effect.PUBLISHED;
            }
        }

        /**
         * Stops the run between steps, in a state the next run finishes, when the step might not: a Lambda killed
         * inside a step is recovered too (the crash table), but stopping here is reported, and nothing is left to
         * guess. {@code leaves} says what the stop leaves behind.
         */
        private void requireTimeFor(String step, String leaves) {
            Duration left = request.deadline().remaining();
            if (left.compareTo(stepMargin) < 0) {
                throw new OutOfTimeException("stopped before " + step + " of " + dataset + "/" + unit + " (run " + request.runId()
                        + "): " + left.toMillis() + " ms left, below the step margin of " + stepMargin.toSeconds() + " s; " + leaves
                        + ", and Lambda's retry or the sweep's re-drive finishes the unit");
            }
        }

        /**
         * Reads the pinned version, hashes and validates it, streaming accepted rows into the staging upload, which
         * stays open until the promote (or is aborted). False when the version no longer exists. Usually one pass.
         * When the duplicate-key index spilled to disk and a row turned out, at the merge, to repeat an identical row
         * whose first occurrence was already in a spilled run, that row is in the staging upload: the upload is
         * aborted and the same pinned version is validated again, skipping those rows. This is rare because it needs
         * a spill, that is more distinct keys in one file than {@code keyIndexMemoryBytes} holds (about 23 million at
         * the template's 2,048 MB), and a repeat whose original is in an earlier run. Nothing is promoted before the
         * final pass.
         */
        private boolean read() {
            requireTimeFor("the staging (read, validate, stage)", "nothing is written");
            ValidationResult firstPass = null;
            try {
                while (true) {
                    ObjectStore.StreamingUpload upload = store.startUpload(lakeBucket, stagingKey, "application/x-ndjson");
                    staging = upload;
                    LineSet dropRows = firstPass == null ? LineSet.empty() : firstPass.rowsToDrop();
                    ByteArrayOutputStream rejects = new ByteArrayOutputStream();
                    ValidationResult result;
                    StoredObject read;
                    HashingOutputStream content = new HashingOutputStream(upload.stream());
                    try (ObjectStore.OpenedObject opened = store.open(input.bucket(), input.key(), input.versionId())) {
                        read = opened.object();
                        result = new StreamingValidator(contract, limits).validate(opened.body(), read.size(), content, rejects, dropRows);
                    } catch (ObjectNotFoundException e) {
                        // deleted before it was read, or a version id that no longer exists: nothing to publish or
                        // refuse, and retrying cannot bring it back; the sweep reports the unit from the inbox
                        abortStaging();
                        return false;
                    }
                    if (firstPass != null && (!result.sha256().equals(firstPass.sha256()) || !result.acceptedFinal())) {
                        throw new IllegalStateException("the second pass over s3://" + input.bucket() + "/" + input.key()
                                + " (version " + input.versionId() + ") did not read the bytes of the first: retry");
                    }
                    if (result.publishable() && !result.acceptedFinal()) {
                        // staging holds rows that repeat a spilled identical row: never complete it, read again
                        abortStaging();
                        firstPass = result;
                        continue;
                    }
                    InputIdentity identity = InputIdentity.builder()
                            .bucket(input.bucket())
                            .key(input.key())
                            .versionId(read.versionId())
                            .etag(read.etag())
                            .sha256(result.sha256())
                            .size(result.storedBytes())
                            .sequencer(input.sequencer())
                            .lastModified(read.lastModified())
                            .build();
                    if (!result.publishable()) {
                        abortStaging();
                    }
                    validated = new Validated(result, identity, rejects.toByteArray(), content.sha256Hex());
                    return true;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("reading s3://" + input.bucket() + "/" + input.key() + " or writing staging failed", e);
            }
        }

        /** Promotes the staged rows under {@code precondition}; a refused condition re-reads the state. */
        private void promote(Precondition precondition) {
            try {
                if (!staged) {
                    staging.complete();
                    staged = true;
                    steps.after(Step.STAGED, unit);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("completing the staging upload of " + dataset + "/" + unit + " failed", e);
            }
            ValidationResult result = validated.result();
            if (result.rejected() > 0 && !quarantineWritten) {
                // before the promote, so a publish never names a quarantine that is not there
                store.put(lakeBucket, quarantineKey(result.sha256()), validated.rejects(), "application/x-ndjson");
                quarantineWritten = true;
            }
            InputIdentity identity = validated.identity();
            PublishMetadata metadata = PublishMetadata.builder()
                    .input(identity)
                    .runId(request.runId())
                    .runKind(request.runKind())
                    .contractVersion(contract.version())
                    .accepted(result.accepted())
                    .rejected(result.rejected())
                    .duplicates(result.duplicates())
                    .contentSha256(validated.contentSha256())
                    .build();
            requireTimeFor("the promote", "the staging object is deleted (or expired by the _staging/ lifecycle rule)");
            try {
                String etag = store.promote(lakeBucket, stagingKey, publishedKey, metadata.toMap(), precondition);
                steps.after(Step.PROMOTED, unit);
                published = new PublishDecision.Published(etag, metadata);
                promoted = true;
                rebuildPending = false; // a forced rebuild is done once it is promoted
            } catch (PreconditionFailedException | ConcurrentUpdateException e) {
                // 412: someone published between our HEAD and our commit; 409: a concurrent operation. Decide again.
                refresh(ledger.get(dataset, unit).orElse(null));
            }
        }

        /** Ledger last: records the publish S3 holds (ours, or one a crashed or concurrent run promoted). */
        private boolean recordPublished(PublishDecision.Published object) {
            PublishMetadata built = object.metadata();
            InputIdentity builtFrom = built.identity(input.bucket());
            Instant now = clock.instant();
            PublishedRef ref = new PublishedRef(publishedKey, object.etag(), built.accepted(), built.rejected(), built.duplicates(),
                    built.rejected() > 0 ? LakeLayout.quarantineKey(dataset, unit, built.inputSha256(), built.contractVersion()) : null,
                    built.contentSha256());
            // a restatement is a change of the rows a reader sees, judged by content hash against the publish the
            // ledger records (also when that object was deleted out of band): a repair that restores the same rows
            // is counted as a publish, not as a restatement, and readers who read those rows are not behind
            PublishedRef standing = item == null ? null : item.published();
            boolean sameRows = ref.sameContentAs(standing);
            long restatements = (item == null ? 0 : item.restatements()) + (standing != null && !sameRows ? 1 : 0);
            LastAttempt refusal = newerRefusal(builtFrom);
            LastAttempt last = refusal != null ? refusal
                    : LastAttempt.of(now, built.runId(), built.runKind(), AttemptOutcome.PUBLISHED, null, builtFrom);
            boolean ours = built.runId().equals(request.runId());
            // the run asked to ingest this very input finishes it: its reason (an operator's, for a repair's rerun)
            // is the publish's; a publish of another input it only records
            boolean ofThisInput = builtFrom.key().equals(input.key()) && builtFrom.versionId() != null
                    && builtFrom.versionId().equals(validatedOrRequestedVersion());
            LedgerItem next = LedgerItem.builder(dataset, unit)
                    .status(LedgerStatus.PUBLISHED)
                    .input(builtFrom)
                    .published(ref)
                    .run(built.runId(), built.runKind())
                    .contractVersion(built.contractVersion())
                    .publishCount((item == null ? 0 : item.publishCount()) + 1)
                    .publishedAt(item == null || item.firstPublishedAt() == null ? now : item.firstPublishedAt(), now)
                    .lastAttempt(last)
                    .restatements(restatements)
                    .contentSince(sameRows ? contentRun(item) : built.runId(), sameRows ? contentPublishedAt(item) : now)
                    // an operator accepted these very rows as an empty unit; other rows are judged afresh
                    .emptyAccepted(sameRows ? item.emptyAccepted() : null)
                    // and an accepted suspect count holds for these very rows alone: a republish is judged afresh
                    .volumeAccepted(sameRows ? item.volumeAccepted() : null)
                    .build();
            HistoryEntry history = HistoryEntry.builder()
                    .dataset(dataset)
                    .unit(unit)
                    .at(now)
                    .runId(built.runId())
                    .runKind(built.runKind())
                    .action("PUBLISHED")
                    .reason(ours || ofThisInput ? request.reason() : null)
                    .input(builtFrom)
                    .published(ref)
                    .contractVersion(built.contractVersion())
                    .build();
            requireTimeFor("the ledger write", "the promoted object names its run and input, so the next run records it");
            if (write(next, history)) {
                steps.after(Step.LEDGER_WRITTEN, unit);
                if (ours) {
                    effect = Effect.PUBLISHED;
                } else if (ofThisInput) {
                    effect = Effect.FINISHED;
                }
                return true;
            }
            return false;
        }

        /** The run that first published the standing rows (its own run, for an item that does not say). */
        private static String contentRun(LedgerItem standing) {
            return standing.contentRunId() != null ? standing.contentRunId() : standing.runId();
        }

        private static Instant contentPublishedAt(LedgerItem standing) {
            return standing.contentPublishedAt() != null ? standing.contentPublishedAt() : standing.publishedAt();
        }

        /** The ledger's refusal of an input newer than {@code publish}'s, which a newly recorded publish must keep. */
        private LastAttempt newerRefusal(InputIdentity publish) {
            if (item == null || item.lastAttempt() == null || !item.lastAttempt().refused()) {
                return null;
            }
            LastAttempt last = item.lastAttempt();
            String key = last.inputKey() != null ? last.inputKey() : item.input() != null ? item.input().key() : null;
            if (key == null || (key.equals(publish.key()) && Objects.equals(last.inputVersionId(), publish.versionId()))) {
                return null;
            }
            return inputs.compare(key, last.inputVersionId(), publish.key(), publish.versionId()) > 0 ? last : null;
        }

        private String validatedOrRequestedVersion() {
            return validated != null ? validated.identity().versionId() : input.versionId();
        }

        /**
         * A refusal publishes nothing and keeps the previous publish (step 4). The ledger's last word stays the refusal
         * of the newest input: an operator's repair of an older version that is refused (say under a new contract)
         * goes to the history only.
         */
        private boolean recordRefusal() {
            ValidationResult result = validated.result();
            InputIdentity identity = validated.identity();
            String code = result.refusal().code().name();
            Instant now = clock.instant();
            LastAttempt newer = newerRefusal(identity);
            LastAttempt attempt = newer != null ? newer
                    : LastAttempt.of(now, request.runId(), request.runKind(), AttemptOutcome.REFUSED, code, identity);
            LedgerItem next;
            if (newer != null && item.status() == LedgerStatus.REFUSED) {
                next = item;
            } else if (item != null && item.published() != null) {
                // the previous publish stays the unit's; the refusal is its last attempt
                next = item.toBuilder().status(LedgerStatus.PUBLISHED).lastAttempt(attempt).reason(null).build();
            } else {
                next = LedgerItem.builder(dataset, unit)
                        .status(LedgerStatus.REFUSED)
                        .input(identity)
                        .run(request.runId(), request.runKind())
                        .contractVersion(contract.version())
                        .publishCount(item == null ? 0 : item.publishCount())
                        .lastAttempt(attempt)
                        .reason(code)
                        .build();
            }
            HistoryEntry history = HistoryEntry.builder()
                    .dataset(dataset)
                    .unit(unit)
                    .at(now)
                    .runId(request.runId())
                    .runKind(request.runKind())
                    .action("REFUSED")
                    .reason(code)
                    .input(identity)
                    .contractVersion(contract.version())
                    .build();
            requireTimeFor("the ledger write of the refusal", "nothing is recorded; the retry refuses the file again");
            if (write(next, history)) {
                steps.after(Step.LEDGER_WRITTEN, unit);
                effect = Effect.REFUSED;
                rebuildPending = false;
                return true;
            }
            return false;
        }

        /** A new version of the published input's bytes: the ledger names it, nothing is republished. */
        private boolean recordSameInput() {
            InputIdentity identity = validated.identity();
            Instant now = clock.instant();
            // the refusal of a newer input stays the unit's last word (an operator's repair can record an older version)
            LastAttempt newer = newerRefusal(identity);
            LastAttempt attempt = newer != null ? newer
                    : LastAttempt.of(now, request.runId(), request.runKind(), AttemptOutcome.UNCHANGED, null, identity);
            LedgerItem next = item.toBuilder().input(identity).lastAttempt(attempt).build();
            HistoryEntry history = HistoryEntry.builder()
                    .dataset(dataset)
                    .unit(unit)
                    .at(now)
                    .runId(request.runId())
                    .runKind(request.runKind())
                    .action("UNCHANGED")
                    .reason(request.reason())
                    .input(identity)
                    .published(item.published())
                    .contractVersion(item.contractVersion())
                    .build();
            requireTimeFor("the ledger write", "nothing is recorded; the retry reads the input again");
            if (write(next, history)) {
                steps.after(Step.LEDGER_WRITTEN, unit);
                effect = Effect.UNCHANGED;
                // only once the write won: after a lost race the decision may instead promote what is staged, and
                // an aborted upload cannot be completed
                abortStaging();
                return true;
            }
            return false;
        }

        /** One conditional ledger write: true when written; false after a conflict, with the state read again. */
        private boolean write(LedgerItem next, HistoryEntry history) {
            long expected = item == null ? 0 : item.revision();
            try {
                ledger.write(next, expected, history);
                item = next.withRevision(expected + 1);
                return true;
            } catch (LedgerConflictException e) {
                refresh(e.current().orElse(null));
                return false;
            }
        }

        private String quarantineKey(String sha256) {
            return LakeLayout.quarantineKey(dataset, unit, sha256, contract.version());
        }

        private void abortStaging() {
            if (staging != null && !staged) {
                staging.abort();
            }
        }

        /** Step 9. A failure here must not fail a run whose publish is recorded: lifecycle expires _staging/ after a day. */
        void cleanUp() {
            if (staging != null) {
                staging.close(); // aborts an upload that was never completed
            }
            if (staged) {
                try {
                    store.delete(lakeBucket, stagingKey);
                } catch (RuntimeException e) {
                    // left for the _staging/ lifecycle rule; the publish and the ledger are already consistent
                }
            }
        }

        private IngestOutcome outcome(IngestAction action, String sha256, long bytes, PublishedRef published, String code, String detail) {
            return outcome(action, sha256, bytes, published, code, detail, Map.of());
        }

        private IngestOutcome outcome(IngestAction action, String sha256, long bytes, PublishedRef published, String code, String detail,
                                      Map<String, Long> rejectReasons) {
            IngestOutcome.Builder outcome = report(action).sha256(sha256).bytes(bytes).refusal(code).detail(detail)
                    .rejectReasons(rejectReasons);
            if (published != null) {
                outcome.counts(published.accepted(), published.rejected(), published.duplicates())
                        .published(published.key(), published.etag());
            }
            return outcome.build();
        }

        /** What every outcome of this run names: the unit, the input it was asked for, the run, the time so far. */
        private IngestOutcome.Builder report(IngestAction action) {
            return IngestOutcome.builder(action, dataset, unit)
                    .contractVersion(contract.version())
                    .input(input.key(), input.versionId())
                    .run(request.runId(), request.runKind().name())
                    .duration(Duration.between(started, clock.instant()));
        }
    }

    /** Rejected lines by reason code, as the validation counted them. */
    private static Map<String, Long> rejectReasons(ValidationResult result) {
        Map<String, Long> reasons = new TreeMap<>();
        result.reasons().forEach((code, count) -> reasons.put(code.name(), count));
        return reasons;
    }

    /** A read of the candidate: the validation, the identity of the version read, and its rejected lines. */
    /** @param contentSha256 SHA-256 of the staged rows, the bytes a promote publishes */
    private record Validated(ValidationResult result, InputIdentity identity, byte[] rejects, String contentSha256) {
        PublishDecision.Validation validation() {
            return result.publishable() ? new PublishDecision.Publishable(result.sha256())
                    : new PublishDecision.Refused(result.sha256(), result.refusal().code().name());
        }
    }
}
