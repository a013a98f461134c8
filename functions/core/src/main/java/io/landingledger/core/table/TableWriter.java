package io.landingledger.core.table;

import io.landingledger.core.contract.ContractEntry;
import io.landingledger.core.contract.ContractStore;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.HistoryKeyTakenException;
import io.landingledger.core.ledger.Ledger;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.ledger.TableState;
import io.landingledger.core.store.ObjectNotFoundException;
import io.landingledger.core.store.ObjectStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Brings one unit's table partition into step with the ledger (docs/design.md section 12): reads the ledger item,
 * finds its own earlier commit by the snapshot summary, else replaces the partition with the published object's
 * rows (read only while its ETag is the ledger's) in one commit, then records the snapshot on the ledger item
 * conditioned on the publish it describes. The message that triggers it names only the unit: the ledger is read
 * again every time, so an older publish can never replace a newer one, whatever order messages arrive in.
 *
 * <p>Why the order of reads matters: the writer reads the ledger, then the table's current snapshot, then opens the
 * published object and compares its ETag with the ledger's. A newer publish promotes its object before it writes the
 * ledger, so a writer that saw the older publish in the ledger either opens the newer object (ETag differs: it
 * stops) or commits from a snapshot older than any commit of the newer publish (the table's conflict detection
 * refuses it). Either way the table never holds an older publish over a newer one that was recorded.
 */
public final class TableWriter {
    /** Attempts of one {@link #write}: a conflict or a fault reads the ledger and the table again. */
    public static final int MAX_ATTEMPTS = 3;

    /** The history action of a commit (or a recovered commit) the writer recorded. */
    public static final String TABLE_COMMITTED = "TABLE_COMMITTED";

    /** Reason codes: {@link TableWriteResult#reason()} and {@link TableState#lastError()}. Never row content. */
    public static final String NOT_PUBLISHED = "NOT_PUBLISHED";
    public static final String NO_CONTENT_HASH = "NO_CONTENT_HASH";
    public static final String LEDGER_MOVED = "LEDGER_MOVED";
    public static final String CONTRACT_VERSION_MISSING = "CONTRACT_VERSION_MISSING";
    public static final String TABLE_CONFLICT = "TABLE_CONFLICT";
    public static final String TABLE_SCHEMA_REFUSED = "TABLE_SCHEMA_REFUSED";
    public static final String TABLE_COMMIT_FAILED = "TABLE_COMMIT_FAILED";

    private final Ledger ledger;
    private final ObjectStore lake;
    private final String lakeBucket;
    private final ContractStore contracts;
    private final TablePort table;
    private final Clock clock;

    public TableWriter(Ledger ledger, ObjectStore lake, String lakeBucket, ContractStore contracts, TablePort table,
                       Clock clock) {
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.lake = Objects.requireNonNull(lake, "lake");
        this.lakeBucket = Objects.requireNonNull(lakeBucket, "lakeBucket");
        this.contracts = Objects.requireNonNull(contracts, "contracts");
        this.table = Objects.requireNonNull(table, "table");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Brings {@code dataset}'s {@code unit} into step; never throws for a fault it can record on the ledger (the
     * outcome is then {@link TableWriteResult.Outcome#FAILED}, and the caller lets its message be retried).
     */
    public TableWriteResult write(String dataset, String unit) {
        LedgerItem lastRead = null;
        String failure = null;
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            try {
                Optional<LedgerItem> read = ledger.get(dataset, unit);
                lastRead = read.orElse(null);
                Step step = attempt(dataset, unit, lastRead);
                if (step.result() != null) {
                    return step.result();
                }
                failure = step.retryReason();
            } catch (RuntimeException fault) {
                // an S3, catalog or ledger fault: read everything again, and record it if it lasts
                failure = TABLE_COMMIT_FAILED;
            }
        }
        return failed(lastRead, failure);
    }

    /** What one attempt decided: a result, or a reason to read everything again. */
    private record Step(TableWriteResult result, String retryReason) {
        static Step done(TableWriteResult result) {
            return new Step(result, null);
        }

        static Step retry(String reason) {
            return new Step(null, reason);
        }
    }

    private Step attempt(String dataset, String unit, LedgerItem item) {
        if (item == null || item.status() != LedgerStatus.PUBLISHED || item.published() == null) {
            return Step.done(new TableWriteResult(TableWriteResult.Outcome.SKIPPED, null, NOT_PUBLISHED));
        }
        String runId = item.runId();
        String sha = item.published().contentSha256();
        if (sha == null) {
            // a publish recorded before publishes carried their hash: the table could not name it; a republish will
            return Step.done(new TableWriteResult(TableWriteResult.Outcome.SKIPPED, null, NO_CONTENT_HASH));
        }
        if (item.table() != null && item.table().holds(runId, sha)) {
            return Step.done(new TableWriteResult(TableWriteResult.Outcome.IN_STEP, item.table().snapshotId(), null));
        }
        Optional<DatasetContract> contract = contracts.version(dataset, item.contractVersion())
                .flatMap(ContractEntry::contract);
        if (contract.isEmpty()) {
            return Step.done(failed(item, CONTRACT_VERSION_MISSING));
        }
        try {
            table.ensureTable(contract.get());
        } catch (IllegalStateException cannotFollow) {
            return Step.done(failed(item, TABLE_SCHEMA_REFUSED));
        }
        Optional<Long> basedOn = table.currentSnapshotId(dataset);
        List<TableSnapshot> snapshots = table.unitSnapshots(dataset, unit);
        if (!snapshots.isEmpty() && sha.equals(snapshots.getFirst().contentSha256())) {
            // the table already holds the standing rows: a commit whose ledger record was lost, or a republish of the
            // same rows by another run; record it, commit nothing
            return Step.done(record(item, snapshots.getFirst(), TableWriteResult.Outcome.RECOVERED));
        }
        TableSnapshot committed;
        try (ObjectStore.OpenedObject published = lake.open(lakeBucket, item.published().key(), null)) {
            if (!item.publishedEtag().equals(published.object().etag())) {
                // the ledger moved on (or the object drifted): the newer publish's own message, or the sweep, follows
                return Step.done(new TableWriteResult(TableWriteResult.Outcome.SKIPPED, null, LEDGER_MOVED));
            }
            String inputVersion = item.input() == null ? null : item.input().versionId();
            TableCommit commit = new TableCommit(dataset, unit, runId, sha, inputVersion, item.contractVersion(),
                    basedOn.orElse(null));
            committed = table.replaceUnit(contract.get(), commit, published.body());
        } catch (ObjectNotFoundException gone) {
            return Step.done(new TableWriteResult(TableWriteResult.Outcome.SKIPPED, null, LEDGER_MOVED));
        } catch (TableConflictException conflict) {
            return Step.retry(TABLE_CONFLICT);
        } catch (IOException e) {
            throw new UncheckedIOException("closing the published object failed", e);
        }
        return Step.done(record(item, committed, TableWriteResult.Outcome.COMMITTED));
    }

    /** Records {@code snapshot} as holding the item's standing publish, conditioned on that publish. */
    private TableWriteResult record(LedgerItem item, TableSnapshot snapshot, TableWriteResult.Outcome outcome) {
        TableState state = new TableState(snapshot.snapshotId(), item.runId(), item.published().contentSha256(),
                snapshot.committedAt(), null, null);
        HistoryEntry history = HistoryEntry.builder()
                .dataset(item.dataset())
                .unit(item.unit())
                .at(clock.instant())
                .runId(item.runId())
                .runKind(item.runKind() == null ? RunKind.INGEST : item.runKind())
                .action(TABLE_COMMITTED)
                .reason("snapshot " + snapshot.snapshotId())
                .input(item.input())
                .published(item.published())
                .contractVersion(item.contractVersion())
                .build();
        boolean recorded;
        try {
            recorded = ledger.recordTable(item.dataset(), item.unit(), item.runId(), item.published().contentSha256(),
                    state, history);
        } catch (HistoryKeyTakenException sameInstant) {
            // another entry of this run holds that instant (another writer's record of the same snapshot, or the
            // publish itself under a coarse clock): the state still needs recording, the history has its entry
            recorded = ledger.recordTable(item.dataset(), item.unit(), item.runId(), item.published().contentSha256(),
                    state, null);
        }
        if (!recorded) {
            // a newer publish stands now: its own message brings the table to it
            return new TableWriteResult(TableWriteResult.Outcome.SKIPPED, snapshot.snapshotId(), LEDGER_MOVED);
        }
        return new TableWriteResult(outcome, snapshot.snapshotId(), null);
    }

    /**
     * The writer gave up: records the reason on the standing publish's table state (the snapshot it last recorded
     * stays named), best effort, and says FAILED. The raw publish stands; the table shows its previous snapshot whole.
     */
    private TableWriteResult failed(LedgerItem item, String reason) {
        String code = reason == null ? TABLE_COMMIT_FAILED : reason;
        if (item != null && item.status() == LedgerStatus.PUBLISHED && item.published() != null
                && item.published().contentSha256() != null) {
            TableState before = item.table();
            if (before != null && code.equals(before.lastError())) {
                // already recorded: writing it again would change only failedAt, and that write's stream record would
                // queue the unit once more, a retry loop that outlives the queue's redrive policy while the fault lasts
                return new TableWriteResult(TableWriteResult.Outcome.FAILED, null, code);
            }
            Instant now = clock.instant();
            TableState state = before == null ? new TableState(null, null, null, null, code, now)
                    : new TableState(before.snapshotId(), before.runId(), before.contentSha256(), before.committedAt(),
                    code, now);
            try {
                ledger.recordTable(item.dataset(), item.unit(), item.runId(), item.published().contentSha256(), state,
                        null);
            } catch (RuntimeException fault) {
                // the ledger is failing too: the message's retry, or the sweep's TABLE_BEHIND, still shows the unit
            }
        }
        return new TableWriteResult(TableWriteResult.Outcome.FAILED, null, code);
    }
}
