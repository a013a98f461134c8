package io.landingledger.localcloud.iam;

import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * CloudFormation query-protocol requests ({@code Action=DescribeStacks&StackName=...}) to IAM actions on stack ARNs:
 * DescribeStacks, DescribeStackResources, DescribeStackResource, ListStackResources, DescribeStackEvents and
 * GetTemplate are cloudformation:&lt;Action&gt; on the stack StackName names (an ARN as given; a name through
 * {@code stackArn}, which knows the stack's id); DescribeStacks without StackName and ListStacks on "*".
 * DescribeStackResources by PhysicalResourceId and every other action are unmapped.
 */
public final class CloudFormationRequestActions {
    private static final Set<String> ON_STACK = Set.of("DescribeStacks", "DescribeStackResources",
            "DescribeStackResource", "ListStackResources", "DescribeStackEvents",
            "GetTemplate");
    private final UnaryOperator<String> stackArn;

    /** {@code stackArn} maps a stack name to its ARN ({@code arn:aws:cloudformation:REGION:ACCOUNT:stack/NAME/ID}). */
    public CloudFormationRequestActions(UnaryOperator<String> stackArn) {
        this.stackArn = stackArn;
    }

    /** Stack names become {@code arn:aws:cloudformation:REGION:ACCOUNT:stack/NAME/local}. */
    public CloudFormationRequestActions(String region, String account) {
        this(name -> "arn:aws:cloudformation:" + region + ":" + account + ":stack/" + name + "/local");
    }

    /** {@code parameters}: the decoded form (or query-string) parameters. */
    public RequestMapping map(Map<String, String> parameters) {
        String action = parameters.get("Action");
        if (action == null) {
            return RequestMapping.unmapped("(no Action)", "a CloudFormation request names its Action");
        }
        String stack = parameters.get("StackName");
        if (action.equals("ListStacks") || action.equals("DescribeStacks") && stack == null) {
            return RequestMapping.of(action, AuthorizationRequest.of("cloudformation:" + action, "*"));
        }
        if (!ON_STACK.contains(action)) {
            return RequestMapping.unmapped(action, "CloudFormation action " + action + " is not mapped");
        }
        if (stack == null) {
            return RequestMapping.unmapped(action, "no StackName (a PhysicalResourceId names no stack here)");
        }
        String arn = stack.startsWith("arn:") ? stack : stackArn.apply(stack);
        return RequestMapping.of(action, AuthorizationRequest.of("cloudformation:" + action, arn));
    }
}
