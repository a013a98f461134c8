package io.landingledger.core.sweep;

import io.landingledger.core.json.JsonCodec;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sharded sweep's stored documents ({@code _sweep/} and {@code _reports/sweeps/}) through JsonCodec: the ones
 * the hand-written codecs wrote before (snake_case names, nulls written, derived fields) still read, and what is
 * written now reads back equal, with the same names.
 */
class SweepDocumentsTest {
    private static final String PLAN = """
            {"sweep_id":"s-1","as_of":"2026-12-01T00:00:00Z","mode":"incremental","from":null,"to":null,
             "changes_listed_at":"2026-11-30T23:00:00Z","carried":3,"reasons":{"b":"CHANGED","a":"NEW"},
             "shards":[{"index":0,"datasets":["a","b"],"estimated_units":62}],"requested":["a","b","c"]}""";
    private static final String SHARD = """
            {"sweep_id":"s-1","index":0,"started_at":"2026-12-01T00:00:01Z","finished_at":"2026-12-01T00:00:09Z","attempt":2,
             "finished":false,"swept":[{"dataset":"a","as_of":"2026-12-01T00:00:00Z","sweep_id":"s-1","complete":true,
             "actionable":false,"range_from":"2026-11-01","range_to":"2026-11-30","metrics":{"UnitsExpected":30,"UnitsOk":30,
             "OldestUnpublishedAgeSeconds":{"seconds":0}},"reports":{"latest":"_reports/completeness/a/latest.json"},
             "next_deadline":null}],"unswept":[{"dataset":"b","reason":"FAILED","error":null}]}""";
    private static final String STATE = """
            {"last_sweep_id":"s-1","last_as_of":"2026-12-01T00:00:00Z","changes_cursor":"2026-11-30T23:00:00Z",
             "last_full_as_of":null,"datasets":{"b":{"dataset":"b","as_of":null,"sweep_id":"s-1","complete":false,
             "actionable":false,"range_from":null,"range_to":null,"metrics":{},"reports":null,"pending":true,"next_deadline":null}}}""";

    @Test
    void thePlan_asWrittenBefore_readsAndIsWrittenWithTheSameNames() {
        SweepPlan plan = JsonCodec.read(PLAN, SweepPlan.class);
        assertEquals(SweepMode.INCREMENTAL, plan.mode());
        assertEquals(Instant.parse("2026-11-30T23:00:00Z"), plan.changesListedAt());
        assertEquals(List.of(new SweepShard(0, List.of("a", "b"), 62)), plan.shards());
        assertEquals(3, plan.carried());
        Map<String, Object> written = JsonCodec.readMap(JsonCodec.writeString(plan));
        assertEquals(List.of("sweep_id", "as_of", "mode", "changes_listed_at", "carried", "reasons", "shards", "requested"),
                List.copyOf(written.keySet()));
        assertEquals("incremental", written.get("mode"));
        assertEquals(List.of("a", "b"), List.copyOf(((Map<?, ?>) written.get("reasons")).keySet()), "reasons in name order");
        assertEquals(plan, JsonCodec.read(JsonCodec.writeString(plan), SweepPlan.class));
    }

    @Test
    void aShardResult_asWrittenBefore_readsWithItsFigures() {
        ShardResult result = JsonCodec.read(SHARD, ShardResult.class);
        assertEquals(2, result.attempt());
        assertTrue(!result.finished());
        DatasetFigures figures = result.swept().get(0);
        assertEquals(DatasetReport.Metric.seconds(0), figures.metrics().get("OldestUnpublishedAgeSeconds"));
        assertEquals(DatasetReport.Metric.count(30), figures.metrics().get("UnitsOk"));
        assertNull(figures.nextDeadline());
        assertEquals(new ShardResult.Unswept("b", "FAILED", null), result.unswept().get(0));
        Map<String, Object> written = JsonCodec.readMap(JsonCodec.writeString(result));
        assertEquals(false, written.get("finished"));
        Map<?, ?> metrics = (Map<?, ?>) ((Map<?, ?>) ((List<?>) written.get("swept")).get(0)).get("metrics");
        assertEquals(List.of("UnitsExpected", "UnitsOk", "OldestUnpublishedAgeSeconds"), List.copyOf(metrics.keySet()));
        assertEquals(Map.of("seconds", 0), metrics.get("OldestUnpublishedAgeSeconds"));
        assertEquals(result, JsonCodec.read(JsonCodec.writeString(result), ShardResult.class));
    }

    @Test
    void theState_asWrittenBefore_readsAndRoundTrips() {
        SweepState state = JsonCodec.read(STATE, SweepState.class);
        assertNull(state.lastFullAsOf());
        assertTrue(state.datasets().get("b").pending());
        assertEquals(state, JsonCodec.read(JsonCodec.writeString(state), SweepState.class));
        DatasetFigures notPending = new DatasetFigures("a", null, "s", true, false, null, null, Map.of(), null, false, null);
        assertTrue(!JsonCodec.writeString(notPending).contains("pending"), "pending is written only when true");
    }
}
