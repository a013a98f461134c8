package io.landingledger.localcloud.deploy;

/** The local deploy refused the template or could not create a resource; the message names the resource and why. */
public final class DeployException extends RuntimeException {
    public DeployException(String message) {
        super(message);
    }

    public DeployException(String message, Throwable cause) {
        super(message, cause);
    }
}
