package io.landingledger.lambda.adapters;

import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.IngestPath;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.InputRef;
import io.landingledger.core.ingest.NotSubmittedException;
import io.landingledger.lambda.S3EventJson;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvocationType;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;

import java.net.SocketTimeoutException;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The deployed sweep's re-drive: the S3 notification S3 would have sent, handed to the validator function with an
 * asynchronous invocation ({@code InvocationType=Event}). Lambda answers 202 as soon as it has queued the event and
 * runs the validator as it runs S3's own events: with the validator's EventInvokeConfig (its retries and its
 * on-failure destination) and its own timeout, however long the file takes. The sweep reports the re-drive
 * {@code submitted}; the next sweep reads the run's result from the ledger. The sweep's role needs only
 * {@code lambda:InvokeFunction} on the validator's alias, never a write to {@code published/} or the ledger.
 *
 * <p>One Invoke request per re-drive: the client comes without SDK retries
 * ({@link io.landingledger.lambda.DependencyFactory#redriveLambdaClient}), because a retried Event invoke whose first
 * attempt did reach Lambda would queue a second validation of the file. A request that fails (throttled, a server
 * error, no answer in time) is reported {@code not_submitted} with the reason and left to the next sweep.
 */
public final class LambdaIngestPath implements IngestPath {
    private final Function<String, String> submit;
    private final String region;

    /**
     * Invokes {@code functionName} (the validator's alias ARN) with the client {@code lambda} supplies, asked for at
     * the first re-drive: most sweeps re-drive nothing, so the sweep's init does not build it (a shorter cold start).
     */
    public LambdaIngestPath(Supplier<LambdaClient> lambda, String functionName, String region) {
        this(event -> submit(lambda.get(), functionName, event), region);
    }

    /**
     * With any hand-over of the S3 event JSON: {@code submit} queues it and returns where it went (for the report),
     * or throws {@link NotSubmittedException}. Tests queue it and later run the validator's handler on it.
     */
    public LambdaIngestPath(Function<String, String> submit, String region) {
        this.submit = submit;
        this.region = region;
    }

    /** The validator's handler logs and counts every record it runs: the sweep must not count a re-drive again. */
    @Override
    public boolean reportsOutcomes() {
        return true;
    }

    @Override
    public IngestOutcome ingest(IngestService.Request request) {
        InputRef input = request.input();
        String event = S3EventJson.of(List.of(new S3EventJson.Created(input.bucket(), input.key(), input.versionId(), input.etag(),
                input.size(), input.eventTime() == null ? Instant.now() : input.eventTime(), region, input.sequencer())));
        return IngestOutcome.submitted(request, submit.apply(event));
    }

    /** One Invoke request, Event type; its failure is a {@link NotSubmittedException}, never retried here. */
    static String submit(LambdaClient lambda, String functionName, String event) {
        InvokeResponse response;
        try {
            response = lambda.invoke(r -> r.functionName(functionName).invocationType(InvocationType.EVENT)
                    .payload(SdkBytes.fromUtf8String(event)));
        } catch (AwsServiceException e) {
            String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
            throw new NotSubmittedException("Lambda refused the Invoke of " + functionName + " (HTTP " + e.statusCode()
                    + (code == null ? "" : " " + code) + "): nothing was queued; the next sweep re-drives the unit", e);
        } catch (ApiCallTimeoutException | ApiCallAttemptTimeoutException e) {
            throw timedOut(functionName, e);
        } catch (SdkException e) {
            if (causedBy(e, SocketTimeoutException.class)) {
                throw timedOut(functionName, e);
            }
            throw new NotSubmittedException("the Invoke of " + functionName + " did not complete (" + e.getClass().getSimpleName()
                    + ": " + e.getMessage() + "); the next sweep re-drives the unit", e);
        }
        if (response.statusCode() != 202) {
            throw new NotSubmittedException("Lambda answered the Invoke of " + functionName + " with HTTP " + response.statusCode()
                    + ", not 202 Accepted; the next sweep re-drives the unit", null);
        }
        return "queued for " + functionName + " (Lambda request id " + response.responseMetadata().requestId() + ")";
    }

    private static NotSubmittedException timedOut(String functionName, SdkException e) {
        return new NotSubmittedException("no answer to the Invoke of " + functionName + " in time (" + e.getClass().getSimpleName()
                + ": " + e.getMessage() + "): the event may or may not be queued; not retried, the next sweep re-drives the unit "
                + "if it is still unprocessed", e);
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
