package io.landingledger.localcloud.deploy;

import java.util.Map;

/**
 * What the local stack enforces before a request reaches a service: the caller's identity policies and the resource's
 * policy, as IAM evaluates them. {@link #ALLOW_ALL} is for a stack deployed without enforcement (never the default).
 */
public interface AccessPolicy {
    AccessPolicy ALLOW_ALL = new AccessPolicy() {
        @Override
        public String authorize(Principal principal, Request request) {
            return null;
        }

        @Override
        public String listBucketDenied(Principal principal, String bucket) {
            return null;
        }
    };

    /**
     * One request as the gateway received it.
     *
     * @param service  the signing name (s3, dynamodb, sqs, lambda, cloudformation, events)
     * @param method   HTTP method
     * @param rawPath  the path as sent, still percent-encoded (S3: /bucket/key)
     * @param query    decoded query parameters
     * @param headers  lower-cased header names
     * @param body     the body for the JSON and form APIs, and S3's DeleteObjects (the keys it deletes); null for every
     *                 other S3 request (whose bodies are streamed through, unread)
     * @param secure   whether the request came over TLS (the gateway listens on loopback HTTP: false)
     */
    record Request(String service, String method, String rawPath, Map<String, String> query, Map<String, String> headers,
                   byte[] body, boolean secure) {
    }

    /** Null when the request is allowed; otherwise AWS's AccessDenied message for it. */
    String authorize(Principal principal, Request request);

    /**
     * Null when {@code principal} may s3:ListBucket on {@code bucket}; otherwise the AccessDenied message: without it
     * S3 answers a missing key 403, not 404.
     */
    String listBucketDenied(Principal principal, String bucket);
}
