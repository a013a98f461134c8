package io.landingledger.core.consumers;

import io.landingledger.core.contract.Cadence;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.PublishedRef;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.SweepHtml;
import io.landingledger.core.testing.InMemoryConsumerReceipts;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Receipts against the ledger's current publish: who is behind on which unit; a late older receipt never wins. */
class ConsumersBehindTest {
    private static final Instant T0 = Instant.parse("2026-03-10T00:00:00Z");

    private static LedgerItem published(String unit, String runId, String etag, long count) {
        return LedgerItem.builder("progress_events", unit)
                .status(LedgerStatus.PUBLISHED)
                .published(new PublishedRef("published/progress_events/unit=" + unit + "/part-00000.jsonl", etag, 10, 0, 0, null))
                .run(runId, RunKind.INGEST)
                .contractVersion(1)
                .publishCount(count)
                .publishedAt(T0, T0)
                .build();
    }

    private static ConsumerReceipt receipt(String unit, String consumer, String publish, int minutes) {
        return new ConsumerReceipt("progress_events", unit, consumer, publish, T0.plusSeconds(60L * minutes));
    }

    @Test
    void aReceiptOfAnEarlierPublish_isBehind_runIdOrEtag() {
        InMemoryConsumerReceipts receipts = new InMemoryConsumerReceipts();
        receipts.record(receipt("2026-03-01", "mart", "run-1", 1));        // restated since: run-2 now
        receipts.record(receipt("2026-03-01", "dashboards", "\"etag-2\"", 2)); // the current ETag, quoted
        receipts.record(receipt("2026-03-02", "mart", "etag-b", 1));       // current by ETag
        receipts.record(receipt("2026-03-03", "mart", "run-x", 1));        // never published: nobody behind
        List<LedgerItem> items = List.of(published("2026-03-01", "run-2", "etag-2", 2), published("2026-03-02", "run-b", "etag-b", 1),
                LedgerItem.builder("progress_events", "2026-03-03").status(LedgerStatus.REFUSED).run("run-r", RunKind.INGEST)
                        .contractVersion(1).reason("NOT_UTF8").build());
        Map<String, List<String>> byUnit = ConsumersBehind.byUnit(items, receipts.forUnits("progress_events", "2026-03-01", "2026-03-03"));
        assertEquals(Map.of("2026-03-01", List.of("mart")), byUnit);
        assertEquals(Map.of("mart", List.of("2026-03-01")), ConsumersBehind.byConsumer(byUnit));

        receipts.record(receipt("2026-03-01", "mart", "run-2", 5)); // mart rebuilt
        assertTrue(ConsumersBehind.byUnit(items, receipts.forUnits("progress_events", null, null)).isEmpty());
    }

    @Test
    void aRepublishOfTheSameRows_movesNobodyBehind_aRestatementMovesThoseWhoReadTheOlderRows() {
        Instant rowsSince = T0.plusSeconds(600);
        // run-1 published the rows at T0+10min; run-2 (a repair after a deletion) and run-3 republished the same rows
        LedgerItem sameRows = published("2026-03-01", "run-3", "etag-3", 3).toBuilder().contentSince("run-1", rowsSince).build();
        List<ConsumerReceipt> receipts = List.of(
                receipt("2026-03-01", "mart", "run-1", 11),       // the publish that first held these rows
                receipt("2026-03-01", "ml", "run-2", 20),         // an intermediate republish of the same rows
                receipt("2026-03-01", "finance", "run-0", 5));    // read the rows before these appeared
        assertEquals(Map.of("2026-03-01", List.of("finance")), ConsumersBehind.byUnit(List.of(sameRows), receipts));

        // an item that does not know when its rows appeared: only the current publish counts
        LedgerItem unknown = published("2026-03-01", "run-3", "etag-3", 3);
        assertEquals(Map.of("2026-03-01", List.of("finance", "mart", "ml")), ConsumersBehind.byUnit(List.of(unknown), receipts));
    }

    @Test
    void aLateOlderReceipt_neverReplacesANewerOne() {
        InMemoryConsumerReceipts receipts = new InMemoryConsumerReceipts();
        assertTrue(receipts.record(receipt("2026-03-01", "mart", "run-2", 5)));
        assertFalse(receipts.record(receipt("2026-03-01", "mart", "run-1", 1)));
        assertFalse(receipts.record(receipt("2026-03-01", "mart", "run-1", 5)));
        assertEquals("run-2", receipts.forUnits("progress_events", "2026-03-01", "2026-03-01").get(0).publish());
    }

    @Test
    void consumerNames_areBounded() {
        assertThrows(IllegalArgumentException.class, () -> receipt("2026-03-01", "a b", "r", 0));
        assertThrows(IllegalArgumentException.class, () -> receipt("2026-03-01", "x".repeat(65), "r", 0));
        assertThrows(IllegalArgumentException.class, () -> receipt("2026-03-01", "mart", " ", 0));
    }

    @Test
    void theReports_nameTheConsumersBehind_andCountTheUnits() {
        DatasetReport report = io.landingledger.core.sweep.SweepTesting.reportWithBehind("2026-03-01", List.of("mart", "ml<x>"));
        assertEquals(Map.of("mart", List.of("2026-03-01"), "ml<x>", List.of("2026-03-01")), report.consumersBehind());
        assertEquals(1, report.metrics().get("UnitsBehindConsumers").value());
        assertEquals(Map.of("mart", List.of("2026-03-01"), "ml<x>", List.of("2026-03-01")), report.toMap().get("consumers_behind"));
        String html = SweepHtml.render(report);
        assertTrue(html.contains("Consumers behind (2)"));
        assertTrue(html.contains("<code>ml&lt;x&gt;</code>"));
        assertEquals(Cadence.DAILY, report.cadence());
    }

    @Test
    void aReceiptNamingATableSnapshot_beforeTheUnitsCurrentOne_isOnAnOlderSnapshot() {
        Instant committed = T0.plusSeconds(600);
        LedgerItem item = published("2026-03-01", "run-2", "etag-2", 2).toBuilder()
                .table(new io.landingledger.core.ledger.TableState(22L, "run-2", "ab", committed, null, null)).build();
        List<ConsumerReceipt> receipts = List.of(
                new ConsumerReceipt("progress_events", "2026-03-01", "mart", "run-1", T0.plusSeconds(60), 11L),  // before 22
                new ConsumerReceipt("progress_events", "2026-03-01", "ml", "run-2", T0.plusSeconds(900), 22L),   // the current
                new ConsumerReceipt("progress_events", "2026-03-01", "bi", "run-2", T0.plusSeconds(1200), 37L),  // a later one
                new ConsumerReceipt("progress_events", "2026-03-01", "ops", "run-1", T0.plusSeconds(60)));       // no snapshot
        assertEquals(Map.of("2026-03-01", List.of("mart")), ConsumersBehind.onOlderSnapshot(List.of(item), receipts));
        // a unit whose table snapshot is not recorded names nobody
        assertTrue(ConsumersBehind.onOlderSnapshot(List.of(published("2026-03-01", "run-2", "etag-2", 2)), receipts).isEmpty());
    }
}
