package io.landingledger.core.sweep;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.PublishedRef;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.ledger.TableState;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.testing.TestContracts;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The incremental sweep reads a dataset again when the clock alone changes a status: a table commit still within its
 * grace (TABLE_BEHIND as a flag) becomes TABLE_BEHIND when the grace ends, with no change recorded anywhere, so the
 * end of the earliest such grace is the dataset's next deadline.
 */
class TableGraceDeadlineTest {
    private static final Instant NOW = Instant.parse("2026-03-20T12:00:00Z");
    private static final Duration GRACE = Duration.ofMinutes(15);
    private final DatasetContract contract = TestContracts.progressEvents();

    private UnitReport unit(String unit, Instant publishedAt, TableState table) {
        LedgerItem item = LedgerItem.builder(contract.dataset(), unit).status(LedgerStatus.PUBLISHED)
                .published(new PublishedRef("published/progress_events/unit=" + unit + "/part-00000.jsonl", "\"e\"", 3, 0, 0, null,
                        "c".repeat(64)))
                .run("run-" + unit, RunKind.INGEST).contractVersion(1).publishCount(1).publishedAt(publishedAt, publishedAt)
                .table(table).build();
        UnitClassifier.Evidence evidence = new UnitClassifier.Evidence(unit, null, NOW, item, null,
                new ObjectStore.ListedObject(item.published().key(), "\"e\"", 10, publishedAt),
                false, GRACE, null);
        return UnitReport.of(evidence, UnitClassifier.classify(evidence));
    }

    private DatasetReport report(List<UnitReport> units) {
        return new DatasetReport(contract.dataset(), contract.unit().cadence(), "2026-03-17", "2026-03-19", NOW, true, units,
                List.of(), 0, null);
    }

    @Test
    void theEarliestGraceStillRunning_isTheNextDeadline() {
        UnitReport fresh = unit("2026-03-18", NOW.minusSeconds(300), null);        // due at NOW + 10 min
        UnitReport fresher = unit("2026-03-19", NOW.minusSeconds(60), null);       // due at NOW + 14 min
        UnitReport late = unit("2026-03-17", NOW.minus(Duration.ofHours(1)), null); // TABLE_BEHIND already
        assertEquals(UnitStatus.OK, fresh.status());
        assertEquals(List.of(UnitStatus.TABLE_BEHIND), fresh.flags());
        assertEquals(UnitStatus.TABLE_BEHIND, late.status());
        DatasetFigures figures = DatasetFigures.of(report(List.of(late, fresh, fresher)), "s-1", contract, GRACE);
        assertEquals(NOW.plusSeconds(600), figures.nextDeadline());
    }

    @Test
    void noCommitOnItsWay_leavesTheCalendarsDeadline() {
        UnitReport inStep = unit("2026-03-18", NOW.minusSeconds(300),
                new TableState(7L, "run-2026-03-18", "c".repeat(64), NOW.minusSeconds(200), null, null));
        assertEquals(List.of(), inStep.flags());
        DatasetReport report = report(List.of(inStep));
        assertEquals(DatasetFigures.nextDeadline(report, contract), DatasetFigures.of(report, "s-1", contract, GRACE).nextDeadline());
        assertNull(DatasetFigures.tableDue(report, GRACE));
        assertNull(DatasetFigures.tableDue(report(List.of(unit("2026-03-18", NOW.minusSeconds(300), null))), null),
                "a stack without tables has no table deadline");
    }
}
