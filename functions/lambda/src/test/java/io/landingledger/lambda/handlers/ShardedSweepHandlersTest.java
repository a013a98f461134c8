package io.landingledger.lambda.handlers;

import io.landingledger.lambda.testing.Invocations;
import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.contract.ContractRegistry;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.LakeSweepChanges;
import io.landingledger.core.sweep.ShardBudget;
import io.landingledger.core.sweep.ShardTask;
import io.landingledger.core.sweep.ShardedSweep;
import io.landingledger.core.sweep.SweepLayout;
import io.landingledger.core.testing.InMemoryLedger;
import io.landingledger.core.testing.InMemoryObjectStore;
import io.landingledger.core.testing.ManualClock;
import io.landingledger.core.testing.TestContracts;
import io.landingledger.core.validate.ValidationLimits;
import io.landingledger.lambda.DatasetMetrics;
import io.landingledger.lambda.OutcomeReporter;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The planner and the worker as the deployed stack runs them, on in-memory ports: the planner's shards become SQS
 * messages, each message one worker invocation, and the last worker assembles the sweep (what the local stack's SQS
 * event source mapping does, in process).
 */
class ShardedSweepHandlersTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-10T12:00:00Z"));
    private final InMemoryObjectStore s3 = new InMemoryObjectStore(clock).createBucket("inbox", true).createBucket("lake", false);
    private final InMemoryLedger ledger = new InMemoryLedger();

    @Test
    void plannerShardsWorkersAndTheLastOneAssembles() throws Exception {
        ContractRegistry contracts = new ContractRegistry(Map.of("progress_events", TestContracts.progressEvents(),
                "transactions", TestContracts.transactions()));
        IngestService ingest = new IngestService(s3, ledger, "lake", clock, ValidationLimits.defaults(), IngestService.StepListener.NONE);
        CompletenessSweep sweep = new CompletenessSweep(s3, ledger, ingest, new UnitRouter(contracts), "inbox", "lake", clock, () -> "run-1");
        ShardedSweep sharded = new ShardedSweep(sweep, s3, "lake", new LakeSweepChanges(s3, "lake"), new ShardBudget(1, 10_000), contracts::get);
        ByteArrayOutputStream emf = new ByteArrayOutputStream();
        SweepMetrics metrics = new SweepMetrics(DatasetMetrics.to(new PrintStream(emf, true, StandardCharsets.UTF_8)));
        List<ShardTask> queue = new ArrayList<>();

        Map<String, Object> planned = Invocations.invoke(new SweepPlannerHandler(contracts, sharded, queue::addAll, metrics), Map.of("mode", "full"), null);
        assertEquals(2, planned.get("shards"));
        assertEquals(2, queue.size());

        SweepShardHandler worker = new SweepShardHandler(sharded, NO_REPORTER, metrics);
        for (ShardTask task : queue) {
            Invocations.invoke(worker, Map.of("Records", List.of(Map.of("body", io.landingledger.core.json.JsonCodec.writeString(task),
                    "attributes", Map.of("ApproximateReceiveCount", "1")))), null);
        }
        String sweepId = (String) planned.get("sweep_id");
        Map<String, Object> summary = JSON.std.mapFrom(s3.current("lake", SweepLayout.summaryKey(sweepId)).orElseThrow().body());
        assertEquals(true, summary.get("finished"), summary.toString());
        assertEquals(2, summary.get("datasets_swept"));
        assertTrue(s3.current("lake", SweepLayout.LATEST_KEY).isPresent());
        String documents = emf.toString(StandardCharsets.UTF_8);
        assertTrue(documents.contains("\"progress_events\"") && documents.contains("\"transactions\"") && documents.contains("_fleet"),
                "one EMF document per dataset and the fleet's: " + documents);

        // an hour later, nothing changed: the planner hands out nothing and assembles the empty sweep itself
        clock.advance(java.time.Duration.ofHours(1));
        queue.clear();
        Map<String, Object> quiet = Invocations.invoke(new SweepPlannerHandler(contracts, sharded, queue::addAll, metrics), Map.of(), null);
        assertEquals(0, quiet.get("shards"), quiet.toString());
        assertEquals(2, quiet.get("datasets_carried"));
        assertTrue(s3.current("lake", SweepLayout.summaryKey((String) quiet.get("sweep_id"))).isPresent());
    }

    private static final OutcomeReporter NO_REPORTER = new OutcomeReporter() {
        @Override
        public void outcome(IngestOutcome outcome) {
        }

        @Override
        public void unroutable(String bucket, String key, String versionId, String reason, String detail) {
        }

        @Override
        public void failed(String bucket, String key, String versionId, String runId, RuntimeException fault) {
        }
    };

}
