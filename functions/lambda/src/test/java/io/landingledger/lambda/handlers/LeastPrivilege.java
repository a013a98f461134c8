package io.landingledger.lambda.handlers;

import io.landingledger.lambda.handlers.IamModel.Grant;
import io.landingledger.lambda.handlers.RecordedCalls.Call;

import io.landingledger.localcloud.iam.AuthorizationRequest;
import io.landingledger.localcloud.iam.DynamoDbRequestActions;
import io.landingledger.localcloud.iam.EventBridgeRequestActions;
import io.landingledger.localcloud.iam.LambdaRequestActions;
import io.landingledger.localcloud.iam.RequestMapping;
import io.landingledger.localcloud.iam.S3Request;
import io.landingledger.localcloud.iam.S3RequestActions;
import io.landingledger.localcloud.iam.SqsRequestActions;
import io.landingledger.localcloud.iam.Wildcard;


import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * Least privilege from recorded calls (issue 13, "Prove it offline"): each SDK request a function's code made is mapped
 * to the IAM actions and resources it needs, and checked against the function's role; every grant of the role must be
 * used by a recorded call or be one the Lambda service needs ({@link #SERVICE_GRANTS}).
 *
 * <p>Request to action: each call is mapped as it went over the wire, by the local cloud's mappers
 * ({@link S3RequestActions}, {@link DynamoDbRequestActions}, {@link LambdaRequestActions}, {@link SqsRequestActions}:
 * the same ones its gateway
 * authorizes with, documented there from the Service Authorization Reference). One need depends on the answer, not
 * the request, and is added here: a HeadObject or GetObject that got a 404 also needs s3:ListBucket on the bucket
 * (without it S3 answers 403, which the code does not read as "not found"; HeadObject's Permissions section).
 * Findings name the resource as the summary does (object keys shortened to their prefix and dataset, {@link #shape}).
 * A request the mappers do not map fails the check: a new kind of call needs its mapping there first.
 *
 * <p>Statement conditions: {@code s3:prefix} (String*, on ListBucket / ListBucketVersions) is evaluated; any other key
 * is not, and the report lists the statements whose conditions were ignored. Deny statements in the role are applied.
 * Bucket policies are not evaluated here (TemplateIT checks them).
 */
final class LeastPrivilege {
    /** One IAM action on one resource that one recorded call needs. */
    record Need(String action, String resource, Map<String, String> context, Call call, String because) {
    }

    /** A grant the Lambda service uses with the function's role, not the function's code: allowed without a call. */
    record ServiceGrant(String what, String reason, java.util.function.BiPredicate<IamModel.Function, Grant> matches) {
    }

    /** What an event source mapping does with the function's role: poll an SQS queue, read a DynamoDB stream. */
    private static final List<String> EVENT_SOURCE_ACTIONS = List.of("sqs:ReceiveMessage", "sqs:DeleteMessage",
            "sqs:GetQueueAttributes", "dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator");

    /** The grants the code never uses but the Lambda service does, each with its reason. */
    static final List<ServiceGrant> SERVICE_GRANTS = List.of(
            new ServiceGrant("logs:CreateLogStream, logs:PutLogEvents on the function's own log group",
                    "Lambda writes the function's log lines (and EMF metric lines) to its log group with the execution role",
                    (f, g) -> (Wildcard.matchesIgnoreCase(g.action(), "logs:CreateLogStream") || Wildcard.matchesIgnoreCase(g.action(), "logs:PutLogEvents"))
                            && !g.action().contains("*")
                            && (g.resource().equals(f.logGroupArn()) || g.resource().startsWith(f.logGroupArn() + ":"))),
            new ServiceGrant("xray:PutTraceSegments, xray:PutTelemetryRecords on * (Tracing: Active)",
                    "with active tracing Lambda sends the invocation's segments with the execution role (X-Ray has no resource-level "
                            + "permissions for them); the code calls no X-Ray API",
                    (f, g) -> f.tracing() && g.resource().equals("*")
                            && (g.action().equals("xray:PutTraceSegments") || g.action().equals("xray:PutTelemetryRecords"))),
            new ServiceGrant("sqs:SendMessage / sns:Publish on the function's on-failure destination or dead-letter queue",
                    "Lambda sends a failed asynchronous invocation's record there with the execution role",
                    (f, g) -> f.failureDestinations().contains(g.resource())
                            && ((g.resource().startsWith("arn:aws:sqs:") && g.action().equals("sqs:SendMessage"))
                            || (g.resource().startsWith("arn:aws:sns:") && g.action().equals("sns:Publish")))),
            new ServiceGrant("sqs:ReceiveMessage, DeleteMessage, GetQueueAttributes on the queue of the function's SQS "
                    + "event source mapping; dynamodb:DescribeStream, GetRecords, GetShardIterator on the stream of its "
                    + "DynamoDB one",
                    "the event source mapping polls the queue (and deletes what the function handled) or reads the "
                            + "stream with the execution role (Lambda developer guide, the execution role permissions "
                            + "of each event source)",
                    (f, g) -> f.eventSources().stream().anyMatch(source -> Wildcard.matches(g.resource(), source)
                            && EVENT_SOURCE_ACTIONS.stream().anyMatch(a -> a.equals(g.action()) && source.startsWith(
                                    a.startsWith("sqs:") ? "arn:aws:sqs:" : "arn:aws:dynamodb:")))));


    /** Managed policies: their documents are not in the template, so each one allowed must be named with its reason. */
    static final Map<String, String> SERVICE_MANAGED_POLICIES = Map.of(
            "arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
            "SAM adds it to a role it creates: Lambda writes the function's logs with it (logs:CreateLogGroup, "
                    + "CreateLogStream, PutLogEvents on every log group: broader than the function's own, issue 13)",
            "arn:aws:iam::aws:policy/AWSXrayWriteOnlyAccess",
            "SAM adds it for Tracing: Active: Lambda sends the trace segments with it; the code calls no X-Ray API");

    private static final DynamoDbRequestActions DYNAMODB = new DynamoDbRequestActions(IamModel.REGION, IamModel.ACCOUNT);
    private static final LambdaRequestActions LAMBDA = new LambdaRequestActions(IamModel.REGION, IamModel.ACCOUNT);
    private static final SqsRequestActions SQS = new SqsRequestActions(IamModel.REGION, IamModel.ACCOUNT);
    private static final EventBridgeRequestActions EVENTS = new EventBridgeRequestActions(IamModel.REGION, IamModel.ACCOUNT);

    /** Condition keys this check evaluates. */
    private static final Set<String> EVALUATED_KEYS = Set.of("s3:prefix");

    private LeastPrivilege() {
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Operation -> IAM
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * What {@code call} needs. {@code deployed} maps the names the emulators use (test bucket and table names) to the
     * deployed ones (the function's environment in the template). A call that never left the client needs nothing.
     */
    static List<Need> needs(Call call, UnaryOperator<String> deployed) {
        RecordedCalls.Http http = call.http();
        if (http == null) {
            return List.of();
        }
        RequestMapping mapping = switch (http.service()) {
            // evaluated as the gateway does (aws:SecureTransport true): the SDKs send over TLS on AWS
            case "s3" -> S3RequestActions.map(S3Request.of(http.method(), http.rawPath(), http.query(), http.headers(), true));
            case "dynamodb" -> DYNAMODB.map(http.header("x-amz-target"), http.body());
            case "lambda" -> LAMBDA.map(http.method(), http.rawPath(), http.query());
            case "sqs" -> SQS.mapJson(http.header("x-amz-target"), http.body());
            case "eventbridge" -> EVENTS.map(http.header("x-amz-target"), http.body());
            default -> RequestMapping.unmapped(call.operation(), "no mapper for " + http.service());
        };
        if (!mapping.mapped()) {
            throw new AssertionError("no IAM mapping for " + call.operation() + " (at " + call.site() + "): " + mapping.unmappedReason()
                    + "; add it to the local cloud's io.landingledger.localcloud.iam request mappers");
        }
        List<Need> needs = new ArrayList<>();
        for (AuthorizationRequest request : mapping.requests()) {
            Map<String, String> context = new LinkedHashMap<>();
            request.context().keySet().forEach(key -> context.put(key, request.value(key)));
            needs.add(new Need(request.action(), deployedArn(request.resource(), deployed), context, call, null));
        }
        boolean read = call.operation().equals("HeadObject") || call.operation().equals("GetObject");
        if (read && call.status() != null && call.status() == 404) {
            String object = needs.get(0).resource();
            needs.add(new Need("s3:ListBucket", object.substring(0, object.indexOf('/')), Map.of(), call,
                    "a 404 (not 403) for a missing key"));
        }
        return needs;
    }

    /** {@code arn} with the emulator's bucket or table name replaced by the deployed one. */
    private static String deployedArn(String arn, UnaryOperator<String> deployed) {
        String s3 = "arn:aws:s3:::";
        if (arn.startsWith(s3)) {
            String rest = arn.substring(s3.length());
            int slash = rest.indexOf('/');
            return s3 + (slash < 0 ? deployed.apply(rest) : deployed.apply(rest.substring(0, slash)) + rest.substring(slash));
        }
        String table = DYNAMODB.tableArn("");
        if (arn.startsWith(table)) {
            String rest = arn.substring(table.length());
            int slash = rest.indexOf('/');
            return table + (slash < 0 ? deployed.apply(rest) : deployed.apply(rest.substring(0, slash)) + rest.substring(slash));
        }
        String queue = "arn:aws:sqs:" + IamModel.REGION + ":" + IamModel.ACCOUNT + ":";
        if (arn.startsWith(queue)) {
            return queue + deployed.apply(arn.substring(queue.length()));
        }
        return arn;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Evaluation
    // ---------------------------------------------------------------------------------------------------------------

    /** The statement matches the need: action, resource and the conditions this check evaluates. */
    static boolean matches(Grant grant, Need need) {
        return Wildcard.matchesIgnoreCase(grant.action(), need.action()) && Wildcard.matches(grant.resource(), need.resource())
                && conditionsHold(grant.condition(), need.context());
    }

    @SuppressWarnings("unchecked")
    private static boolean conditionsHold(Map<String, Object> condition, Map<String, String> context) {
        for (Map.Entry<String, Object> operator : condition.entrySet()) {
            for (Map.Entry<String, Object> entry : ((Map<String, Object>) operator.getValue()).entrySet()) {
                if (!EVALUATED_KEYS.contains(entry.getKey())) {
                    continue; // reported as ignored
                }
                String value = context.get(entry.getKey().toLowerCase(java.util.Locale.ROOT)); // IAM's keys ignore case
                List<String> patterns = entry.getValue() instanceof List<?> l ? l.stream().map(String::valueOf).toList()
                        : List.of(String.valueOf(entry.getValue()));
                boolean holds = switch (operator.getKey()) {
                    case "StringEquals" -> value != null && patterns.contains(value);
                    case "StringLike" -> value != null && patterns.stream().anyMatch(p -> Wildcard.matches(p, value));
                    case "StringNotEquals" -> value == null || !patterns.contains(value);
                    case "StringNotLike" -> value == null || patterns.stream().noneMatch(p -> Wildcard.matches(p, value));
                    default -> throw new AssertionError("condition operator " + operator.getKey() + " on " + entry.getKey() + " is not evaluated");
                };
                if (!holds) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The statement's condition keys this check did not evaluate. */
    @SuppressWarnings("unchecked")
    static Set<String> ignoredConditionKeys(Grant grant) {
        Set<String> ignored = new LinkedHashSet<>();
        grant.condition().values().forEach(v -> ((Map<String, Object>) v).keySet().stream()
                .filter(k -> !EVALUATED_KEYS.contains(k)).forEach(ignored::add));
        return ignored;
    }

    /** The outcome for one function: what it called, which grants allowed each call, and the findings. */
    record Report(String text, List<String> findings) {
    }

    static Report check(IamModel model, IamModel.Function function, List<Call> calls, UnaryOperator<String> deployed) {
        Set<String> findings = new LinkedHashSet<>();
        StringBuilder text = new StringBuilder();
        text.append(function.logicalId()).append(" (role ").append(function.role()).append(", transformed template)\n");
        text.append("  calls seen (operation -> IAM action on resource: the grant that allows it; at the call site):\n");

        Map<Grant, Integer> used = new LinkedHashMap<>();
        function.grants().forEach(g -> used.put(g, 0));
        // one line per (operation, action, resource with the key's last segment generalised, site, grant)
        Map<String, Integer> lines = new TreeMap<>();
        for (Call call : calls) {
            for (Need need : needs(call, deployed)) {
                List<Grant> allowing = function.grants().stream().filter(g -> g.allow() && matches(g, need)).toList();
                List<Grant> denying = function.grants().stream().filter(g -> !g.allow() && matches(g, need)).toList();
                allowing.forEach(g -> used.merge(g, 1, Integer::sum));
                String verdict;
                if (!denying.isEmpty()) {
                    verdict = "DENIED by " + denying.get(0).label();
                } else if (allowing.isEmpty()) {
                    verdict = "MISSING";
                } else {
                    verdict = String.join(", ", allowing.stream().map(g -> g.sid() == null ? g.policy() : g.sid()).distinct().toList());
                }
                String line = call.operation() + " -> " + need.action() + " " + model.display(shape(need.resource()))
                        + (need.because() == null ? "" : " (for " + need.because() + ")") + ": " + verdict + "; at " + call.site();
                lines.merge(line, 1, Integer::sum);
                if (verdict.equals("MISSING") || verdict.startsWith("DENIED")) {
                    findings.add(function.logicalId() + ": " + (verdict.equals("MISSING") ? "missing permission " : verdict + ": ")
                            + need.action() + " on " + model.display(shape(need.resource()))
                            + " for " + call.operation() + (need.because() == null ? "" : " (" + need.because() + ")") + " at " + call.site());
                }
            }
        }
        lines.forEach((line, count) -> text.append("    ").append(line).append(count > 1 ? "  (x" + count + ")" : "").append('\n'));

        text.append("  grants of the role (action on resource: how many recorded needs used it):\n");
        for (Map.Entry<Grant, Integer> entry : used.entrySet()) {
            Grant grant = entry.getKey();
            String where = (grant.sid() == null ? grant.policy() : grant.sid()) + " " + grant.action() + " on " + model.display(grant.resource());
            Set<String> ignored = ignoredConditionKeys(grant);
            String conditions = ignored.isEmpty() ? "" : " [condition keys not evaluated: " + String.join(", ", ignored) + "]";
            if (!grant.allow()) {
                text.append("    ").append(where).append(": Deny").append(conditions).append('\n');
                continue;
            }
            if (entry.getValue() > 0) {
                text.append("    ").append(where).append(": used ").append(entry.getValue()).append(conditions).append('\n');
                continue;
            }
            ServiceGrant service = SERVICE_GRANTS.stream().filter(s -> s.matches().test(function, grant)).findFirst().orElse(null);
            if (service != null) {
                text.append("    ").append(where).append(": Lambda service (").append(service.reason()).append(")\n");
            } else {
                text.append("    ").append(where).append(": UNUSED").append(conditions).append('\n');
                findings.add(function.logicalId() + ": unused grant " + where + " (policy " + grant.policy()
                        + "): no recorded call needs it and it is not a Lambda service grant");
            }
        }
        for (String managed : function.managedPolicies()) {
            String reason = SERVICE_MANAGED_POLICIES.get(managed);
            text.append("    managed ").append(managed).append(": ").append(reason == null ? "NOT ALLOWED" : "Lambda service (" + reason + ")").append('\n');
            if (reason == null) {
                findings.add(function.logicalId() + ": managed policy " + managed + " is not in LeastPrivilege.SERVICE_MANAGED_POLICIES "
                        + "(its grants cannot be checked against the calls)");
            }
        }
        text.append(findings.isEmpty() ? "  findings: none\n" : "  findings:\n");
        findings.forEach(f -> text.append("    ").append(f).append('\n'));
        return new Report(text.toString(), List.copyOf(findings));
    }

    /**
     * A resource as shown in the summary: dates, run ids and hashes in object keys become {@code ...} so that calls of
     * one kind share a line (the findings always show the full resource).
     */
    static String shape(String resource) {
        int objectKey = resource.startsWith("arn:aws:s3:::") ? resource.indexOf('/') : -1;
        if (objectKey < 0) {
            return resource;
        }
        String key = resource.substring(objectKey + 1);
        String[] parts = key.split("/", -1);
        // keep the top-level prefix and the dataset; the rest varies per unit and run
        if (parts.length <= 2) {
            return resource.substring(0, objectKey + 1) + (parts.length == 2 ? parts[0] + "/..." : key);
        }
        return resource.substring(0, objectKey + 1) + parts[0] + "/" + parts[1] + "/...";
    }
}
