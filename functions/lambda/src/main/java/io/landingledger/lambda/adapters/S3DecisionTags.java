package io.landingledger.lambda.adapters;

import io.landingledger.core.ingest.DecisionTags;
import io.landingledger.core.ingest.InputDecision;

import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Tag;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Tags the decided input's version with its {@link DecisionTags}: GetObjectTagging and PutObjectTagging of that
 * version id (s3:GetObjectVersionTagging, s3:PutObjectVersionTagging on the inbox). Tagging creates no version and
 * no ObjectCreated notification. The read first: PutObjectTagging replaces the whole set, and the producer's own tags
 * are kept. A version whose producer already holds too many tags for ours is left as it is ({@link Result#NO_ROOM}).
 */
public final class S3DecisionTags {
    /** What became of the tags. */
    public enum Result { TAGGED, NOT_TAGGED, NO_ROOM }

    private final S3Client s3;

    public S3DecisionTags(S3Client s3) {
        this.s3 = Objects.requireNonNull(s3, "s3");
    }

    /**
     * True when {@code decision}'s version already carries it: our decision and run tags equal the decision's (one
     * GetObjectVersionTagging). The sweep's SUSPECT_VOLUME is told once so: a unit still suspect at the next sweep is
     * found tagged. A fault of S3 is thrown to the caller.
     */
    public boolean carries(InputDecision decision) {
        Map<String, String> ours = DecisionTags.of(decision).orElse(null);
        if (ours == null) {
            return false;
        }
        Map<String, String> existing = new LinkedHashMap<>();
        s3.getObjectTagging(r -> r.bucket(decision.bucket()).key(decision.key()).versionId(decision.versionId()))
                .tagSet().forEach(tag -> existing.put(tag.key(), tag.value()));
        return ours.get(DecisionTags.DECISION).equals(existing.get(DecisionTags.DECISION))
                && java.util.Objects.equals(ours.get(DecisionTags.RUN), existing.get(DecisionTags.RUN));
    }

    /** Tags {@code decision}'s version; a fault of S3 is thrown to the caller. */
    public Result tag(InputDecision decision) {
        Map<String, String> ours = DecisionTags.of(decision).orElse(null);
        if (ours == null) {
            return Result.NOT_TAGGED;
        }
        Map<String, String> existing = new LinkedHashMap<>();
        s3.getObjectTagging(r -> r.bucket(decision.bucket()).key(decision.key()).versionId(decision.versionId()))
                .tagSet().forEach(tag -> existing.put(tag.key(), tag.value()));
        Map<String, String> merged = DecisionTags.merge(existing, ours).orElse(null);
        if (merged == null) {
            return Result.NO_ROOM;
        }
        List<Tag> tags = merged.entrySet().stream().map(e -> Tag.builder().key(e.getKey()).value(e.getValue()).build()).toList();
        s3.putObjectTagging(r -> r.bucket(decision.bucket()).key(decision.key()).versionId(decision.versionId())
                .tagging(t -> t.tagSet(tags)));
        return Result.TAGGED;
    }
}
