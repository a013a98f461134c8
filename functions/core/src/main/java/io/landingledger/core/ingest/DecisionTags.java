package io.landingledger.core.ingest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tags an {@link InputDecision} leaves on its input's version, so a producer with s3:GetObjectVersionTagging
 * alone reads why (docs/producers.md): {@value #DECISION}, {@value #REASON}, {@value #RUN}, {@value #COUNTS}.
 *
 * <p>PutObjectTagging replaces a version's whole tag set, so the producer's own tags are kept and ours replaced
 * ({@link #merge}); S3 allows 10 tags on an object, keys of at most 128 and values of at most 256 characters, and
 * letters, digits, spaces and {@code + - = . _ : / @} only, which every value here keeps to.
 */
public final class DecisionTags {
    /** What the file became: {@link InputDecision.Decision#wireName()}, e.g. {@code refused}. */
    public static final String DECISION = "landing-decision";
    /** The reason codes, space-separated (PROHIBITED_FIELD; MISSING_FIELD UNKNOWN_FIELD); absent when none. */
    public static final String REASON = "landing-reason";
    /** The run that decided (its log lines carry the same run_id). */
    public static final String RUN = "landing-run";
    /** {@code accepted=1412 rejected=3 duplicates=1}. */
    public static final String COUNTS = "landing-counts";
    /** Every tag this product writes starts so; the others are the producer's. */
    public static final String PREFIX = "landing-";
    /** S3's limits: tags on an object, characters of a value. */
    public static final int MAX_TAGS = 10;
    public static final int MAX_VALUE = 256;

    private DecisionTags() {
    }

    /**
     * The tags of {@code decision}, or empty when its version is not to be tagged: a replay (the first decision's tags
     * stand: a duplicate event must not overwrite "refused" with "skipped_replay"), a version already gone, and a
     * record without a key or version id (the inbox is versioned: only a named version is tagged, never a newer one).
     */
    public static Optional<Map<String, String>> of(InputDecision decision) {
        if (decision.key() == null || decision.versionId() == null || decision.bucket() == null) {
            return Optional.empty();
        }
        if (decision.decision() == InputDecision.Decision.SKIPPED_REPLAY || decision.decision() == InputDecision.Decision.INPUT_GONE) {
            return Optional.empty();
        }
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put(DECISION, decision.decision().wireName());
        if (!decision.reasons().isEmpty()) {
            tags.put(REASON, clip(String.join(" ", decision.reasons())));
        }
        if (decision.runId() != null) {
            tags.put(RUN, clip(decision.runId()));
        }
        if (decision.decision() != InputDecision.Decision.UNROUTABLE) {
            tags.put(COUNTS, "accepted=" + decision.accepted() + " rejected=" + decision.rejected()
                    + " duplicates=" + decision.duplicates());
        }
        return Optional.of(tags);
    }

    /**
     * The version's tag set after a decision: {@code existing} without any tag of ours, then {@code ours}. Empty when
     * the producer's own tags leave no room for ours (S3's 10): theirs are never dropped, the decision is then told by
     * the event alone.
     */
    public static Optional<Map<String, String>> merge(Map<String, String> existing, Map<String, String> ours) {
        Map<String, String> merged = new LinkedHashMap<>();
        existing.forEach((key, value) -> {
            if (!key.startsWith(PREFIX)) {
                merged.put(key, value);
            }
        });
        if (merged.size() + ours.size() > MAX_TAGS) {
            return Optional.empty();
        }
        merged.putAll(ours);
        return Optional.of(merged);
    }

    /** The tag keys this product writes. */
    public static List<String> keys() {
        return List.of(DECISION, REASON, RUN, COUNTS);
    }

    private static String clip(String value) {
        return value.length() <= MAX_VALUE ? value : value.substring(0, MAX_VALUE);
    }
}
