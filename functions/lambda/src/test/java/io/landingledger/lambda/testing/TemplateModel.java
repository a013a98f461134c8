package io.landingledger.lambda.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import io.landingledger.core.ingest.LakeLayout;
import io.landingledger.core.sweep.CompletenessSweep;
import io.landingledger.lambda.FunctionConfig;
import io.landingledger.lambda.handlers.ValidateObjectHandler;
import io.landingledger.localcloud.iam.Wildcard;
import io.landingledger.localcloud.template.StackScope;
import io.landingledger.localcloud.template.Template;
import io.landingledger.localcloud.template.TransformedTemplate;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * {@code infra/template.yaml} as written and as {@code sam deploy} transforms it (scripts/sam-transform.py), with
 * the queries the template checks ask: resources by type, a function's properties and environment, the roles' and
 * bucket policies' statements with their ARNs resolved for the template's default parameters, account
 * {@value #ACCOUNT} and region {@value #REGION}. Every value is resolved by the local cloud's one template model
 * ({@link StackScope#declared} over the transformed template), the resolver the local deploy uses; the YAML as written
 * is read only for what the transform replaces (AWS::Serverless::* resources with their Globals, Events, CodeUri and
 * AutoPublishAlias); every other resource is read as transformed. A query that finds
 * nothing, or something of the wrong shape, fails the test that asked.
 */
public final class TemplateModel {
    public static final String REGION = "us-east-1";
    public static final String ACCOUNT = "123456789012";
    /** The unit of the example object ARNs ({@link #inboxObject}, {@link Lake}). */
    public static final String UNIT = "2026-03-01";

    /** The template as written (SAM's source: Globals, AWS::Serverless::Function with its Events). */
    public final Map<String, Object> template;
    public final Map<String, Object> resources;
    /** The template as {@code sam deploy} transforms it. */
    public final Map<String, Object> transformed;
    public final Map<String, Object> transformedResources;
    /** The transformed template resolved for one notional stack: what every value here is resolved by. */
    public final StackScope stack;

    private TemplateModel(Path root) throws IOException {
        template = parseTemplate(root.resolve("infra/template.yaml"));
        resources = map(template.get("Resources"));
        Template model = TransformedTemplate.load(root, root.resolve("functions/lambda/target/template-cache"));
        stack = StackScope.declared(model, REGION, ACCOUNT, "landing-ledger", Map.of());
        transformed = model.json();
        transformedResources = model.resources();
    }

    /** The template of the repository at {@code root}, read and transformed. */
    public static TemplateModel load(Path root) throws IOException {
        return new TemplateModel(root);
    }

    /**
     * {@code value} (of the template as written or as transformed: they share logical ids and parameters) resolved to
     * a string by the one template model.
     */
    public String string(Object value) {
        return stack.string(value, "TemplateModel");
    }

    public List<String> functions() {
        return resourcesOfType("AWS::Serverless::Function");
    }

    /**
     * The resources of {@code type}: SAM's own types (AWS::Serverless::*) as written, every other type as the transform
     * passes it to CloudFormation.
     */
    public List<String> resourcesOfType(String type) {
        if (!sam(type)) {
            return transformedResourcesOfType(type);
        }
        return resources.entrySet().stream().filter(e -> type.equals(map(e.getValue()).get("Type"))).map(Map.Entry::getKey).toList();
    }

    /** A type only SAM knows: the transform replaces it, so its source properties are read from the YAML. */
    private static boolean sam(String type) {
        return type.startsWith("AWS::Serverless::");
    }

    public List<String> transformedResourcesOfType(String type) {
        return transformedResources.entrySet().stream().filter(e -> type.equals(map(e.getValue()).get("Type"))).map(Map.Entry::getKey).toList();
    }

    public Map<String, Object> transformedProperties(String resource) {
        Object r = transformedResources.get(resource);
        assertNotNull(r, "no resource " + resource + " in the transformed template");
        return map(map(r).get("Properties"));
    }

    /** The logical id of the AWS::Lambda::Alias SAM made for a function's AutoPublishAlias. */
    public String alias(String function) {
        String name = string(property(function, "AutoPublishAlias"));
        List<String> aliases = transformedResourcesOfType("AWS::Lambda::Alias").stream()
                .filter(a -> Map.of("Ref", function).equals(transformedProperties(a).get("FunctionName"))
                        && name.equals(transformedProperties(a).get("Name"))).toList();
        assertEquals(1, aliases.size(), function + ": aliases named " + name);
        return aliases.get(0);
    }

    /** The logical id a {@code Ref} names. */
    public static String referenced(Object value, String what) {
        assertTrue(value instanceof Map<?, ?> m && m.get("Ref") instanceof String, what + " is not a Ref: " + value);
        return (String) map(value).get("Ref");
    }

    /** A resource's properties: a SAM resource's as written, any other's as the transform passes them on. */
    public Map<String, Object> properties(String resource) {
        Object written = resources.get(resource);
        if (written != null && sam(String.valueOf(map(written).get("Type")))) {
            return map(map(written).get("Properties"));
        }
        return transformedProperties(resource);
    }

    private Map<String, Object> globalsFunction() {
        return map(map(template.getOrDefault("Globals", Map.of())).getOrDefault("Function", Map.of()));
    }

    /** A function's property, or the Globals' when the function does not set it. */
    public Object property(String function, String name) {
        Object own = properties(function).get(name);
        return own != null ? own : globalsFunction().get(name);
    }

    /** The function's environment as deployed: SAM's merge of the Globals' variables and the function's own. */
    public Map<String, Object> environment(String function) {
        Object environment = transformedProperties(function).get("Environment");
        return environment == null ? Map.of() : map(map(environment).getOrDefault("Variables", Map.of()));
    }

    public String function(Class<?> handler) {
        List<String> matching = functions().stream()
                .filter(f -> ((String) property(f, "Handler")).split("::")[0].equals(handler.getName())).toList();
        assertEquals(1, matching.size(), "functions with handler " + handler.getName());
        return matching.get(0);
    }

    public String referencedResource(Object value, String what) {
        assertTrue(value instanceof Map<?, ?> m && m.get("Ref") instanceof String, what + " is not a !Ref to a resource: " + value);
        String name = (String) map(value).get("Ref");
        assertTrue(transformedResources.containsKey(name), what + " refers to " + name + ", not a resource");
        return name;
    }

    /** The bucket resource whose name is what the functions' {@code variable} holds. */
    public String bucketResource(String variable) {
        String name = bucketName(variable);
        List<String> buckets = resourcesOfType("AWS::S3::Bucket").stream()
                .filter(b -> name.equals(string(Map.of("Ref", b)))).toList();
        assertEquals(1, buckets.size(), "buckets named " + name + " (" + variable + ")");
        return buckets.get(0);
    }

    public String bucketName(String variable) {
        return string(environment(function(ValidateObjectHandler.class)).get(variable));
    }

    public String inboxBucketArn() {
        return "arn:aws:s3:::" + bucketName(FunctionConfig.INBOX_BUCKET);
    }

    public String inboxObject(String dataset) {
        return inboxBucketArn() + "/" + dataset + "/" + dataset + "-" + UNIT + ".jsonl";
    }

    public String tableArn(String variable) {
        return string(Map.of("Fn::GetAtt", List.of(referencedResource(
                environment(function(ValidateObjectHandler.class)).get(variable), variable), "Arn")));
    }

    /** Object ARNs in the lake, built with the code's own layout. */
    public record Lake(String bucket) {
        public String object(String key) {
            return bucket + "/" + key;
        }

        public String published() {
            return object(LakeLayout.publishedKey("progress_events", UNIT));
        }

        public String staging() {
            return object(LakeLayout.stagingKey("progress_events", UNIT, "run-1"));
        }

        public String quarantine() {
            return object(LakeLayout.quarantineKey("progress_events", UNIT, "0".repeat(64), 1));
        }

        public String report() {
            return object(CompletenessSweep.REPORTS_PREFIX + "progress_events/latest.json");
        }
    }

    public Lake lake() {
        return new Lake("arn:aws:s3:::" + bucketName(FunctionConfig.LAKE_BUCKET));
    }

    public record Statement(String sid, String effect, Object principal, List<String> actions, List<String> resources,
                             Map<String, Object> condition) {
    }

    public Statement statement(Map<String, Object> s) {
        return new Statement((String) s.get("Sid"), (String) s.get("Effect"), s.get("Principal"),
                values(s.get("Action")).stream().map(String::valueOf).toList(),
                values(s.get("Resource")).stream().map(this::string).toList(),
                s.get("Condition") == null ? Map.of() : map(s.get("Condition")));
    }

    /**
     * Every role's permission statements in the transformed template: each function's (keyed by the function's logical
     * id, found through its Role) and every other AWS::IAM::Role's (keyed by the role's logical id).
     */
    public Map<String, List<Statement>> roles() {
        Map<String, List<Statement>> roles = new LinkedHashMap<>();
        Set<String> functionRoles = new HashSet<>();
        for (String function : functions()) {
            String role = functionRole(function);
            assertTrue(functionRoles.add(role), function + " shares its role " + role + " with another function");
            roles.put(function, roleStatements(role));
        }
        for (String role : transformedResourcesOfType("AWS::IAM::Role")) {
            if (!functionRoles.contains(role)) {
                roles.put(role, roleStatements(role));
            }
        }
        assertTrue(transformedResourcesOfType("AWS::IAM::Policy").isEmpty(), "standalone IAM policies: keep permissions with their role");
        // the managed policies are for consumers' roles (ReaderPolicy, readers_policy...), the operator's
        // (ContractAdminPolicy, landing dataset) and producers' (ProducerPolicy): attached to nothing in the stack
        assertEquals(Set.of("ContractAdminPolicy", "ReaderPolicy", "ProducerPolicy"),
                Set.copyOf(transformedResourcesOfType("AWS::IAM::ManagedPolicy")), "managed policies");
        for (String policy : List.of("ContractAdminPolicy", "ReaderPolicy", "ProducerPolicy")) {
            for (String attachment : List.of("Roles", "Users", "Groups")) {
                assertFalse(transformedProperties(policy).containsKey(attachment), policy + " is attached to " + attachment);
            }
        }
        return roles;
    }

    /** The statements of a managed policy of the transformed template. */
    public List<Statement> managedPolicy(String logicalId) {
        return values(map(transformedProperties(logicalId).get("PolicyDocument")).get("Statement")).stream()
                .map(s -> statement(map(s))).toList();
    }

    /** The logical id of the AWS::IAM::Role a function runs with, in the transformed template. */
    private String functionRole(String function) {
        Map<String, Object> lambda = transformedProperties(function);
        Object role = lambda.get("Role");
        assertTrue(role instanceof Map<?, ?> m && m.get("Fn::GetAtt") instanceof List<?> att && "Arn".equals(att.get(1)),
                function + ": Role must be the GetAtt Arn of an AWS::IAM::Role in the template, not " + role);
        String name = (String) list(map(role).get("Fn::GetAtt")).get(0);
        assertEquals("AWS::IAM::Role", map(transformedResources.get(name)).get("Type"), function + ": Role " + name);
        return name;
    }

    private List<Statement> roleStatements(String role) {
        Map<String, Object> properties = transformedProperties(role);
        assertFalse(properties.containsKey("ManagedPolicyArns"), role + " carries managed policies " + properties.get("ManagedPolicyArns")
                + " (SAM adds AWSLambdaBasicExecutionRole to every role it generates: give the function an explicit Role)");
        List<Statement> statements = new ArrayList<>();
        for (Object policy : values(properties.get("Policies"))) {
            values(map(map(policy).get("PolicyDocument")).get("Statement")).forEach(s -> statements.add(statement(map(s))));
        }
        return statements;
    }

    public List<Statement> role(Class<?> handler) {
        return roles().get(function(handler));
    }

    public List<Statement> bucketPolicy(String variable) {
        String bucket = bucketResource(variable);
        List<String> policies = resourcesOfType("AWS::S3::BucketPolicy").stream()
                .filter(p -> Map.of("Ref", bucket).equals(properties(p).get("Bucket"))).toList();
        assertEquals(1, policies.size(), "bucket policies of " + bucket);
        return values(map(properties(policies.get(0)).get("PolicyDocument")).get("Statement")).stream()
                .map(s -> statement(map(s))).toList();
    }

    /** Whether an Allow statement grants {@code action} on {@code resource} (conditions ignored: an allow is an allow). */
    public static boolean allows(List<Statement> role, String action, String resource) {
        return role.stream().anyMatch(s -> s.effect().equals("Allow")
                && s.actions().stream().anyMatch(p -> Wildcard.matchesIgnoreCase(p, action))
                && s.resources().stream().anyMatch(p -> Wildcard.matches(p, resource)));
    }

    public static void collectStatements(Object node, List<Map<String, Object>> into) {
        if (node instanceof Map<?, ?> m) {
            if (m.containsKey("Effect") && (m.containsKey("Action") || m.containsKey("NotAction"))) {
                into.add(map(m));
            }
            m.values().forEach(v -> collectStatements(v, into));
        } else if (node instanceof List<?> l) {
            l.forEach(v -> collectStatements(v, into));
        }
    }

    // ---- parsing ------------------------------------------------------------------------------------------------

    /** YAML with CloudFormation's short tags, each read as its long form ({@code !Ref X} -> {@code {Ref: X}}). */
    public static Map<String, Object> parseTemplate(Path path) throws IOException {
        LoaderOptions options = new LoaderOptions();
        Yaml yaml = new Yaml(new CloudFormationConstructor(options));
        try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            return map(yaml.load(reader));
        }
    }

    private static final class CloudFormationConstructor extends SafeConstructor {
        private static final List<String> FUNCTIONS = List.of("And", "Base64", "Cidr", "Equals", "FindInMap", "GetAtt",
                "GetAZs", "If", "ImportValue", "Join", "Length", "Not", "Or", "Select", "Split", "Sub", "ToJsonString",
                "Transform");

        CloudFormationConstructor(LoaderOptions options) {
            super(options);
            register("!Ref", "Ref");
            register("!Condition", "Condition");
            for (String function : FUNCTIONS) {
                register("!" + function, "Fn::" + function);
            }
        }

        private void register(String tag, String key) {
            yamlConstructors.put(new Tag(tag), new AbstractConstruct() {
                @Override
                public Object construct(Node node) {
                    Object value;
                    if (node instanceof ScalarNode scalar) {
                        String text = constructScalar(scalar);
                        // !GetAtt Resource.Attribute is the short form of [Resource, Attribute]
                        value = key.equals("Fn::GetAtt") ? List.of(text.split("\\.", 2)) : text;
                    } else if (node instanceof SequenceNode sequence) {
                        value = constructSequence(sequence);
                    } else if (node instanceof MappingNode mapping) {
                        value = constructMapping(mapping);
                    } else {
                        throw new IllegalArgumentException("unexpected node for " + tag + ": " + node);
                    }
                    Map<String, Object> intrinsic = new LinkedHashMap<>();
                    intrinsic.put(key, value);
                    return intrinsic;
                }
            });
        }
    }

    /** Strict JSON (jackson-core's parser) into maps, lists, strings, numbers, booleans and nulls. */
    public static Object readJson(String text) throws IOException {
        try (JsonParser parser = new JsonFactory().createParser(text)) {
            parser.nextToken();
            Object value = jsonValue(parser);
            assertEquals(null, parser.nextToken(), "trailing content after the JSON value");
            return value;
        }
    }

    private static Object jsonValue(JsonParser parser) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == null) {
            throw new IOException("no JSON value");
        }
        switch (token) {
            case START_OBJECT: {
                Map<String, Object> object = new LinkedHashMap<>();
                while (parser.nextToken() != JsonToken.END_OBJECT) {
                    String name = parser.currentName();
                    parser.nextToken();
                    object.put(name, jsonValue(parser));
                }
                return object;
            }
            case START_ARRAY: {
                List<Object> array = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    array.add(jsonValue(parser));
                }
                return array;
            }
            case VALUE_STRING:
                return parser.getText();
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return parser.getNumberValue();
            case VALUE_TRUE:
                return true;
            case VALUE_FALSE:
                return false;
            case VALUE_NULL:
                return null;
            default:
                throw new IOException("unexpected JSON token " + token);
        }
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> map(Object value) {
        if (!(value instanceof Map<?, ?>)) {
            fail("expected a mapping, found " + value);
        }
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    public static List<Object> list(Object value) {
        if (!(value instanceof List<?>)) {
            fail("expected a list, found " + value);
        }
        return (List<Object>) value;
    }

    /** A value that IAM and CloudFormation accept as one item or a list of them, as a list. */
    public static List<Object> values(Object value) {
        if (value == null) {
            return List.of();
        }
        return value instanceof List<?> l ? new ArrayList<>(l) : List.of(value);
    }
}
