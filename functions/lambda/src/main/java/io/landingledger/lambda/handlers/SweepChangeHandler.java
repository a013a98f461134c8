package io.landingledger.lambda.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.sweep.LakeSweepChanges;
import io.landingledger.core.sweep.SweepChanges;
import io.landingledger.lambda.DependencyFactory;

import java.time.Clock;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Records which datasets changed, for the incremental sweep ({@link SweepChanges}, docs/design.md section 5). Two
 * triggers, neither the validator's invocation (so a lost invocation still leaves a record):
 * <ul>
 *   <li>the Ledger table's stream (event source mapping): every ledger write, {@code Records[].dynamodb.Keys.dataset};</li>
 *   <li>the buckets' S3 notifications through EventBridge (a rule): an inbox version created or deleted, an object
 *       deleted under {@code published/}: {@code detail.object.key}, whose first segment (inbox) or second
 *       ({@code published/<dataset>/...}) is the dataset.</li>
 * </ul>
 * One marker PUT per dataset in the event. Names only: never an item's or object's content.
 */
public final class SweepChangeHandler extends TypedHandler<SweepChangeHandler.ChangeEvent, SweepChangeHandler.Recorded> {
    private final SweepChanges changes;
    private final Clock clock;

    /** Used by the Lambda runtime. */
    public SweepChangeHandler() {
        this(System.getenv(), System.out);
    }

    /**
     * The function's init from its environment and its log stream: Lambda's runtime passes the process's, and the
     * local cloud the function's own through {@link FunctionHandlers} (one JVM runs every function there).
     */
    SweepChangeHandler(Map<String, String> environment, PrintStream stdout) {
        this(DependencyFactory.forFunction(environment, stdout));
    }

    private SweepChangeHandler(DependencyFactory dependencies) {
        this(new LakeSweepChanges(dependencies.objectStore(), dependencies.config().lakeBucket()), Clock.systemUTC());
    }

    /** For tests and the local stack. */
    public SweepChangeHandler(SweepChanges changes, Clock clock) {
        super(ChangeEvent.class);
        this.changes = Objects.requireNonNull(changes, "changes");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Recorded handle(ChangeEvent event, Context context) {
        Set<String> datasets = datasets(event);
        for (String dataset : datasets) {
            changes.record(dataset, clock.instant());
        }
        return new Recorded(List.copyOf(datasets));
    }

    /** The answer: the datasets whose change was recorded. */
    public record Recorded(List<String> recorded) {
    }

    /**
     * The two triggers' events, of which the handler reads names only: a stream batch's {@code Records[].dynamodb.Keys}
     * or an S3 notification's {@code detail.object.key}. AWS adds fields to both: the rest is ignored.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ChangeEvent(@JsonProperty("Records") List<StreamRecord> records, Detail detail) {
        @JsonIgnoreProperties(ignoreUnknown = true)
        public record StreamRecord(Stream dynamodb) {
        }

        @JsonIgnoreProperties(ignoreUnknown = true)
        public record Stream(@JsonProperty("Keys") Map<String, Map<String, Object>> keys) {
        }

        @JsonIgnoreProperties(ignoreUnknown = true)
        public record Detail(S3Object object) {
        }

        @JsonIgnoreProperties(ignoreUnknown = true)
        public record S3Object(String key) {
        }
    }

    /** The datasets an event names: a stream batch's, or one S3 notification's. */
    static Set<String> datasets(ChangeEvent event) {
        Set<String> datasets = new TreeSet<>();
        if (event == null) {
            return datasets;
        }
        if (event.records() != null) {
            for (ChangeEvent.StreamRecord r : event.records()) {
                Map<String, Map<String, Object>> keys = r == null || r.dynamodb() == null ? null : r.dynamodb().keys();
                if (keys != null && keys.get("dataset") != null && keys.get("dataset").get("S") instanceof String name) {
                    datasets.add(name);
                }
            }
            return datasets;
        }
        if (event.detail() != null && event.detail().object() != null && event.detail().object().key() != null) {
            String decoded = java.net.URLDecoder.decode(event.detail().object().key(), java.nio.charset.StandardCharsets.UTF_8);
            String[] parts = decoded.split("/");
            String dataset = decoded.startsWith(LakeLayout.PUBLISHED_PREFIX) && parts.length > 2 ? parts[1] : parts[0];
            if (!dataset.isEmpty() && !dataset.startsWith("_") && parts.length > 1) {
                datasets.add(dataset);
            }
        }
        return datasets;
    }
}
