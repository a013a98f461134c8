package io.landingledger.lambda.adapters;

import io.landingledger.core.ingest.InputDecision;
import io.landingledger.core.ingest.InputDecisionEvent;
import io.landingledger.core.json.JsonCodec;

import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResponse;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResultEntry;

import java.time.Instant;
import java.util.Objects;

/**
 * Puts an {@code InputDecision} event (events/input-decision.schema.json) on the ledger bus: one PutEvents of one
 * entry, events:PutEvents on that bus. An entry EventBridge refuses (FailedEntryCount 1) is an exception naming its
 * error code, as a refused call would be; the caller decides that it never fails the decision.
 */
public final class EventBridgeDecisionEvents {
    private final EventBridgeClient events;
    private final String bus;

    public EventBridgeDecisionEvents(EventBridgeClient events, String bus) {
        this.events = Objects.requireNonNull(events, "events");
        this.bus = Objects.requireNonNull(bus, "bus");
    }

    /** The entry's Detail, as put: a schema test reads what the bus receives from here. */
    public static String detailJson(InputDecision decision, Instant at) {
        return JsonCodec.writeString(InputDecisionEvent.detail(decision, at));
    }

    /** Puts {@code decision}'s event, decided at {@code at}. */
    public void put(InputDecision decision, Instant at) {
        String detail = detailJson(decision, at);
        PutEventsResponse answer = events.putEvents(r -> r.entries(e -> e.eventBusName(bus)
                .source(InputDecisionEvent.SOURCE).detailType(InputDecisionEvent.DETAIL_TYPE).detail(detail)));
        if (answer.failedEntryCount() != null && answer.failedEntryCount() > 0) {
            PutEventsResultEntry entry = answer.entries().isEmpty() ? null : answer.entries().get(0);
            throw new IllegalStateException("EventBridge refused the InputDecision event on " + bus + ": "
                    + (entry == null ? "no entry result" : entry.errorCode() + " " + entry.errorMessage()));
        }
    }
}
