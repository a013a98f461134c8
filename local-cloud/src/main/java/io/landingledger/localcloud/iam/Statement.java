package io.landingledger.localcloud.iam;

import java.util.List;

/**
 * One statement of a policy. Exactly one of Action/NotAction is set ({@code notAction} says which {@link #actions}
 * holds); Resource/NotResource likewise, or neither (a trust policy's statements name no resource: they match any);
 * Principal/NotPrincipal likewise, or neither (an identity policy's). {@code index} is the statement's position,
 * for messages about a statement without a Sid.
 */
public record Statement(int index, String sid, Effect effect, PrincipalElement principal, boolean notPrincipal,
                        List<String> actions, boolean notAction, List<String> resources, boolean notResource,
                        List<ConditionClause> conditions) {
    public Statement {
        actions = List.copyOf(actions);
        resources = List.copyOf(resources);
        conditions = List.copyOf(conditions);
    }

    /** The Sid, or {@code #<index>} when the statement has none. */
    public String label() {
        return sid != null ? sid : "#" + index;
    }

    boolean matchesAction(String action) {
        boolean any = actions.stream().anyMatch(p -> Wildcard.matchesIgnoreCase(p, action));
        return notAction != any;
    }

    boolean matchesResource(String resource) {
        if (resources.isEmpty() && !notResource) {
            return true; // a trust policy's statement
        }
        boolean any = resources.stream().anyMatch(p -> Wildcard.matches(p, resource));
        return notResource != any;
    }
}
