package io.landingledger.localcloud.iam;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A parsed IAM policy: an identity policy, a resource-based policy (a bucket policy) or a role's trust policy, with
 * the name the messages give it ({@code validator}, {@code LakeBucketPolicy}). Parsing is strict where IAM is: a
 * document IAM would refuse raises {@link MalformedPolicyException} naming the policy, the statement and the element.
 * Condition operators are not checked here (a policy with an operator this package does not evaluate still parses;
 * {@link PolicyEvaluator} then fails that statement closed, with the reason).
 */
public record PolicyDocument(String name, String version, List<Statement> statements) {
    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    private static final Set<String> VERSIONS = Set.of("2012-10-17", "2008-10-17");
    private static final Set<String> TOP_LEVEL = Set.of("Version", "Id", "Statement");
    private static final Set<String> ELEMENTS = Set.of("Sid", "Effect", "Principal", "NotPrincipal", "Action",
            "NotAction", "Resource", "NotResource",
            "Condition");
    private static final Set<String> PRINCIPAL_TYPES = Set.of("AWS", "Service", "Federated", "CanonicalUser");

    public PolicyDocument {
        statements = List.copyOf(statements);
    }

    /** Parses {@code json}; {@code name} is how decisions and errors name the policy. */
    public static PolicyDocument parse(String name, String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new MalformedPolicyException("policy " + name + " is not JSON: " + e.getOriginalMessage(), e);
        }
        return parse(name, root);
    }

    /** Parses a document already read as a tree (from a template: maps and lists converted by Jackson). */
    public static PolicyDocument parse(String name, JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new MalformedPolicyException("policy " + name + ": the document is not a JSON object");
        }
        for (Iterator<String> fields = root.fieldNames(); fields.hasNext(); ) {
            String field = fields.next();
            if (!TOP_LEVEL.contains(field)) {
                throw new MalformedPolicyException("policy " + name + ": unknown top-level element " + field);
            }
        }
        String version = null;
        if (root.has("Version")) {
            version = root.get("Version").isTextual() ? root.get("Version").asText() : null;
            if (version == null || !VERSIONS.contains(version)) {
                throw new MalformedPolicyException("policy " + name
                        + ": Version must be 2012-10-17 (or 2008-10-17), not " + root.get("Version"));
            }
        }
        JsonNode statement = root.get("Statement");
        if (statement == null) {
            throw new MalformedPolicyException("policy " + name + ": no Statement");
        }
        List<JsonNode> nodes = new ArrayList<>();
        if (statement.isArray()) {
            statement.forEach(nodes::add);
        } else {
            nodes.add(statement);
        }
        if (nodes.isEmpty()) {
            throw new MalformedPolicyException("policy " + name + ": Statement is an empty list");
        }
        List<Statement> statements = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            statements.add(statement(name, i, nodes.get(i)));
        }
        return new PolicyDocument(name, version, statements);
    }

    private static Statement statement(String policy, int index, JsonNode node) {
        if (!node.isObject()) {
            throw new MalformedPolicyException("policy " + policy + " statement #" + index + ": not a JSON object");
        }
        String sid = node.has("Sid") ? node.get("Sid").asText() : null;
        String where = "policy " + policy + " statement " + (sid != null ? sid : "#" + index);
        for (Iterator<String> fields = node.fieldNames(); fields.hasNext(); ) {
            String field = fields.next();
            if (!ELEMENTS.contains(field)) {
                throw new MalformedPolicyException(where + ": unknown element " + field);
            }
        }
        if (node.has("Sid") && !node.get("Sid").isTextual()) {
            throw new MalformedPolicyException(where + ": Sid must be a string");
        }
        JsonNode effectNode = node.get("Effect");
        Effect effect;
        if (effectNode != null && "Allow".equals(effectNode.asText(null))) {
            effect = Effect.ALLOW;
        } else if (effectNode != null && "Deny".equals(effectNode.asText(null))) {
            effect = Effect.DENY;
        } else {
            throw new MalformedPolicyException(where + ": Effect must be Allow or Deny, not " + effectNode);
        }
        String actionElement = exactlyOne(where, node, "Action", "NotAction", true);
        List<String> actions = strings(where, actionElement, node.get(actionElement));
        for (String action : actions) {
            if (!action.equals("*") && action.indexOf(':') <= 0) {
                throw new MalformedPolicyException(where + ": " + actionElement + " " + action
                        + " is not service:action or *");
            }
        }
        String resourceElement = exactlyOne(where, node, "Resource", "NotResource", false);
        List<String> resources = resourceElement == null ? List.of()
                : strings(where, resourceElement, node.get(resourceElement));
        String principalElement = exactlyOne(where, node, "Principal", "NotPrincipal", false);
        PrincipalElement principal = principalElement == null ? null
                : principal(where + " " + principalElement, node.get(principalElement));
        List<ConditionClause> conditions = node.has("Condition") ? conditions(where, node.get("Condition")) : List.of();
        return new Statement(index, sid, effect, principal, "NotPrincipal".equals(principalElement), actions,
                "NotAction".equals(actionElement), resources, "NotResource".equals(resourceElement), conditions);
    }

    private static String exactlyOne(String where, JsonNode node, String element, String negated, boolean required) {
        if (node.has(element) && node.has(negated)) {
            throw new MalformedPolicyException(where + ": both " + element + " and " + negated);
        }
        if (node.has(element)) {
            return element;
        }
        if (node.has(negated)) {
            return negated;
        }
        if (required) {
            throw new MalformedPolicyException(where + ": neither " + element + " nor " + negated);
        }
        return null;
    }

    /** A string or a non-empty list of strings. */
    private static List<String> strings(String where, String element, JsonNode value) {
        List<String> out = new ArrayList<>();
        if (value.isTextual()) {
            out.add(value.asText());
        } else if (value.isArray() && !value.isEmpty()) {
            for (JsonNode item : value) {
                if (!item.isTextual()) {
                    throw new MalformedPolicyException(where + ": " + element + " holds a non-string " + item);
                }
                out.add(item.asText());
            }
        } else {
            throw new MalformedPolicyException(where + ": " + element
                    + " must be a string or a non-empty list of strings, not " + value);
        }
        return out;
    }

    private static PrincipalElement principal(String where, JsonNode value) {
        if (value.isTextual()) {
            if (!value.asText().equals("*")) {
                throw new MalformedPolicyException(where + ": a string principal must be \"*\", not " + value);
            }
            return PrincipalElement.anyone();
        }
        if (!value.isObject() || value.isEmpty()) {
            throw new MalformedPolicyException(where + ": must be \"*\" or an object of principal types, not " + value);
        }
        Map<String, List<String>> byType = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> fields = value.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!PRINCIPAL_TYPES.contains(field.getKey())) {
                throw new MalformedPolicyException(where + ": unknown principal type " + field.getKey());
            }
            byType.put(field.getKey(), strings(where, field.getKey(), field.getValue()));
        }
        return new PrincipalElement(false, byType);
    }

    private static List<ConditionClause> conditions(String where, JsonNode value) {
        if (!value.isObject()) {
            throw new MalformedPolicyException(where + ": Condition must be an object of operators, not " + value);
        }
        List<ConditionClause> clauses = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> operators = value.fields(); operators.hasNext(); ) {
            Map.Entry<String, JsonNode> operator = operators.next();
            if (!operator.getValue().isObject() || operator.getValue().isEmpty()) {
                throw new MalformedPolicyException(where + ": Condition " + operator.getKey()
                        + " must be a non-empty object of keys");
            }
            for (Iterator<Map.Entry<String, JsonNode>> keys = operator.getValue().fields(); keys.hasNext(); ) {
                Map.Entry<String, JsonNode> key = keys.next();
                clauses.add(new ConditionClause(operator.getKey(), key.getKey(),
                        conditionValues(where, operator.getKey(), key)));
            }
        }
        return clauses;
    }

    private static List<String> conditionValues(String where, String operator, Map.Entry<String, JsonNode> key) {
        List<JsonNode> items = new ArrayList<>();
        if (key.getValue().isArray()) {
            key.getValue().forEach(items::add);
        } else {
            items.add(key.getValue());
        }
        List<String> values = new ArrayList<>();
        for (JsonNode item : items) {
            if (!item.isValueNode() || item.isNull()) {
                throw new MalformedPolicyException(where + ": Condition " + operator + " " + key.getKey()
                        + " values must be strings, numbers or booleans, not " + item);
            }
            values.add(item.asText());
        }
        if (values.isEmpty()) {
            throw new MalformedPolicyException(where + ": Condition " + operator + " " + key.getKey()
                    + " has no value");
        }
        return values;
    }
}
