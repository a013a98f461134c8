package io.landingledger.lambda.testing;

import io.landingledger.core.ingest.IngestOutcome;
import io.landingledger.lambda.OutcomeReporter;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** An {@link OutcomeReporter} that keeps what it is told, for a test to read; handlers may report from any thread. */
public final class RecordingReporter implements OutcomeReporter {
    public final List<IngestOutcome> outcomes = Collections.synchronizedList(new ArrayList<>());
    /** The reasons of the records reported unroutable. */
    public final List<String> unroutable = Collections.synchronizedList(new ArrayList<>());
    /** Records reported failed: {@code <key> <fault's simple class name>}. */
    public final List<String> failed = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void outcome(IngestOutcome outcome) {
        outcomes.add(outcome);
    }

    @Override
    public void unroutable(String bucket, String key, String versionId, String reason, String detail) {
        unroutable.add(reason);
    }

    @Override
    public void failed(String bucket, String key, String versionId, String runId, RuntimeException fault) {
        failed.add(key + " " + fault.getClass().getSimpleName());
    }
}
