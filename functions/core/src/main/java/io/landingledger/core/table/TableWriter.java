package io.landingledger.core.table;

import io.landingledger.core.contract.ContractStore;
import io.landingledger.core.ledger.Ledger;
import io.landingledger.core.store.ObjectStore;

import java.time.Clock;
import java.util.Objects;

/**
 * Brings one unit's table partition into step with the ledger (docs/design.md section 8): reads the ledger item,
 * finds its own earlier commit by the snapshot summary, else replaces the partition with the published object's
 * rows (read with {@code If-Match} on the ledger's ETag) in one commit, then records the snapshot on the ledger item
 * conditioned on the publish it describes. The message that triggers it names only the unit: the ledger is read
 * again every time, so an older publish can never replace a newer one, whatever order messages arrive in.
 */
public final class TableWriter {
    private final Ledger ledger;
    private final ObjectStore lake;
    private final ContractStore contracts;
    private final TablePort table;
    private final Clock clock;

    public TableWriter(Ledger ledger, ObjectStore lake, ContractStore contracts, TablePort table, Clock clock) {
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.lake = Objects.requireNonNull(lake, "lake");
        this.contracts = Objects.requireNonNull(contracts, "contracts");
        this.table = Objects.requireNonNull(table, "table");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Brings {@code dataset}'s {@code unit} into step; never throws for a fault it can record on the ledger. */
    public TableWriteResult write(String dataset, String unit) {
        throw new UnsupportedOperationException("the table writer's steps are not written yet");
    }
}
