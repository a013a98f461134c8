package io.landingledger.localcloud.template;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One stack of a {@link Template}: its region, account and name (the pseudo parameters), its parameter values (the
 * overrides given, else the defaults, checked against the declared constraints as CloudFormation checks them), its
 * conditions, and its resources' physical side ({@link Resources}). Every reader of the template resolves values
 * through one of these: the deployer with the resources it created, a test with {@link #declared} names.
 */
public final class StackScope implements Scope {
    private final Template template;
    private final String region;
    private final String account;
    private final String stackName;
    private final String stackId;
    private final Resources resources;
    private final Map<String, String> parameters;
    private final Map<String, Boolean> conditions = new HashMap<>();
    private final Intrinsics intrinsics = new Intrinsics(this);

    public StackScope(Template template, String region, String account, String stackName, String stackId,
                      Map<String, String> overrides, Resources resources) {
        this.template = template;
        this.region = region;
        this.account = account;
        this.stackName = stackName;
        this.stackId = stackId;
        this.resources = resources;
        this.parameters = Map.copyOf(parameters(template, overrides));
    }

    /**
     * A stack that was never deployed, its resources named as the template declares them ({@link DeclaredNames}): what
     * a test that reads the template resolves against.
     */
    public static StackScope declared(Template template, String region, String account, String stackName,
                                      Map<String, String> overrides) {
        String stackId = "arn:aws:cloudformation:" + region + ":" + account + ":stack/" + stackName
                + "/00000000-0000-0000-0000-000000000000";
        return new StackScope(template, region, account, stackName, stackId, overrides, new DeclaredNames());
    }

    public Template template() {
        return template;
    }

    public String region() {
        return region;
    }

    public String account() {
        return account;
    }

    public String stackName() {
        return stackName;
    }

    /** The parameters' values: the overrides, else the defaults. */
    public Map<String, String> parameters() {
        return parameters;
    }

    /** {@code value} with every intrinsic replaced by its value; {@code where} names it in an error. */
    public Object resolve(Object value, String where) {
        return intrinsics.resolve(value, where);
    }

    /** {@code value} resolved to a string. */
    public String string(Object value, String where) {
        return intrinsics.string(value, where);
    }

    /** The resource's Properties, resolved. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> properties(String logicalId) {
        return (Map<String, Object>) resolve(template.properties(logicalId), logicalId + ".Properties");
    }

    /** Whether the resource is created: it has no Condition, or its Condition holds. */
    public boolean included(String logicalId) {
        return !(template.resource(logicalId).get("Condition") instanceof String name) || condition(name);
    }

    @Override
    public Object ref(String name) {
        switch (name) {
            case "AWS::AccountId":
                return account;
            case "AWS::Region":
                return region;
            case "AWS::Partition":
                return "aws";
            case "AWS::StackName":
                return stackName;
            case "AWS::StackId":
                return stackId;
            case "AWS::URLSuffix":
                return "amazonaws.com";
            default:
                break;
        }
        if (parameters.containsKey(name)) {
            return parameters.get(name);
        }
        return template.has(name) ? resources.ref(name, this) : null;
    }

    @Override
    public Object attribute(String logicalId, String attribute) {
        return template.has(logicalId) ? resources.attribute(logicalId, attribute, this) : null;
    }

    // synchronized: conditions are evaluated once, lazily, and one may name another (the lock is reentrant)
    @Override
    public synchronized boolean condition(String name) {
        Boolean known = conditions.get(name);
        if (known != null) {
            return known;
        }
        if (!template.conditions().containsKey(name)) {
            throw new TemplateException("condition " + name + " is not declared by the template");
        }
        Object value = resolve(template.conditions().get(name), "Conditions." + name);
        boolean result = value instanceof Boolean b ? b : Boolean.parseBoolean(String.valueOf(value));
        conditions.put(name, result);
        return result;
    }

    @Override
    public Object mapping(String map, String topKey, String secondKey) {
        if (template.mappings().get(map) instanceof Map<?, ?> top && top.get(topKey) instanceof Map<?, ?> second) {
            return second.get(secondKey);
        }
        return null;
    }

    /** The parameters' values, each checked against AllowedValues, AllowedPattern and MinValue/MaxValue. */
    private static Map<String, String> parameters(Template template, Map<String, String> values) {
        Map<String, Object> declared = template.parameters();
        for (String name : values.keySet()) {
            if (!declared.containsKey(name)) {
                throw new TemplateException("parameter " + name + " is not declared by the template");
            }
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        for (Map.Entry<String, Object> entry : declared.entrySet()) {
            Map<?, ?> spec = (Map<?, ?>) entry.getValue();
            String name = entry.getKey();
            Object value = values.containsKey(name) ? values.get(name) : spec.get("Default");
            if (value == null) {
                throw new TemplateException("parameter " + name + " has no value and no default");
            }
            String text = Intrinsics.scalar(value, "parameter " + name);
            if (spec.get("AllowedValues") instanceof List<?> allowed
                    && allowed.stream().map(v -> Intrinsics.scalar(v, name)).noneMatch(text::equals)) {
                throw new TemplateException("parameter " + name + " is '" + text + "', not one of " + allowed);
            }
            if (spec.get("AllowedPattern") instanceof String pattern && !Pattern.matches(pattern, text)) {
                throw new TemplateException("parameter " + name + " is '" + text + "', which does not match " + pattern);
            }
            if ("Number".equals(spec.get("Type"))) {
                double number;
                try {
                    number = Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw new TemplateException("parameter " + name + " is '" + text + "', not a number");
                }
                if (spec.get("MinValue") instanceof Number min && number < min.doubleValue()
                        || spec.get("MaxValue") instanceof Number max && number > max.doubleValue()) {
                    throw new TemplateException("parameter " + name + " is " + text + ", outside MinValue/MaxValue");
                }
            }
            parameters.put(name, text);
        }
        return parameters;
    }
}
