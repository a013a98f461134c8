package io.landingledger.localcloud.deploy;

import io.landingledger.localcloud.iam.Wildcard;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The functions' resource policies (AWS::Lambda::Permission): which service may invoke which function or alias, from
 * which source. S3, EventBridge and Scheduler invoke only where a permission allows it, as on AWS.
 */
final class LambdaPermissions {
    /** One permission: a function name and qualifier (null: the unqualified function), principal and conditions. */
    record Grant(String logicalId, String function, String qualifier, String action, String principal, String sourceArn,
                 String sourceAccount) {
    }

    private final List<Grant> grants = new CopyOnWriteArrayList<>();

    void add(Grant grant) {
        grants.add(grant);
    }

    /**
     * Whether {@code servicePrincipal} (e.g. s3.amazonaws.com) may invoke {@code functionRef} (name or ARN, with the
     * qualifier it is invoked at) for an event from {@code sourceArn} in {@code sourceAccount}.
     */
    boolean allows(String functionRef, String servicePrincipal, String sourceArn, String sourceAccount) {
        String name = nameOf(functionRef);
        String qualifier = LocalLambda.qualifierOf(functionRef);
        for (Grant grant : grants) {
            if (!grant.function().equals(name) || !java.util.Objects.equals(grant.qualifier(), qualifier)) {
                continue;
            }
            if (!grant.action().equals("lambda:InvokeFunction") && !grant.action().equals("lambda:*")) {
                continue;
            }
            if (!grant.principal().equals(servicePrincipal)) {
                continue;
            }
            if (grant.sourceArn() != null && (sourceArn == null || !Wildcard.matches(grant.sourceArn(), sourceArn))) {
                continue;
            }
            if (grant.sourceAccount() != null && !grant.sourceAccount().equals(sourceAccount)) {
                continue;
            }
            return true;
        }
        return false;
    }

    static String nameOf(String functionRef) {
        if (functionRef.startsWith("arn:")) {
            String[] parts = functionRef.split(":");
            return parts[6];
        }
        int colon = functionRef.indexOf(':');
        return colon < 0 ? functionRef : functionRef.substring(0, colon);
    }
}
