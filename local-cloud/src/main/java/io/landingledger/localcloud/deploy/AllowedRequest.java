package io.landingledger.localcloud.deploy;

/**
 * One IAM authorization the stack allowed a function's role, as the gateway decided it: what a least-privilege check
 * reads for calls that are not SDK calls of the function's own clients (a library's REST requests, Lambda's poller),
 * so that each can be matched to the grant that allowed it.
 *
 * @param roleName  the caller's role (the template's role name)
 * @param operation the request's operation as the gateway mapped it (e.g. {@code GetObject}, an Iceberg REST route)
 * @param action    the IAM action authorized (one request may need several)
 * @param resource  the resource ARN it was authorized on
 * @param policy    the identity policy whose statement allowed it
 * @param sid       that statement's Sid (null when it has none)
 */
public record AllowedRequest(String roleName, String operation, String action, String resource, String policy,
                             String sid) {
}
