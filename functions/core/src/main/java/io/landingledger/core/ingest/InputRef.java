package io.landingledger.core.ingest;

import java.time.Instant;

/**
 * The inbox object a run is asked to ingest, as the trigger describes it (an S3 event, the sweep's re-drive, a repair).
 *
 * @param versionId the version to read (events carry it; a repair takes the ledger's or the latest)
 * @param etag      the event's ETag, or null
 * @param size      the event's size, or -1
 * @param sequencer the S3 event's sequencer (orders events for one key), or null
 * @param eventTime when S3 says the object was created (orders inputs across keys), or null
 */
public record InputRef(String bucket, String key, String versionId, String etag, long size, String sequencer, Instant eventTime) {

    /** The file name: the key after the dataset prefix (what the contract's unit pattern is matched against). */
    public String fileName() {
        int slash = key.indexOf('/');
        return slash < 0 ? key : key.substring(slash + 1);
    }
}
