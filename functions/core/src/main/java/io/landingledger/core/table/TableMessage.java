package io.landingledger.core.table;

import io.landingledger.core.json.JsonCodec;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The table queue's message (an SQS FIFO queue, one message group per dataset so one table has one committer at a
 * time): it names a unit whose table partition may be behind the ledger. The run id and content hash only make the
 * message's deduplication id (a replayed ledger stream record is dropped by the queue); the writer reads the ledger
 * again and never trusts them.
 *
 * @param dataset       the dataset, also the message group
 * @param unit          the unit
 * @param runId         the ledger's publish run when the message was sent, or null (a sweep's or repair's re-drive)
 * @param contentSha256 that publish's content hash, or null
 */
public record TableMessage(String dataset, String unit, String runId, String contentSha256) {

    public TableMessage {
        Objects.requireNonNull(dataset, "dataset");
        Objects.requireNonNull(unit, "unit");
    }

    /** The message body: a small JSON object. */
    public String toJson() {
        return JsonCodec.writeString(this);
    }

    /** Reads a body {@link #toJson()} wrote; an unreadable body is an {@link IllegalArgumentException}. */
    public static TableMessage fromJson(String body) {
        TableMessage message = JsonCodec.read(body, TableMessage.class);
        if (message == null || message.dataset() == null || message.unit() == null) {
            throw new IllegalArgumentException("a table message names a dataset and a unit");
        }
        return message;
    }

    /** The FIFO message group: one per dataset, so the commits of one table are serialised. */
    public String groupId() {
        return dataset;
    }

    /** The FIFO deduplication id: SHA-256 of dataset, unit, run id and content hash (at most 128 characters). */
    public String deduplicationId() {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            String identity = dataset + "\n" + unit + "\n" + runId + "\n" + contentSha256;
            return HexFormat.of().formatHex(digest.digest(identity.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }
}
