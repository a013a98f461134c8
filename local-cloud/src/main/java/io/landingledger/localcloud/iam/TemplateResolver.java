package io.landingledger.localcloud.iam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The intrinsic functions IAM documents in a CloudFormation template use, resolved for one notional deployment (a
 * region, an account, parameters at their defaults unless overridden): Ref (parameters, pseudo parameters, the
 * physical names of the resources that declare one), Fn::GetAtt (Arn and a few others), Fn::Sub, Fn::Join, Fn::Split,
 * Fn::Select. A role's name is its RoleName or, when CloudFormation would generate one, its logical id. Anything else
 * (Fn::If, Fn::ImportValue, a resource without a declared name) throws {@link IllegalStateException} naming it:
 * a policy never resolves to a wrong ARN silently.
 */
final class TemplateResolver {
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}]*)}");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final JsonNode resources;
    private final JsonNode parameters;
    private final Map<String, String> overrides;
    private final String region;
    private final String account;
    private final String stackName;

    TemplateResolver(JsonNode template, String region, String account, String stackName,
            Map<String, String> overrides) {
        this.resources = template.path("Resources");
        this.parameters = template.path("Parameters");
        this.overrides = Map.copyOf(overrides);
        this.region = region;
        this.account = account;
        this.stackName = stackName;
    }

    /** {@code node} with every intrinsic replaced by its value. */
    JsonNode resolve(JsonNode node) {
        if (node.isObject() && node.size() == 1) {
            String key = node.fieldNames().next();
            if (key.equals("Ref")) {
                return NODES.textNode(ref(node.get(key).asText()));
            }
            if (key.startsWith("Fn::")) {
                return intrinsic(key, node.get(key));
            }
        }
        if (node.isObject()) {
            ObjectNode out = NODES.objectNode();
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                out.set(field.getKey(), resolve(field.getValue()));
            }
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = NODES.arrayNode();
            node.forEach(item -> out.add(resolve(item)));
            return out;
        }
        return node;
    }

    String string(JsonNode node) {
        JsonNode resolved = resolve(node);
        if (!resolved.isValueNode()) {
            throw new IllegalStateException("not a string: " + node);
        }
        return resolved.asText();
    }

    private JsonNode intrinsic(String function, JsonNode argument) {
        switch (function) {
            case "Fn::GetAtt" -> {
                List<String> parts = argument.isArray() ? List.of(argument.get(0).asText(), string(argument.get(1)))
                        : List.of(argument.asText().split("\\.", 2));
                return NODES.textNode(getAtt(parts.get(0), parts.get(1)));
            }
            case "Fn::Sub" -> {
                String text = argument.isArray() ? argument.get(0).asText() : argument.asText();
                JsonNode variables = argument.isArray() ? argument.get(1) : NODES.objectNode();
                return NODES.textNode(sub(text, variables));
            }
            case "Fn::Join" -> {
                List<String> items = new ArrayList<>();
                resolve(argument.get(1)).forEach(item -> items.add(item.asText()));
                return NODES.textNode(String.join(argument.get(0).asText(), items));
            }
            case "Fn::Split" -> {
                ArrayNode out = NODES.arrayNode();
                for (String part : string(argument.get(1)).split(Pattern.quote(argument.get(0).asText()), -1)) {
                    out.add(part);
                }
                return out;
            }
            case "Fn::Select" -> {
                return resolve(argument.get(1)).get(Integer.parseInt(string(argument.get(0))));
            }
            default -> throw new IllegalStateException(function + " is not resolved by TemplateResolver: " + argument);
        }
    }

    private String sub(String text, JsonNode variables) {
        Matcher matcher = VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            String name = matcher.group(1);
            String value;
            if (name.startsWith("!")) {
                value = "${" + name.substring(1) + "}";
            } else if (variables.has(name)) {
                value = string(variables.get(name));
            } else if (name.contains(".") && !name.startsWith("AWS::")) {
                value = getAtt(name.substring(0, name.indexOf('.')), name.substring(name.indexOf('.') + 1));
            } else {
                value = ref(name);
            }
            matcher.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    String ref(String name) {
        switch (name) {
            case "AWS::Region" -> {
                return region;
            }
            case "AWS::AccountId" -> {
                return account;
            }
            case "AWS::Partition" -> {
                return "aws";
            }
            case "AWS::URLSuffix" -> {
                return "amazonaws.com";
            }
            case "AWS::StackName" -> {
                return stackName;
            }
            default -> {
            }
        }
        if (overrides.containsKey(name)) {
            return overrides.get(name);
        }
        if (parameters.has(name)) {
            JsonNode value = parameters.get(name).get("Default");
            if (value == null) {
                throw new IllegalStateException("parameter " + name + " has no Default: pass its value");
            }
            return value.asText();
        }
        JsonNode resource = resource(name);
        String type = resource.path("Type").asText();
        return switch (type) {
            case "AWS::Lambda::Alias" -> functionArn(string(resource.path("Properties").get("FunctionName"))) + ":"
                    + string(resource.path("Properties").get("Name"));
            case "AWS::SQS::Queue" -> "https://sqs." + region + ".amazonaws.com/" + account + "/" + physicalName(name);
            case "AWS::IAM::Role" -> roleName(name);
            default -> physicalName(name);
        };
    }

    private String getAtt(String name, String attribute) {
        JsonNode resource = resource(name);
        String type = resource.path("Type").asText();
        String arn = switch (type) {
            case "AWS::S3::Bucket" -> "arn:aws:s3:::" + physicalName(name);
            case "AWS::DynamoDB::Table" -> "arn:aws:dynamodb:" + region + ":" + account + ":table/"
                    + physicalName(name);
            case "AWS::SQS::Queue" -> "arn:aws:sqs:" + region + ":" + account + ":" + physicalName(name);
            case "AWS::Lambda::Function" -> functionArn(physicalName(name));
            case "AWS::IAM::Role" -> "arn:aws:iam::" + account + ":role/" + roleName(name);
            case "AWS::Logs::LogGroup" -> "arn:aws:logs:" + region + ":" + account + ":log-group:" + physicalName(name)
                    + ":*";
            case "AWS::Events::EventBus" -> "arn:aws:events:" + region + ":" + account + ":event-bus/"
                    + physicalName(name);
            case "AWS::Events::Rule" -> "arn:aws:events:" + region + ":" + account + ":rule/" + physicalName(name);
            case "AWS::Scheduler::ScheduleGroup" -> "arn:aws:scheduler:" + region + ":" + account + ":schedule-group/"
                    + physicalName(name);
            case "AWS::SNS::Topic" -> "arn:aws:sns:" + region + ":" + account + ":" + physicalName(name);
            default -> null;
        };
        return switch (attribute) {
            case "Arn" -> {
                if (arn == null) {
                    throw new IllegalStateException("Fn::GetAtt " + name + ".Arn: " + type
                            + " is not resolved by TemplateResolver");
                }
                yield arn;
            }
            // the label is chosen by DynamoDB at creation; a fixed one here
            case "StreamArn" -> arn + "/stream/1970-01-01T00:00:00.000";
            case "QueueName", "Name" -> physicalName(name);
            default -> throw new IllegalStateException("Fn::GetAtt " + name + "." + attribute
                    + " is not resolved by TemplateResolver");
        };
    }

    private String functionArn(String nameOrArn) {
        return nameOrArn.startsWith("arn:") ? nameOrArn : "arn:aws:lambda:" + region + ":" + account + ":function:"
                + nameOrArn;
    }

    String roleName(String logical) {
        JsonNode declared = resource(logical).path("Properties").get("RoleName");
        return declared == null ? logical : string(declared);
    }

    /** The name a resource declares (BucketName, TableName, ...). */
    String physicalName(String logical) {
        JsonNode resource = resource(logical);
        JsonNode properties = resource.path("Properties");
        JsonNode declared = switch (resource.path("Type").asText()) {
            case "AWS::S3::Bucket" -> properties.get("BucketName");
            case "AWS::DynamoDB::Table" -> properties.get("TableName");
            case "AWS::Lambda::Function" -> properties.get("FunctionName");
            case "AWS::SQS::Queue" -> properties.get("QueueName");
            case "AWS::Logs::LogGroup" -> properties.get("LogGroupName");
            case "AWS::Events::EventBus", "AWS::Events::Rule", "AWS::Scheduler::ScheduleGroup",
                    "AWS::Athena::WorkGroup" -> properties.get("Name");
            case "AWS::SNS::Topic" -> properties.get("TopicName");
            case "AWS::Glue::Database" -> properties.path("DatabaseInput").get("Name");
            case "AWS::Glue::Table" -> properties.path("TableInput").get("Name");
            default -> null;
        };
        if (declared == null) {
            throw new IllegalStateException(logical + " (" + resource.path("Type").asText()
                    + ") declares no name TemplateResolver knows");
        }
        return string(declared);
    }

    private JsonNode resource(String logical) {
        JsonNode resource = resources.get(logical);
        if (resource == null) {
            throw new IllegalStateException("the template has no resource or parameter " + logical);
        }
        return resource;
    }
}
