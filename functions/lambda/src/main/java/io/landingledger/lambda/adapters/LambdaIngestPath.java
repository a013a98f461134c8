package io.landingledger.lambda.adapters;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.core.ingest.IngestPath;
import io.landingledger.core.ingest.IngestService;
import io.landingledger.core.ingest.InputRef;
import io.landingledger.lambda.S3EventJson;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvocationType;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The ingest path run by the validator function itself: the sweep's re-drive sends it the S3 notification S3 would
 * have sent (RequestResponse, so the sweep reports the outcome). The sweep's role then needs only
 * {@code lambda:InvokeFunction} on the validator's alias, never a write to {@code published/} or the ledger.
 */
public final class LambdaIngestPath implements IngestPath {
    private final Function<String, String> invoke;
    private final String region;

    /**
     * Invokes {@code functionName} (the validator's alias ARN) with the client {@code lambda} supplies, asked for at
     * the first re-drive: most sweeps re-drive nothing, so the sweep's init does not build it (cold start, issue 6).
     */
    public LambdaIngestPath(Supplier<LambdaClient> lambda, String functionName, String region) {
        this(payload -> {
            InvokeResponse response = lambda.get().invoke(r -> r.functionName(functionName).invocationType(InvocationType.REQUEST_RESPONSE)
                    .payload(SdkBytes.fromUtf8String(payload)));
            if (response.functionError() != null) {
                // the validator failed (an infrastructure fault after its retries): the re-drive is reported as failed
                throw new IllegalStateException("the validator function failed (" + response.functionError() + ")");
            }
            return response.payload().asUtf8String();
        }, region);
    }

    /** With any transport from the S3 event JSON to the handler's JSON response (tests call the handler in process). */
    public LambdaIngestPath(Function<String, String> invoke, String region) {
        this.invoke = invoke;
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
        Map<String, Object> response;
        try {
            response = JSON.std.mapFrom(invoke.apply(event));
        } catch (IOException e) {
            throw new UncheckedIOException("the validator's response is not JSON", e);
        }
        Object records = response.get("records");
        if (!(records instanceof List<?> list) || list.size() != 1 || !(list.get(0) instanceof Map<?, ?> record)) {
            throw new IllegalStateException("the validator's response has no single record: " + response.keySet());
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> outcome = (Map<String, Object>) record;
        if ("unroutable".equals(outcome.get("action"))) {
            throw new IllegalStateException("the validator could not route " + input.key() + ": " + outcome.get("reason"));
        }
        return IngestOutcome.fromMap(outcome);
    }
}
