package io.landingledger.core.ingest;

import java.time.Instant;

/**
 * Which of two inputs of one unit is newer (DESIGN.md section 2, step 8). For the same key, S3 event sequencers
 * order the events: compare them as hexadecimal strings after padding the shorter one with zeros on the right, as
 * the S3 documentation says. Otherwise the S3 LastModified (or the event time) orders them. An input whose order
 * cannot be told is not called older: it is processed, and the publish's If-Match keeps the race safe.
 */
final class InputOrder {
    private InputOrder() {
    }

    /** True when the candidate is known to be older than the current input. */
    static boolean isOlder(String candidateKey, String candidateSequencer, Instant candidateTime,
                           String currentKey, String currentSequencer, Instant currentTime) {
        if (candidateKey.equals(currentKey) && candidateSequencer != null && currentSequencer != null) {
            return compareSequencers(candidateSequencer, currentSequencer) < 0;
        }
        return candidateTime != null && currentTime != null && candidateTime.isBefore(currentTime);
    }

    static int compareSequencers(String a, String b) {
        int length = Math.max(a.length(), b.length());
        String left = padRight(a.toUpperCase(java.util.Locale.ROOT), length);
        String right = padRight(b.toUpperCase(java.util.Locale.ROOT), length);
        return left.compareTo(right);
    }

    private static String padRight(String value, int length) {
        return value.length() >= length ? value : value + "0".repeat(length - value.length());
    }
}
