package io.landingledger.localcloud.iam;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * EventBridge requests ({@code X-Amz-Target: AWSEvents.<Operation>}, JSON body) to IAM actions: PutEvents is
 * events:PutEvents on the bus each entry names (EventBusName, a name or an ARN; the default bus when absent), one
 * request per entry; PutRule and PutTargets are events:PutRule and events:PutTargets on the rule's ARN
 * ({@code rule/<bus>/<name>}, {@code rule/<name>} on the default bus). Every other operation is unmapped: the local
 * stack's EventBridge answers these three only.
 */
public final class EventBridgeRequestActions {
    private static final String PREFIX = "AWSEvents.";
    private final String region;
    private final String account;

    public EventBridgeRequestActions(String region, String account) {
        this.region = region;
        this.account = account;
    }

    public RequestMapping map(String target, byte[] body) {
        if (target == null || !target.startsWith(PREFIX)) {
            return RequestMapping.unmapped(String.valueOf(target), "an EventBridge request names its operation in X-Amz-Target");
        }
        String operation = target.substring(PREFIX.length());
        if (!operation.equals("PutEvents") && !operation.equals("PutRule") && !operation.equals("PutTargets")) {
            return RequestMapping.unmapped(operation, "EventBridge operation " + operation + " is not mapped");
        }
        JsonNode request = JsonBodies.object(body);
        if (request == null) {
            return RequestMapping.unmapped(operation, "the body is not a JSON object");
        }
        if (!operation.equals("PutEvents")) {
            String rule = JsonBodies.text(request, operation.equals("PutRule") ? "Name" : "Rule");
            if (rule == null) {
                return RequestMapping.unmapped(operation, "no rule name");
            }
            String bus = JsonBodies.text(request, "EventBusName");
            String busName = bus == null ? "default" : bus.substring(bus.lastIndexOf('/') + 1);
            return RequestMapping.of(operation, List.of(AuthorizationRequest.of("events:" + operation,
                    "arn:aws:events:" + region + ":" + account + ":rule/" + (busName.equals("default") ? "" : busName + "/") + rule)));
        }
        JsonNode entries = request.get("Entries");
        if (entries == null || !entries.isArray() || entries.isEmpty()) {
            return RequestMapping.unmapped(operation, "no Entries");
        }
        List<AuthorizationRequest> requests = new ArrayList<>();
        for (JsonNode entry : entries) {
            String bus = JsonBodies.text(entry, "EventBusName");
            requests.add(AuthorizationRequest.of("events:PutEvents", busArn(bus == null ? "default" : bus)));
        }
        return RequestMapping.of(operation, requests);
    }

    /** The ARN of the bus a name or ARN denotes. */
    public String busArn(String bus) {
        return bus.startsWith("arn:") ? bus : "arn:aws:events:" + region + ":" + account + ":event-bus/" + bus;
    }
}
