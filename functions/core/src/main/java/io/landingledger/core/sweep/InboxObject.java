package io.landingledger.core.sweep;

import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.store.StoredObject;

import java.time.Instant;

/**
 * The inbox's current object for a unit, as the listing shows it (the newest routed object when several keys map to
 * one unit). ListObjectsV2 carries no version id; the sweep HEADs the key only for a unit whose listing differs from
 * what the ledger recorded, and for a re-drive.
 *
 * @param versionId the current version, or null when the key was not HEADed
 */
public record InboxObject(String key, String etag, long size, Instant lastModified, String versionId) {

    static InboxObject listed(ObjectStore.ListedObject listed) {
        return new InboxObject(listed.key(), listed.etag(), listed.size(), listed.lastModified(), null);
    }

    /** This object with what a HEAD of its key said (the version id; the rest as of now). */
    InboxObject headed(StoredObject head) {
        return new InboxObject(key, head.etag(), head.size(), head.lastModified(), head.versionId());
    }
}
