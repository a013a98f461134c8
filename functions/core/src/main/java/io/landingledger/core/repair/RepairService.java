package io.landingledger.core.repair;

import io.landingledger.core.contract.ContractLookup;
import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnitCalendar;
import io.landingledger.core.ingest.Deadline;
import io.landingledger.core.ingest.IngestAction;
import io.landingledger.core.ingest.DecisionNotices;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.InputDecision;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.InputRef;
import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.ingest.OutOfTimeException;
import io.landingledger.core.ingest.UnitInputs;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.ledger.AttemptOutcome;
import io.landingledger.core.ledger.EmptyAcceptance;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.InputIdentity;
import io.landingledger.core.ledger.LastAttempt;
import io.landingledger.core.ledger.Ledger;
import io.landingledger.core.ledger.LedgerConflictException;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.ledger.VolumeAcceptance;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.store.StoredObject;
import io.landingledger.core.sweep.UnitClassifier;
import io.landingledger.core.table.TableMessage;
import io.landingledger.core.table.TableQueue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Operator repair (docs/design.md section 6): each unit runs the same ingest path as a new file, with
 * {@code run_kind=REPAIR} (invariant 8). A dry run reads and plans but writes nothing. Forward mode (and any
 * {@code dependsOnPrevious} dataset) expands to every expected unit from the first named one to the latest, in order,
 * and stops at the first failure. The run watches its remaining time and stops between units before the deadline,
 * returning the units it did not reach. Each unit's ingest outcome is also told to the input's producer through
 * {@link DecisionNotices} (docs/producers.md), as the validator tells its own.
 */
public final class RepairService {
    /** Stop starting units when less than this is left: one unit's ingest must finish before the function's timeout. */
    public static final Duration DEFAULT_SAFETY_MARGIN = Duration.ofSeconds(60);
    /** How often an omission is decided again after another run changed the unit first. */
    private static final int OMIT_ROUNDS = 8;
    /** A dry run's expectation for a unit whose table is behind: one message to the table queue. */
    public static final String TABLE_SUBMIT = "table-submit";

    private final ContractRegistry contracts;
    private final UnitRouter router;
    private final Ledger ledger;
    private final ObjectStore store;
    private final IngestService ingest;
    private final String inboxBucket;
    private final String lakeBucket;
    private final Clock clock;
    private final Duration safetyMargin;
    private final TableQueue tableQueue;
    private final DecisionNotices notices;

    /** Nobody hears the decisions: tests, the command line's in-process repair. */
    public RepairService(ContractRegistry contracts, Ledger ledger, ObjectStore store, IngestService ingest, String inboxBucket,
                         String lakeBucket, Clock clock, Duration safetyMargin) {
        this(contracts, ledger, store, ingest, inboxBucket, lakeBucket, clock, safetyMargin, DecisionNotices.NONE);
    }

    /** As the repair function is wired: each unit's decision about its input is told through {@code notices}. */
    public RepairService(ContractRegistry contracts, Ledger ledger, ObjectStore store, IngestService ingest, String inboxBucket,
                         String lakeBucket, Clock clock, Duration safetyMargin, DecisionNotices notices) {
        this(contracts, ledger, store, ingest, inboxBucket, lakeBucket, clock, safetyMargin, notices, null);
    }

    private RepairService(ContractRegistry contracts, Ledger ledger, ObjectStore store, IngestService ingest, String inboxBucket,
                          String lakeBucket, Clock clock, Duration safetyMargin, DecisionNotices notices,
                          TableQueue tableQueue) {
        this.notices = notices;
        this.tableQueue = tableQueue;
        this.contracts = contracts;
        this.router = new UnitRouter(contracts);
        this.ledger = ledger;
        this.store = store;
        this.ingest = ingest;
        this.inboxBucket = inboxBucket;
        this.lakeBucket = lakeBucket;
        this.clock = clock;
        this.safetyMargin = safetyMargin;
    }

    /**
     * This repair on a stack whose datasets publish into tables: a repaired unit whose table partition does not hold
     * its standing publish (TABLE_BEHIND, or a commit still on its way) is submitted to {@code queue} for the table
     * writer, which closes it by recording its snapshot on the ledger.
     */
    public RepairService withTableQueue(TableQueue queue) {
        return new RepairService(contracts, ledger, store, ingest, inboxBucket, lakeBucket, clock, safetyMargin, notices,
                queue);
    }

    /**
     * Runs (or plans) a request.
     *
     * @param deadline  the invocation's remaining time (Lambda's context), checked between units and, inside a unit's
     *                  ingest, before each step
     * @param runIds    a new run id per unit
     */
    public RepairResult run(RepairRequest request, Deadline deadline, Supplier<String> runIds) {
        DatasetContract contract = contracts.get(request.dataset()).orElseThrow(() -> new IllegalArgumentException(
                contracts.lookup(request.dataset()) instanceof ContractLookup.Retired retired
                        ? retired.detail() + "; make it active again with landing dataset add to repair it"
                        : "unknown dataset \"" + request.dataset() + "\" (landing dataset list names the registered ones)"));
        UnitCalendar calendar = UnitCalendar.of(contract);
        Map<String, ObjectStore.ListedVersion> inbox = inboxByUnit(contract);
        List<String> units = expand(request, contract, calendar, inbox);
        boolean forward = request.mode() == RepairRequest.Mode.FORWARD || contract.unit().dependsOnPrevious();

        List<RepairResult.UnitResult> results = new ArrayList<>();
        List<String> notReached = new ArrayList<>();
        boolean stopped = false;
        for (int i = 0; i < units.size(); i++) {
            String unit = units.get(i);
            if (stopped) {
                results.add(RepairResult.UnitResult.notAttempted(unit, "an earlier unit of this forward repair did not succeed"));
                continue;
            }
            if (!request.dryRun() && !deadline.allows(safetyMargin)) {
                notReached.addAll(units.subList(i, units.size()));
                break;
            }
            LedgerItem before = ledger.get(contract.dataset(), unit).orElse(null);
            RepairResult.UnitResult result;
            try {
                result = switch (request.action()) {
                    case OMIT -> omit(request, contract, unit, before, runIds);
                    case ACCEPT_EMPTY, REVOKE_ACCEPT_EMPTY -> emptyAcceptance(request, contract, unit, before, runIds);
                    case ACCEPT_VOLUME, REVOKE_ACCEPT_VOLUME -> volumeAcceptance(request, contract, unit, before, runIds);
                    case REPAIR -> repair(request, contract, unit, before, inbox.get(unit), deadline, runIds);
                };
            } catch (OutOfTimeException e) {
                // the unit's ingest stopped between steps for lack of time: it and the rest go to the continuation
                notReached.addAll(units.subList(i, units.size()));
                break;
            } catch (RuntimeException e) {
                // an infrastructure fault on one unit: report it and go on (targeted) or stop (forward)
                // the fault's first line names what failed (an AccessDenied names the action and the role); faults carry no row content (S6)
                result = RepairResult.UnitResult.of(unit, before, before, "failed", e.getClass().getSimpleName() + firstLine(e)
                        + " (see the function's log; rerun the repair for this unit)", null, null);
            }
            results.add(result);
            if (forward && !result.succeeded()) {
                stopped = true;
            }
        }
        return new RepairResult(request, forward, results, notReached);
    }

    private List<String> expand(RepairRequest request, DatasetContract contract, UnitCalendar calendar,
                                Map<String, ObjectStore.ListedVersion> inbox) {
        List<String> named = request.units();
        if (named.isEmpty()) {
            // a range without an end runs to the latest unit that has an input or a ledger item
            String to = request.to() != null ? request.to() : latestKnown(contract, request.from(), inbox);
            named = calendar.units(request.from(), to);
        }
        for (String unit : named) {
            // an omission may name a unit the cadence cannot (2026-02-30) when the ledger holds one: recorded before
            // routing refused such files (UNIT_INVALID), it is taken out of the picture the only way an operator can
            boolean heldInvalid = request.action() == RepairRequest.Action.OMIT && !calendar.canName(unit)
                    && ledger.get(contract.dataset(), unit).isPresent();
            if (!calendar.isUnit(unit) && !heldInvalid) {
                throw new IllegalArgumentException("\"" + unit + "\" is not a unit of " + contract.dataset() + " (cadence "
                        + contract.unit().cadence().name().toLowerCase(Locale.ROOT) + ")");
            }
        }
        boolean forward = request.mode() == RepairRequest.Mode.FORWARD || contract.unit().dependsOnPrevious();
        if (!forward || named.isEmpty() || request.action().recordsDecision()) {
            return List.copyOf(new LinkedHashSet<>(named));
        }
        // forward: the earliest named unit through the latest known one, in order
        String first = named.stream().min(String::compareTo).orElseThrow();
        String last = named.stream().max(String::compareTo).orElseThrow();
        String known = latestKnown(contract, first, inbox);
        return calendar.units(first, known.compareTo(last) > 0 ? known : last);
    }

    /**
     * The latest unit from {@code from} on, up to the unit that contains now, that has an inbox input or a ledger item
     * ({@code from} when none). A unit named further ahead ({@code progress-9999-12-31.jsonl} is a real date) bounds no
     * open range: it would stretch one over millions of units that have not begun; name it to repair it.
     */
    private String latestKnown(DatasetContract contract, String from, Map<String, ObjectStore.ListedVersion> inbox) {
        String begun = UnitCalendar.of(contract).unitAt(clock.instant()); // null for a list cadence: no horizon
        if (begun != null && from.compareTo(begun) > 0) {
            return from; // a range that starts ahead is that one unit, unless its end is named
        }
        String last = from;
        for (String unit : inbox.keySet()) {
            last = unit.compareTo(last) > 0 && (begun == null || unit.compareTo(begun) <= 0) ? unit : last;
        }
        for (LedgerItem item : ledger.items(contract.dataset(), from, begun)) {
            last = item.unit().compareTo(last) > 0 ? item.unit() : last;
        }
        return last;
    }

    /**
     * The inbox's newest input per unit, by the ingest path's rule ({@link UnitInputs}): one version listing of the
     * dataset's prefix (a request per 1,000 versions).
     */
    private Map<String, ObjectStore.ListedVersion> inboxByUnit(DatasetContract contract) {
        return router.newestInputs(store.versions(inboxBucket, contract.dataset() + "/"), contract.dataset(), (version, reason) -> { });
    }

    private RepairResult.UnitResult repair(RepairRequest request, DatasetContract contract, String unit, LedgerItem before,
                                           ObjectStore.ListedVersion current, Deadline deadline, Supplier<String> runIds) {
        Optional<InputRef> input = chooseInput(request, before, current);
        String publishedKey = LakeLayout.publishedKey(contract.dataset(), unit);
        String tableReason = tableQueue == null ? null : UnitClassifier.tableReason(before);
        if (input.isEmpty() && tableReason != null) {
            // the publish stands without an input to re-read (expired from the inbox): its table can still follow it
            return request.dryRun() ? RepairResult.UnitResult.planned(unit, before, tablePlan(before, tableReason), null,
                    publishedKey, null) : submitTable(request, contract, unit, before, runIds.get());
        }
        if (input.isEmpty()) {
            return RepairResult.UnitResult.of(unit, before, before, "no_input", "no input for this unit in the inbox or the ledger", null, null);
        }
        InputRef ref = input.get();
        if (request.dryRun()) {
            String expect = expectation(request, before, ref, publishedKey);
            if (tableReason != null) {
                expect = expect.equals("skip") ? tablePlan(before, tableReason)
                        : expect + "; then " + TABLE_SUBMIT + " (the table writer commits whatever publish stands)";
            }
            return RepairResult.UnitResult.planned(unit, before, expect, ref, publishedKey, sha256Known(before, ref));
        }
        String runId = runIds.get();
        IngestOutcome outcome = ingest.ingest(IngestService.Request.repair(contract, unit, ref, runId, request.force(), request.reason(),
                deadline));
        // the producer hears it: a refused file a forced repair now publishes must not keep its "refused" tag
        InputDecision.of(outcome, ref.bucket() != null ? ref.bucket() : inboxBucket).ifPresent(notices::decided);
        LedgerItem standing = ledger.get(contract.dataset(), unit).orElse(null);
        if (tableQueue != null && UnitClassifier.tableReason(standing) != null
                && (outcome.action() == IngestAction.SKIPPED || outcome.action() == IngestAction.UNCHANGED)) {
            // the publish stands as it was; what is behind is its table
            return submitTable(request, contract, unit, standing, runId);
        }
        if (tableQueue != null && UnitClassifier.tableReason(standing) != null) {
            // a new publish reaches the table writer through the ledger's stream too; a second message is harmless
            tableQueue.submit(new TableMessage(contract.dataset(), unit, null, null));
        }
        if (outcome.action() == IngestAction.SKIPPED && before != null) {
            // nothing changed: the audit trail still says an operator looked, and why (docs/design.md section 4)
            Instant now = clock.instant();
            ledger.appendHistory(HistoryEntry.builder()
                    .dataset(contract.dataset())
                    .unit(unit)
                    .at(now)
                    .runId(runId)
                    .runKind(RunKind.REPAIR)
                    .action("REPAIR_SKIPPED")
                    .reason(request.reason())
                    .input(before.input())
                    .published(before.published())
                    .contractVersion(contract.version())
                    .build());
        }
        LedgerItem after = standing;
        // a version that is gone, or older than what is now published, did not restore the unit: the repair says so
        String action = "INPUT_GONE".equals(outcome.refusalCode()) ? "input_gone" : outcome.action().name().toLowerCase(Locale.ROOT);
        String detail = outcome.refusalCode() != null ? outcome.refusalCode() + ": " + outcome.detail() : outcome.detail();
        return RepairResult.UnitResult.of(unit, before, after, action, detail, ref, outcome);
    }

    /** A dry run's plan for a unit whose publish stands and whose table does not hold it. */
    private static String tablePlan(LedgerItem before, String reason) {
        return TABLE_SUBMIT + " (the publish of run " + before.runId() + " stands; the table does not hold it: " + reason
                + "; the table writer commits it and records the snapshot)";
    }

    /**
     * Submits the unit to the table queue and records that an operator did, and why ({@code TABLE_SUBMITTED} in
     * LedgerHistory). The unit closes when the table writer records its snapshot on the ledger item, after this run.
     */
    private RepairResult.UnitResult submitTable(RepairRequest request, DatasetContract contract, String unit, LedgerItem before,
                                                String runId) {
        tableQueue.submit(new TableMessage(contract.dataset(), unit, null, null));
        ledger.appendHistory(HistoryEntry.builder()
                .dataset(contract.dataset())
                .unit(unit)
                .at(clock.instant())
                .runId(runId)
                .runKind(RunKind.REPAIR)
                .action("TABLE_SUBMITTED")
                .reason(request.reason())
                .input(before.input())
                .published(before.published())
                .contractVersion(before.contractVersion())
                .build());
        return RepairResult.UnitResult.of(unit, before, before, RepairResult.TABLE_SUBMITTED, "the publish of run "
                + before.runId() + " stands; submitted to the table queue (" + UnitClassifier.tableReason(before)
                + "): the unit closes when the table writer records its snapshot", null, null);
    }

    private Optional<InputRef> chooseInput(RepairRequest request, LedgerItem before, ObjectStore.ListedVersion current) {
        if (request.inputVersion() == RepairRequest.InputVersion.RECORDED && before != null && before.input() != null
                && before.input().versionId() != null) {
            InputIdentity recorded = before.input();
            // the retained snapshot the ledger names (inbox versioning keeps it)
            return Optional.of(new InputRef(recorded.bucket(), recorded.key(), recorded.versionId(), recorded.etag(), recorded.size(),
                    null, recorded.lastModified()));
        }
        if (current == null) {
            return Optional.empty();
        }
        return Optional.of(new InputRef(inboxBucket, current.key(), current.versionId(), current.etag(), current.size(), null,
                current.lastModified()));
    }

    private static String sha256Known(LedgerItem before, InputRef ref) {
        if (before != null && before.input() != null && ref.versionId() != null && ref.versionId().equals(before.input().versionId())) {
            return before.input().sha256();
        }
        return null;
    }

    /** What a run would most likely do, from what can be known without reading the body. */
    private String expectation(RepairRequest request, LedgerItem before, InputRef ref, String publishedKey) {
        if (before == null) {
            return "publish";
        }
        boolean sameInput = before.input() != null && ref.versionId() != null && ref.versionId().equals(before.input().versionId());
        if (before.status() == LedgerStatus.REFUSED && sameInput) {
            return request.force() ? "refuse-again (forced re-read)" : "refuse-again";
        }
        if (before.status() == LedgerStatus.PUBLISHED && sameInput && !request.force()) {
            Optional<StoredObject> published = store.head(lakeBucket, publishedKey);
            if (published.isPresent() && published.get().etag().equals(before.publishedEtag())) {
                return "skip";
            }
            return "publish (the ledger's object is missing or changed)";
        }
        return "publish";
    }

    /**
     * Records an operator's omission: the unit is intentionally absent. Publishes nothing; the sweep keeps showing it.
     * Only a unit with nothing published can be omitted, in the ledger and in {@code published/} (a publish a crashed
     * run left unrecorded counts: the ledger would otherwise say "absent" while readers read rows). A unit its cadence
     * cannot name (UNIT_INVALID, recorded before routing refused such files) is omitted although the ledger records
     * its publish (no repair can take a publish back), but like any unit only once {@code published/} holds nothing
     * for it: no function may delete from {@code published/}, so {@code landing repair --omit} removes the object with
     * the operator's credentials first, and a dry run plans that. The write is conditioned on the item read; when
     * another run changes it first, the omission is decided again on what won.
     */
    private RepairResult.UnitResult omit(RepairRequest request, DatasetContract contract, String unit, LedgerItem before, Supplier<String> runIds) {
        LedgerItem current = before;
        boolean invalid = !UnitCalendar.of(contract).canName(unit);
        String publishedKey = LakeLayout.publishedKey(contract.dataset(), unit);
        for (int round = 0; round < OMIT_ROUNDS; round++) {
            if (!invalid && current != null && current.published() != null) {
                return RepairResult.UnitResult.of(unit, before, current, "rejected", "the unit is published; only a unit without a publish can be omitted", null, null);
            }
            boolean held = store.head(lakeBucket, publishedKey).isPresent();
            if (invalid && held && request.dryRun()) {
                return RepairResult.UnitResult.planned(unit, before, "omit once " + publishedKey
                        + " is removed (not a unit: landing repair --omit removes it with the operator's credentials; "
                        + "no function deletes from published/)", null, publishedKey, null);
            }
            if (invalid && held) {
                return RepairResult.UnitResult.of(unit, before, current, "rejected", "published/ still holds "
                        + publishedKey + ", the publish of a unit its cadence cannot name: an omitted unit has nothing "
                        + "in published/, and no function may delete there; remove it with the operator's credentials "
                        + "(landing repair --omit does), then omit", null, null);
            }
            if (held) {
                return RepairResult.UnitResult.of(unit, before, current, "rejected", "published/ holds an object for the unit that the "
                        + "ledger does not record yet (a run died after its promote): repair the unit to record it, then decide", null, null);
            }
            if (current != null && current.status() == LedgerStatus.OMITTED && request.reason().equals(current.reason())) {
                return RepairResult.UnitResult.of(unit, before, current, "skipped", "already omitted for this reason", null, null);
            }
            if (request.dryRun()) {
                return RepairResult.UnitResult.planned(unit, before, "omit", null, null, null);
            }
            String runId = runIds.get();
            Instant now = clock.instant();
            LedgerItem next = LedgerItem.builder(contract.dataset(), unit)
                    .status(LedgerStatus.OMITTED)
                    .input(current == null ? null : current.input())
                    .run(runId, RunKind.OMIT)
                    .contractVersion(contract.version())
                    .publishCount(current == null ? 0 : current.publishCount())
                    .lastAttempt(LastAttempt.omitted(now, runId, request.reason()))
                    .reason(request.reason())
                    .build();
            try {
                ledger.write(next, current == null ? 0 : current.revision(), HistoryEntry.builder()
                        .dataset(contract.dataset())
                        .unit(unit)
                        .at(now)
                        .runId(runId)
                        .runKind(RunKind.OMIT)
                        .action("OMITTED")
                        .reason(request.reason())
                        .input(next.input())
                        // the publish an omitted invalid unit had (its object removed from published/): named
                        .published(current == null ? null : current.published())
                        .contractVersion(contract.version())
                        .build());
                return RepairResult.UnitResult.of(unit, before, next, "omitted", request.reason(), null, null);
            } catch (LedgerConflictException e) {
                current = e.current().orElse(null); // decide again on the item that won
            }
        }
        return RepairResult.UnitResult.of(unit, before, current, "failed", "the unit kept changing while it was being omitted; "
                + "rerun the omission", null, null);
    }

    /**
     * Records (or revokes) an operator's acceptance of the unit's empty publish: a legitimately empty day, so the unit
     * is EMPTY_ACCEPTED and complete. Only a unit the ledger records as published with 0 rows can be accepted; the
     * acceptance stays while the standing rows do (a publish of other rows drops it). Like an omission it reads no
     * input, goes to LedgerHistory ({@code EMPTY_ACCEPTED}, {@code EMPTY_ACCEPTANCE_REVOKED}) with the reason, and is
     * conditioned on the item read: when another run changes the unit first, it is decided again on what won.
     */
    private RepairResult.UnitResult emptyAcceptance(RepairRequest request, DatasetContract contract, String unit, LedgerItem before,
                                                    Supplier<String> runIds) {
        boolean accept = request.action() == RepairRequest.Action.ACCEPT_EMPTY;
        LedgerItem current = before;
        for (int round = 0; round < OMIT_ROUNDS; round++) {
            if (accept && (current == null || current.status() != LedgerStatus.PUBLISHED || current.published() == null
                    || current.published().accepted() != 0)) {
                return RepairResult.UnitResult.of(unit, before, current, "rejected", "only a unit published with 0 rows can be accepted "
                        + "as empty; this one is " + describe(current), null, null);
            }
            if (accept && current.emptyAccepted() != null) {
                return RepairResult.UnitResult.of(unit, before, current, "skipped", "already accepted as empty: "
                        + current.emptyAccepted().reason(), null, null);
            }
            if (!accept && (current == null || current.emptyAccepted() == null)) {
                return RepairResult.UnitResult.of(unit, before, current, "skipped", "no acceptance of an empty publish to revoke", null, null);
            }
            if (request.dryRun()) {
                return RepairResult.UnitResult.planned(unit, before, accept ? "accept-empty" : "revoke-accept-empty", null, null, null);
            }
            LedgerItem read = current;
            Recorded recorded = recordAcceptance(request, contract, unit, before, read, runIds, RunKind.ACCEPT_EMPTY,
                    accept ? "EMPTY_ACCEPTED" : "EMPTY_ACCEPTANCE_REVOKED", accept ? "accepted_empty" : "revoked",
                    (now, runId) -> read.toBuilder()
                            .emptyAccepted(accept ? new EmptyAcceptance(now, runId, request.reason()) : null).build());
            if (recorded.result() != null) {
                return recorded.result();
            }
            current = recorded.lost(); // decide again on the item that won
        }
        return RepairResult.UnitResult.of(unit, before, current, "failed", "the unit kept changing while its empty publish was being "
                + (accept ? "accepted" : "revoked") + "; rerun it", null, null);
    }

    /**
     * Records (or revokes) an operator's acceptance of the standing publish's row count: the sweep found it outside the
     * expected band (SUSPECT_VOLUME) and the count is what the unit really held (a holiday, a migration day). Mirrors
     * the empty acceptance: only a unit the ledger records as published with rows (an empty one is accept-empty's),
     * kept while the standing rows are the ones accepted (a publish of other rows drops it and is judged afresh), no
     * input read, a LedgerHistory item ({@code VOLUME_ACCEPTED}, {@code VOLUME_ACCEPTANCE_REVOKED}) with the reason,
     * conditioned on the item read and decided again on what won a conflict.
     */
    private RepairResult.UnitResult volumeAcceptance(RepairRequest request, DatasetContract contract, String unit, LedgerItem before,
                                                     Supplier<String> runIds) {
        boolean accept = request.action() == RepairRequest.Action.ACCEPT_VOLUME;
        LedgerItem current = before;
        for (int round = 0; round < OMIT_ROUNDS; round++) {
            if (accept && (current == null || current.status() != LedgerStatus.PUBLISHED || current.published() == null
                    || current.published().accepted() == 0)) {
                return RepairResult.UnitResult.of(unit, before, current, "rejected", "only a unit published with rows can have its "
                        + "count accepted (an empty one: --accept-empty); this one is " + describe(current), null, null);
            }
            if (accept && current.volumeAccepted() != null) {
                return RepairResult.UnitResult.of(unit, before, current, "skipped", "its row count is already accepted: "
                        + current.volumeAccepted().reason(), null, null);
            }
            if (!accept && (current == null || current.volumeAccepted() == null)) {
                return RepairResult.UnitResult.of(unit, before, current, "skipped", "no acceptance of a row count to revoke", null, null);
            }
            if (request.dryRun()) {
                return RepairResult.UnitResult.planned(unit, before, accept ? "accept-volume" : "revoke-accept-volume", null, null, null);
            }
            LedgerItem read = current;
            Recorded recorded = recordAcceptance(request, contract, unit, before, read, runIds, RunKind.ACCEPT_VOLUME,
                    accept ? "VOLUME_ACCEPTED" : "VOLUME_ACCEPTANCE_REVOKED", accept ? "accepted_volume" : "revoked",
                    (now, runId) -> read.toBuilder()
                            .volumeAccepted(accept ? new VolumeAcceptance(now, runId, request.reason()) : null).build());
            if (recorded.result() != null) {
                return recorded.result();
            }
            current = recorded.lost(); // decide again on the item that won
        }
        return RepairResult.UnitResult.of(unit, before, current, "failed", "the unit kept changing while its row count was being "
                + (accept ? "accepted" : "revoked") + "; rerun it", null, null);
    }

    /** An acceptance's write: its result, or the item that won a conflict (result null) to decide again on. */
    private record Recorded(RepairResult.UnitResult result, LedgerItem lost) {
    }

    /**
     * Writes an operator's acceptance (or its revocation) of the standing publish, {@code change} applied to the item
     * read, with its LedgerHistory item, conditioned on the item read: no input is read, nothing is published.
     */
    private Recorded recordAcceptance(RepairRequest request, DatasetContract contract, String unit, LedgerItem before,
                                      LedgerItem read, Supplier<String> runIds, RunKind kind, String historyAction,
                                      String resultAction, BiFunction<Instant, String, LedgerItem> change) {
        String runId = runIds.get();
        Instant now = clock.instant();
        LedgerItem next = change.apply(now, runId);
        HistoryEntry history = HistoryEntry.builder()
                .dataset(contract.dataset())
                .unit(unit)
                .at(now)
                .runId(runId)
                .runKind(kind)
                .action(historyAction)
                .reason(request.reason())
                .input(read.input())
                .published(read.published())
                .contractVersion(read.contractVersion())
                .build();
        try {
            ledger.write(next, read.revision(), history);
            return new Recorded(RepairResult.UnitResult.of(unit, before, next.withRevision(read.revision() + 1),
                    resultAction, request.reason(), null, null), null);
        } catch (LedgerConflictException e) {
            return new Recorded(null, e.current().orElse(null));
        }
    }

    private static String describe(LedgerItem item) {
        if (item == null) {
            return "not in the ledger";
        }
        if (item.published() == null) {
            return item.status().name() + " without a publish";
        }
        return "published with " + item.published().accepted() + " rows";
    }

    /** Keeps the JSON view in one place for the handler. */
    static Map<String, Object> ledgerView(LedgerItem item) {
        Map<String, Object> view = new LinkedHashMap<>();
        if (item == null) {
            view.put("status", "NONE");
            return view;
        }
        view.put("status", item.status().name());
        if (item.published() != null) {
            view.put("published_etag", item.published().etag());
            view.put("accepted", item.published().accepted());
        }
        view.put("publish_count", item.publishCount());
        view.put("restatements", item.restatements());
        if (item.emptyAccepted() != null) {
            view.put("empty_accepted", item.emptyAccepted().reason());
        }
        if (item.volumeAccepted() != null) {
            view.put("volume_accepted", item.volumeAccepted().reason());
        }
        if (item.input() != null) {
            view.put("input_version", item.input().versionId());
        }
        if (item.table() != null) {
            view.put("table_snapshot_id", item.table().snapshotId());
        }
        if (item.lastAttempt() != null) {
            AttemptOutcome outcome = item.lastAttempt().outcome();
            view.put("last_attempt", outcome == null ? null : outcome.name());
        }
        return view;
    }

    /** ": " and the first line of the fault's message, at most 300 characters; empty without a message. */
    private static String firstLine(RuntimeException fault) {
        String message = fault.getMessage() == null ? "" : fault.getMessage().strip();
        int newline = message.indexOf('\n');
        message = newline < 0 ? message : message.substring(0, newline).strip();
        message = message.length() > 300 ? message.substring(0, 300) + "..." : message;
        return message.isEmpty() ? "" : ": " + message;
    }
}
