package io.landingledger.localcloud.deploy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The deployment's IAM, as the template created it: each role's trust policy, inline policies and attached managed
 * policies, the managed policies themselves, each bucket's policy and each table bucket's. The stack's {@link AccessPolicy} reads it.
 */
public final class IamState {
    /** A role: its ARN, trust policy, inline policies by name, and the ARNs of the managed policies attached. */
    public record Role(String name, String arn, Map<String, Object> trust, Map<String, Map<String, Object>> inline,
                       List<String> managed) {
    }

    private final Map<String, Role> roles = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Object>> managedPolicies = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Object>> bucketPolicies = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Object>> tableBucketPolicies = new ConcurrentHashMap<>();
    private final Set<String> tableBuckets = ConcurrentHashMap.newKeySet();

    void role(Role role) {
        roles.put(role.name(), role);
    }

    void managedPolicy(String arn, Map<String, Object> document) {
        managedPolicies.put(arn, document);
    }

    void bucketPolicy(String bucket, Map<String, Object> document) {
        bucketPolicies.put(bucket, document);
    }

    /** A table bucket (by name): its storage is an S3 bucket of the same name, authorized as S3 Tables does. */
    void tableBucket(String name) {
        tableBuckets.add(name);
    }

    void tableBucketPolicy(String tableBucketArn, Map<String, Object> document) {
        tableBucketPolicies.put(tableBucketArn, document);
    }

    public boolean isTableBucket(String name) {
        return tableBuckets.contains(name);
    }

    /** The resource policy of the table bucket whose ARN is {@code tableBucketArn}, or null. */
    public Map<String, Object> tableBucketPolicy(String tableBucketArn) {
        return tableBucketPolicies.get(tableBucketArn);
    }

    public Role role(String name) {
        return roles.get(name);
    }

    /** The role whose ARN is {@code arn}, or null. */
    public Role roleByArn(String arn) {
        for (Role role : roles.values()) {
            if (role.arn().equals(arn)) {
                return role;
            }
        }
        return null;
    }

    /** Every identity policy of a role by name: its inline policies, then its managed ones. */
    public Map<String, Map<String, Object>> identityPolicies(String roleName) {
        Role role = roles.get(roleName);
        Map<String, Map<String, Object>> policies = new LinkedHashMap<>();
        if (role == null) {
            return policies;
        }
        policies.putAll(role.inline());
        for (String arn : role.managed()) {
            Map<String, Object> document = managedPolicies.get(arn);
            if (document != null) {
                policies.put(arn, document);
            }
        }
        return policies;
    }

    public Map<String, Object> bucketPolicy(String bucket) {
        return bucketPolicies.get(bucket);
    }

    public List<String> roleNames() {
        return new ArrayList<>(roles.keySet());
    }
}
