package io.landingledger.lambda.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;

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
public final class SweepChangeHandler implements RequestHandler<Map<String, Object>, Map<String, Object>> {
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
        this.changes = Objects.requireNonNull(changes, "changes");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Map<String, Object> handleRequest(Map<String, Object> event, Context context) {
        Set<String> datasets = datasets(event);
        for (String dataset : datasets) {
            changes.record(dataset, clock.instant());
        }
        return Map.of("recorded", List.copyOf(datasets));
    }

    /** The datasets an event names: a stream batch's, or one S3 notification's. */
    @SuppressWarnings("unchecked")
    static Set<String> datasets(Map<String, Object> event) {
        Set<String> datasets = new TreeSet<>();
        Object records = event.get("Records");
        if (records instanceof List<?> list) {
            for (Object r : list) {
                Object keys = ((Map<String, Object>) ((Map<String, Object>) r).getOrDefault("dynamodb", Map.of())).get("Keys");
                if (keys instanceof Map<?, ?> k && k.get("dataset") instanceof Map<?, ?> attribute && attribute.get("S") instanceof String name) {
                    datasets.add(name);
                }
            }
            return datasets;
        }
        Object detail = event.get("detail");
        if (detail instanceof Map<?, ?> d && d.get("object") instanceof Map<?, ?> object && object.get("key") instanceof String key) {
            String decoded = java.net.URLDecoder.decode(key, java.nio.charset.StandardCharsets.UTF_8);
            String[] parts = decoded.split("/");
            String dataset = decoded.startsWith(LakeLayout.PUBLISHED_PREFIX) && parts.length > 2 ? parts[1] : parts[0];
            if (!dataset.isEmpty() && !dataset.startsWith("_") && parts.length > 1) {
                datasets.add(dataset);
            }
        }
        return datasets;
    }
}
