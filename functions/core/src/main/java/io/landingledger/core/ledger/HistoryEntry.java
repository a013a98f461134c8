package io.landingledger.core.ledger;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * One immutable LedgerHistory item (PK {@code dataset_unit}, SK {@code <iso-instant>#<run_id>}): a publish, a
 * refusal, a skip after repair, or an omission. Written in the same transaction as the ledger update.
 *
 * @param action PUBLISHED, REFUSED, OMITTED or REPAIR_SKIPPED
 */
public record HistoryEntry(String dataset, String unit, Instant at, String runId, RunKind runKind, String action,
                           String reason, InputIdentity input, PublishedRef published, int contractVersion) {

    /** The history table's partition key. */
    public String partitionKey() {
        return dataset + "#" + unit;
    }

    /**
     * The history table's sort key: time-ordered, unique per run. The instant always has nine fraction digits:
     * {@code Instant.toString()} drops trailing zeros, and {@code ...:00Z} would then sort after {@code ...:00.5Z}.
     */
    public String sortKey() {
        return SORT_KEY_TIME.format(at) + "#" + runId;
    }

    private static final DateTimeFormatter SORT_KEY_TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'").withZone(ZoneOffset.UTC);
}
