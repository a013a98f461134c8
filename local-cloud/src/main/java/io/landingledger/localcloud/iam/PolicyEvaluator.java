package io.landingledger.localcloud.iam;

import io.landingledger.localcloud.iam.Decision.Outcome;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * AWS's policy evaluation logic for a request within one account (IAM user guide, "Policy evaluation logic";
 * "Determining whether a request is allowed or denied within an account"), over the policies it is given: the
 * caller's identity-based policies and at most one resource-based policy (a bucket policy, a role's trust policy).
 *
 * <ol>
 *   <li>An explicit Deny in any applicable statement of any of them decides: EXPLICIT_DENY.</li>
 *   <li>Otherwise an Allow in an identity-based policy, or in the resource-based policy whose Principal names the
 *       caller (its user, its role or role session, its service, or everyone), allows. A resource-based Allow that
 *       names only the caller's account grants nothing on its own: it delegates to the account, whose identity
 *       policies must allow (as AWS documents for account principals).</li>
 *   <li>Otherwise IMPLICIT_DENY.</li>
 * </ol>
 * A statement applies when its Action/NotAction, Resource/NotResource (none: a trust policy's, any resource),
 * Principal/NotPrincipal (resource-based policies only) and every Condition clause match; clauses under one operator
 * and across operators are ANDed, a clause's values ORed ({@link ConditionOperators}). Condition keys are
 * case-insensitive. A clause this package cannot evaluate fails closed: an Allow statement holding it allows nothing,
 * a Deny statement holding it denies, and the decision's notes say which and why.
 *
 * <p>Not modelled: permissions boundaries, session policies, SCPs/RCPs, cross-account requests, policy variables
 * ({@code ${aws:username}}: a Resource or condition value is compared as written), and the request-context keys AWS
 * adds itself beyond aws:PrincipalArn, aws:PrincipalAccount, aws:PrincipalType and aws:PrincipalServiceName (the
 * request mappers add the service's keys; the gateway adds aws:SourceAccount / aws:SourceArn when it knows them).
 */
public final class PolicyEvaluator {
    /** The identity policies' side of a message: "no identity-based policy allows". */
    private static final String IDENTITY = "identity-based policy";
    private static final String RESOURCE = "resource-based policy";

    /**
     * Decides {@code request} by {@code caller}. {@code resourcePolicy} is the policy attached to the resource (the
     * bucket's, the queue's), or null when it has none.
     */
    public Decision evaluate(Caller caller, AuthorizationRequest request, List<PolicyDocument> identityPolicies,
                             PolicyDocument resourcePolicy) {
        AuthorizationRequest withCaller = request.withDefaults(callerKeys(caller));
        List<String> notes = new ArrayList<>();
        List<Match> allows = new ArrayList<>();
        for (PolicyDocument policy : identityPolicies) {
            for (Statement statement : policy.statements()) {
                Match match = applies(policy, statement, withCaller, null, notes);
                if (match != null && match.statement.effect() == Effect.DENY) {
                    return deny(caller, request, match, IDENTITY, notes);
                }
                if (match != null) {
                    allows.add(match);
                }
            }
        }
        if (resourcePolicy != null) {
            for (Statement statement : resourcePolicy.statements()) {
                Match match = applies(resourcePolicy, statement, withCaller, caller, notes);
                if (match != null && match.statement.effect() == Effect.DENY) {
                    return deny(caller, request, match, RESOURCE, notes);
                }
                if (match != null && match.principal == PrincipalElement.Match.EXACT) {
                    allows.add(match);
                }
            }
        }
        if (!allows.isEmpty()) {
            Match first = allows.get(0);
            return new Decision(Outcome.ALLOWED, first.policy.name(), first.statement.label(),
                    "User: " + caller.arn() + " is allowed to perform: " + request.action() + " on resource: \""
                    + request.resource()
                            + "\" by " + first.policy.name() + " " + first.statement.label(), notes);
        }
        String side = identityPolicies.isEmpty() && resourcePolicy != null ? RESOURCE : IDENTITY;
        return new Decision(Outcome.IMPLICIT_DENY, null, null, denied(caller, request) + " because no " + side
                + " allows the "
                + request.action() + " action", notes);
    }

    /**
     * Whether {@code caller} (a service principal such as {@code lambda.amazonaws.com}, or a user or role session)
     * may assume the role {@code roleArn}, by the role's trust policy alone: {@code context} carries what the service
     * sends with the request, aws:SourceAccount and aws:SourceArn. (A user or role of the same account that the trust
     * policy names only through the account would also need its own identity policy to allow sts:AssumeRole: use
     * {@link #evaluate} with those policies.)
     */
    public Decision mayAssumeRole(Caller caller, String roleArn, PolicyDocument trustPolicy,
            Map<String, List<String>> context) {
        return evaluate(caller, new AuthorizationRequest("sts:AssumeRole", roleArn, context), List.of(), trustPolicy);
    }

    /**
     * Decides every action a request maps to, in order: the first that is not allowed decides; when all are allowed,
     * the first's allow. An unmapped request is an implicit deny naming why it is unmapped. {@code resourcePolicyOf}
     * gives the resource-based policy that governs a resource ARN (a bucket's for its objects), or null.
     */
    public Decision authorize(Caller caller, RequestMapping mapping, List<PolicyDocument> identityPolicies,
                              Function<String, PolicyDocument> resourcePolicyOf) {
        if (!mapping.mapped()) {
            return new Decision(Outcome.IMPLICIT_DENY, null, null, "User: " + caller.arn()
                    + " is not authorized to perform: "
                    + mapping.operation() + " because this gateway maps no IAM action to it: "
                    + mapping.unmappedReason(), List.of());
        }
        Decision first = null;
        for (AuthorizationRequest request : mapping.requests()) {
            Decision decision = evaluate(caller, request, identityPolicies, resourcePolicyOf.apply(request.resource()));
            if (!decision.allowed()) {
                return decision;
            }
            first = first == null ? decision : first;
        }
        return first;
    }

    private record Match(PolicyDocument policy, Statement statement, PrincipalElement.Match principal) {
    }

    /** The statement's match, or null when it does not apply. {@code caller} is null for identity policies. */
    private static Match applies(PolicyDocument policy, Statement statement, AuthorizationRequest request,
            Caller caller, List<String> notes) {
        if (!statement.matchesAction(request.action()) || !statement.matchesResource(request.resource())) {
            return null;
        }
        PrincipalElement.Match principal = PrincipalElement.Match.EXACT;
        if (caller != null) {
            if (statement.principal() == null) {
                return null; // a resource-based statement without Principal names nobody (IAM refuses it)
            }
            PrincipalElement.Match named = statement.principal().match(caller);
            if (statement.notPrincipal()) {
                if (named != PrincipalElement.Match.NONE) {
                    return null;
                }
            } else if (named == PrincipalElement.Match.NONE) {
                return null;
            } else {
                principal = named;
            }
        }
        for (ConditionClause clause : statement.conditions()) {
            ConditionOperators.Result result = ConditionOperators.evaluate(clause, request.context());
            if (result.unsupported() != null) {
                boolean deny = statement.effect() == Effect.DENY;
                notes.add(policy.name() + " " + statement.label() + ": " + result.unsupported() + "; the "
                        + (deny ? "Deny applies (fails closed)" : "Allow does not apply"));
                if (!deny) {
                    return null;
                }
            } else if (!result.holds()) {
                return null;
            }
        }
        return new Match(policy, statement, principal);
    }

    private static Decision deny(Caller caller, AuthorizationRequest request, Match match, String side,
            List<String> notes) {
        return new Decision(Outcome.EXPLICIT_DENY, match.policy.name(), match.statement.label(),
                denied(caller, request) + " with an explicit deny in " + article(side), notes);
    }

    private static String article(String side) {
        return (side.startsWith("i") ? "an " : "a ") + side;
    }

    private static String denied(Caller caller, AuthorizationRequest request) {
        return "User: " + caller.arn() + " is not authorized to perform: " + request.action() + " on resource: \""
                + request.resource() + "\"";
    }

    /** The global keys AWS sets from the caller (IAM user guide, "AWS global condition context keys"). */
    private static Map<String, List<String>> callerKeys(Caller caller) {
        Map<String, List<String>> keys = new LinkedHashMap<>();
        if (caller.isService()) {
            keys.put("aws:PrincipalServiceName", List.of(caller.arn()));
            return keys;
        }
        // a role session's aws:PrincipalArn is its role's ARN, not the session's
        keys.put("aws:PrincipalArn", List.of(caller.roleArn() != null ? caller.roleArn() : caller.arn()));
        keys.put("aws:PrincipalAccount", List.of(caller.account()));
        keys.put("aws:PrincipalType", List.of(caller.kind() == Caller.Kind.USER ? "User" : "AssumedRole"));
        return keys;
    }
}
