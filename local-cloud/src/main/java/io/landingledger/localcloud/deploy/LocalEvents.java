package io.landingledger.localcloud.deploy;

import com.fasterxml.jackson.jr.ob.JSON;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * EventBridge Scheduler's schedules and EventBridge's buses and rules on the local stack. A schedule fires when the
 * local run (or a test) asks, not on its clock: with its role, which must trust scheduler.amazonaws.com for this
 * account and schedule group and allow invoking the target, and its declared input, as an asynchronous invocation. A
 * PutEvents entry goes to every rule of its bus whose pattern matches, each target invoked asynchronously where a
 * Lambda permission lets events.amazonaws.com invoke it from that rule.
 */
final class LocalEvents {
    /** One AWS::Scheduler::Schedule. */
    record Schedule(String logicalId, String name, String group, String groupArn, String arn, String expression, String target,
                    String roleArn, String input, boolean enabled) {
    }

    /** One AWS::Events::Rule. */
    record Rule(String logicalId, String name, String bus, String arn, Map<String, Object> pattern, List<Map<String, Object>> targets) {
    }

    private final Map<String, Schedule> schedules = new ConcurrentHashMap<>();
    private final Map<String, String> groups = new ConcurrentHashMap<>();
    private final List<Rule> rules = new CopyOnWriteArrayList<>();

    DeployedResource scheduleGroup(String id, Map<String, Object> properties, StackParts stack) {
        String name = String.valueOf(properties.getOrDefault("Name", id));
        String arn = "arn:aws:scheduler:" + stack.region + ":" + stack.account + ":schedule-group/" + name;
        groups.put(name, arn);
        return new DeployedResource(id, "AWS::Scheduler::ScheduleGroup", name, Map.of("Arn", arn), properties, true);
    }

    DeployedResource schedule(String id, Map<String, Object> properties, StackParts stack) {
        String name = String.valueOf(properties.getOrDefault("Name", id));
        String group = String.valueOf(properties.getOrDefault("GroupName", "default"));
        String groupArn = groups.getOrDefault(group, "arn:aws:scheduler:" + stack.region + ":" + stack.account + ":schedule-group/" + group);
        if (!(properties.get("Target") instanceof Map<?, ?> target)) {
            throw new DeployException("Target is required");
        }
        String targetArn = String.valueOf(target.get("Arn"));
        if (!stack.lambda.exists(targetArn)) {
            throw new DeployException("Target.Arn " + targetArn + " is not a function of this stack (the local deploy models Lambda targets)");
        }
        String roleArn = String.valueOf(target.get("RoleArn"));
        if (stack.iam.roleByArn(roleArn) == null) {
            throw new DeployException("Target.RoleArn " + roleArn + " is not a role of this stack");
        }
        String arn = "arn:aws:scheduler:" + stack.region + ":" + stack.account + ":schedule/" + group + "/" + name;
        Object input = target.get("Input");
        schedules.put(id, new Schedule(id, name, group, groupArn, arn, String.valueOf(properties.get("ScheduleExpression")), targetArn,
                roleArn, input == null ? "{}" : String.valueOf(input), !"DISABLED".equals(String.valueOf(properties.get("State")))));
        return new DeployedResource(id, "AWS::Scheduler::Schedule", name, Map.of("Arn", arn), properties, true);
    }

    /** The schedules, by logical id. */
    Map<String, Schedule> schedules() {
        return Map.copyOf(schedules);
    }

    /**
     * Fires one schedule now: Scheduler assumes its role (trust checked with aws:SourceAccount and aws:SourceArn, the
     * group's ARN), the role must allow lambda:InvokeFunction on the target, and the target is invoked asynchronously
     * with the schedule's input. Returns null, or why Scheduler could not invoke it.
     */
    String fire(String logicalId, StackParts stack) {
        Schedule schedule = schedules.get(logicalId);
        if (schedule == null) {
            throw new IllegalArgumentException("no schedule " + logicalId);
        }
        if (!schedule.enabled()) {
            return "schedule " + schedule.name() + " is DISABLED";
        }
        IamState.Role role = stack.iam.roleByArn(schedule.roleArn());
        String trust = stack.access.mayAssume(role, "scheduler.amazonaws.com", stack.account, schedule.groupArn());
        if (trust != null) {
            return "Scheduler cannot assume " + role.name() + ": " + trust;
        }
        String denied = stack.access.roleMay(role, "lambda:InvokeFunction", schedule.target());
        if (denied != null) {
            return denied;
        }
        try {
            stack.lambda.invokeAsync(schedule.target(), null, schedule.input());
        } catch (LocalLambda.RequestTooLarge e) {
            return "Scheduler could not invoke " + schedule.target() + ": " + e.getMessage();
        }
        return null;
    }

    DeployedResource eventBus(String id, Map<String, Object> properties, StackParts stack) {
        String name = String.valueOf(properties.get("Name"));
        String arn = "arn:aws:events:" + stack.region + ":" + stack.account + ":event-bus/" + name;
        return new DeployedResource(id, "AWS::Events::EventBus", name, Map.of("Arn", arn, "Name", name), properties, true);
    }

    @SuppressWarnings("unchecked")
    DeployedResource rule(String id, Map<String, Object> properties, StackParts stack) {
        String name = String.valueOf(properties.getOrDefault("Name", id));
        String bus = busName(String.valueOf(properties.getOrDefault("EventBusName", "default")));
        String arn = "arn:aws:events:" + stack.region + ":" + stack.account + ":rule/" + (bus.equals("default") ? "" : bus + "/") + name;
        Object pattern = properties.get("EventPattern");
        if (pattern instanceof String text) {
            try {
                pattern = JSON.std.mapFrom(text);
            } catch (IOException e) {
                throw new DeployException("EventPattern is not JSON: " + e.getMessage());
            }
        }
        List<Map<String, Object>> targets = new ArrayList<>();
        if (properties.get("Targets") instanceof List<?> list) {
            for (Object t : list) {
                Map<String, Object> target = (Map<String, Object>) t;
                if (!stack.lambda.exists(String.valueOf(target.get("Arn")))) {
                    throw new DeployException("Targets " + target.get("Id") + ": " + target.get("Arn") + " is not a function of this stack "
                            + "(the local deploy models Lambda targets)");
                }
                targets.add(target);
            }
        }
        rules.add(new Rule(id, name, bus, arn, (Map<String, Object>) pattern, targets));
        String physical = bus.equals("default") ? name : bus + "|" + name;
        return new DeployedResource(id, "AWS::Events::Rule", physical, Map.of("Arn", arn), properties, true);
    }

    DeployedResource eventSourceMapping(String id, Map<String, Object> properties, StackParts stack) {
        String source = String.valueOf(properties.get("EventSourceArn"));
        String function = String.valueOf(properties.get("FunctionName"));
        if (!stack.lambda.exists(function)) {
            throw new DeployException("FunctionName " + function + " is not a function of this stack");
        }
        int batchSize = properties.containsKey("BatchSize") ? Integer.parseInt(String.valueOf(properties.get("BatchSize")).replace(".0", "")) : 10;
        if (source.contains(":dynamodb:") && source.contains("/stream/")) {
            int retries = properties.containsKey("MaximumRetryAttempts")
                    ? Integer.parseInt(String.valueOf(properties.get("MaximumRetryAttempts")).replace(".0", "")) : 2;
            boolean partial = properties.get("FunctionResponseTypes") instanceof List<?> types && types.contains("ReportBatchItemFailures");
            DynamoDbStreamEventSource stream = new DynamoDbStreamEventSource(id, source, function, batchSize, retries,
                    filterPatterns(properties), partial, "LATEST".equals(String.valueOf(properties.get("StartingPosition"))), stack,
                    new MotoApi(stack.motoEndpoint, stack.region));
            stack.lambda.whenIdle(stream::drain);
            String uuid = java.util.UUID.randomUUID().toString();
            return new DeployedResource(id, "AWS::Lambda::EventSourceMapping", uuid, Map.of("Id", uuid), properties, true);
        }
        String url = stack.queueUrl(source);
        if (url == null) {
            throw new DeployException("EventSourceArn " + source + " is neither a queue nor a table stream of this stack");
        }
        boolean partial = properties.get("FunctionResponseTypes") instanceof List<?> types && types.contains("ReportBatchItemFailures");
        boolean enabled = !"false".equals(String.valueOf(properties.getOrDefault("Enabled", "true")));
        if (enabled) {
            SqsEventSource poller = new SqsEventSource(id, source, url, function, batchSize, partial, stack);
            stack.lambda.whenIdle(poller::drain);
        }
        String uuid = java.util.UUID.randomUUID().toString();
        return new DeployedResource(id, "AWS::Lambda::EventSourceMapping", uuid, Map.of("Id", uuid), properties, true);
    }

    /** FilterCriteria.Filters[].Pattern, each a JSON event pattern (Lambda's filter syntax is EventBridge's). */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> filterPatterns(Map<String, Object> properties) {
        List<Map<String, Object>> patterns = new ArrayList<>();
        if (properties.get("FilterCriteria") instanceof Map<?, ?> criteria && criteria.get("Filters") instanceof List<?> filters) {
            for (Object filter : filters) {
                String pattern = String.valueOf(((Map<String, Object>) filter).get("Pattern"));
                try {
                    patterns.add(JSON.std.mapFrom(pattern));
                } catch (IOException e) {
                    throw new DeployException("FilterCriteria pattern is not a JSON object: " + e.getMessage());
                }
            }
        }
        return patterns;
    }

    private static String busName(String nameOrArn) {
        return nameOrArn.startsWith("arn:") ? nameOrArn.substring(nameOrArn.lastIndexOf('/') + 1) : nameOrArn;
    }

    /** An event a service sends to a bus (S3's, to the default bus): to every matching rule's targets. */
    void emit(String bus, Map<String, Object> event, StackParts stack) {
        for (Rule rule : rules) {
            if (!rule.bus().equals(bus) || !EventPatterns.matches(rule.pattern(), event)) {
                continue;
            }
            for (Map<String, Object> target : rule.targets()) {
                String function = String.valueOf(target.get("Arn"));
                if (!stack.permissions.allows(function, "events.amazonaws.com", rule.arn(), stack.account)) {
                    stack.undeliverable(rule.logicalId() + " -> " + function + ": no Lambda permission for events.amazonaws.com from " + rule.arn());
                    continue;
                }
                try {
                    stack.lambda.invokeAsync(function, null, JSON.std.asString(event));
                } catch (IOException io) {
                    throw new IllegalStateException(io);
                } catch (LocalLambda.RequestTooLarge e) {
                    stack.undeliverable(rule.logicalId() + " -> " + function + ": " + e.getMessage());
                }
            }
        }
    }

    /** PutEvents: each entry to its bus's matching rules; returns the entries' results as PutEvents answers them. */
    @SuppressWarnings("unchecked")
    Map<String, Object> putEvents(Map<String, Object> request, StackParts stack) {
        List<Map<String, Object>> results = new ArrayList<>();
        int failed = 0;
        for (Object e : (List<Object>) request.getOrDefault("Entries", List.of())) {
            Map<String, Object> entry = (Map<String, Object>) e;
            String id = UUID.randomUUID().toString();
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("version", "0");
            event.put("id", id);
            event.put("detail-type", entry.get("DetailType"));
            event.put("source", entry.get("Source"));
            event.put("account", stack.account);
            event.put("time", Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
            event.put("region", stack.region);
            event.put("resources", entry.getOrDefault("Resources", List.of()));
            try {
                event.put("detail", entry.get("Detail") == null ? Map.of() : JSON.std.mapFrom(String.valueOf(entry.get("Detail"))));
            } catch (IOException bad) {
                results.add(Map.of("ErrorCode", "MalformedDetail", "ErrorMessage", "Detail is not valid JSON"));
                failed++;
                continue;
            }
            emit(busName(String.valueOf(entry.getOrDefault("EventBusName", "default"))), event, stack);
            results.add(Map.of("EventId", id));
        }
        return Map.of("FailedEntryCount", failed, "Entries", results);
    }
}
