package io.landingledger.core.simulation;

import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.Ledger;
import io.landingledger.core.ledger.LedgerConflictException;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.TableState;

import java.util.List;
import java.util.Optional;

/**
 * A {@link Ledger} whose every call is a yield point of the {@link Scheduler} before it reaches the delegate (an
 * in-memory DynamoDB model): {@code get}, {@code history} and {@code items} are reads; {@code write} and
 * {@code appendHistory} writes (a crash or fault may come after they took effect: the transaction committed, the
 * caller never heard). Labels are {@code ledger.<method> <unit>} (the dataset for {@code items}), with the
 * write's status and expected revision added in traces.
 */
public final class SteppedLedger implements Ledger {
    private final Scheduler scheduler;
    private final Ledger delegate;

    public SteppedLedger(Scheduler scheduler, Ledger delegate) {
        this.scheduler = scheduler;
        this.delegate = delegate;
    }

    @Override
    public Optional<LedgerItem> get(String dataset, String unit) {
        return scheduler.call("ledger.get", unit, false, () -> delegate.get(dataset, unit));
    }

    @Override
    public void write(LedgerItem item, long expectedRevision, HistoryEntry history) throws LedgerConflictException {
        String detail = scheduler.tracing() ? item.status() + " if revision " + expectedRevision : null;
        scheduler.call("ledger.write", item.unit(), detail, true, () -> {
            delegate.write(item, expectedRevision, history);
            return null;
        });
    }

    @Override
    public void appendHistory(HistoryEntry history) {
        scheduler.call("ledger.appendHistory", history.unit(), true, () -> {
            delegate.appendHistory(history);
            return null;
        });
    }

    @Override
    public boolean recordTable(String dataset, String unit, String expectedRunId, String expectedSha256,
                               TableState state, HistoryEntry history) {
        String detail = scheduler.tracing() ? "snapshot " + state.snapshotId() + " if run " + expectedRunId : null;
        return scheduler.call("ledger.recordTable", unit, detail, true,
                () -> delegate.recordTable(dataset, unit, expectedRunId, expectedSha256, state, history));
    }

    @Override
    public List<HistoryEntry> history(String dataset, String unit) {
        return scheduler.call("ledger.history", unit, false, () -> delegate.history(dataset, unit));
    }

    @Override
    public List<LedgerItem> items(String dataset, String fromUnit, String toUnit) {
        String detail = scheduler.tracing() ? "[" + fromUnit + ", " + toUnit + "]" : null;
        return scheduler.call("ledger.items", dataset, detail, false,
                () -> delegate.items(dataset, fromUnit, toUnit));
    }
}
