package io.landingledger.core.testing;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.table.TableCommit;
import io.landingledger.core.table.TableConflictException;
import io.landingledger.core.table.TablePort;
import io.landingledger.core.table.TableSchemaEvolution;
import io.landingledger.core.table.TableSnapshot;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.TreeMap;

/**
 * {@link TablePort} in memory, as an Iceberg table behaves for the table writer, for the protocol simulation and
 * the writer's tests: no threads, time from the {@link Clock} given, every method synchronized on the port.
 *
 * <ul>
 *   <li>One table per dataset, made by {@link #ensureTable} and evolved by it when a contract version adds fields
 *       ({@link TableSchemaEvolution} refuses what Iceberg could not follow: {@link IllegalStateException}).
 *   <li>A table is a line of snapshots (its current ancestry), each holding every unit's partition as it is after the
 *       commit: a partition is the bytes the commit was given (so an invariant can hash what the table really holds,
 *       not what a summary claims) and its row count (the non-empty JSONL lines).
 *   <li>{@link #replaceUnit} is Iceberg's overwrite by the unit's filter validated from the snapshot read
 *       ({@code validateNoConflictingData}): when a snapshot after {@code basedOnSnapshotId} replaced the same unit,
 *       nothing is committed and {@link TableConflictException} is thrown; commits of other units rebase.
 *       {@link #foreignWrite} is a commit that carries no publish identity (a manual write) and
 *       {@link #compact} one that rewrites a partition with the same rows (compaction: no conflict, as
 *       {@code validateNoConflictingDeletes} is not asked for).
 *   <li>Faults: {@link #failNext} queues one-shot faults per operation, thrown before the call changes anything;
 *       {@link #loseNextCommitResponse} makes the next {@link #replaceUnit} commit and then throw (Iceberg's
 *       {@code CommitStateUnknownException}: the commit took effect, the caller never heard).
 * </ul>
 */
public final class InMemoryTablePort implements TablePort {

    public enum Operation { ENSURE_TABLE, CURRENT_SNAPSHOT, UNIT_SNAPSHOTS, REPLACE_UNIT }

    /** One unit's partition in a snapshot: the bytes committed, their SHA-256 and their row count. */
    public record Partition(byte[] rows, String sha256, long rowCount) {
        public String text() {
            return new String(rows, StandardCharsets.UTF_8);
        }
    }

    /**
     * One snapshot: its id, the unit it replaced, its summary (null for a commit without a publish's identity) and
     * every partition after it.
     */
    public record Snapshot(long id, String unit, TableSnapshot summary, boolean addsData,
                           Map<String, Partition> partitions) {
    }

    private static final class Table {
        DatasetContract contract;
        final List<Snapshot> snapshots = new ArrayList<>();
    }

    private final Clock clock;
    private final Map<String, Table> tables = new TreeMap<>();
    private final Map<Operation, Queue<RuntimeException>> oneShot = new EnumMap<>(Operation.class);
    private final Map<String, Integer> commits = new HashMap<>();
    private RuntimeException lostResponse;
    private long nextSnapshotId = 1_000;

    public InMemoryTablePort(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    // ---- fault injection and inspection ----

    /** The next call of {@code operation} fails with {@code fault} before it changes anything (queued, in order). */
    public synchronized void failNext(Operation operation, RuntimeException fault) {
        oneShot.computeIfAbsent(operation, o -> new ArrayDeque<>()).add(Objects.requireNonNull(fault, "fault"));
    }

    /** The next {@link #replaceUnit} commits, then throws {@code fault} instead of returning the snapshot. */
    public synchronized void loseNextCommitResponse(RuntimeException fault) {
        this.lostResponse = Objects.requireNonNull(fault, "fault");
    }

    /** The unit's partition in the current snapshot, or empty when the table or the partition does not exist. */
    public synchronized Optional<Partition> partition(String dataset, String unit) {
        Table table = tables.get(dataset);
        if (table == null || table.snapshots.isEmpty()) {
            return Optional.empty();
        }
        return Optional.ofNullable(table.snapshots.getLast().partitions().get(unit));
    }

    /** Every snapshot of the dataset's table, oldest first (empty when it does not exist). */
    public synchronized List<Snapshot> snapshots(String dataset) {
        Table table = tables.get(dataset);
        return table == null ? List.of() : List.copyOf(table.snapshots);
    }

    /** The datasets whose table exists, in name order. */
    public synchronized List<String> datasets() {
        return List.copyOf(tables.keySet());
    }

    /** The contract the dataset's table was made or last evolved from, or null when it does not exist. */
    public synchronized DatasetContract schema(String dataset) {
        Table table = tables.get(dataset);
        return table == null ? null : table.contract;
    }

    /** Successful {@link #replaceUnit} commits of the dataset so far. */
    public synchronized int commits(String dataset) {
        return commits.getOrDefault(dataset, 0);
    }

    /** A commit that replaces {@code unit}'s partition with {@code rows} and carries no publish's identity. */
    public synchronized long foreignWrite(String dataset, String unit, String rows) {
        Table table = existing(dataset);
        return append(table, unit, null, true, partitionOf(rows.getBytes(StandardCharsets.UTF_8))).id();
    }

    /** Compaction: rewrites {@code unit}'s partition with the same rows; conflicts with no writer. */
    public synchronized long compact(String dataset, String unit) {
        Table table = existing(dataset);
        Partition current = table.snapshots.isEmpty() ? null : table.snapshots.getLast().partitions().get(unit);
        if (current == null) {
            throw new IllegalArgumentException(dataset + " has no partition " + unit + " to compact");
        }
        return append(table, unit, null, false, current).id();
    }

    // ---- the port ----

    @Override
    public synchronized void ensureTable(DatasetContract contract) {
        before(Operation.ENSURE_TABLE);
        Table table = tables.get(contract.dataset());
        if (table == null) {
            table = new Table();
            table.contract = contract;
            tables.put(contract.dataset(), table);
            return;
        }
        if (contract.version() <= table.contract.version()) {
            return; // an older publish's contract: the table's schema already holds its columns
        }
        List<String> refused = TableSchemaEvolution.refusals(table.contract, contract);
        if (!refused.isEmpty()) {
            throw new IllegalStateException("the table of " + contract.dataset() + " cannot follow version "
                    + contract.version() + ": " + String.join("; ", refused));
        }
        table.contract = contract;
    }

    @Override
    public synchronized Optional<Long> currentSnapshotId(String dataset) {
        before(Operation.CURRENT_SNAPSHOT);
        Table table = tables.get(dataset);
        return table == null || table.snapshots.isEmpty() ? Optional.empty()
                : Optional.of(table.snapshots.getLast().id());
    }

    @Override
    public synchronized List<TableSnapshot> unitSnapshots(String dataset, String unit) {
        before(Operation.UNIT_SNAPSHOTS);
        Table table = tables.get(dataset);
        if (table == null) {
            return List.of();
        }
        List<TableSnapshot> found = new ArrayList<>();
        for (Snapshot snapshot : table.snapshots.reversed()) {
            if (snapshot.summary() != null && unit.equals(snapshot.unit())) {
                found.add(snapshot.summary());
            }
        }
        return found;
    }

    @Override
    public synchronized TableSnapshot replaceUnit(DatasetContract contract, TableCommit commit,
                                                  InputStream publishedRows) {
        before(Operation.REPLACE_UNIT);
        Table table = existing(commit.dataset());
        if (contract.version() > table.contract.version()) {
            throw new IllegalStateException("the table of " + commit.dataset() + " is at contract version "
                    + table.contract.version() + ": ensureTable first");
        }
        byte[] rows;
        try {
            rows = publishedRows.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("reading the published rows failed", e);
        }
        validateFrom(table, commit);
        Partition partition = partitionOf(rows);
        long id = nextSnapshotId++;
        TableSnapshot summary = new TableSnapshot(id, clock.instant(), commit.dataset(), commit.unit(), commit.runId(),
                commit.contentSha256(), commit.inputVersion(), commit.contractVersion(), partition.rowCount());
        append(table, commit.unit(), summary, true, partition, id);
        commits.merge(commit.dataset(), 1, Integer::sum);
        if (lostResponse != null) {
            RuntimeException fault = lostResponse;
            lostResponse = null;
            throw fault;
        }
        return summary;
    }

    // ---- internals ----

    /** Conflict detection: a snapshot after the one read that added data to the same unit refuses the commit. */
    private static void validateFrom(Table table, TableCommit commit) {
        int from = 0;
        if (commit.basedOnSnapshotId() != null) {
            from = -1;
            for (int i = 0; i < table.snapshots.size(); i++) {
                if (table.snapshots.get(i).id() == commit.basedOnSnapshotId()) {
                    from = i + 1;
                }
            }
            if (from < 0) {
                throw new IllegalArgumentException("snapshot " + commit.basedOnSnapshotId() + " is not in the table of "
                        + commit.dataset());
            }
        }
        for (Snapshot later : table.snapshots.subList(from, table.snapshots.size())) {
            if (later.addsData() && commit.unit().equals(later.unit())) {
                throw new TableConflictException("snapshot " + later.id() + " replaced " + commit.unit()
                        + " after snapshot " + commit.basedOnSnapshotId());
            }
        }
    }

    private Snapshot append(Table table, String unit, TableSnapshot summary, boolean addsData, Partition partition) {
        return append(table, unit, summary, addsData, partition, nextSnapshotId++);
    }

    private static Snapshot append(Table table, String unit, TableSnapshot summary, boolean addsData,
                                   Partition partition, long id) {
        Map<String, Partition> partitions = new TreeMap<>(
                table.snapshots.isEmpty() ? Map.of() : table.snapshots.getLast().partitions());
        partitions.put(unit, partition);
        Snapshot snapshot = new Snapshot(id, unit, summary, addsData, Map.copyOf(partitions));
        table.snapshots.add(snapshot);
        return snapshot;
    }

    private Table existing(String dataset) {
        Table table = tables.get(dataset);
        if (table == null) {
            throw new IllegalStateException("the table of " + dataset + " does not exist: ensureTable first");
        }
        return table;
    }

    private static Partition partitionOf(byte[] rows) {
        long count = 0;
        boolean inLine = false;
        for (byte b : rows) {
            if (b == '\n') {
                count += inLine ? 1 : 0;
                inLine = false;
            } else {
                inLine = true;
            }
        }
        count += inLine ? 1 : 0;
        return new Partition(rows.clone(), sha256(rows), count);
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }

    private void before(Operation operation) {
        Queue<RuntimeException> queued = oneShot.get(operation);
        RuntimeException fault = queued == null ? null : queued.poll();
        if (fault != null) {
            throw fault;
        }
    }
}
