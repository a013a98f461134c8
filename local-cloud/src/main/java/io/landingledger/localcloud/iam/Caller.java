package io.landingledger.localcloud.iam;

/**
 * Who sends a request: an IAM user, a role session (what a Lambda function's credentials are), or a service
 * principal ({@code scheduler.amazonaws.com}) asking to assume a role. {@code arn} is what AWS's messages name after
 * "User:"; {@code roleArn} is the role of a session, which a resource-based policy may name instead of the session.
 */
public record Caller(Kind kind, String arn, String account, String roleArn) {
    public enum Kind {
        USER,
        ROLE_SESSION,
        SERVICE
    }

    /** A session of {@code roleArn} ({@code arn:aws:iam::ACCOUNT:role[/path]/NAME}) named {@code session}. */
    public static Caller roleSession(String roleArn, String session) {
        String[] parts = roleArn.split(":", 6);
        if (parts.length != 6 || !parts[2].equals("iam") || !parts[5].startsWith("role/")) {
            throw new IllegalArgumentException("not a role ARN: " + roleArn);
        }
        String name = parts[5].substring(parts[5].lastIndexOf('/') + 1);
        return new Caller(Kind.ROLE_SESSION, "arn:" + parts[1] + ":sts::" + parts[4] + ":assumed-role/" + name + "/"
                + session,
                parts[4], roleArn);
    }

    /** An IAM user, {@code arn:aws:iam::ACCOUNT:user/NAME}. */
    public static Caller user(String userArn) {
        String[] parts = userArn.split(":", 6);
        if (parts.length != 6 || !parts[2].equals("iam") || !parts[5].startsWith("user/")) {
            throw new IllegalArgumentException("not a user ARN: " + userArn);
        }
        return new Caller(Kind.USER, userArn, parts[4], null);
    }

    /** A service principal such as {@code lambda.amazonaws.com}; it belongs to no account. */
    public static Caller service(String principal) {
        return new Caller(Kind.SERVICE, principal, "", null);
    }

    public boolean isService() {
        return kind == Kind.SERVICE;
    }
}
