package io.landingledger.core.simulation;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.table.TableCommit;
import io.landingledger.core.table.TablePort;
import io.landingledger.core.table.TableSnapshot;

import java.util.List;
import java.util.Optional;

/**
 * A {@link TablePort} whose every call is a yield point of the {@link Scheduler} before it reaches the delegate (the
 * in-memory table): {@code currentSnapshotId} and {@code unitSnapshots} are reads; {@code ensureTable} and
 * {@code replaceUnit} writes (a crash or fault may come after they took effect: the commit is in the table, the
 * writer never heard, as Iceberg's CommitStateUnknownException). Labels are {@code table.<method> <unit>} (the dataset
 * for {@code ensureTable} and {@code currentSnapshotId}).
 */
public final class SteppedTablePort implements TablePort {
    private final Scheduler scheduler;
    private final TablePort delegate;

    public SteppedTablePort(Scheduler scheduler, TablePort delegate) {
        this.scheduler = scheduler;
        this.delegate = delegate;
    }

    @Override
    public void ensureTable(DatasetContract contract) {
        scheduler.call("table.ensureTable", contract.dataset(), true, () -> {
            delegate.ensureTable(contract);
            return null;
        });
    }

    @Override
    public Optional<Long> currentSnapshotId(String dataset) {
        return scheduler.call("table.currentSnapshotId", dataset, false, () -> delegate.currentSnapshotId(dataset));
    }

    @Override
    public List<TableSnapshot> unitSnapshots(String dataset, String unit) {
        return scheduler.call("table.unitSnapshots", unit, false, () -> delegate.unitSnapshots(dataset, unit));
    }

    @Override
    public TableSnapshot replaceUnit(DatasetContract contract, TableCommit commit, java.io.InputStream publishedRows) {
        String detail = scheduler.tracing() ? "run " + commit.runId() + " from snapshot " + commit.basedOnSnapshotId()
                : null;
        return scheduler.call("table.replaceUnit", commit.unit(), detail, true,
                () -> delegate.replaceUnit(contract, commit, publishedRows));
    }
}
