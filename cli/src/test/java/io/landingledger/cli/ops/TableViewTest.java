package io.landingledger.cli.ops;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.PublishedRef;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.ledger.TableState;
import io.landingledger.core.table.TableCommit;
import io.landingledger.core.table.TablePort;
import io.landingledger.core.table.TableSnapshot;
import io.landingledger.core.testing.TestContracts;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What explain, history and status say about a unit's table: in step or behind with the writer's reason, the analyst's
 * query for the standing snapshot, the unit's snapshots newest first with their run ids, and the consumers on an older
 * snapshot.
 */
class TableViewTest {
    private static final Instant AT = Instant.parse("2026-03-04T06:00:00Z");
    private static final String SHA_2 = "b".repeat(64);
    private static final TableCatalogs.Names NAMES = new TableCatalogs.Names("\"s3tablescatalog/dev-tables\".\"landing_dev\"",
            "landing.landing_dev");

    private final DatasetContract contract = TestContracts.progressEvents();

    private LedgerItem published(TableState table) {
        return LedgerItem.builder(contract.dataset(), "2026-03-03").status(LedgerStatus.PUBLISHED)
                .published(new PublishedRef("published/progress_events/unit=2026-03-03/part-00000.jsonl", "\"e2\"", 8, 0, 0, null, SHA_2))
                .run("run-2", RunKind.INGEST).contractVersion(1).publishCount(2).publishedAt(AT, AT).table(table).build();
    }

    /** The minimal table port history needs: the unit's snapshots, newest first. */
    private static final class SnapshotsOnly implements TablePort {
        private final List<TableSnapshot> snapshots;

        SnapshotsOnly(List<TableSnapshot> snapshots) {
            this.snapshots = snapshots;
        }

        @Override
        public void ensureTable(DatasetContract contract) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<Long> currentSnapshotId(String dataset) {
            return Optional.of(snapshots.get(0).snapshotId());
        }

        @Override
        public List<TableSnapshot> unitSnapshots(String dataset, String unit) {
            return snapshots;
        }

        @Override
        public TableSnapshot replaceUnit(DatasetContract contract, TableCommit commit, InputStream publishedRows) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void explain_inStep_namesTheSnapshot_andTheAnalystsQueries() {
        Map<String, Object> view = TableView.explain(contract, published(new TableState(3051729675574597004L, "run-2", SHA_2, AT, null,
                null)), NAMES);
        assertEquals("in_step", view.get("state"));
        assertNull(view.get("reason"));
        assertEquals(3051729675574597004L, view.get("snapshot_id"));
        @SuppressWarnings("unchecked")
        Map<String, String> queries = (Map<String, String>) view.get("queries");
        assertEquals("SELECT * FROM \"s3tablescatalog/dev-tables\".\"landing_dev\".\"progress_events\" FOR VERSION AS OF "
                + "3051729675574597004 WHERE unit = DATE '2026-03-03'", queries.get("athena"));
        assertEquals("SELECT * FROM landing.landing_dev.progress_events VERSION AS OF 3051729675574597004 WHERE unit = "
                + "DATE '2026-03-03'", queries.get("spark"));
        List<String> lines = TableView.lines(view);
        assertEquals("Table: in step with the ledger", lines.get(0));
        assertTrue(lines.get(1).contains("snapshot 3051729675574597004 committed 2026-03-04T06:00:00Z holds run run-2"), lines.get(1));
    }

    @Test
    void explain_behind_saysWhy_withTheWritersLastError() {
        Map<String, Object> view = TableView.explain(contract, published(new TableState(11L, "run-1", "a".repeat(64), AT,
                "CATALOG_UNAVAILABLE", AT.plusSeconds(60))), NAMES);
        assertEquals("behind", view.get("state"));
        assertEquals("CATALOG_UNAVAILABLE", view.get("reason"));
        List<String> lines = TableView.lines(view);
        assertEquals("Table: behind the ledger (CATALOG_UNAVAILABLE)", lines.get(0));
        assertTrue(lines.get(1).contains("holds run run-1; the ledger's publish is run run-2"), lines.get(1));
        assertTrue(lines.get(2).contains("last failed at 2026-03-04T06:01:00Z: CATALOG_UNAVAILABLE"), lines.get(2));

        Map<String, Object> never = TableView.explain(contract, published(null), NAMES);
        assertEquals("TABLE_NOT_WRITTEN", never.get("reason"));
        assertTrue(TableView.lines(never).get(1).contains("no snapshot recorded"), TableView.lines(never).toString());
        assertNull(TableView.explain(contract, LedgerItem.builder(contract.dataset(), "2026-03-03").status(LedgerStatus.REFUSED)
                .run("run-r", RunKind.INGEST).build(), NAMES), "nothing published: nothing for a table to hold");
    }

    @Test
    void theUnitLiteral_followsTheCadence() {
        assertEquals("DATE '2026-03-03'", TableView.unitLiteral(contract, "2026-03-03"));
        DatasetContract hourly = TestContracts.progressEvents(json -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> unit = (Map<String, Object>) json.get("unit");
            unit.put("cadence", "hourly");
            unit.put("first", "2026-03-01T00");
        });
        assertEquals("TIMESTAMP '2026-03-03 05:00:00 UTC'", TableView.unitLiteral(hourly, "2026-03-03T05"));
    }

    @Test
    void history_listsTheUnitsSnapshots_newestFirst_withRunIds_andTheStandingOne() {
        TablePort port = new SnapshotsOnly(List.of(
                new TableSnapshot(22L, AT, contract.dataset(), "2026-03-03", "run-2", SHA_2, "v2", 1, 8),
                new TableSnapshot(11L, AT.minusSeconds(86_400), contract.dataset(), "2026-03-03", "run-1", "a".repeat(64), "v1", 1, 7)));
        List<Map<String, Object>> rows = TableView.snapshots(port.unitSnapshots(contract.dataset(), "2026-03-03"),
                published(new TableState(22L, "run-2", SHA_2, AT, null, null)));
        assertEquals(List.of(22L, 11L), rows.stream().map(r -> r.get("snapshot_id")).toList());
        assertEquals(List.of(true, false), rows.stream().map(r -> r.get("standing")).toList());
        String text = HistoryCommand.snapshotTable(contract, "2026-03-03", rows, NAMES);
        String[] lines = text.split("\n");
        assertTrue(lines[0].startsWith("Table snapshots (newest first"), text);
        assertTrue(lines[2].startsWith("22 ") && lines[2].contains("run-2") && lines[2].endsWith("yes"), text);
        assertTrue(lines[3].startsWith("11 ") && lines[3].contains("run-1"), text);
        assertTrue(text.contains("FOR VERSION AS OF 22 WHERE unit = DATE '2026-03-03'"), text);
        assertEquals("Table snapshots: none holds progress_events/2026-03-03.\n",
                HistoryCommand.snapshotTable(contract, "2026-03-03", List.of(), NAMES));
    }

    @Test
    void status_namesTheConsumersOnAnOlderSnapshot() {
        String text = StatusCommand.olderSnapshotTable(Map.of("progress_events", Map.of("mart", List.of("2026-03-01", "2026-03-03"))));
        assertTrue(text.startsWith("Consumers on an older table snapshot"), text);
        assertTrue(text.contains("mart") && text.contains("2026-03-01 2026-03-03"), text);
    }

    @Test
    void aTargetNamingNoTables_getsThePlaceholders() {
        Resources noTables = Resources.builder().source("test").region(software.amazon.awssdk.regions.Region.US_EAST_1)
                .inboxBucket("in").lakeBucket("lake").ledgerTable("Ledger").historyTable("History").build();
        assertTrue(TableCatalogs.provider().isPresent(), "the command line's jar registers its provider");
        assertTrue(TableCatalogs.open(noTables).isEmpty());
        assertEquals(TableCatalogs.Names.PLACEHOLDERS, TableCatalogs.names(noTables));
        assertEquals("\"s3tablescatalog/<table-bucket>\".\"<namespace>\".\"progress_events\"",
                TableCatalogs.Names.PLACEHOLDERS.athena("progress_events"));
    }

    @Test
    void aDatasetWithADash_isNamedAsItsTable() {
        assertEquals("\"s3tablescatalog/dev-tables\".\"landing_dev\".\"click_stream\"", NAMES.athena("click-stream"));
        assertEquals("landing.landing_dev.click_stream", NAMES.spark("click-stream"));
    }
}
