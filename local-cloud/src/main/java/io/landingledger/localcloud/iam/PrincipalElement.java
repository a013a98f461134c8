package io.landingledger.localcloud.iam;

import java.util.List;
import java.util.Map;

/**
 * A statement's Principal or NotPrincipal: {@code "*"} (everyone, {@link #everyone}) or a map of principal types
 * ({@code AWS}, {@code Service}, {@code Federated}, {@code CanonicalUser}) to one value or a list of them.
 * {@code {"AWS": "*"}} is everyone too.
 */
public record PrincipalElement(boolean everyone, Map<String, List<String>> byType) {
    public PrincipalElement {
        byType = Map.copyOf(byType);
    }

    static PrincipalElement anyone() {
        return new PrincipalElement(true, Map.of());
    }

    List<String> values(String type) {
        return byType.getOrDefault(type, List.of());
    }

    /**
     * How this element names {@code caller}: {@link Match#EXACT} when it names the caller itself (its user, its role,
     * its role session, its service, or everyone), {@link Match#ACCOUNT} when it names only the caller's account
     * ({@code "123456789012"} or {@code arn:aws:iam::123456789012:root}), else {@link Match#NONE}. Principal values
     * take no wildcards but the lone {@code "*"}.
     */
    Match match(Caller caller) {
        if (everyone || values("AWS").contains("*")) {
            return Match.EXACT;
        }
        if (caller.isService()) {
            return values("Service").contains(caller.arn()) ? Match.EXACT : Match.NONE;
        }
        Match best = Match.NONE;
        for (String value : values("AWS")) {
            if (value.equals(caller.arn()) || caller.roleArn() != null && value.equals(caller.roleArn())) {
                return Match.EXACT;
            }
            if (value.equals(caller.account()) || value.equals("arn:aws:iam::" + caller.account() + ":root")) {
                best = Match.ACCOUNT;
            }
        }
        return best;
    }

    enum Match {
        EXACT,
        ACCOUNT,
        NONE
    }
}
