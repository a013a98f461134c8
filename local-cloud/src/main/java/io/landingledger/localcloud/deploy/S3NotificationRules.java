package io.landingledger.localcloud.deploy;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Each bucket's NotificationConfiguration.LambdaConfigurations as the template wrote them: which event, which key
 * prefix and suffix, which function (or alias) S3 invokes.
 */
final class S3NotificationRules {
    /** One LambdaConfiguration. */
    record Rule(String id, String event, String prefix, String suffix, String function) {
        boolean matches(String eventName, String key) {
            String wanted = event.startsWith("s3:") ? event.substring(3) : event;
            boolean eventMatches = wanted.endsWith(":*") ? eventName.startsWith(wanted.substring(0, wanted.length() - 1))
                    : eventName.equals(wanted);
            return eventMatches && (prefix == null || key.startsWith(prefix)) && (suffix == null || key.endsWith(suffix));
        }
    }

    private final Map<String, List<Rule>> rules = new ConcurrentHashMap<>();
    private final java.util.Set<String> toEventBridge = ConcurrentHashMap.newKeySet();

    /** EventBridgeConfiguration.EventBridgeEnabled: S3 sends the bucket's events to the account's default bus. */
    void eventBridge(String bucket) {
        toEventBridge.add(bucket);
    }

    boolean sendsToEventBridge(String bucket) {
        return toEventBridge.contains(bucket);
    }

    void add(String bucket, Rule rule) {
        rules.computeIfAbsent(bucket, b -> new CopyOnWriteArrayList<>()).add(rule);
    }

    List<Rule> of(String bucket) {
        return rules.getOrDefault(bucket, List.of());
    }
}
