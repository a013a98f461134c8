package io.landingledger.core.consumers;

import java.time.Instant;
import java.util.Objects;

/**
 * What one consumer read of one unit (docs/readers.md, "Consumer receipts"): the publish it read, named by the
 * ledger's run id or the published object's ETag, and when it read it.
 *
 * @param publish    the run id ({@code run_id} of the UnitPublished event or the ledger) or the published ETag (quotes
 *                   are ignored)
 * @param consumedAt when the consumer read it: of two receipts of one (dataset, unit, consumer) the later one stands
 * @param snapshot   the table snapshot id it read the unit at ({@code FOR VERSION AS OF}), or null when it read
 *                   {@code published/} or did not say
 */
public record ConsumerReceipt(String dataset, String unit, String consumer, String publish, Instant consumedAt,
                              Long snapshot) {

    /** Consumer names: what a report, a CLI flag and a DynamoDB sort key carry without escaping. */
    public static final String CONSUMER_PATTERN = "[A-Za-z0-9][A-Za-z0-9._-]{0,63}";

    /** A receipt that names no table snapshot. */
    public ConsumerReceipt(String dataset, String unit, String consumer, String publish, Instant consumedAt) {
        this(dataset, unit, consumer, publish, consumedAt, null);
    }

    public ConsumerReceipt {
        require(dataset, "dataset");
        require(unit, "unit");
        require(publish, "publish");
        Objects.requireNonNull(consumedAt, "consumed_at");
        if (consumer == null || !consumer.matches(CONSUMER_PATTERN)) {
            throw new IllegalArgumentException("consumer must match " + CONSUMER_PATTERN + ": " + consumer);
        }
        if (unit.contains("#")) {
            throw new IllegalArgumentException("unit must not contain '#': " + unit);
        }
    }

    private static void require(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " is required");
        }
    }

    /** True when this receipt names the publish {@code runId} / {@code etag} (either may be null). */
    public boolean reads(String runId, String etag) {
        String named = unquote(publish);
        return named.equals(runId) || (etag != null && named.equals(unquote(etag)));
    }

    static String unquote(String etag) {
        return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"") ? etag.substring(1, etag.length() - 1) : etag;
    }
}
