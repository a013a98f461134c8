package io.landingledger.cli.ops;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.testing.TestContracts;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 30, item 1: a unit its cadence cannot name, already in the ledger, is one row of status apart, with its fix. */
class InvalidUnitStatusTest {
    private final DatasetContract contract = TestContracts.progressEvents();

    @Test
    void aBadUnitAlreadyInTheLedger_isListedApart_withTheOmissionThatRemovesIt() {
        LedgerItem held = LedgerItem.builder(contract.dataset(), "2026-02-30").status(LedgerStatus.PUBLISHED).run("run-1", RunKind.INGEST)
                .contractVersion(contract.version()).publishCount(1).build();
        Map<String, Object> row = StatusCommand.invalidRow(contract, held);
        assertEquals(StatusCommand.INVALID_UNIT, row.get("status"));
        assertEquals("UNIT_INVALID", row.get("reason"));
        String detail = (String) row.get("detail");
        assertTrue(detail.contains("'2026-02-30' is not a real date") && detail.contains(
                "landing repair progress_events 2026-02-30 --omit --reason"), detail);

        LedgerItem omitted = held.toBuilder().status(LedgerStatus.OMITTED).reason("misnamed file").build();
        Map<String, Object> after = StatusCommand.invalidRow(contract, omitted);
        assertEquals("OMITTED", after.get("status"));
        assertEquals("misnamed file", after.get("reason"));
    }
}
