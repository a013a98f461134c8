package io.landingledger.localcloud.iam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The IAM side of a CloudFormation template as CloudFormation receives it (infra/template.yaml after
 * scripts/sam-transform.py), resolved for one deployment: each AWS::IAM::Role's identity policies (named
 * {@code Role/PolicyName}) and trust policy, the functions' roles, each bucket's AWS::S3::BucketPolicy (named by its
 * logical id) and the AWS::IAM::ManagedPolicy documents. A small stand-in the local deployer may replace with its own
 * resolver: only the intrinsics IAM documents use are resolved ({@link TemplateResolver}). Roles attached through
 * AWS::IAM::Policy resources or ManagedPolicyArns are not gathered: the template has none (its template check
 * forbids them), and this class throws rather than give a role fewer policies than it has.
 */
public final class TemplatePolicies {
    private final JsonNode resources;
    private final TemplateResolver resolver;
    private final String account;
    private Map<String, PolicyDocument> bucketPolicies;

    private TemplatePolicies(JsonNode template, TemplateResolver resolver, String account) {
        this.resources = template.path("Resources");
        this.resolver = resolver;
        this.account = account;
    }

    /**
     * Reads the transformed template's JSON. {@code parameters} overrides parameter defaults; the stack's name is
     * {@code stackName} (AWS::StackName).
     */
    public static TemplatePolicies read(Path transformedTemplate, String region, String account, String stackName,
                                        Map<String, String> parameters) throws IOException {
        return of(new ObjectMapper().readTree(transformedTemplate.toFile()), region, account, stackName, parameters);
    }

    public static TemplatePolicies of(JsonNode template, String region, String account, String stackName,
            Map<String, String> parameters) {
        return new TemplatePolicies(template, new TemplateResolver(template, region, account, stackName, parameters),
                account);
    }

    /** The logical ids of the template's AWS::IAM::Role resources. */
    public List<String> roles() {
        return ofType("AWS::IAM::Role");
    }

    public String roleArn(String role) {
        resource(role, "AWS::IAM::Role");
        return "arn:aws:iam::" + account + ":role/" + resolver.roleName(role);
    }

    /** The role's inline policies, each named {@code Role/PolicyName}. */
    public List<PolicyDocument> identityPolicies(String role) {
        JsonNode properties = resource(role, "AWS::IAM::Role").path("Properties");
        if (properties.has("ManagedPolicyArns") || properties.has("PermissionsBoundary")) {
            throw new IllegalStateException(role
                    + " has ManagedPolicyArns or a PermissionsBoundary, which TemplatePolicies does not read");
        }
        for (String policy : ofType("AWS::IAM::Policy")) {
            if (resources.get(policy).path("Properties").path("Roles").toString().contains("\"" + role + "\"")) {
                throw new IllegalStateException(policy + " (AWS::IAM::Policy) attaches to " + role
                        + ": TemplatePolicies does not gather it");
            }
        }
        List<PolicyDocument> policies = new ArrayList<>();
        for (JsonNode policy : properties.path("Policies")) {
            String name = role + "/" + resolver.string(policy.get("PolicyName"));
            policies.add(PolicyDocument.parse(name, resolver.resolve(policy.get("PolicyDocument"))));
        }
        return policies;
    }

    public PolicyDocument trustPolicy(String role) {
        return PolicyDocument.parse(role + " trust",
                resolver.resolve(resource(role, "AWS::IAM::Role").path("Properties").get("AssumeRolePolicyDocument")));
    }

    /** The logical id of the role a function (AWS::Lambda::Function) runs with. */
    public String functionRole(String function) {
        JsonNode role = resource(function, "AWS::Lambda::Function").path("Properties").path("Role").path("Fn::GetAtt");
        if (!role.isArray() || !"Arn".equals(role.path(1).asText())) {
            throw new IllegalStateException(function + "'s Role is not Fn::GetAtt of a role in the template");
        }
        return role.get(0).asText();
    }

    /** Every bucket policy, by the name of the bucket it governs. */
    public synchronized Map<String, PolicyDocument> bucketPolicies() {
        if (bucketPolicies != null) {
            return bucketPolicies;
        }
        Map<String, PolicyDocument> policies = new LinkedHashMap<>();
        for (String logical : ofType("AWS::S3::BucketPolicy")) {
            JsonNode properties = resources.get(logical).path("Properties");
            policies.put(resolver.string(properties.get("Bucket")),
                    PolicyDocument.parse(logical, resolver.resolve(properties.get("PolicyDocument"))));
        }
        bucketPolicies = Map.copyOf(policies);
        return bucketPolicies;
    }

    /** The bucket name a bucket resource declares. */
    public String bucketName(String bucket) {
        resource(bucket, "AWS::S3::Bucket");
        return resolver.physicalName(bucket);
    }

    /** A resource's name as {@code Ref} gives it (a table's or function's name, a queue's URL, an alias's ARN). */
    public String ref(String logical) {
        return resolver.ref(logical);
    }

    public PolicyDocument managedPolicy(String logical) {
        JsonNode document = resource(logical, "AWS::IAM::ManagedPolicy").path("Properties").get("PolicyDocument");
        return PolicyDocument.parse(logical, resolver.resolve(document));
    }

    /**
     * The resource-based policy for a resource ARN, by {@link #bucketPolicies}: an S3 bucket's or object's ARN gives
     * its bucket's policy; any other ARN, or a bucket without one, null. The function {@link PolicyEvaluator#authorize}
     * takes.
     */
    public PolicyDocument resourcePolicyOf(String arn) {
        if (!arn.startsWith("arn:aws:s3:::")) {
            return null;
        }
        String path = arn.substring("arn:aws:s3:::".length());
        int slash = path.indexOf('/');
        return bucketPolicies().get(slash < 0 ? path : path.substring(0, slash));
    }

    private List<String> ofType(String type) {
        List<String> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = resources.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            if (type.equals(entry.getValue().path("Type").asText())) {
                out.add(entry.getKey());
            }
        }
        return out;
    }

    private JsonNode resource(String logical, String type) {
        JsonNode resource = resources.get(logical);
        if (resource == null || !type.equals(resource.path("Type").asText())) {
            throw new IllegalArgumentException("the template has no " + type + " " + logical);
        }
        return resource;
    }
}
