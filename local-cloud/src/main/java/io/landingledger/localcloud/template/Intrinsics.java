package io.landingledger.localcloud.template;

import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CloudFormation's intrinsic functions over what one stack knows ({@link Scope}): Ref, Fn::GetAtt, Fn::Sub, Fn::Join,
 * Fn::Select, Fn::Split, Fn::If, Fn::Equals, Fn::Not, Fn::And, Fn::Or, Fn::Base64, Fn::FindInMap, Fn::GetAZs and
 * {@code AWS::NoValue}. The one implementation the deployer and the template tests share, so a test reads a value as
 * the deploy resolves it. An intrinsic not implemented here, or a reference to something the scope does not hold,
 * is a {@link TemplateException} naming where it is, never a value left unresolved.
 */
final class Intrinsics {
    /** The value of {@code AWS::NoValue}: the property is removed. */
    static final Object NO_VALUE = new Object();
    private static final Pattern SUB_VARIABLE = Pattern.compile("\\$\\{([^}]*)}");

    private final Scope scope;

    Intrinsics(Scope scope) {
        this.scope = scope;
    }

    /** {@code value} with every intrinsic replaced by its value ({@link #NO_VALUE} entries dropped). */
    Object resolve(Object value, String where) {
        if (value instanceof Map<?, ?> map) {
            if (map.size() == 1) {
                String key = String.valueOf(map.keySet().iterator().next());
                if (key.equals("Ref") || key.startsWith("Fn::")) {
                    return function(key, map.get(key), where);
                }
            }
            Map<String, Object> resolved = new LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                Object v = resolve(entry.getValue(), where + "." + entry.getKey());
                if (v != NO_VALUE) {
                    resolved.put(String.valueOf(entry.getKey()), v);
                }
            }
            return resolved;
        }
        if (value instanceof List<?> list) {
            List<Object> resolved = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                Object v = resolve(list.get(i), where + "[" + i + "]");
                if (v != NO_VALUE) {
                    resolved.add(v);
                }
            }
            return resolved;
        }
        return value;
    }

    private Object function(String name, Object argument, String where) {
        String at = where + " (" + name + ")";
        switch (name) {
            case "Ref": {
                String target = String.valueOf(argument);
                if (target.equals("AWS::NoValue")) {
                    return NO_VALUE;
                }
                Object value = scope.ref(target);
                if (value == null) {
                    throw new TemplateException(at + ": Ref " + target + " names no parameter or created resource");
                }
                return value;
            }
            case "Fn::GetAtt": {
                // the attribute may itself be a Ref (to a parameter), as CloudFormation allows
                List<String> parts = argument instanceof List<?> list ? list.stream().map(p -> scalar(resolve(p, at), at)).toList()
                        : List.of(String.valueOf(argument).split("\\.", 2));
                if (parts.size() != 2) {
                    throw new TemplateException(at + ": Fn::GetAtt needs [logicalId, attribute], got " + argument);
                }
                Object value = scope.attribute(parts.get(0), parts.get(1));
                if (value == null) {
                    throw new TemplateException(at + ": Fn::GetAtt " + parts.get(0) + "." + parts.get(1) + " is not an attribute of a created resource");
                }
                return value;
            }
            case "Fn::Sub":
                return sub(argument, at);
            case "Fn::Join": {
                List<?> args = list(argument, 2, at);
                List<?> items = (List<?>) resolve(args.get(1), at);
                List<String> strings = new ArrayList<>();
                for (Object item : items) {
                    strings.add(scalar(item, at));
                }
                return String.join(String.valueOf(args.get(0)), strings);
            }
            case "Fn::Select": {
                List<?> args = list(argument, 2, at);
                int index = Integer.parseInt(scalar(resolve(args.get(0), at), at));
                List<?> items = (List<?>) resolve(args.get(1), at);
                if (index < 0 || index >= items.size()) {
                    throw new TemplateException(at + ": index " + index + " outside a list of " + items.size());
                }
                return items.get(index);
            }
            case "Fn::Split": {
                List<?> args = list(argument, 2, at);
                return List.of(scalar(resolve(args.get(1), at), at).split(Pattern.quote(String.valueOf(args.get(0))), -1));
            }
            case "Fn::If": {
                List<?> args = list(argument, 3, at);
                return resolve(scope.condition(String.valueOf(args.get(0))) ? args.get(1) : args.get(2), at);
            }
            case "Fn::Equals": {
                List<?> args = list(argument, 2, at);
                return scalar(resolve(args.get(0), at), at).equals(scalar(resolve(args.get(1), at), at));
            }
            case "Fn::Not":
                return !truth(list(argument, 1, at).get(0), at);
            case "Fn::And": {
                boolean all = true;
                for (Object item : (List<?>) argument) {
                    all &= truth(item, at);
                }
                return all;
            }
            case "Fn::Or": {
                boolean any = false;
                for (Object item : (List<?>) argument) {
                    any |= truth(item, at);
                }
                return any;
            }
            case "Fn::Base64":
                return Base64.getEncoder().encodeToString(scalar(resolve(argument, at), at).getBytes(StandardCharsets.UTF_8));
            case "Fn::FindInMap": {
                List<?> args = list(argument, 3, at);
                String map = scalar(resolve(args.get(0), at), at);
                String top = scalar(resolve(args.get(1), at), at);
                String second = scalar(resolve(args.get(2), at), at);
                Object value = scope.mapping(map, top, second);
                if (value == null) {
                    throw new TemplateException(at + ": Mappings has no " + map + "." + top + "." + second);
                }
                return value;
            }
            case "Fn::GetAZs":
                return List.of("us-east-1a", "us-east-1b", "us-east-1c");
            default:
                throw new TemplateException(at + ": " + name + " is not implemented by the template model");
        }
    }

    private boolean truth(Object value, String at) {
        if (value instanceof Map<?, ?> map && map.size() == 1 && map.containsKey("Condition")) {
            return scope.condition(String.valueOf(map.get("Condition")));
        }
        Object resolved = resolve(value, at);
        if (resolved instanceof Boolean b) {
            return b;
        }
        return Boolean.parseBoolean(String.valueOf(resolved));
    }

    private Object sub(Object argument, String at) {
        String text;
        Map<String, Object> variables = new LinkedHashMap<>();
        if (argument instanceof List<?> list) {
            text = String.valueOf(list.get(0));
            if (list.size() > 1 && list.get(1) instanceof Map<?, ?> vars) {
                vars.forEach((k, v) -> variables.put(String.valueOf(k), resolve(v, at)));
            }
        } else {
            text = String.valueOf(argument);
        }
        Matcher matcher = SUB_VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            String name = matcher.group(1);
            String replacement;
            if (name.startsWith("!")) {
                replacement = "${" + name.substring(1) + "}";
            } else if (variables.containsKey(name)) {
                replacement = scalar(variables.get(name), at);
            } else if (name.contains(".") && !name.startsWith("AWS::")) {
                String[] parts = name.split("\\.", 2);
                Object value = scope.attribute(parts[0], parts[1]);
                if (value == null) {
                    throw new TemplateException(at + ": ${" + name + "} is not an attribute of a created resource");
                }
                replacement = scalar(value, at);
            } else {
                Object value = scope.ref(name);
                if (value == null) {
                    throw new TemplateException(at + ": ${" + name + "} names no parameter or created resource");
                }
                replacement = scalar(value, at);
            }
            matcher.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    private static List<?> list(Object argument, int size, String at) {
        if (!(argument instanceof List<?> list) || list.size() < size) {
            throw new TemplateException(at + ": expected a list of " + size + ", got " + argument);
        }
        return list;
    }

    /** {@code value} resolved to a string (a number as CloudFormation writes it: 30, not 30.0). */
    String string(Object value, String where) {
        return scalar(resolve(value, where), where);
    }

    static String scalar(Object value, String at) {
        if (value instanceof Map<?, ?> || value instanceof List<?> || value == null || value == NO_VALUE) {
            throw new TemplateException(at + ": expected a string, got " + value);
        }
        if (value instanceof Double d && d == Math.rint(d)) {
            return Long.toString(d.longValue());
        }
        return String.valueOf(value);
    }

    /** The logical ids {@code value} depends on: Ref, Fn::GetAtt and Fn::Sub references to resources. */
    static Set<String> references(Object value, Set<String> resources) {
        Set<String> found = new LinkedHashSet<>();
        collect(value, resources, found);
        return found;
    }

    private static void collect(Object value, Set<String> resources, Set<String> found) {
        if (value instanceof Map<?, ?> map) {
            if (map.size() == 1) {
                String key = String.valueOf(map.keySet().iterator().next());
                Object argument = map.get(key);
                if (key.equals("Ref") && resources.contains(String.valueOf(argument))) {
                    found.add(String.valueOf(argument));
                } else if (key.equals("Fn::GetAtt")) {
                    String target = argument instanceof List<?> list ? String.valueOf(list.get(0)) : String.valueOf(argument).split("\\.")[0];
                    if (resources.contains(target)) {
                        found.add(target);
                    }
                } else if (key.equals("Fn::Sub")) {
                    String text = String.valueOf(argument instanceof List<?> list ? list.get(0) : argument);
                    Matcher matcher = SUB_VARIABLE.matcher(text);
                    while (matcher.find()) {
                        String name = matcher.group(1).split("\\.")[0];
                        if (resources.contains(name)) {
                            found.add(name);
                        }
                    }
                }
            }
            for (Object v : map.values()) {
                collect(v, resources, found);
            }
        } else if (value instanceof List<?> list) {
            for (Object v : list) {
                collect(v, resources, found);
            }
        }
    }
}
