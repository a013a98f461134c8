package io.landingledger.localcloud.iam;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.landingledger.localcloud.template.StackScope;
import io.landingledger.localcloud.template.Template;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The IAM side of a CloudFormation template as CloudFormation receives it (infra/template.yaml after
 * scripts/sam-transform.py), resolved for one stack through the template model ({@link StackScope}): each
 * AWS::IAM::Role's identity policies (named {@code Role/PolicyName}) and trust policy, the functions' roles, each
 * bucket's AWS::S3::BucketPolicy (named by its logical id) and the AWS::IAM::ManagedPolicy documents. Roles attached
 * through AWS::IAM::Policy resources or ManagedPolicyArns are not gathered: the template has none (its template check
 * forbids them), and this class throws rather than give a role fewer policies than it has.
 */
public final class TemplatePolicies {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Template template;
    private final StackScope stack;
    private Map<String, PolicyDocument> bucketPolicies;

    private TemplatePolicies(StackScope stack) {
        this.template = stack.template();
        this.stack = stack;
    }

    /**
     * Reads the transformed template's JSON, its resources named as they declare ({@link StackScope#declared}).
     * {@code parameters} overrides parameter defaults; the stack's name is {@code stackName} (AWS::StackName).
     */
    public static TemplatePolicies read(Path transformedTemplate, String region, String account, String stackName,
                                        Map<String, String> parameters) throws IOException {
        return of(StackScope.declared(Template.read(transformedTemplate), region, account, stackName, parameters));
    }

    /** The policies of {@code stack}: a declared one, or the deployer's. */
    public static TemplatePolicies of(StackScope stack) {
        return new TemplatePolicies(stack);
    }

    /** The logical ids of the template's AWS::IAM::Role resources. */
    public List<String> roles() {
        return template.ofType("AWS::IAM::Role");
    }

    public String roleArn(String role) {
        template.resource(role, "AWS::IAM::Role");
        return stack.string(Map.of("Fn::GetAtt", List.of(role, "Arn")), role + ".Arn");
    }

    /** The role's inline policies, each named {@code Role/PolicyName}. */
    public List<PolicyDocument> identityPolicies(String role) {
        template.resource(role, "AWS::IAM::Role");
        Map<String, Object> properties = stack.properties(role);
        if (properties.containsKey("ManagedPolicyArns") || properties.containsKey("PermissionsBoundary")) {
            throw new IllegalStateException(role
                    + " has ManagedPolicyArns or a PermissionsBoundary, which TemplatePolicies does not read");
        }
        for (String policy : template.ofType("AWS::IAM::Policy")) {
            if (String.valueOf(template.properties(policy).get("Roles")).contains("Ref=" + role + "}")) {
                throw new IllegalStateException(policy + " (AWS::IAM::Policy) attaches to " + role
                        + ": TemplatePolicies does not gather it");
            }
        }
        List<PolicyDocument> policies = new ArrayList<>();
        if (properties.get("Policies") instanceof List<?> inline) {
            for (Object p : inline) {
                Map<?, ?> policy = (Map<?, ?>) p;
                policies.add(document(role + "/" + policy.get("PolicyName"), policy.get("PolicyDocument")));
            }
        }
        return policies;
    }

    public PolicyDocument trustPolicy(String role) {
        template.resource(role, "AWS::IAM::Role");
        return document(role + " trust", stack.properties(role).get("AssumeRolePolicyDocument"));
    }

    /** The logical id of the role a function (AWS::Lambda::Function) runs with. */
    public String functionRole(String function) {
        template.resource(function, "AWS::Lambda::Function");
        if (!(template.properties(function).get("Role") instanceof Map<?, ?> role && role.get("Fn::GetAtt") instanceof List<?> att
                && att.size() == 2 && "Arn".equals(att.get(1)))) {
            throw new IllegalStateException(function + "'s Role is not Fn::GetAtt of a role in the template");
        }
        return String.valueOf(att.get(0));
    }

    /** Every bucket policy, by the name of the bucket it governs. */
    public synchronized Map<String, PolicyDocument> bucketPolicies() {
        if (bucketPolicies != null) {
            return bucketPolicies;
        }
        Map<String, PolicyDocument> policies = new LinkedHashMap<>();
        for (String logical : template.ofType("AWS::S3::BucketPolicy")) {
            Map<String, Object> properties = stack.properties(logical);
            policies.put(String.valueOf(properties.get("Bucket")), document(logical, properties.get("PolicyDocument")));
        }
        bucketPolicies = Map.copyOf(policies);
        return bucketPolicies;
    }

    /** The bucket name a bucket resource declares. */
    public String bucketName(String bucket) {
        template.resource(bucket, "AWS::S3::Bucket");
        return ref(bucket);
    }

    /** A resource's name as {@code Ref} gives it (a table's or function's name, a queue's URL, an alias's ARN). */
    public String ref(String logical) {
        return stack.string(Map.of("Ref", logical), "Ref " + logical);
    }

    public PolicyDocument managedPolicy(String logical) {
        template.resource(logical, "AWS::IAM::ManagedPolicy");
        return document(logical, stack.properties(logical).get("PolicyDocument"));
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

    private static PolicyDocument document(String name, Object resolved) {
        return PolicyDocument.parse(name, JSON.valueToTree(resolved));
    }
}
