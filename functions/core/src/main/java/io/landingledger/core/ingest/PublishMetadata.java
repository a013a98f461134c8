package io.landingledger.core.ingest;

import io.landingledger.core.ledger.InputIdentity;
import io.landingledger.core.ledger.RunKind;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The user metadata every published object carries: which run built it (a publish's identity: two publishes of the
 * same rows have the same bytes and so the same ETag, never the same run id) and from what, so any later run can
 * record a publish the ledger does not know yet (a run that died between its promote and its ledger write) and order
 * itself against it. {@code content-sha256} is the SHA-256 of the published bytes themselves, so the run that records
 * a publish can tell a restatement (other rows) from a republish of the rows already standing (docs/design.md
 * section 4); null on an object promoted before publishes carried it.
 *
 * <p>Build one with {@link #builder()} (or copy one with {@link #toBuilder()}): fourteen positional components are
 * too many to read at a call site. {@code inputSha256}, {@code inputKey}, {@code runId} and {@code runKind} are
 * required; the rest default to null or 0.
 */
record PublishMetadata(String inputSha256, String inputVersionId, String inputEtag, String inputKey, long inputSize,
                       String inputSequencer, Instant inputLastModified, String runId, RunKind runKind, int contractVersion,
                       long accepted, long rejected, long duplicates, String contentSha256) {

    static final String INPUT_SHA256 = "input-sha256";
    static final String INPUT_VERSION_ID = "input-version-id";
    static final String INPUT_ETAG = "input-etag";
    static final String INPUT_KEY = "input-key";
    static final String INPUT_SIZE = "input-size";
    static final String INPUT_SEQUENCER = "input-sequencer";
    static final String INPUT_LAST_MODIFIED = "input-last-modified";
    static final String RUN_ID = "run-id";
    static final String RUN_KIND = "run-kind";
    static final String CONTRACT_VERSION = "contract-version";
    static final String ACCEPTED = "accepted";
    static final String REJECTED = "rejected";
    static final String DUPLICATES = "duplicates";
    static final String CONTENT_SHA256 = "content-sha256";

    Map<String, String> toMap() {
        Map<String, String> map = new LinkedHashMap<>();
        map.put(INPUT_SHA256, inputSha256);
        map.put(INPUT_VERSION_ID, inputVersionId == null ? "" : inputVersionId);
        map.put(INPUT_ETAG, inputEtag == null ? "" : inputEtag);
        map.put(INPUT_KEY, inputKey);
        map.put(INPUT_SIZE, Long.toString(inputSize));
        map.put(INPUT_SEQUENCER, inputSequencer == null ? "" : inputSequencer);
        map.put(INPUT_LAST_MODIFIED, inputLastModified == null ? "" : inputLastModified.toString());
        map.put(RUN_ID, runId);
        map.put(RUN_KIND, runKind.name());
        map.put(CONTRACT_VERSION, Integer.toString(contractVersion));
        map.put(ACCEPTED, Long.toString(accepted));
        map.put(REJECTED, Long.toString(rejected));
        map.put(DUPLICATES, Long.toString(duplicates));
        if (contentSha256 != null) {
            map.put(CONTENT_SHA256, contentSha256);
        }
        return map;
    }

    /** Reads the metadata of a published object; null when it lacks the protocol's fields (not ours). */
    static PublishMetadata from(Map<String, String> map) {
        String sha = map.get(INPUT_SHA256);
        if (sha == null || sha.isEmpty() || map.get(RUN_ID) == null || map.get(RUN_ID).isEmpty()) {
            return null;
        }
        try {
            return new PublishMetadata(sha, emptyToNull(map.get(INPUT_VERSION_ID)), emptyToNull(map.get(INPUT_ETAG)),
                    map.get(INPUT_KEY), parseLong(map.get(INPUT_SIZE)), emptyToNull(map.get(INPUT_SEQUENCER)),
                    parseInstant(map.get(INPUT_LAST_MODIFIED)), map.get(RUN_ID),
                    map.get(RUN_KIND) == null || map.get(RUN_KIND).isEmpty() ? RunKind.INGEST : RunKind.valueOf(map.get(RUN_KIND)),
                    (int) parseLong(map.get(CONTRACT_VERSION)),
                    parseLong(map.get(ACCEPTED)), parseLong(map.get(REJECTED)), parseLong(map.get(DUPLICATES)),
                    emptyToNull(map.get(CONTENT_SHA256)));
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** A builder with every component unset (null, 0). */
    static Builder builder() {
        return new Builder();
    }

    /** A builder holding this metadata's components, to build a copy that differs in some. */
    Builder toBuilder() {
        return new Builder()
                .inputSha256(inputSha256)
                .inputVersionId(inputVersionId)
                .inputEtag(inputEtag)
                .inputKey(inputKey)
                .inputSize(inputSize)
                .inputSequencer(inputSequencer)
                .inputLastModified(inputLastModified)
                .runId(runId)
                .runKind(runKind)
                .contractVersion(contractVersion)
                .accepted(accepted)
                .rejected(rejected)
                .duplicates(duplicates)
                .contentSha256(contentSha256);
    }

    InputIdentity identity(String bucket) {
        return InputIdentity.builder()
                .bucket(bucket)
                .key(inputKey)
                .versionId(inputVersionId)
                .etag(inputEtag)
                .sha256(inputSha256)
                .size(inputSize)
                .sequencer(inputSequencer)
                .lastModified(inputLastModified)
                .build();
    }

    private static String emptyToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    private static long parseLong(String value) {
        return value == null || value.isEmpty() ? 0 : Long.parseLong(value);
    }

    private static Instant parseInstant(String value) {
        return value == null || value.isEmpty() ? null : Instant.parse(value);
    }

    /** Names each component of a {@link PublishMetadata}; {@link #build()} checks the required ones. */
    static final class Builder {
        private String inputSha256;
        private String inputVersionId;
        private String inputEtag;
        private String inputKey;
        private long inputSize;
        private String inputSequencer;
        private Instant inputLastModified;
        private String runId;
        private RunKind runKind;
        private int contractVersion;
        private long accepted;
        private long rejected;
        private long duplicates;
        private String contentSha256;

        private Builder() {
        }

        /** The input the publish was built from: its hash, version, ETag, key, size, sequencer and modification time. */
        Builder input(InputIdentity input) {
            return inputSha256(input.sha256())
                    .inputVersionId(input.versionId())
                    .inputEtag(input.etag())
                    .inputKey(input.key())
                    .inputSize(input.size())
                    .inputSequencer(input.sequencer())
                    .inputLastModified(input.lastModified());
        }

        Builder inputSha256(String value) {
            this.inputSha256 = value;
            return this;
        }

        Builder inputVersionId(String value) {
            this.inputVersionId = value;
            return this;
        }

        Builder inputEtag(String value) {
            this.inputEtag = value;
            return this;
        }

        Builder inputKey(String value) {
            this.inputKey = value;
            return this;
        }

        Builder inputSize(long value) {
            this.inputSize = value;
            return this;
        }

        Builder inputSequencer(String value) {
            this.inputSequencer = value;
            return this;
        }

        Builder inputLastModified(Instant value) {
            this.inputLastModified = value;
            return this;
        }

        Builder runId(String value) {
            this.runId = value;
            return this;
        }

        Builder runKind(RunKind value) {
            this.runKind = value;
            return this;
        }

        Builder contractVersion(int value) {
            this.contractVersion = value;
            return this;
        }

        Builder accepted(long value) {
            this.accepted = value;
            return this;
        }

        Builder rejected(long value) {
            this.rejected = value;
            return this;
        }

        Builder duplicates(long value) {
            this.duplicates = value;
            return this;
        }

        Builder contentSha256(String value) {
            this.contentSha256 = value;
            return this;
        }

        /** The metadata; throws {@link IllegalStateException} naming the first required component left unset. */
        PublishMetadata build() {
            require(inputSha256, "inputSha256");
            require(inputKey, "inputKey");
            require(runId, "runId");
            require(runKind, "runKind");
            return new PublishMetadata(inputSha256, inputVersionId, inputEtag, inputKey, inputSize, inputSequencer,
                    inputLastModified, runId, runKind, contractVersion, accepted, rejected, duplicates, contentSha256);
        }

        private static void require(Object value, String component) {
            if (value == null) {
                throw new IllegalStateException("PublishMetadata: " + component + " is required");
            }
        }
    }
}
