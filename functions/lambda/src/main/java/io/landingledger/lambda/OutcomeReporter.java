package io.landingledger.lambda;

import io.landingledger.core.ingest.IngestOutcome;

/**
 * Where each record's outcome goes besides the handler's response: one structured log line and the dataset's
 * metrics. Carries names, hashes, counts and codes only, never row content.
 */
public interface OutcomeReporter {

    /** A routed record finished (published, skipped, refused, finished, stale). */
    void outcome(IngestOutcome outcome);

    /** A record that routes to no dataset or unit: logged and counted, never retried, never published. */
    void unroutable(String bucket, String key, String versionId, String reason, String detail);

    /** A record failed with an infrastructure fault; the invocation will fail so Lambda retries it. */
    void failed(String bucket, String key, String versionId, String runId, RuntimeException fault);

    /** Reports one record's result by its kind: {@link #outcome}, {@link #unroutable} or {@link #failed}. */
    default void report(RecordResult result) {
        switch (result) {
            case RecordResult.Ingested ingested -> outcome(ingested.outcome());
            case RecordResult.Unroutable u -> unroutable(u.bucket(), u.key(), u.versionId(), u.reason(), u.detail());
            case RecordResult.Failed f -> failed(f.bucket(), f.key(), f.versionId(), f.runId(), f.fault());
        }
    }
}
