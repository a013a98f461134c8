package io.landingledger.localcloud.deploy;

import java.nio.charset.StandardCharsets;

/**
 * What one invocation returned, as Lambda's Invoke API reports it: the payload (the handler's answer, or Lambda's
 * error document {@code {"errorMessage", "errorType"}}) and, for a failed run, the {@code X-Amz-Function-Error} value.
 *
 * @param payload       JSON
 * @param functionError null when the handler returned; {@code Unhandled} when it threw or timed out
 * @param version       the version that ran ($LATEST or the alias's version)
 */
public record InvokeResult(byte[] payload, String functionError, String version) {
    public boolean failed() {
        return functionError != null;
    }

    public String payloadText() {
        return new String(payload, StandardCharsets.UTF_8);
    }
}
