package io.landingledger.core.ledger;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The ledger records' builders: every component by name, the required ones checked, copies that keep the rest. */
class LedgerBuildersTest {
    private static final Instant AT = Instant.parse("2026-03-02T23:10:02Z");

    private static InputIdentity input() {
        return InputIdentity.builder().bucket("inbox").key("progress_events/progress-2026-03-02.jsonl").versionId("v1").etag("e1")
                .sha256("sha1").size(100).sequencer("0A").lastModified(AT).build();
    }

    @Test
    void inputIdentity_namesEveryComponent_andCopiesKeepTheRest() {
        InputIdentity input = input();
        assertEquals(List.of("inbox", "progress_events/progress-2026-03-02.jsonl", "v1", "e1", "sha1", 100L, "0A", AT),
                List.of(input.bucket(), input.key(), input.versionId(), input.etag(), input.sha256(), input.size(), input.sequencer(),
                        input.lastModified()));
        assertEquals(input, input.toBuilder().build());
        assertEquals("v2", input.toBuilder().versionId("v2").build().versionId());
        assertEquals(input.etag(), input.toBuilder().versionId("v2").build().etag());
        assertEquals("InputIdentity: key is required",
                assertThrows(IllegalStateException.class, () -> InputIdentity.builder().bucket("inbox").build()).getMessage());
    }

    @Test
    void lastAttempt_namesEveryComponent_andChecksAtAndOutcome() {
        LastAttempt attempt = LastAttempt.builder().at(AT).runId("run-1").runKind(RunKind.INGEST).outcome(AttemptOutcome.REFUSED)
                .reason("SCHEMA").input(input()).build();
        assertEquals(List.of(AT, "run-1", RunKind.INGEST, AttemptOutcome.REFUSED, "SCHEMA", "v1", "sha1",
                "progress_events/progress-2026-03-02.jsonl"), List.of(attempt.at(), attempt.runId(), attempt.runKind(), attempt.outcome(),
                attempt.reason(), attempt.inputVersionId(), attempt.inputSha256(), attempt.inputKey()));
        assertEquals(attempt, LastAttempt.of(AT, "run-1", RunKind.INGEST, AttemptOutcome.REFUSED, "SCHEMA", input()));
        assertEquals(attempt, attempt.toBuilder().build());
        assertEquals("LastAttempt: at is required", assertThrows(IllegalStateException.class,
                () -> LastAttempt.builder().outcome(AttemptOutcome.OMITTED).build()).getMessage());
        assertEquals("LastAttempt: outcome is required", assertThrows(IllegalStateException.class,
                () -> LastAttempt.builder().at(AT).build()).getMessage());
    }

    @Test
    void historyEntry_checksTheComponentsItsKeysNeed() {
        HistoryEntry entry = HistoryEntry.builder().dataset("progress_events").unit("2026-03-02").at(AT).runId("run-1")
                .runKind(RunKind.INGEST).action("PUBLISHED").contractVersion(3).build();
        assertEquals(Arrays.asList("progress_events", "2026-03-02", AT, "run-1", RunKind.INGEST, "PUBLISHED", null, null, null, 3),
                Arrays.asList(entry.dataset(), entry.unit(), entry.at(), entry.runId(), entry.runKind(), entry.action(), entry.reason(),
                        entry.input(), entry.published(), entry.contractVersion()));
        assertEquals(entry, entry.toBuilder().build());
        assertEquals("REFUSED", entry.toBuilder().action("REFUSED").build().action());
        assertEquals("HistoryEntry: runId is required", assertThrows(IllegalStateException.class,
                () -> entry.toBuilder().runId(null).build()).getMessage());
        assertEquals("HistoryEntry: action is required", assertThrows(IllegalStateException.class,
                () -> entry.toBuilder().action(null).build()).getMessage());
    }

    @Test
    void ledgerItem_checksDatasetUnitAndStatus_andCopiesKeepTheRest() {
        LedgerItem item = LedgerItem.builder("progress_events", "2026-03-02").status(LedgerStatus.REFUSED).input(input())
                .run("run-1", RunKind.INGEST).contractVersion(1).reason("SCHEMA").revision(2).build();
        assertEquals(item, item.toBuilder().build());
        assertEquals(5, item.withRevision(5).revision());
        assertEquals(item.input(), item.withRevision(5).input());
        assertEquals("LedgerItem: status is required", assertThrows(IllegalStateException.class,
                () -> LedgerItem.builder("progress_events", "2026-03-02").build()).getMessage());
        assertEquals("LedgerItem: unit is required", assertThrows(IllegalStateException.class,
                () -> LedgerItem.builder("progress_events", null).status(LedgerStatus.OMITTED).build()).getMessage());
    }
}
