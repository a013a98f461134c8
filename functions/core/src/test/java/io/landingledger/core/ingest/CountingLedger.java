package io.landingledger.core.ingest;

import io.landingledger.core.ledger.HistoryEntry;
import io.landingledger.core.ledger.Ledger;
import io.landingledger.core.ledger.LedgerConflictException;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.TableState;

import java.util.List;
import java.util.Optional;

/** Counts every ledger write a simulated run makes ({@link ProtocolModel#writes}), attempted or not. */
final class CountingLedger implements Ledger {
    private final Ledger delegate;
    private final ProtocolModel model;

    CountingLedger(Ledger delegate, ProtocolModel model) {
        this.delegate = delegate;
        this.model = model;
    }

    @Override
    public Optional<LedgerItem> get(String dataset, String unit) {
        return delegate.get(dataset, unit);
    }

    @Override
    public void write(LedgerItem item, long expectedRevision, HistoryEntry history) throws LedgerConflictException {
        model.countWrite();
        model.writerView = model.viewOfCurrent();
        delegate.write(item, expectedRevision, history);
    }

    @Override
    public void appendHistory(HistoryEntry history) {
        model.countWrite();
        delegate.appendHistory(history);
    }

    @Override
    public boolean recordTable(String dataset, String unit, String expectedRunId, String expectedSha256,
                               TableState state, HistoryEntry history) {
        model.countWrite();
        return delegate.recordTable(dataset, unit, expectedRunId, expectedSha256, state, history);
    }

    @Override
    public List<HistoryEntry> history(String dataset, String unit) {
        return delegate.history(dataset, unit);
    }

    @Override
    public List<LedgerItem> items(String dataset, String fromUnit, String toUnit) {
        return delegate.items(dataset, fromUnit, toUnit);
    }
}
