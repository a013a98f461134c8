package io.landingledger.core.ingest;

import io.landingledger.core.contract.DatasetContract;
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
import io.landingledger.core.validate.ValidationResult;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The publish protocol (DESIGN.md section 2): one inbox object becomes exactly one published unit, or a recorded
 * refusal, whatever S3 and Lambda do to it. Stage, promote under a condition, write the ledger last, clean up.
 *
 * <p>Every conflict converges by re-reading and deciding again: a 412 on the promote means someone else published
 * first (ours if the published object carries our input-sha256, else compare the inputs' order); a 409 means retry
 * with a new upload; a failed ledger condition means re-read the item and never overwrite a newer state.
 *
 * <p>Infrastructure faults (throttling, 5xx, timeouts) propagate as runtime exceptions so Lambda retries; a crash
 * at any step leaves a state the crash table in DESIGN.md describes and the next run finishes.
 */
public final class IngestService implements IngestPath {
    /** How often one run re-decides after losing a race before it gives up and lets Lambda retry. */
    static final int MAX_ROUNDS = 8;
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
     * @param force          rebuild even when the input is unchanged (repair with force: republish under current code)
     * @param ignoreOrdering the operator chose this input (repair): do not call it stale
     * @param deadline       the invocation's time left; checked before the stage, the promote and the ledger write
     */
    public record Request(DatasetContract contract, String unit, InputRef input, String runId, RunKind runKind,
                          boolean force, boolean ignoreOrdering, String reason, Deadline deadline) {
        public Request {
            Objects.requireNonNull(contract);
            Objects.requireNonNull(unit);
            Objects.requireNonNull(input);
            Objects.requireNonNull(runId);
            Objects.requireNonNull(runKind);
            Objects.requireNonNull(deadline);
        }

        /** A run with no timeout to watch (the local run, tests). */
        public Request(DatasetContract contract, String unit, InputRef input, String runId, RunKind runKind, boolean force,
                       boolean ignoreOrdering, String reason) {
            this(contract, unit, input, runId, runKind, force, ignoreOrdering, reason, Deadline.NONE);
        }

        /** A run without an operator's reason (an S3 event, the sweep's re-drive). */
        public Request(DatasetContract contract, String unit, InputRef input, String runId, RunKind runKind, boolean force,
                       boolean ignoreOrdering) {
            this(contract, unit, input, runId, runKind, force, ignoreOrdering, null, Deadline.NONE);
        }
    }

    @Override
    public IngestOutcome ingest(Request request) {
        return new Run(request).execute();
    }

    /** One run's state. */
    private final class Run {
        private final Request request;
        private final DatasetContract contract;
        private final String dataset;
        private final String unit;
        private final InputRef input;
        private final String publishedKey;
        private final Instant started;

        Run(Request request) {
            this.request = request;
            this.contract = request.contract();
            this.dataset = contract.dataset();
            this.unit = request.unit();
            this.input = request.input();
            this.publishedKey = LakeLayout.publishedKey(dataset, unit);
            this.started = clock.instant();
        }

        IngestOutcome execute() {
            LedgerItem item = ledger.get(dataset, unit).orElse(null);
            if (isStale(item)) {
                return stale(item, null, 0);
            }
            if (!request.force() && item != null) {
                IngestOutcome skip = cheapSkip(item);
                if (skip != null) {
                    return skip;
                }
            }
            Optional<StoredObject> published = store.head(lakeBucket, publishedKey);
            if (!request.force() && published.isPresent()) {
                // crash table row 6: a run promoted this very input and died before the ledger
                PublishMetadata meta = PublishMetadata.from(published.get().metadata());
                if (meta != null && input.versionId() != null && input.versionId().equals(meta.inputVersionId())
                        && !published.get().etag().equals(item == null ? null : item.publishedEtag())) {
                    return record(item, meta.identity(input.bucket()), published.get().etag(), meta.accepted(), meta.rejected(),
                            meta.duplicates(), meta.rejected() > 0 ? LakeLayout.quarantineKey(dataset, unit, meta.inputSha256()) : null,
                            IngestAction.FINISHED, meta.runId());
                }
            }
            return validateAndPublish(item);
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

        private boolean isStale(LedgerItem item) {
            if (request.ignoreOrdering() || item == null || item.input() == null || item.status() == LedgerStatus.OMITTED) {
                return false;
            }
            InputIdentity current = item.input();
            if (input.versionId() != null && input.versionId().equals(current.versionId()) && input.key().equals(current.key())) {
                return false;
            }
            return InputOrder.isOlder(input.key(), input.sequencer(), input.eventTime(), current.key(), current.sequencer(), current.lastModified());
        }

        /** Skip without reading the body: the ledger already reflects this exact input version (invariant 4). */
        private IngestOutcome cheapSkip(LedgerItem item) {
            InputIdentity current = item.input();
            boolean sameVersion = current != null && input.key().equals(current.key()) && input.versionId() != null
                    && input.versionId().equals(current.versionId())
                    && (input.etag() == null || current.etag() == null || input.etag().equals(current.etag()));
            if (sameVersion && item.status() == LedgerStatus.PUBLISHED) {
                Optional<StoredObject> published = store.head(lakeBucket, publishedKey);
                if (published.isPresent() && published.get().etag().equals(item.publishedEtag())) {
                    return outcome(IngestAction.SKIPPED, current.sha256(), current.size(), item.published(), null, null);
                }
                return null; // the ledger points at a missing or different object: a lie, republish
            }
            if (sameVersion && item.status() == LedgerStatus.REFUSED) {
                return outcome(IngestAction.SKIPPED, current.sha256(), current.size(), null, item.reason(), "already refused");
            }
            LastAttempt last = item.lastAttempt();
            if (last != null && "REFUSED".equals(last.outcome()) && input.versionId() != null
                    && input.versionId().equals(last.inputVersionId()) && item.status() == LedgerStatus.PUBLISHED) {
                return outcome(IngestAction.SKIPPED, last.inputSha256(), -1, item.published(), last.reason(), "already refused");
            }
            return null;
        }

        /**
         * Validates into a staging upload and publishes it (steps 3-9). Usually one pass. When the duplicate-key index
         * spilled to disk and a row turned out, at the merge, to repeat an identical row whose first occurrence was
         * already in a spilled run, that row is in the staging upload: the upload is aborted and the same pinned
         * version is validated again, skipping those rows. This is rare because it needs a spill, that is more
         * distinct keys in one file than {@code keyIndexMemoryBytes} holds (about 23 million at the template's
         * 2,048 MB), and a repeat whose original is in an earlier run: a retry sent soon after its original is in the
         * same run and collapses inline. A spilled file with repeats spread across it does take the second pass: one
         * more read and validation of the whole file (about twice the CPU). Nothing is promoted before the final pass.
         */
        private IngestOutcome validateAndPublish(LedgerItem item) {
            requireTimeFor("the staging (read, validate, stage)", "nothing is written");
            String stagingKey = LakeLayout.stagingKey(dataset, unit, request.runId());
            boolean staged = false;
            ValidationResult firstPass = null;
            try {
                while (true) {
                    try (ObjectStore.StreamingUpload upload = store.startUpload(lakeBucket, stagingKey, "application/x-ndjson")) {
                        LineSet dropRows = firstPass == null ? LineSet.empty() : firstPass.rowsToDrop();
                        ByteArrayOutputStream rejects = new ByteArrayOutputStream();
                        ValidationResult result;
                        StoredObject read;
                        try (ObjectStore.OpenedObject opened = store.open(input.bucket(), input.key(), input.versionId())) {
                            read = opened.object();
                            result = new StreamingValidator(contract, limits).validate(opened.body(), read.size(), upload.stream(), rejects, dropRows);
                        } catch (ObjectNotFoundException e) {
                            // Deleted before it was read, or a version id that no longer exists: there is nothing to
                            // publish or refuse, and retrying cannot bring it back. The sweep reports the unit from
                            // the inbox listing.
                            upload.abort();
                            return outcome(IngestAction.SKIPPED, null, 0, null, "INPUT_GONE",
                                    "the input version no longer exists (deleted before it was read)");
                        }
                        if (firstPass != null && (!result.sha256().equals(firstPass.sha256()) || !result.acceptedFinal())) {
                            throw new IllegalStateException("the second pass over s3://" + input.bucket() + "/" + input.key()
                                    + " (version " + input.versionId() + ") did not read the bytes of the first: retry");
                        }
                        if (result.publishable() && !result.acceptedFinal()) {
                            // staging holds rows that repeat a spilled identical row: never complete it, read again
                            upload.abort();
                            firstPass = result;
                            continue;
                        }
                        InputIdentity identity = new InputIdentity(input.bucket(), input.key(), read.versionId(), read.etag(),
                                result.sha256(), result.storedBytes(), input.sequencer(),
                                input.eventTime() != null ? input.eventTime() : read.lastModified());
                        if (!result.publishable()) {
                            upload.abort();
                            return refuse(item, identity, new Refusal(result.refusal().code().name(), result.refusal().detail()), result);
                        }
                        if (!request.force() && item != null && item.status() == LedgerStatus.PUBLISHED && item.input() != null
                                && result.sha256().equals(item.input().sha256())) {
                            Optional<StoredObject> published = store.head(lakeBucket, publishedKey);
                            if (published.isPresent() && published.get().etag().equals(item.publishedEtag())) {
                                upload.abort(); // same bytes, publish present: write nothing
                                return outcome(IngestAction.SKIPPED, result.sha256(), result.storedBytes(), item.published(), null, null);
                            }
                        }
                        upload.complete();
                        staged = true;
                        steps.after(Step.STAGED, unit);
                        String quarantineKey = null;
                        if (result.rejected() > 0) {
                            quarantineKey = LakeLayout.quarantineKey(dataset, unit, result.sha256());
                            store.put(lakeBucket, quarantineKey, rejects.toByteArray(), "application/x-ndjson");
                        }
                        return promoteAndRecord(item, identity, result, stagingKey, quarantineKey);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("reading s3://" + input.bucket() + "/" + input.key() + " or writing staging failed", e);
            } finally {
                if (staged) {
                    deleteStaging(stagingKey);
                }
            }
        }

        /** Step 9. A failure here must not fail a run whose publish is recorded: lifecycle expires _staging/ after a day. */
        private void deleteStaging(String stagingKey) {
            try {
                store.delete(lakeBucket, stagingKey);
            } catch (RuntimeException e) {
                // left for the _staging/ lifecycle rule; the publish and the ledger are already consistent
            }
        }

        private IngestOutcome promoteAndRecord(LedgerItem item, InputIdentity identity, ValidationResult result,
                                               String stagingKey, String quarantineKey) {
            PublishMetadata metadata = new PublishMetadata(identity.sha256(), identity.versionId(), identity.etag(), identity.key(),
                    identity.size(), identity.sequencer(), identity.lastModified(), request.runId(), contract.version(),
                    result.accepted(), result.rejected(), result.duplicates());
            for (int round = 0; round < MAX_ROUNDS; round++) {
                Optional<StoredObject> target = store.head(lakeBucket, publishedKey);
                Precondition precondition = Precondition.none();
                if (target.isPresent()) {
                    PublishMetadata theirs = PublishMetadata.from(target.get().metadata());
                    if (theirs != null && theirs.inputSha256().equals(identity.sha256())) {
                        // someone (a duplicate run, or our own earlier crash) already promoted these bytes
                        return record(item, identity, target.get().etag(), result.accepted(), result.rejected(), result.duplicates(),
                                quarantineKey, IngestAction.FINISHED, theirs.runId());
                    }
                    if (theirs != null && !request.ignoreOrdering()
                            && InputOrder.isOlder(identity.key(), identity.sequencer(), identity.lastModified(),
                            theirs.inputKey(), theirs.inputSequencer(), theirs.inputLastModified())) {
                        return stale(item, identity.sha256(), identity.size());
                    }
                    precondition = Precondition.match(target.get().etag());
                }
                requireTimeFor("the promote", "the staging object is deleted (or expired by the _staging/ lifecycle rule)");
                try {
                    String etag = store.promote(lakeBucket, stagingKey, publishedKey, metadata.toMap(), precondition);
                    steps.after(Step.PROMOTED, unit);
                    return record(item, identity, etag, result.accepted(), result.rejected(), result.duplicates(), quarantineKey,
                            IngestAction.PUBLISHED, request.runId());
                } catch (PreconditionFailedException | ConcurrentUpdateException e) {
                    // 412: someone published between our head and our commit; 409: a concurrent operation. Decide again.
                    item = ledger.get(dataset, unit).orElse(null);
                    if (isStale(item)) {
                        return stale(item, identity.sha256(), identity.size());
                    }
                }
            }
            throw new IllegalStateException("gave up after " + MAX_ROUNDS + " promote rounds on " + publishedKey + ": too much contention");
        }

        /**
         * Ledger last (step 7): record the publish with etag, converging on conflict. {@code builtBy} is the run whose
         * promote made the object (this run, or the crashed or concurrent run named in the object's metadata), so the
         * ledger's run_id always matches the published object's run-id.
         */
        private IngestOutcome record(LedgerItem item, InputIdentity identity, String etag, long accepted, long rejected,
                                     long duplicates, String quarantineKey, IngestAction action, String builtBy) {
            PublishedRef published = new PublishedRef(publishedKey, etag, accepted, rejected, duplicates, quarantineKey);
            for (int round = 0; round < MAX_ROUNDS; round++) {
                if (item != null && etag.equals(item.publishedEtag())) {
                    // already recorded (a concurrent duplicate saw our promote and wrote the ledger first): nothing to
                    // write. The run that promoted still reports the publish; a run that only found it reports a skip.
                    return outcome(action == IngestAction.PUBLISHED ? IngestAction.PUBLISHED : IngestAction.SKIPPED,
                            identity.sha256(), identity.size(), item.published(), null, null);
                }
                if (item != null && item.status() == LedgerStatus.PUBLISHED && item.input() != null && !request.ignoreOrdering()
                        && !identity.sha256().equals(item.input().sha256())
                        && InputOrder.isOlder(identity.key(), identity.sequencer(), identity.lastModified(),
                        item.input().key(), item.input().sequencer(), item.input().lastModified())) {
                    return stale(item, identity.sha256(), identity.size());
                }
                Instant now = clock.instant();
                boolean newPublish = item == null || !etag.equals(item.publishedEtag());
                LedgerItem next = new LedgerItem(dataset, unit, LedgerStatus.PUBLISHED, identity, published, builtBy,
                        request.runKind(), contract.version(), (item == null ? 0 : item.publishCount()) + (newPublish ? 1 : 0),
                        item == null || item.firstPublishedAt() == null ? now : item.firstPublishedAt(), now,
                        new LastAttempt(now, request.runId(), request.runKind(), "PUBLISHED", null, identity.versionId(), identity.sha256()),
                        null);
                HistoryEntry history = new HistoryEntry(dataset, unit, now, request.runId(), request.runKind(), "PUBLISHED", request.reason(),
                        identity, published, contract.version());
                requireTimeFor("the ledger write", "the promoted object carries this input's sha256, so the retry records it");
                try {
                    ledger.write(next, item == null ? 0 : item.revision(), history);
                    steps.after(Step.LEDGER_WRITTEN, unit);
                    return outcome(action, identity.sha256(), identity.size(), published, null, null);
                } catch (LedgerConflictException e) {
                    item = e.current().orElse(null);
                }
            }
            throw new IllegalStateException("gave up after " + MAX_ROUNDS + " ledger rounds on " + dataset + "/" + unit);
        }

        private record Refusal(String code, String detail) {
        }

        private IngestOutcome refuse(LedgerItem item, InputIdentity identity, Refusal refusal, ValidationResult result) {
            return refuse(item, identity, refusal, result.rejected(), result.accepted(), result.duplicates(), result.storedBytes());
        }

        /** A refusal publishes nothing and keeps the previous publish; it records REFUSED or last_attempt (step 4). */
        private IngestOutcome refuse(LedgerItem item, InputIdentity identity, Refusal refusal, long rejected, long accepted,
                                     long duplicates, long bytes) {
            InputIdentity recorded = identity != null ? identity
                    : new InputIdentity(input.bucket(), input.key(), input.versionId(), input.etag(), null, input.size(), input.sequencer(), input.eventTime());
            for (int round = 0; round < MAX_ROUNDS; round++) {
                Instant now = clock.instant();
                LastAttempt attempt = new LastAttempt(now, request.runId(), request.runKind(), "REFUSED", refusal.code(),
                        recorded.versionId(), recorded.sha256());
                LedgerItem next;
                if (item != null && item.status() == LedgerStatus.PUBLISHED) {
                    next = new LedgerItem(dataset, unit, item.status(), item.input(), item.published(), item.runId(), item.runKind(),
                            item.contractVersion(), item.publishCount(), item.firstPublishedAt(), item.publishedAt(), attempt, item.reason());
                } else {
                    next = new LedgerItem(dataset, unit, LedgerStatus.REFUSED, recorded, null, request.runId(), request.runKind(),
                            contract.version(), item == null ? 0 : item.publishCount(), null, null, attempt, refusal.code());
                }
                HistoryEntry history = new HistoryEntry(dataset, unit, now, request.runId(), request.runKind(), "REFUSED",
                        refusal.code(), recorded, null, contract.version());
                requireTimeFor("the ledger write of the refusal", "nothing is recorded; the retry refuses the file again");
                try {
                    ledger.write(next, item == null ? 0 : item.revision(), history);
                    steps.after(Step.LEDGER_WRITTEN, unit);
                    return new IngestOutcome(IngestAction.REFUSED, dataset, unit, input.key(), recorded.versionId(), recorded.sha256(),
                            bytes, accepted, rejected, duplicates, null, null, refusal.code(), refusal.detail(), request.runId(),
                            request.runKind().name(), Duration.between(started, clock.instant()));
                } catch (LedgerConflictException e) {
                    item = e.current().orElse(null);
                    if (isStale(item)) {
                        return stale(item, recorded.sha256(), bytes);
                    }
                }
            }
            throw new IllegalStateException("gave up after " + MAX_ROUNDS + " ledger rounds on " + dataset + "/" + unit);
        }

        /**
         * An input older than the unit's current one never replaces it (invariant 6). The ledger's last_attempt says
         * so once per input version; replays of the same stale event write nothing more.
         */
        private IngestOutcome stale(LedgerItem item, String sha256, long bytes) {
            LastAttempt last = item == null ? null : item.lastAttempt();
            boolean alreadyRecorded = last != null && "STALE_EVENT".equals(last.outcome()) && Objects.equals(last.inputVersionId(), input.versionId());
            if (item != null && !alreadyRecorded) {
                Instant now = clock.instant();
                LastAttempt attempt = new LastAttempt(now, request.runId(), request.runKind(), "STALE_EVENT", null, input.versionId(), sha256);
                LedgerItem next = new LedgerItem(dataset, unit, item.status(), item.input(), item.published(), item.runId(), item.runKind(),
                        item.contractVersion(), item.publishCount(), item.firstPublishedAt(), item.publishedAt(), attempt, item.reason());
                try {
                    ledger.write(next, item.revision(), null);
                } catch (LedgerConflictException e) {
                    // a newer state won meanwhile; the stale input stays unrecorded, which changes nothing it vouches for
                }
            }
            return new IngestOutcome(IngestAction.STALE, dataset, unit, input.key(), input.versionId(), sha256, bytes, 0, 0, 0,
                    null, null, null, "older than the unit's current input", request.runId(), request.runKind().name(),
                    Duration.between(started, clock.instant()));
        }

        private IngestOutcome outcome(IngestAction action, String sha256, long bytes, PublishedRef published, String code, String detail) {
            return new IngestOutcome(action, dataset, unit, input.key(), input.versionId(), sha256, bytes,
                    published == null ? 0 : published.accepted(), published == null ? 0 : published.rejected(),
                    published == null ? 0 : published.duplicates(), published == null ? null : published.key(),
                    published == null ? null : published.etag(), code, detail, request.runId(), request.runKind().name(),
                    Duration.between(started, clock.instant()));
        }
    }
}
