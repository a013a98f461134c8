package io.landingledger.lambda.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.S3Event;
import com.amazonaws.services.lambda.runtime.events.models.s3.S3EventNotification.S3EventNotificationRecord;
import com.amazonaws.services.lambda.runtime.events.models.s3.S3EventNotification.S3ObjectEntity;

import io.landingledger.core.ingest.BatchFailures;
import io.landingledger.core.ingest.Deadline;
import io.landingledger.core.ingest.DecisionNotices;
import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.InputDecision;
import io.landingledger.core.ingest.InputRef;
import io.landingledger.core.ingest.UnitRouter;
import io.landingledger.lambda.DependencyFactory;
import io.landingledger.lambda.LambdaDeadline;
import io.landingledger.lambda.OutcomeReporter;
import io.landingledger.lambda.RecordResult;

import java.time.Instant;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The S3 ObjectCreated trigger: each record of the event becomes exactly one published unit, a recorded refusal,
 * a skip, or an unroutable report. Maps the event in, calls the core's {@link IngestService}, maps the result out.
 *
 * <p>Every record is processed even when an earlier one failed; if any failed with an infrastructure fault the
 * invocation then fails, so Lambda retries the event (records already done are skipped on the retry) and the
 * on-failure destination sees it after the retries.
 */
public final class ValidateObjectHandler extends TypedHandler<S3Event, ValidateObjectHandler.Response> {
    private final UnitRouter router;
    private final IngestService ingest;
    private final OutcomeReporter reporter;
    private final Supplier<String> runIds;
    private final DecisionNotices notices;

    /** Used by the Lambda runtime: clients, contracts and the service are built once, at init. */
    public ValidateObjectHandler() {
        this(System.getenv(), System.out);
    }

    /**
     * The function's init from its environment and its log stream: Lambda's runtime passes the process's, and the
     * local cloud the function's own through {@link FunctionHandlers} (one JVM runs every function there).
     */
    ValidateObjectHandler(Map<String, String> environment, PrintStream stdout) {
        this(DependencyFactory.forFunction(environment, stdout));
    }

    private ValidateObjectHandler(DependencyFactory dependencies) {
        this(dependencies.router(), dependencies.ingestService(), dependencies.reporter(), () -> UUID.randomUUID().toString(),
                dependencies.decisionNotices());
    }

    /** For tests and the local run: nobody hears the decisions but the reporter. */
    public ValidateObjectHandler(UnitRouter router, IngestService ingest, OutcomeReporter reporter, Supplier<String> runIds) {
        this(router, ingest, reporter, runIds, DecisionNotices.NONE);
    }

    /** As the function is wired: each decision about an input is also told to its producer through {@code notices}. */
    public ValidateObjectHandler(UnitRouter router, IngestService ingest, OutcomeReporter reporter, Supplier<String> runIds,
                                 DecisionNotices notices) {
        super(S3Event.class);
        this.router = router;
        this.ingest = ingest;
        this.reporter = reporter;
        this.runIds = runIds;
        this.notices = notices;
    }

    /** The answer: one entry per record of the event, in order ({@link RecordResult#response()}). */
    public record Response(List<Map<String, Object>> records) {
    }

    @Override
    public Response handle(S3Event event, Context context) {
        List<Map<String, Object>> results = new ArrayList<>();
        BatchFailures failures = new BatchFailures();
        Deadline deadline = LambdaDeadline.of(context); // a record that cannot finish in time stops between steps, failed
        List<S3EventNotificationRecord> records = event == null || event.getRecords() == null ? List.of() : event.getRecords();
        for (S3EventNotificationRecord record : records) {
            S3ObjectEntity object = record.getS3() == null ? null : record.getS3().getObject();
            String bucket = record.getS3() == null || record.getS3().getBucket() == null ? null : record.getS3().getBucket().getName();
            String versionId = object == null ? null : object.getVersionId();
            String rawKey = object == null ? null : object.getKey();
            if (bucket == null || bucket.isEmpty() || rawKey == null || rawKey.isEmpty()) {
                // S3 names both in every record; a record without them is answered, never retried, and hides no other record
                results.add(report(new RecordResult.Unroutable(bucket, rawKey, versionId, "MALFORMED_RECORD",
                        "the record names no bucket or no object key (s3.bucket.name, s3.object.key): not a notification S3 sends")));
                continue;
            }
            String key;
            try {
                key = object.getUrlDecodedKey(); // decoded once, here: S3 sends keys URL-encoded ('+' is a space)
            } catch (IllegalArgumentException notEncoded) {
                results.add(report(new RecordResult.Unroutable(bucket, rawKey, versionId, "MALFORMED_RECORD",
                        "the key is not URL-encoded as S3 encodes keys in notifications (a % not followed by two hex digits)")));
                continue;
            }
            if (record.getEventName() == null || !record.getEventName().startsWith("ObjectCreated:")) {
                results.add(report(new RecordResult.Unroutable(bucket, key, versionId, "NOT_A_CREATE_EVENT",
                        "only ObjectCreated events are ingested")));
                continue;
            }
            String runId = runIds.get(); // per run, never at init: SnapStart would share it
            UnitRouter.Route route;
            try {
                // reads the dataset's contract: a store fault, or a version refused as tampered (CONTRACT_TAMPERED),
                // fails this record like any other infrastructure fault, and the records after it still run
                route = router.route(key);
            } catch (RuntimeException e) {
                results.add(report(new RecordResult.Failed(bucket, key, versionId, runId, e)));
                failures.add(e);
                continue;
            }
            if (route instanceof UnitRouter.Unroutable unroutable) {
                results.add(report(new RecordResult.Unroutable(bucket, key, versionId, unroutable.reason(), unroutable.detail())));
                continue;
            }
            UnitRouter.Routed routed = (UnitRouter.Routed) route;
            InputRef input = new InputRef(bucket, key, versionId, object.geteTag(),
                    object.getSizeAsLong() == null ? -1 : object.getSizeAsLong(), object.getSequencer(), eventTime(record));
            try {
                IngestOutcome outcome = ingest.ingest(IngestService.Request.event(routed.contract(), routed.unit(), input, runId, deadline));
                results.add(report(new RecordResult.Ingested(outcome)));
                InputDecision.of(outcome, bucket).ifPresent(notices::decided);
            } catch (RuntimeException e) {
                results.add(report(new RecordResult.Failed(bucket, key, versionId, runId, e)));
                failures.add(e);
            }
        }
        failures.throwIfAny();
        return new Response(results);
    }

    /** Reports the result; an unroutable record is also a decision its producer hears. */
    private Map<String, Object> report(RecordResult result) {
        reporter.report(result);
        if (result instanceof RecordResult.Unroutable u) {
            notices.decided(InputDecision.unroutable(u.bucket(), u.key(), u.versionId(), u.reason()));
        }
        return result.response();
    }

    private static Instant eventTime(S3EventNotificationRecord record) {
        return record.getEventTime() == null ? null : Instant.ofEpochMilli(record.getEventTime().getMillis());
    }
}
