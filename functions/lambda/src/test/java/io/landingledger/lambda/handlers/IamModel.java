package io.landingledger.lambda.handlers;

import io.landingledger.localcloud.template.DeclaredNames;
import io.landingledger.localcloud.template.StackScope;
import io.landingledger.localcloud.template.Template;
import io.landingledger.localcloud.template.TransformedTemplate;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The functions' roles as CloudFormation receives them (the template transformed as {@code sam deploy} transforms it,
 * scripts/sam-transform.py), resolved by the local cloud's template model for one notional stack
 * ({@link StackScope#declared}): parameters at their defaults, account {@value #ACCOUNT}, region {@value #REGION},
 * each resource named by the name it declares. So a bucket name a role spells out by hand must resolve to exactly the
 * bucket's own name to match it; {@link #display} writes those names back as {@code {LogicalId}}.
 */
final class IamModel {
    static final String ACCOUNT = "123456789012";
    static final String REGION = "us-east-1";

    /** One action on one resource pattern of one statement (statements are expanded action x resource). */
    record Grant(String policy, String sid, boolean allow, String action, String resource, Map<String, Object> condition) {
        String label() {
            return (sid == null ? policy : sid) + " " + action + " " + resource;
        }
    }

    /**
     * A function: its role, the role's grants and managed policies, and what the Lambda service itself needs: its
     * failure destinations (dead-letter queue, EventInvokeConfig's and an event source mapping's on-failure
     * destination) and the queues and streams its event source mappings read with its role.
     */
    record Function(String logicalId, String role, List<Grant> grants, List<String> managedPolicies,
                    Map<String, String> environment, String logGroupArn, boolean tracing,
                            List<String> failureDestinations,
                    List<String> eventSources) {
    }

    private final Template template;
    private final StackScope stack;
    /** resolved physical name -> logical id, longest first (for display). */
    private final Map<String, String> names = new TreeMap<>((a, b) -> a.length() != b.length() ? b.length() - a.length() : a.compareTo(b));

    private IamModel(Template template) {
        this.template = template;
        this.stack = StackScope.declared(template, REGION, ACCOUNT, "landing-ledger-stack", Map.of());
        // the types whose names appear in the ARNs the roles grant on (an alarm may share its queue's name)
        for (String type : List.of("AWS::S3::Bucket", "AWS::DynamoDB::Table", "AWS::Lambda::Function", "AWS::SQS::Queue",
                "AWS::Logs::LogGroup", "AWS::Events::EventBus", "AWS::SNS::Topic")) {
            for (String logical : template.ofType(type)) {
                String name = DeclaredNames.declaredName(logical, stack);
                if (name != null) {
                    names.put(name, logical);
                }
            }
        }
    }

    /** The repository's infra/template.yaml as scripts/sam-transform.py transforms it (python3 with cfn-lint, as .ci/run). */
    static IamModel transformed(Path repository) throws IOException {
        return new IamModel(TransformedTemplate.load(repository, repository.resolve("functions/lambda/target/template-cache")));
    }

    @SuppressWarnings("unchecked")
    Function function(String logicalId) {
        template.resource(logicalId, "AWS::Lambda::Function");
        Map<String, Object> properties = stack.properties(logicalId);
        Object roleRef = template.properties(logicalId).get("Role");
        if (!(roleRef instanceof Map<?, ?> ref) || !(ref.get("Fn::GetAtt") instanceof List<?> att) || !"Arn".equals(att.get(1))) {
            throw new AssertionError(logicalId + "'s Role is not a role of this template (Fn::GetAtt <role>.Arn): " + roleRef);
        }
        String roleId = (String) att.get(0);
        List<Grant> grants = grants(roleId);
        Map<String, Object> role = stack.properties(roleId);
        List<String> managed = new ArrayList<>();
        for (Object arn : (List<Object>) role.getOrDefault("ManagedPolicyArns", List.of())) {
            managed.add(String.valueOf(arn));
        }
        Map<String, String> environment = new LinkedHashMap<>();
        if (properties.get("Environment") instanceof Map<?, ?> e && e.get("Variables") instanceof Map<?, ?> variables) {
            variables.forEach((k, v) -> environment.put(String.valueOf(k), String.valueOf(v)));
        }
        String logGroupName = "/aws/lambda/" + properties.get("FunctionName");
        if (properties.get("LoggingConfig") instanceof Map<?, ?> logging && logging.get("LogGroup") != null) {
            logGroupName = String.valueOf(logging.get("LogGroup"));
        }
        String logGroupArn = "arn:aws:logs:" + REGION + ":" + ACCOUNT + ":log-group:" + logGroupName;
        boolean tracing = properties.get("TracingConfig") instanceof Map<?, ?> t && "Active".equals(t.get("Mode"));
        List<String> destinations = new ArrayList<>();
        if (properties.get("DeadLetterConfig") instanceof Map<?, ?> dlq && dlq.get("TargetArn") != null) {
            destinations.add(String.valueOf(dlq.get("TargetArn")));
        }
        for (String config : template.ofType("AWS::Lambda::EventInvokeConfig")) {
            if (template.properties(config).get("FunctionName") instanceof Map<?, ?> m && logicalId.equals(m.get("Ref"))
                    && stack.properties(config).get("DestinationConfig") instanceof Map<?, ?> destinationConfig) {
                for (Object destination : destinationConfig.values()) {
                    if (destination instanceof Map<?, ?> d && d.get("Destination") != null) {
                        destinations.add(String.valueOf(d.get("Destination")));
                    }
                }
            }
        }
        List<String> eventSources = new ArrayList<>();
        for (String mapping : template.ofType("AWS::Lambda::EventSourceMapping")) {
            if (!invokes(template.properties(mapping).get("FunctionName"), logicalId)) {
                continue;
            }
            Map<String, Object> resolved = stack.properties(mapping);
            eventSources.add(String.valueOf(resolved.get("EventSourceArn")));
            if (resolved.get("DestinationConfig") instanceof Map<?, ?> config
                    && config.get("OnFailure") instanceof Map<?, ?> onFailure
                    && onFailure.get("Destination") != null) {
                destinations.add(String.valueOf(onFailure.get("Destination")));
            }
        }
        return new Function(logicalId, roleId, grants, managed, environment, logGroupArn, tracing, destinations,
                eventSources);
    }

    /**
     * The grants of role {@code roleId}: its inline policies and the AWS::IAM::Policy / ManagedPolicy attached to it.
     */
    @SuppressWarnings("unchecked")
    List<Grant> grants(String roleId) {
        template.resource(roleId, "AWS::IAM::Role");
        List<Grant> grants = new ArrayList<>();
        for (Object policy : (List<Object>) stack.properties(roleId).getOrDefault("Policies", List.of())) {
            Map<String, Object> named = (Map<String, Object>) policy;
            grants.addAll(grants((String) named.get("PolicyName"), named.get("PolicyDocument")));
        }
        for (String type : List.of("AWS::IAM::Policy", "AWS::IAM::ManagedPolicy")) {
            for (String other : template.ofType(type)) {
                if (template.properties(other).get("Roles") instanceof List<?> list
                        && list.stream().anyMatch(r -> r instanceof Map<?, ?> m && roleId.equals(m.get("Ref")))) {
                    grants.addAll(grants(other, stack.properties(other).get("PolicyDocument")));
                }
            }
        }
        return grants;
    }

    /**
     * One action on one resource that an AWS service needs from a role the template gives it, and which resource says
     * so.
     */
    record ServiceNeed(String action, String resource, String because) {
    }

    /**
     * What the AWS services the template hands role {@code roleId} to do with it, read from the resources that name it:
     * an EventBridge Scheduler schedule (Target.RoleArn) invokes its target and sends what it could not deliver to its
     * dead-letter queue; an EventBridge Pipe (RoleArn) reads its DynamoDB stream source, puts events on its target bus
     * and sends what it could not deliver to its source's dead-letter queue. Empty when no such resource names it.
     */
    @SuppressWarnings("unchecked")
    List<ServiceNeed> serviceNeeds(String roleId) {
        List<ServiceNeed> needs = new ArrayList<>();
        for (String schedule : template.ofType("AWS::Scheduler::Schedule")) {
            Map<String, Object> target = (Map<String, Object>) template.properties(schedule).get("Target");
            if (target == null || !namesRole(target.get("RoleArn"), roleId)) {
                continue;
            }
            Map<String, Object> resolved = (Map<String, Object>) stack.properties(schedule).get("Target");
            needs.add(new ServiceNeed("lambda:InvokeFunction", String.valueOf(resolved.get("Arn")), schedule
                    + " invokes its target"));
            if (resolved.get("DeadLetterConfig") instanceof Map<?, ?> dlq && dlq.get("Arn") != null) {
                needs.add(new ServiceNeed("sqs:SendMessage", String.valueOf(dlq.get("Arn")), schedule
                        + "'s undelivered invocations"));
            }
        }
        for (String pipe : template.ofType("AWS::Pipes::Pipe")) {
            if (!namesRole(template.properties(pipe).get("RoleArn"), roleId)) {
                continue;
            }
            Map<String, Object> resolved = stack.properties(pipe);
            String source = String.valueOf(resolved.get("Source"));
            for (String action : List.of("dynamodb:DescribeStream", "dynamodb:GetRecords",
                    "dynamodb:GetShardIterator")) {
                needs.add(new ServiceNeed(action, source, pipe + " reads its stream"));
            }
            needs.add(new ServiceNeed("events:PutEvents", String.valueOf(resolved.get("Target")), pipe
                    + " puts its events"));
            if (resolved.get("SourceParameters") instanceof Map<?, ?> parameters
                    && parameters.get("DynamoDBStreamParameters") instanceof Map<?, ?> stream
                    && stream.get("DeadLetterConfig") instanceof Map<?, ?> dlq && dlq.get("Arn") != null) {
                needs.add(new ServiceNeed("sqs:SendMessage", String.valueOf(dlq.get("Arn")), pipe
                        + "'s undelivered records"));
            }
        }
        return needs;
    }

    /** {@code roleArn} (as written) is {@code !GetAtt roleId.Arn}. */
    private static boolean namesRole(Object roleArn, String roleId) {
        return roleArn instanceof Map<?, ?> ref && ref.get("Fn::GetAtt") instanceof List<?> att && att.size() == 2
                && roleId.equals(att.get(0)) && "Arn".equals(att.get(1));
    }

    /**
     * {@code functionName} (as written) names function {@code logicalId} or one of its aliases (SAM's
     * AutoPublishAlias).
     */
    private boolean invokes(Object functionName, String logicalId) {
        if (!(functionName instanceof Map<?, ?> ref) || !(ref.get("Ref") instanceof String target)) {
            return false;
        }
        return target.equals(logicalId) || template.ofType("AWS::Lambda::Alias").contains(target)
                && template.properties(target).get("FunctionName") instanceof Map<?, ?> aliased
                        && logicalId.equals(aliased.get("Ref"));
    }

    /** Every function of the template (AWS::Lambda::Function, as transformed), by logical id. */
    List<String> functions() {
        return List.copyOf(template.ofType("AWS::Lambda::Function"));
    }

    /** Every role of the template (AWS::IAM::Role), by logical id. */
    List<String> roles() {
        return List.copyOf(template.ofType("AWS::IAM::Role"));
    }

    @SuppressWarnings("unchecked")
    private static List<Grant> grants(String policy, Object document) {
        List<Grant> grants = new ArrayList<>();
        Object statements = ((Map<String, Object>) document).get("Statement");
        for (Object s : statements instanceof List<?> list ? list : List.of(statements)) {
            Map<String, Object> statement = (Map<String, Object>) s;
            String sid = (String) statement.get("Sid");
            for (String unsupported : List.of("NotAction", "NotResource", "NotPrincipal")) {
                if (statement.containsKey(unsupported)) {
                    throw new AssertionError(policy + " " + sid + ": " + unsupported + " is not evaluated by this check; "
                            + "name the actions and resources a function may use");
                }
            }
            boolean allow = "Allow".equals(statement.get("Effect"));
            Map<String, Object> condition = (Map<String, Object>) statement.getOrDefault("Condition", Map.of());
            for (String action : strings(statement.get("Action"))) {
                for (String resource : strings(statement.get("Resource"))) {
                    grants.add(new Grant(policy, sid, allow, action, resource, condition));
                }
            }
        }
        return grants;
    }

    private static List<String> strings(Object value) {
        if (value == null) {
            return List.of();
        }
        return value instanceof List<?> list ? list.stream().map(String::valueOf).toList() : List.of(String.valueOf(value));
    }

    /** {@code arn:aws:s3:::landing-ledger-dev-lake-...} -> {@code arn:aws:s3:::{LakeBucket}}. */
    String display(String text) {
        String shown = text;
        for (Map.Entry<String, String> name : names.entrySet()) {
            shown = shown.replace(name.getKey(), "{" + name.getValue() + "}");
        }
        return shown.replace(":" + REGION + ":" + ACCOUNT + ":", ":{Region}:{Account}:");
    }
}
