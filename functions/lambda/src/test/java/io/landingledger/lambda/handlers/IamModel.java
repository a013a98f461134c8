package io.landingledger.lambda.handlers;

import com.fasterxml.jackson.jr.ob.JSON;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The functions' roles as CloudFormation receives them (the template transformed as {@code sam deploy} transforms it,
 * scripts/sam-transform.py), with every intrinsic resolved to a concrete value for one notional stack: parameters at
 * their defaults, account {@value #ACCOUNT}, region {@value #REGION}, partition aws. A resource's name is the one
 * its name property resolves to (BucketName, TableName, FunctionName, QueueName, LogGroupName), so a bucket name a
 * role spells out by hand must resolve to exactly the bucket's own name to match it; {@link #display} writes those
 * names back as {@code {LogicalId}}.
 */
final class IamModel {
    static final String ACCOUNT = "123456789012";
    static final String REGION = "us-east-1";
    private static final Object NO_VALUE = new Object();

    /** One action on one resource pattern of one statement (statements are expanded action x resource). */
    record Grant(String policy, String sid, boolean allow, String action, String resource, Map<String, Object> condition) {
        String label() {
            return (sid == null ? policy : sid) + " " + action + " " + resource;
        }
    }

    /** A function: its role, the role's grants and managed policies, and what the Lambda service itself needs. */
    record Function(String logicalId, String role, List<Grant> grants, List<String> managedPolicies,
                    Map<String, String> environment, String logGroupArn, boolean tracing, List<String> failureDestinations) {
    }

    private final Map<String, Object> resources;
    private final Map<String, Object> parameters;
    private final Map<String, Object> conditions;
    /** resolved physical name -> logical id, longest first (for display). */
    private final Map<String, String> names = new TreeMap<>((a, b) -> a.length() != b.length() ? b.length() - a.length() : a.compareTo(b));

    @SuppressWarnings("unchecked")
    IamModel(Map<String, Object> template) {
        this.resources = (Map<String, Object>) template.get("Resources");
        this.parameters = (Map<String, Object>) template.getOrDefault("Parameters", Map.of());
        this.conditions = (Map<String, Object>) template.getOrDefault("Conditions", Map.of());
        for (String logical : resources.keySet()) {
            String name = physicalName(logical);
            if (name != null) {
                names.put(name, logical);
            }
        }
    }

    /** Runs scripts/sam-transform.py (python3 with cfn-lint, as .ci/run uses it) on infra/template.yaml. */
    static IamModel transformed(Path repository) throws IOException, InterruptedException {
        Path out = Files.createTempFile("transformed-template", ".json");
        try {
            Process process = new ProcessBuilder("python3", "scripts/sam-transform.py", "infra/template.yaml", out.toString())
                    .directory(repository.toFile()).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new AssertionError("scripts/sam-transform.py failed (it needs python3 with cfn-lint, as .ci/run does):\n" + output);
            }
            return new IamModel(JSON.std.mapFrom(Files.readString(out)));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Functions and roles
    // ---------------------------------------------------------------------------------------------------------------

    @SuppressWarnings("unchecked")
    Function function(String logicalId) {
        Map<String, Object> function = resource(logicalId, "AWS::Lambda::Function");
        Map<String, Object> properties = (Map<String, Object>) function.get("Properties");
        Object roleRef = properties.get("Role");
        if (!(roleRef instanceof Map<?, ?> ref) || !(ref.get("Fn::GetAtt") instanceof List<?> att) || !"Arn".equals(att.get(1))) {
            throw new AssertionError(logicalId + "'s Role is not a role of this template (Fn::GetAtt <role>.Arn): " + roleRef);
        }
        String roleId = (String) att.get(0);
        Map<String, Object> role = (Map<String, Object>) resource(roleId, "AWS::IAM::Role").get("Properties");
        List<Grant> grants = new ArrayList<>();
        for (Object policy : (List<Object>) role.getOrDefault("Policies", List.of())) {
            Map<String, Object> named = (Map<String, Object>) resolve(policy);
            grants.addAll(grants((String) named.get("PolicyName"), named.get("PolicyDocument")));
        }
        // AWS::IAM::Policy / ManagedPolicy resources attached to the role count as its grants too
        for (Map.Entry<String, Object> entry : resources.entrySet()) {
            Map<String, Object> other = (Map<String, Object>) entry.getValue();
            if ("AWS::IAM::Policy".equals(other.get("Type")) || "AWS::IAM::ManagedPolicy".equals(other.get("Type"))) {
                Map<String, Object> p = (Map<String, Object>) other.get("Properties");
                Object roles = p.get("Roles");
                if (roles instanceof List<?> list && list.stream().anyMatch(r -> r instanceof Map<?, ?> m && roleId.equals(m.get("Ref")))) {
                    grants.addAll(grants(entry.getKey(), resolve(p.get("PolicyDocument"))));
                }
            }
        }
        List<String> managed = new ArrayList<>();
        for (Object arn : (List<Object>) role.getOrDefault("ManagedPolicyArns", List.of())) {
            managed.add(String.valueOf(resolve(arn)));
        }
        Map<String, String> environment = new LinkedHashMap<>();
        Object env = resolve(properties.get("Environment"));
        if (env instanceof Map<?, ?> e && e.get("Variables") instanceof Map<?, ?> variables) {
            variables.forEach((k, v) -> environment.put(String.valueOf(k), String.valueOf(v)));
        }
        String logGroupName = "/aws/lambda/" + resolve(properties.get("FunctionName"));
        if (resolve(properties.get("LoggingConfig")) instanceof Map<?, ?> logging && logging.get("LogGroup") != null) {
            logGroupName = String.valueOf(logging.get("LogGroup"));
        }
        String logGroupArn = "arn:aws:logs:" + REGION + ":" + ACCOUNT + ":log-group:" + logGroupName;
        boolean tracing = resolve(properties.get("TracingConfig")) instanceof Map<?, ?> t && "Active".equals(t.get("Mode"));
        List<String> destinations = new ArrayList<>();
        if (resolve(properties.get("DeadLetterConfig")) instanceof Map<?, ?> dlq && dlq.get("TargetArn") != null) {
            destinations.add(String.valueOf(dlq.get("TargetArn")));
        }
        for (Object value : resources.values()) {
            Map<String, Object> other = (Map<String, Object>) value;
            if ("AWS::Lambda::EventInvokeConfig".equals(other.get("Type"))) {
                Map<String, Object> p = (Map<String, Object>) other.get("Properties");
                if (p.get("FunctionName") instanceof Map<?, ?> m && logicalId.equals(m.get("Ref"))
                        && resolve(p.get("DestinationConfig")) instanceof Map<?, ?> config) {
                    for (Object destination : config.values()) {
                        if (destination instanceof Map<?, ?> d && d.get("Destination") != null) {
                            destinations.add(String.valueOf(d.get("Destination")));
                        }
                    }
                }
            }
        }
        return new Function(logicalId, roleId, grants, managed, environment, logGroupArn, tracing, destinations);
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

    @SuppressWarnings("unchecked")
    private Map<String, Object> resource(String logicalId, String type) {
        Map<String, Object> resource = (Map<String, Object>) resources.get(logicalId);
        if (resource == null || !type.equals(resource.get("Type"))) {
            throw new AssertionError("the transformed template has no " + type + " " + logicalId);
        }
        return resource;
    }

    /** {@code arn:aws:s3:::landing-ledger-dev-lake-...} -> {@code arn:aws:s3:::{LakeBucket}}. */
    String display(String text) {
        String shown = text;
        for (Map.Entry<String, String> name : names.entrySet()) {
            shown = shown.replace(name.getKey(), "{" + name.getValue() + "}");
        }
        return shown.replace(":" + REGION + ":" + ACCOUNT + ":", ":{Region}:{Account}:");
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Intrinsics
    // ---------------------------------------------------------------------------------------------------------------

    @SuppressWarnings("unchecked")
    Object resolve(Object node) {
        if (node instanceof Map<?, ?> map) {
            if (map.size() == 1) {
                String key = (String) map.keySet().iterator().next();
                Object argument = map.get(key);
                if (key.equals("Ref")) {
                    return ref((String) argument);
                }
                if (key.startsWith("Fn::")) {
                    return intrinsic(key, argument);
                }
            }
            Map<String, Object> resolved = new LinkedHashMap<>();
            map.forEach((k, v) -> {
                Object value = resolve(v);
                if (value != NO_VALUE) {
                    resolved.put((String) k, value);
                }
            });
            return resolved;
        }
        if (node instanceof List<?> list) {
            List<Object> resolved = new ArrayList<>();
            for (Object item : list) {
                Object value = resolve(item);
                if (value != NO_VALUE) {
                    resolved.add(value);
                }
            }
            return resolved;
        }
        return node;
    }

    @SuppressWarnings("unchecked")
    private Object intrinsic(String function, Object argument) {
        switch (function) {
            case "Fn::GetAtt" -> {
                List<Object> parts = argument instanceof List<?> l ? (List<Object>) l
                        : List.of(((String) argument).substring(0, ((String) argument).indexOf('.')),
                                ((String) argument).substring(((String) argument).indexOf('.') + 1));
                return getAtt(String.valueOf(resolve(parts.get(0))), String.valueOf(resolve(parts.get(1))));
            }
            case "Fn::Sub" -> {
                String text;
                Map<String, Object> variables = Map.of();
                if (argument instanceof List<?> l) {
                    text = (String) l.get(0);
                    variables = (Map<String, Object>) resolve(l.get(1));
                } else {
                    text = (String) argument;
                }
                return sub(text, variables);
            }
            case "Fn::Join" -> {
                List<Object> l = (List<Object>) argument;
                List<Object> items = (List<Object>) resolve(l.get(1));
                return String.join((String) l.get(0), items.stream().map(String::valueOf).toList());
            }
            case "Fn::Select" -> {
                List<Object> l = (List<Object>) argument;
                return ((List<Object>) resolve(l.get(1))).get(Integer.parseInt(String.valueOf(resolve(l.get(0)))));
            }
            case "Fn::Split" -> {
                List<Object> l = (List<Object>) argument;
                return List.of(String.valueOf(resolve(l.get(1))).split(Pattern.quote((String) l.get(0)), -1));
            }
            case "Fn::If" -> {
                List<Object> l = (List<Object>) argument;
                return resolve(condition((String) l.get(0)) ? l.get(1) : l.get(2));
            }
            default -> {
                return "{" + function + "}";
            }
        }
    }

    private boolean condition(String name) {
        return truth(conditions.get(name));
    }

    @SuppressWarnings("unchecked")
    private boolean truth(Object node) {
        if (node instanceof Map<?, ?> map && map.size() == 1) {
            String key = (String) map.keySet().iterator().next();
            List<Object> args = map.get(key) instanceof List<?> l ? (List<Object>) l : List.of(map.get(key));
            return switch (key) {
                case "Fn::Equals" -> Objects.equals(String.valueOf(resolve(args.get(0))), String.valueOf(resolve(args.get(1))));
                case "Fn::Not" -> !truth(args.get(0));
                case "Fn::And" -> args.stream().allMatch(this::truth);
                case "Fn::Or" -> args.stream().anyMatch(this::truth);
                case "Condition" -> condition((String) args.get(0));
                default -> throw new AssertionError("condition function " + key + " is not evaluated");
            };
        }
        throw new AssertionError("not a condition: " + node);
    }

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}]*)}");

    private String sub(String text, Map<String, Object> variables) {
        Matcher matcher = VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            String name = matcher.group(1);
            String value;
            if (name.startsWith("!")) {
                value = "${" + name.substring(1) + "}";
            } else if (variables.containsKey(name)) {
                value = String.valueOf(variables.get(name));
            } else if (name.contains(".") && !name.startsWith("AWS::")) {
                value = getAtt(name.substring(0, name.indexOf('.')), name.substring(name.indexOf('.') + 1));
            } else {
                value = String.valueOf(ref(name));
            }
            matcher.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private Object ref(String name) {
        switch (name) {
            case "AWS::AccountId" -> {
                return ACCOUNT;
            }
            case "AWS::Region" -> {
                return REGION;
            }
            case "AWS::Partition" -> {
                return "aws";
            }
            case "AWS::URLSuffix" -> {
                return "amazonaws.com";
            }
            case "AWS::StackName" -> {
                return "landing-ledger-stack";
            }
            case "AWS::NoValue" -> {
                return NO_VALUE;
            }
            default -> {
            }
        }
        if (parameters.containsKey(name)) {
            Object defaultValue = ((Map<String, Object>) parameters.get(name)).get("Default");
            return defaultValue == null ? "{" + name + "}" : String.valueOf(defaultValue);
        }
        Map<String, Object> resource = (Map<String, Object>) resources.get(name);
        if (resource == null) {
            throw new AssertionError("Ref to " + name + ", which the transformed template does not define");
        }
        String type = (String) resource.get("Type");
        String physical = physicalName(name);
        String shown = physical == null ? "{" + name + "}" : physical;
        return switch (type) {
            case "AWS::Lambda::Alias" -> {
                Map<String, Object> p = (Map<String, Object>) resource.get("Properties");
                yield functionArn(String.valueOf(resolve(p.get("FunctionName")))) + ":" + resolve(p.get("Name"));
            }
            case "AWS::SQS::Queue" -> "https://sqs." + REGION + ".amazonaws.com/" + ACCOUNT + "/" + shown;
            case "AWS::SNS::Topic" -> "arn:aws:sns:" + REGION + ":" + ACCOUNT + ":" + shown;
            default -> shown;
        };
    }

    private static String functionArn(String nameOrArn) {
        return nameOrArn.startsWith("arn:") ? nameOrArn : "arn:aws:lambda:" + REGION + ":" + ACCOUNT + ":function:" + nameOrArn;
    }

    @SuppressWarnings("unchecked")
    private String getAtt(String logical, String attribute) {
        Map<String, Object> resource = (Map<String, Object>) resources.get(logical);
        if (resource == null) {
            throw new AssertionError("Fn::GetAtt of " + logical + ", which the transformed template does not define");
        }
        String type = (String) resource.get("Type");
        String physical = physicalName(logical);
        String name = physical == null ? "{" + logical + "}" : physical;
        String arn = switch (type) {
            case "AWS::S3::Bucket" -> "arn:aws:s3:::" + name;
            case "AWS::DynamoDB::Table" -> "arn:aws:dynamodb:" + REGION + ":" + ACCOUNT + ":table/" + name;
            case "AWS::Lambda::Function" -> functionArn(name);
            case "AWS::SQS::Queue" -> "arn:aws:sqs:" + REGION + ":" + ACCOUNT + ":" + name;
            case "AWS::Logs::LogGroup" -> "arn:aws:logs:" + REGION + ":" + ACCOUNT + ":log-group:" + name + ":*";
            case "AWS::Events::EventBus" -> "arn:aws:events:" + REGION + ":" + ACCOUNT + ":event-bus/" + name;
            case "AWS::IAM::Role" -> "arn:aws:iam::" + ACCOUNT + ":role/" + name;
            case "AWS::SNS::Topic" -> "arn:aws:sns:" + REGION + ":" + ACCOUNT + ":" + name;
            default -> "{" + logical + ".Arn}";
        };
        return switch (attribute) {
            case "Arn" -> arn;
            case "StreamArn" -> arn + "/stream/{StreamLabel}";
            case "QueueName", "Name" -> name;
            default -> "{" + logical + "." + attribute + "}";
        };
    }

    @SuppressWarnings("unchecked")
    private String physicalName(String logical) {
        Map<String, Object> resource = (Map<String, Object>) resources.get(logical);
        Map<String, Object> properties = (Map<String, Object>) resource.getOrDefault("Properties", Map.of());
        String property = switch ((String) resource.get("Type")) {
            case "AWS::S3::Bucket" -> "BucketName";
            case "AWS::DynamoDB::Table" -> "TableName";
            case "AWS::Lambda::Function" -> "FunctionName";
            case "AWS::SQS::Queue" -> "QueueName";
            case "AWS::Logs::LogGroup" -> "LogGroupName";
            case "AWS::Events::EventBus" -> "Name";
            case "AWS::SNS::Topic" -> "TopicName";
            default -> null;
        };
        if (property == null || properties.get(property) == null) {
            return null;
        }
        Object name = resolve(properties.get(property));
        return name instanceof String s ? s : null;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Matching
    // ---------------------------------------------------------------------------------------------------------------

    /** IAM's wildcards: {@code *} any run of characters (also '/' and ':'), {@code ?} one character. */
    static boolean glob(String pattern, String value, boolean ignoreCase) {
        StringBuilder regex = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            switch (c) {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), ignoreCase ? Pattern.CASE_INSENSITIVE | Pattern.DOTALL : Pattern.DOTALL).matcher(value).matches();
    }

    static boolean actionMatches(String pattern, String action) {
        return glob(pattern, action, true);
    }

    static String lower(String text) {
        return text.toLowerCase(Locale.ROOT);
    }
}
