package io.landingledger.localcloud.deploy;

import java.nio.charset.StandardCharsets;

/**
 * Lambda's invocation payload quotas ("Lambda quotas"; the Invoke API: "For synchronous invocations, the maximum payload
 * size is 6 MB. For asynchronous invocations, the maximum payload size is 1 MB"), with the byte counts and messages
 * Lambda answers them with: a request over its limit is refused 413 RequestEntityTooLargeException before the function
 * runs; a synchronous response over its limit (100 bytes more than the request's) fails the invocation with
 * Function.ResponseSizeTooLarge. Every invocation on the local stack goes through {@link LocalLambda}, which applies
 * them: Invoke at the gateway, S3's notifications, EventBridge's and Scheduler's targets, the event source pollers.
 */
final class LambdaPayloadLimits {
    /** RequestResponse request: 6 MiB. */
    static final int SYNCHRONOUS_REQUEST = 6 * 1024 * 1024;
    /** RequestResponse response: 6 MiB and 100 bytes, as Lambda measures it. */
    static final int SYNCHRONOUS_RESPONSE = SYNCHRONOUS_REQUEST + 100;
    /** Event request: 1 MiB (256 KiB until 2025). */
    static final int ASYNCHRONOUS_REQUEST = 1024 * 1024;

    private LambdaPayloadLimits() {
    }

    /** Lambda's message for a synchronous request over its limit, or null within it. */
    static String synchronousRequest(String payload) {
        return bytes(payload) > SYNCHRONOUS_REQUEST
                ? "Request must be smaller than " + SYNCHRONOUS_REQUEST + " bytes for the InvokeFunction operation" : null;
    }

    /** Lambda's message for an asynchronous request over its limit, or null within it. */
    static String asynchronousRequest(String payload) {
        int size = bytes(payload);
        return size > ASYNCHRONOUS_REQUEST ? size + " byte payload is too large for the Event invocation type (limit "
                + ASYNCHRONOUS_REQUEST + " bytes)" : null;
    }

    /** Lambda's Function.ResponseSizeTooLarge message for a synchronous response over its limit, or null within it. */
    static String synchronousResponse(byte[] response) {
        return response.length > SYNCHRONOUS_RESPONSE ? "Response payload size (" + response.length + " bytes) exceeded "
                + "maximum allowed payload size (" + SYNCHRONOUS_RESPONSE + " bytes)." : null;
    }

    private static int bytes(String payload) {
        return payload.getBytes(StandardCharsets.UTF_8).length;
    }
}
