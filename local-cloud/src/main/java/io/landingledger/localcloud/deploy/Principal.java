package io.landingledger.localcloud.deploy;

/**
 * Who signed a request to the local stack: a function's role (the session the runtime gave it) or the operator (the
 * account's own credentials: producers, the on-call command line, the {@code aws} CLI).
 *
 * @param accessKeyId the key the request was signed with
 * @param arn         {@code arn:aws:sts::ACCOUNT:assumed-role/ROLE/SESSION}, or the account root for the operator
 * @param roleName    the role's name; null for the operator
 */
public record Principal(String accessKeyId, String arn, String roleName) {
    public boolean operator() {
        return roleName == null;
    }
}
