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
 * Lambda permission lets events.amazonaws.com invoke it from that rule, or, for an SQS queue, sent to the queue where
 * the queue's policy lets events.amazonaws.com send from that rule (sqs:SendMessage, aws:SourceArn the rule's ARN), as
 * AWS requires of an SQS target. Rules come from the template or from PutRule and PutTargets (a producer's or an
 * operator's client: the gateway authorizes events:PutRule and events:PutTargets on the rule's ARN first).
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
    private final io.landingledger.localcloud.iam.PolicyEvaluator evaluator = new io.landingledger.localcloud.iam.PolicyEvaluator();

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
        List<Map<String, Object>> targets = new CopyOnWriteArrayList<>();
        if (properties.get("Targets") instanceof List<?> list) {
            for (Object t : list) {
                Map<String, Object> target = (Map<String, Object>) t;
                String problem = targetProblem(String.valueOf(target.get("Arn")), stack);
                if (problem != null) {
                    throw new DeployException("Targets " + target.get("Id") + ": " + problem);
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

    /** Why {@code arn} cannot be a target here, or null: a function of this stack or an SQS queue moto holds. */
    private static String targetProblem(String arn, StackParts stack) {
        if (arn.startsWith("arn:aws:sqs:")) {
            return queueUrl(arn, stack) == null ? arn + " is not a queue of this account" : null;
        }
        return stack.lambda.exists(arn) ? null
                : arn + " is not a function of this stack (the local deploy models Lambda and SQS targets)";
    }

    /** The URL of the queue {@code arn} names (its name is the ARN's last part), or null when moto holds none. */
    private static String queueUrl(String arn, StackParts stack) {
        String known = stack.queueUrl(arn);
        if (known != null) {
            return known;
        }
        try {
            Object url = new MotoApi(stack.motoEndpoint, stack.region).call("sqs", "AmazonSQS.GetQueueUrl",
                    Map.of("QueueName", arn.substring(arn.lastIndexOf(':') + 1))).get("QueueUrl");
            return url == null ? null : String.valueOf(url);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * PutRule: a rule (Name, EventBusName, EventPattern, State) on a bus, made or replaced with its targets kept.
     * Returns PutRule's answer.
     */
    @SuppressWarnings("unchecked")
    Map<String, Object> putRule(Map<String, Object> request, StackParts stack) {
        String name = String.valueOf(request.get("Name"));
        String bus = busName(String.valueOf(request.getOrDefault("EventBusName", "default")));
        String arn = "arn:aws:events:" + stack.region + ":" + stack.account + ":rule/" + (bus.equals("default") ? "" : bus + "/") + name;
        Map<String, Object> pattern;
        try {
            pattern = JSON.std.mapFrom(String.valueOf(request.get("EventPattern")));
        } catch (IOException e) {
            throw new IllegalArgumentException("EventPattern is not valid JSON");
        }
        List<Map<String, Object>> targets = new ArrayList<>();
        for (Rule rule : rules) {
            if (rule.arn().equals(arn)) {
                targets.addAll(rule.targets());
                rules.remove(rule);
            }
        }
        if (!"DISABLED".equals(String.valueOf(request.get("State")))) {
            rules.add(new Rule(name, name, bus, arn, pattern, new CopyOnWriteArrayList<>(targets)));
        }
        return Map.of("RuleArn", arn);
    }

    /** PutTargets: each target (Id, Arn) to the rule; a target that cannot be one here is a failed entry. */
    @SuppressWarnings("unchecked")
    Map<String, Object> putTargets(Map<String, Object> request, StackParts stack) {
        String name = String.valueOf(request.get("Rule"));
        String bus = busName(String.valueOf(request.getOrDefault("EventBusName", "default")));
        Rule rule = rules.stream().filter(r -> r.name().equals(name) && r.bus().equals(bus)).findFirst().orElse(null);
        if (rule == null) {
            throw new IllegalArgumentException("Rule " + name + " does not exist on EventBus " + bus + ".");
        }
        List<Map<String, Object>> failed = new ArrayList<>();
        for (Object t : (List<Object>) request.getOrDefault("Targets", List.of())) {
            Map<String, Object> target = (Map<String, Object>) t;
            String problem = targetProblem(String.valueOf(target.get("Arn")), stack);
            if (problem != null) {
                failed.add(Map.of("TargetId", String.valueOf(target.get("Id")), "ErrorCode", "ValidationException", "ErrorMessage", problem));
                continue;
            }
            rule.targets().removeIf(existing -> String.valueOf(existing.get("Id")).equals(String.valueOf(target.get("Id"))));
            rule.targets().add(target);
        }
        return Map.of("FailedEntryCount", failed.size(), "FailedEntries", failed);
    }

    /**
     * Sends {@code event} to the queue {@code arn} when its policy lets events.amazonaws.com send from {@code rule}
     * (as AWS: without such a policy EventBridge's delivery fails, and the event is not in the queue).
     */
    private void sendToQueue(Rule rule, String arn, Map<String, Object> event, StackParts stack) throws IOException {
        String url = queueUrl(arn, stack);
        MotoApi moto = new MotoApi(stack.motoEndpoint, stack.region);
        Object attributes = url == null ? null : moto.call("sqs", "AmazonSQS.GetQueueAttributes",
                Map.of("QueueUrl", url, "AttributeNames", List.of("Policy"))).get("Attributes");
        Object policy = attributes instanceof Map<?, ?> map ? map.get("Policy") : null;
        if (policy == null) {
            stack.undeliverable(rule.logicalId() + " -> " + arn + ": the queue has no policy letting events.amazonaws.com send");
            return;
        }
        var decision = evaluator.evaluate(io.landingledger.localcloud.iam.Caller.service("events.amazonaws.com"),
                io.landingledger.localcloud.iam.AuthorizationRequest.of("sqs:SendMessage", arn)
                        .with("aws:SourceArn", rule.arn()).with("aws:SourceAccount", stack.account),
                List.of(), io.landingledger.localcloud.iam.PolicyDocument.parse(arn + " policy", String.valueOf(policy)));
        if (!decision.allowed()) {
            stack.undeliverable(rule.logicalId() + " -> " + arn + ": " + decision.message());
            return;
        }
        moto.call("sqs", "AmazonSQS.SendMessage", Map.of("QueueUrl", url, "MessageBody", JSON.std.asString(event)));
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
                if (function.startsWith("arn:aws:sqs:")) {
                    try {
                        sendToQueue(rule, function, event, stack);
                    } catch (IOException | RuntimeException e) {
                        stack.undeliverable(rule.logicalId() + " -> " + function + ": " + e.getMessage());
                    }
                    continue;
                }
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
