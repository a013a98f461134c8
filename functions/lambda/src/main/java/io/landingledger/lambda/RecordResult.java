package io.landingledger.lambda;

import io.landingledger.core.contract.ContractTamperedException;
import io.landingledger.core.ingest.IngestOutcome;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What became of one S3 event record in the validator: ingested (any {@link IngestOutcome}), unroutable, or failed
 * with an infrastructure fault. One type for both of its readers: the handler's response ({@link #response()}) and
 * the reporter's log line ({@link #logFields()}); {@link OutcomeReporter#report(RecordResult)} reports it.
 */
public sealed interface RecordResult {

    /** The record's entry in the handler's {@code records} response. */
    Map<String, Object> response();

    /** The fields of the record's structured log line. */
    Map<String, Object> logFields();

    /** A routed record that ran the ingest path to an outcome (published, skipped, refused, finished, stale...). */
    record Ingested(IngestOutcome outcome) implements RecordResult {
        @Override
        public Map<String, Object> response() {
            return outcome.fields();
        }

        @Override
        public Map<String, Object> logFields() {
            return outcome.fields();
        }
    }

    /** A record that routes to no dataset or unit (or is no create event): never retried, never published. */
    record Unroutable(String bucket, String key, String versionId, String reason, String detail) implements RecordResult {
        @Override
        public Map<String, Object> response() {
            return fields(false);
        }

        @Override
        public Map<String, Object> logFields() {
            return fields(true);
        }

        private Map<String, Object> fields(boolean withBucket) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("action", "unroutable");
            if (withBucket) {
                fields.put("bucket", bucket);
            }
            fields.put("key", key);
            fields.put("version", versionId);
            fields.put("reason", reason);
            fields.put("detail", detail);
            return fields;
        }
    }

    /**
     * A record whose run failed with an infrastructure fault; the invocation fails so Lambda retries it. The response
     * names the fault's simple class name, the log line its full name and message (no stack trace: the handler
     * rethrows the fault and the Lambda runtime logs it with its trace).
     */
    record Failed(String bucket, String key, String versionId, String runId, RuntimeException fault) implements RecordResult {
        @Override
        public Map<String, Object> response() {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("action", "failed");
            fields.put("key", key);
            fields.put("version", versionId);
            fields.put("run_id", runId);
            fields.put("error", fault.getClass().getSimpleName());
            if (fault instanceof ContractTamperedException refused) {
                fields.put("code", refused.code()); // which dataset and version: the log line's error_message
            }
            return fields;
        }

        @Override
        public Map<String, Object> logFields() {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("action", "failed");
            fields.put("bucket", bucket);
            fields.put("key", key);
            fields.put("version", versionId);
            fields.put("run_id", runId);
            fields.put("error", fault.getClass().getName());
            if (fault instanceof ContractTamperedException refused) {
                fields.put("code", refused.code());
            }
            fields.put("error_message", String.valueOf(fault.getMessage()));
            return fields;
        }
    }
}
