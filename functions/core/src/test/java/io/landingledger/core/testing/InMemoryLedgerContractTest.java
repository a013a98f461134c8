package io.landingledger.core.testing;

import io.landingledger.core.ledger.Ledger;
import io.landingledger.core.ledger.LedgerContract;

/** The ledger contract, in memory. */
class InMemoryLedgerContractTest extends LedgerContract {
    @Override
    protected Fixture fixture() {
        InMemoryLedger memory = new InMemoryLedger();
        return new Fixture() {
            @Override
            public Ledger ledger() {
                return memory;
            }

            @Override
            public void conflictNextWrite() {
                memory.conflictNextWrite();
            }
        };
    }
}
