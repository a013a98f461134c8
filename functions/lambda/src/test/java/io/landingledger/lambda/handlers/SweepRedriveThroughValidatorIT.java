package io.landingledger.lambda.handlers;

import io.landingledger.lambda.testing.Invocations;
import com.amazonaws.services.lambda.runtime.events.S3Event;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.NotSubmittedException;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.core.sweep.DatasetReport;
import io.landingledger.core.sweep.Redrive;
import io.landingledger.core.sweep.UnitStatus;
import io.landingledger.lambda.DatasetMetrics;
import io.landingledger.lambda.adapters.LambdaIngestPath;
import io.landingledger.lambda.testing.AwsEmulators;
import io.landingledger.lambda.testing.PipelineFixture;
import io.landingledger.lambda.testing.RecordingReporter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The deployed sweep re-drives a lost event through the validator function (LambdaIngestPath), not in process, and
 * asynchronously: the S3 notification JSON is handed over (as Lambda's Event invoke queues it) and the sweep reports
 * the re-drive {@code submitted}; the validator's handler runs the queued event later, and the next sweep reads the
 * result from the ledger. (The Invoke request itself, against a stub Lambda endpoint: SweepRedriveInvokeIT.)
 */
@ExtendWith(AwsEmulators.class)
class SweepRedriveThroughValidatorIT {
    private static final PojoSerializer<S3Event> EVENTS =
            LambdaEventSerializers.serializerFor(S3Event.class, SweepRedriveThroughValidatorIT.class.getClassLoader());

    private final PipelineFixture pipeline;
    /** The events handed to the validator and not yet run: Lambda's queue for asynchronous invocations. */
    private final List<String> queued = new ArrayList<>();
    /** Every hand-over, run or not. */
    private final List<String> invocations = new ArrayList<>();

    SweepRedriveThroughValidatorIT(PipelineFixture pipeline) {
        this.pipeline = pipeline;
    }

    /**
     * Finding 9 of the ledger-truth issue: the validator function logs and counts every record it runs, and the
     * sweep's handler reported each re-drive's outcome again, so FilesPublished counted a re-drive twice.
     */
    @Test
    void sweepHandler_redriveThroughTheValidator_isReportedOnce_byTheValidator() throws Exception {
        pipeline.putExample("progress_events", "progress-2026-03-01.jsonl");
        CompletenessSweep sweep = throughValidator();
        RecordingReporter sweepReporter = new RecordingReporter();
        List<IngestOutcome> bySweepHandler = sweepReporter.outcomes;
        ByteArrayOutputStream metrics = new ByteArrayOutputStream();
        CompletenessSweepHandler handler = new CompletenessSweepHandler(pipeline.contracts(), sweep,
                DatasetMetrics.to(new PrintStream(metrics, true, UTF_8)), sweepReporter);
        Map<String, Object> payload = Map.of("datasets", List.of("progress_events"), "from", "2026-03-01", "to", "2026-03-01");

        Map<String, Object> first = Invocations.invoke(handler, payload, null);
        assertEquals(false, first.get("complete"), "submitted, not run yet: " + first);
        assertEquals(List.of(), pipeline.outcomes, "the validator has not run the queued event yet");
        runQueued();
        Map<String, Object> second = Invocations.invoke(handler, payload, null);

        assertEquals(true, second.get("complete"), "the next sweep reads the run's result from the ledger: " + second);
        assertEquals(1, pipeline.outcomes.size(), "the validator reported the re-drive's outcome");
        assertEquals(List.of(), bySweepHandler, "and the sweep's handler did not report it again");
        assertEquals(1, invocations.size(), "one hand-over in all: the second sweep found nothing to re-drive");
    }

    private CompletenessSweep throughValidator() {
        return throughValidator(eventJson -> {
            invocations.add(eventJson);
            queued.add(eventJson);
            return "queued (test) #" + invocations.size();
        });
    }

    private CompletenessSweep throughValidator(java.util.function.Function<String, String> submit) {
        LambdaIngestPath path = new LambdaIngestPath(submit, "us-east-1");
        return new CompletenessSweep(pipeline.store, pipeline.ledger, path, new UnitRouter(pipeline.contracts()), pipeline.inbox(),
                pipeline.lake(), Clock.systemUTC(), () -> UUID.randomUUID().toString());
    }

    /** Lambda runs the queued asynchronous invocations: the validator's handler on each event, as deserialized there. */
    private void runQueued() {
        ValidateObjectHandler validator = pipeline.handler();
        for (String eventJson : queued) {
            Map<String, Object> response = Invocations.invoke(validator, EVENTS.fromJson(eventJson), null);
            try {
                assertTrue(JSON.std.asString(response).contains("\"action\":\"published\""), String.valueOf(response));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        queued.clear();
    }

    @Test
    void sweep_withALostEvent_submitsItToTheValidator_andTheNextSweepFindsTheUnitOk() throws Exception {
        pipeline.putExample("progress_events", "progress-2026-03-01.jsonl"); // its S3 event was lost
        CompletenessSweep sweep = throughValidator();
        var contract = pipeline.contracts().get("progress_events").orElseThrow();

        DatasetReport report = sweep.sweep(contract, "2026-03-01", "2026-03-01");

        assertEquals(1, invocations.size(), "one re-drive, handed to the validator");
        assertTrue(invocations.get(0).contains("\"eventName\":\"ObjectCreated:Put\""), invocations.get(0));
        assertEquals(1, report.redrives().size());
        Redrive redrive = report.redrives().get(0);
        assertEquals(Redrive.SUBMITTED, redrive.action());
        assertEquals("queued (test) #1", redrive.detail());
        assertNull(redrive.runId(), "the validator's run takes a run id of its own");
        assertNull(redrive.outcome(), "nothing ran in the sweep");
        assertEquals(UnitStatus.UNPROCESSED, redrive.statusBefore());
        assertEquals(UnitStatus.UNPROCESSED, redrive.statusAfter(), "classified again at once: the run has not happened yet");
        assertTrue(pipeline.ledger.get("progress_events", "2026-03-01").isEmpty(), "the sweep wrote no ledger item");

        runQueued();
        DatasetReport next = sweep.sweep(contract, "2026-03-01", "2026-03-01");

        assertEquals(List.of(), next.redrives(), "the next sweep reads the outcome from the ledger: nothing to re-drive");
        assertEquals(UnitStatus.OK, next.units().get(0).status());
        assertEquals(LedgerStatus.PUBLISHED, pipeline.ledgerItem("progress_events", "2026-03-01").status());
        assertEquals(12, pipeline.ledgerItem("progress_events", "2026-03-01").published().accepted());
        assertEquals(1, invocations.size());
    }

    @Test
    void sweep_whoseHandOverFails_reportsNotSubmittedWithTheReason_andTheNextSweepSubmitsIt() throws Exception {
        pipeline.putExample("progress_events", "progress-2026-03-01.jsonl");
        var contract = pipeline.contracts().get("progress_events").orElseThrow();
        List<String> refused = new ArrayList<>();
        CompletenessSweep throttled = throughValidator(eventJson -> {
            refused.add(eventJson);
            throw new NotSubmittedException("Lambda refused the Invoke (HTTP 429 TooManyRequestsException)", null);
        });

        DatasetReport report = throttled.sweep(contract, "2026-03-01", "2026-03-01");

        assertEquals(1, refused.size(), "one hand-over, not retried in the sweep");
        Redrive redrive = report.redrives().get(0);
        assertEquals(Redrive.NOT_SUBMITTED, redrive.action());
        assertEquals("Lambda refused the Invoke (HTTP 429 TooManyRequestsException)", redrive.detail());
        assertEquals(UnitStatus.UNPROCESSED, report.units().get(0).status());
        assertEquals(Redrive.NOT_SUBMITTED, ((Map<?, ?>) ((List<?>) report.toMap().get("redrives")).get(0)).get("action"),
                "the JSON report says so");

        DatasetReport next = throughValidator().sweep(contract, "2026-03-01", "2026-03-01");
        assertEquals(List.of(Redrive.SUBMITTED), next.redrives().stream().map(Redrive::action).toList(), "left to the next sweep");
        runQueued();
        assertEquals(LedgerStatus.PUBLISHED, pipeline.ledgerItem("progress_events", "2026-03-01").status());
    }
}
