package io.landingledger.lambda;

import io.landingledger.core.ingest.DecisionNotices;
import io.landingledger.core.ingest.InputDecision;
import io.landingledger.lambda.DatasetMetrics.Metric;
import io.landingledger.lambda.adapters.EventBridgeDecisionEvents;
import io.landingledger.lambda.adapters.S3DecisionTags;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The producer hears each decision twice (docs/producers.md): an {@code InputDecision} event on the ledger bus and the
 * decision's tags on the input's version. Neither ever fails the decision: the file is published, refused or skipped
 * whatever happens here, and a Lambda retry would run it again for nothing. What could not be told is logged (the
 * decision, the key, the error's class and message: never content) and counted per dataset:
 * {@code DecisionEventsFailed}, {@code DecisionTagsFailed}, {@code DecisionTagsNoRoom} (the producer's own tags leave
 * no room for ours: S3's 10), emitted only when one of them is not 0: a custom metric costs per dataset and month, and
 * a healthy fleet has none of these. The event goes first: it reaches a producer even when the tagging fails.
 */
public final class ProducerNotices implements DecisionNotices {
    private static final Logger LOG = LogManager.getLogger(ProducerNotices.class);

    private final EventBridgeDecisionEvents events;
    private final S3DecisionTags tags;
    private final DatasetMetrics metrics;
    private final Clock clock;

    public ProducerNotices(EventBridgeDecisionEvents events, S3DecisionTags tags, DatasetMetrics metrics, Clock clock) {
        this.events = Objects.requireNonNull(events, "events");
        this.tags = Objects.requireNonNull(tags, "tags");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public void decided(InputDecision decision) {
        if (decision.decision() == InputDecision.Decision.SUSPECT_VOLUME && alreadyTold(decision)) {
            return; // every sweep passes a suspect unit; its producer hears it once (its version carries the tags)
        }
        boolean eventFailed = false;
        boolean tagFailed = false;
        boolean noRoom = false;
        try {
            events.put(decision, clock.instant());
        } catch (RuntimeException e) {
            eventFailed = true;
            warn("decision event not sent", decision, e);
        }
        try {
            noRoom = tags.tag(decision) == S3DecisionTags.Result.NO_ROOM;
            if (noRoom) {
                LOG.warn(new JsonLine("decision tags not written", fields(decision, "the version holds too many tags of "
                        + "its producer's for ours (S3 allows 10)")));
            }
        } catch (RuntimeException e) {
            tagFailed = true;
            warn("decision tags not written", decision, e);
        }
        if (!eventFailed && !tagFailed && !noRoom) {
            return;
        }
        Map<String, Metric> counts = new LinkedHashMap<>();
        counts.put("DecisionEventsFailed", Metric.count(eventFailed ? 1 : 0));
        counts.put("DecisionTagsFailed", Metric.count(tagFailed ? 1 : 0));
        counts.put("DecisionTagsNoRoom", Metric.count(noRoom ? 1 : 0));
        try {
            metrics.emit(decision.dataset() == null || decision.decision() == InputDecision.Decision.UNROUTABLE
                    ? DatasetMetrics.UNROUTABLE : decision.dataset(), counts);
        } catch (RuntimeException e) {
            warn("metrics not emitted", decision, e);
        }
    }

    /** The version already carries this decision of this run; a fault reading its tags is told again, not skipped. */
    private boolean alreadyTold(InputDecision decision) {
        try {
            return tags.carries(decision);
        } catch (RuntimeException e) {
            warn("decision tags not read", decision, e);
            return false;
        }
    }

    private static void warn(String message, InputDecision decision, RuntimeException e) {
        Map<String, Object> fields = fields(decision, null);
        fields.put("error", e.getClass().getName());
        fields.put("error_message", String.valueOf(e.getMessage()));
        LOG.warn(new JsonLine(message, fields));
    }

    private static Map<String, Object> fields(InputDecision decision, String detail) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("decision", decision.decision().wireName());
        fields.put("dataset", decision.dataset());
        fields.put("key", decision.key());
        fields.put("version", decision.versionId());
        fields.put("run_id", decision.runId());
        if (detail != null) {
            fields.put("detail", detail);
        }
        return fields;
    }
}
