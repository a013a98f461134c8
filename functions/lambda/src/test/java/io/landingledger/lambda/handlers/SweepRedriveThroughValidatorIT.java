package io.landingledger.lambda.handlers;

import com.amazonaws.services.lambda.runtime.events.S3Event;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.UnitStatus;
import io.landingledger.lambda.DatasetMetrics;
import io.landingledger.lambda.OutcomeReporter;
import io.landingledger.lambda.adapters.LambdaIngestPath;
import io.landingledger.lambda.testing.AwsEmulators;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The deployed sweep re-drives a lost event through the validator function (LambdaIngestPath), not in process: the
 * S3 notification JSON goes in, the handler's JSON response comes out, exactly the payloads Lambda's Invoke carries.
 */
class SweepRedriveThroughValidatorIT {
    @RegisterExtension
    static final AwsEmulators EMULATORS = new AwsEmulators();
    private static final PojoSerializer<S3Event> EVENTS =
            LambdaEventSerializers.serializerFor(S3Event.class, SweepRedriveThroughValidatorIT.class.getClassLoader());

    private PipelineFixture pipeline;

    @BeforeEach
    void setUp() {
        pipeline = new PipelineFixture(EMULATORS);
    }

    @AfterEach
    void tearDown() {
        pipeline.close();
    }

    /**
     * Finding 9 of the ledger-truth issue: the validator function logs and counts every record it runs, and the
     * sweep's handler reported each re-drive's outcome again, so FilesPublished counted a re-drive twice.
     */
    @Test
    void sweepHandler_redriveThroughTheValidator_isReportedOnce_byTheValidator() throws Exception {
        pipeline.putExample("progress_events", "progress-2026-03-01.jsonl");
        CompletenessSweep sweep = throughValidator(new ArrayList<>());
        List<IngestOutcome> bySweepHandler = new ArrayList<>();
        OutcomeReporter sweepReporter = new OutcomeReporter() {
            @Override
            public void outcome(IngestOutcome outcome) {
                bySweepHandler.add(outcome);
            }

            @Override
            public void unroutable(String bucket, String key, String versionId, String reason, String detail) {
            }

            @Override
            public void failed(String bucket, String key, String versionId, String runId, RuntimeException fault) {
            }
        };
        ByteArrayOutputStream metrics = new ByteArrayOutputStream();
        new CompletenessSweepHandler(pipeline.contracts(), sweep, DatasetMetrics.to(new PrintStream(metrics, true, UTF_8)), sweepReporter)
                .handleRequest(Map.of("datasets", List.of("progress_events"), "from", "2026-03-01", "to", "2026-03-01"), null);

        assertEquals(1, pipeline.outcomes.size(), "the validator reported the re-drive's outcome");
        assertEquals(List.of(), bySweepHandler, "and the sweep's handler did not report it again");
    }

    private CompletenessSweep throughValidator(List<String> invocations) {
        ValidateObjectHandler validator = pipeline.handler();
        LambdaIngestPath path = new LambdaIngestPath(eventJson -> {
            invocations.add(eventJson);
            Map<String, Object> response = validator.handleRequest(EVENTS.fromJson(eventJson), null);
            try {
                return JSON.std.asString(response);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "us-east-1");
        return new CompletenessSweep(pipeline.store, pipeline.ledger, path, new UnitRouter(pipeline.contracts()), pipeline.inbox(),
                pipeline.lake(), Clock.systemUTC(), () -> UUID.randomUUID().toString());
    }

    @Test
    void sweep_withALostEvent_redrivesItThroughTheValidatorAndTheUnitIsOk() throws Exception {
        pipeline.putExample("progress_events", "progress-2026-03-01.jsonl"); // its S3 event was lost
        List<String> invocations = new ArrayList<>();
        CompletenessSweep sweep = throughValidator(invocations);

        DatasetReport report = sweep.sweep(pipeline.contracts().get("progress_events").orElseThrow(), "2026-03-01", "2026-03-01");

        assertEquals(1, invocations.size(), "one re-drive, through the validator");
        assertTrue(invocations.get(0).contains("\"eventName\":\"ObjectCreated:Put\""), invocations.get(0));
        assertEquals(1, report.redrives().size());
        assertEquals("published", report.redrives().get(0).action());
        assertEquals(UnitStatus.OK, report.units().get(0).status());
        assertEquals(LedgerStatus.PUBLISHED, pipeline.ledgerItem("progress_events", "2026-03-01").status());
        assertEquals(12, pipeline.ledgerItem("progress_events", "2026-03-01").published().accepted());
    }
}
