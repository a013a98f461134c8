package io.landingledger.localcloud.iam;

import java.util.List;
import java.util.Map;

/**
 * What one HTTP request needs authorized: its operation's name and the (action, resource, context) triples, or, for a
 * request the mapper does not recognise, the reason it is unmapped (the gateway refuses those; an unmapped request is
 * never allowed).
 */
public record RequestMapping(String operation, List<AuthorizationRequest> requests, String unmappedReason) {
    public RequestMapping {
        requests = List.copyOf(requests);
    }

    public static RequestMapping of(String operation, List<AuthorizationRequest> requests) {
        if (requests.isEmpty()) {
            throw new IllegalArgumentException(operation + " maps to no action");
        }
        return new RequestMapping(operation, requests, null);
    }

    public static RequestMapping of(String operation, AuthorizationRequest request) {
        return of(operation, List.of(request));
    }

    public static RequestMapping unmapped(String operation, String reason) {
        return new RequestMapping(operation, List.of(), reason);
    }

    /**
     * A copy whose every request also carries {@code context}'s keys where the mapper did not set them: what the
     * gateway knows beyond the request (aws:SourceAccount, aws:SourceArn for a service acting for a resource).
     */
    public RequestMapping withContext(Map<String, List<String>> context) {
        return new RequestMapping(operation, requests.stream().map(r -> r.withDefaults(context)).toList(),
                unmappedReason);
    }

    public boolean mapped() {
        return unmappedReason == null;
    }
}
