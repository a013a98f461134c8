package io.landingledger.lambda.testing;

import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;

import java.time.Duration;

/**
 * The retry strategy of the fault drills' clients: the SDK's standard strategy with at most {@value #MAX_ATTEMPTS}
 * attempts and a 5 ms backoff (production keeps the SDK defaults), so that "retried, then surfaced" is exactly
 * {@value #MAX_ATTEMPTS} injected attempts and a drill does not wait for real backoff.
 */
public final class FastRetries {
    public static final int MAX_ATTEMPTS = 5;
    /** Transient faults leave attempts over: the emulators' own occasional I/O hiccup must not exhaust them. */
    public static final int TRANSIENT_FAULTS = 2;

    private FastRetries() {
    }

    public static RetryStrategy strategy() {
        return AwsRetryStrategy.standardRetryStrategy().toBuilder()
                .maxAttempts(MAX_ATTEMPTS)
                .backoffStrategy(BackoffStrategy.fixedDelay(Duration.ofMillis(5)))
                .throttlingBackoffStrategy(BackoffStrategy.fixedDelay(Duration.ofMillis(5)))
                .circuitBreakerEnabled(false)
                .build();
    }
}
