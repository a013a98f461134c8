package io.landingledger.core.sweep;

import io.landingledger.core.store.ObjectStore;

import java.time.Instant;

/**
 * The inbox's newest input for a unit ({@link io.landingledger.core.ingest.UnitInputs}' rule), as the version listing
 * shows it: the sweep needs no request of its own per unit, and never reads an inbox object's body or metadata.
 */
public record InboxObject(String key, String etag, long size, Instant lastModified, String versionId) {

    static InboxObject listed(ObjectStore.ListedVersion listed) {
        return new InboxObject(listed.key(), listed.etag(), listed.size(), listed.lastModified(), listed.versionId());
    }
}
