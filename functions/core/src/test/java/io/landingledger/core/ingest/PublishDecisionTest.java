package io.landingledger.core.ingest;

import io.landingledger.core.ledger.AttemptOutcome;
import io.landingledger.core.ledger.InputIdentity;
import io.landingledger.core.ledger.LastAttempt;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.PublishedRef;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.store.ObjectStore.ListedVersion;
import io.landingledger.core.store.Precondition;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * The decision table of docs/design.md section 2, row by row: each test builds the state one row names and checks
 * the decision, and where a row's order against its neighbours matters, the state that would match both.
 */
class PublishDecisionTest {
    private static final String KEY = "progress_events/progress-2026-03-01.jsonl";
    private static final String GZ = "progress_events/progress-2026-03-01.jsonl.gz";
    private static final Instant T0 = Instant.parse("2026-03-02T01:00:00Z");

    // ---- the unit's inbox: V1 < V2 < V3 of KEY, each a second apart ----

    private static ListedVersion v(String key, String id, int second, boolean latest) {
        return new ListedVersion(key, id, "etag-" + id, 100, T0.plusSeconds(second), latest);
    }

    private static UnitInputs inbox(ListedVersion... newestFirstPerKey) {
        return UnitInputs.of(List.of(newestFirstPerKey), k -> true);
    }

    private static final UnitInputs V1_ONLY = inbox(v(KEY, "V1", 0, true));
    private static final UnitInputs V2_NEWEST = inbox(v(KEY, "V2", 1, true), v(KEY, "V1", 0, false));
    private static final UnitInputs V3_NEWEST = inbox(v(KEY, "V3", 2, true), v(KEY, "V2", 1, false), v(KEY, "V1", 0, false));

    private static InputIdentity input(String version, String sha) {
        return InputIdentity.builder().bucket("inbox").key(KEY).versionId(version).etag("etag-" + version).sha256(sha).size(100)
                .lastModified(T0).build();
    }

    private static PublishMetadata built(String version, String sha, String runId) {
        return PublishMetadata.builder()
                .input(input(version, sha))
                .runId(runId)
                .runKind(RunKind.INGEST)
                .contractVersion(1)
                .accepted(10)
                .contentSha256("content-" + sha)
                .build();
    }

    private static PublishDecision.Published object(String etag, String version, String sha, String runId) {
        return new PublishDecision.Published(etag, built(version, sha, runId));
    }

    /** A PUBLISHED item built by {@code runId} from {@code version}, vouching for {@code etag}. */
    private static LedgerItem published(String version, String sha, String runId, String etag) {
        return LedgerItem.builder("progress_events", "2026-03-01")
                .status(LedgerStatus.PUBLISHED)
                .input(input(version, sha))
                .published(new PublishedRef("published/...", etag, 10, 0, 0, null))
                .run(runId, RunKind.INGEST)
                .contractVersion(1)
                .publishCount(1)
                .publishedAt(T0, T0)
                .lastAttempt(LastAttempt.builder().at(T0).runId(runId).runKind(RunKind.INGEST).outcome(AttemptOutcome.PUBLISHED)
                        .inputVersionId(version).inputSha256(sha).inputKey(KEY).build())
                .revision(3)
                .build();
    }

    private static LedgerItem withRefusal(LedgerItem item, String version) {
        return item.withLastAttempt(LastAttempt.builder().at(T0).runId("rX").runKind(RunKind.INGEST).outcome(AttemptOutcome.REFUSED)
                .reason("PROHIBITED_FIELD").inputVersionId(version).inputSha256("shaX").inputKey(KEY).build());
    }

    private static LedgerItem refused(String version) {
        return LedgerItem.builder("progress_events", "2026-03-01")
                .status(LedgerStatus.REFUSED)
                .input(input(version, "sha" + version))
                .run("rR", RunKind.INGEST)
                .contractVersion(1)
                .lastAttempt(LastAttempt.builder().at(T0).runId("rR").runKind(RunKind.INGEST).outcome(AttemptOutcome.REFUSED)
                        .reason("KEY_CONFLICT").inputVersionId(version).inputSha256("sha" + version).inputKey(KEY).build())
                .reason("KEY_CONFLICT")
                .revision(1)
                .build();
    }

    private static PublishDecision.Decision decide(String version, PublishDecision.Choice choice, boolean rebuild, LedgerItem item,
                                                   PublishDecision.Published published, UnitInputs inputs,
                                                   PublishDecision.Validation validation) {
        return PublishDecision.decide(new PublishDecision.Facts(KEY, version, choice, rebuild, item, published, inputs, validation));
    }

    private static PublishDecision.Decision event(String version, LedgerItem item, PublishDecision.Published published, UnitInputs inputs,
                                                  PublishDecision.Validation validation) {
        return decide(version, PublishDecision.Choice.NEWEST, false, item, published, inputs, validation);
    }

    private static final PublishDecision.Validation CLEAN_V1 = new PublishDecision.Publishable("sha1");
    private static final PublishDecision.Validation CLEAN_V2 = new PublishDecision.Publishable("sha2");

    // ---- row 1: a replay of the recorded publish ----

    @Test
    void row1_replayOfThePublishedVersion_withItsObjectInPlace_skipsBeforeListing() {
        PublishDecision.Decision d = event("V1", published("V1", "sha1", "r1", "E1"), object("E1", "V1", "sha1", "r1"), null, null);
        assertInstanceOf(PublishDecision.Skip.class, d);
    }

    @Test
    void row1_notWhenTheObjectIsAnotherRunsWithTheSameEtag() {
        // identical bytes give identical ETags: the run id tells the publishes apart (finding 1)
        PublishDecision.Decision d = event("V1", published("V1", "sha1", "r1", "E1"), object("E1", "V3", "sha1", "r3"), null, null);
        assertInstanceOf(PublishDecision.ListInputs.class, d);
    }

    @Test
    void row1_notWhenThePublishedObjectIsGone() {
        assertInstanceOf(PublishDecision.ListInputs.class, event("V1", published("V1", "sha1", "r1", "E1"), null, null, null));
    }

    @Test
    void row1_notWhenARebuildIsAsked() {
        PublishDecision.Decision d = decide("V1", PublishDecision.Choice.OPERATOR, true, published("V1", "sha1", "r1", "E1"),
                object("E1", "V1", "sha1", "r1"), V1_ONLY, null);
        assertInstanceOf(PublishDecision.Read.class, d);
    }

    // ---- row 2: a replay of a recorded refusal ----

    @Test
    void row2_replayOfARefusedVersion_skips_whetherNeverPublishedOrOverAStandingPublish() {
        assertInstanceOf(PublishDecision.Skip.class, event("V1", refused("V1"), null, null, null));
        LedgerItem standing = withRefusal(published("V1", "sha1", "r1", "E1"), "V2");
        assertInstanceOf(PublishDecision.Skip.class, event("V2", standing, object("E1", "V1", "sha1", "r1"), null, null));
    }

    @Test
    void row2_notWhenPublishedHoldsAnObjectTheRefusedItemDoesNotKnow() {
        // finding 4: V1 promoted and died before its ledger write, then the newer V2 was refused
        assertInstanceOf(PublishDecision.ListInputs.class, event("V2", refused("V2"), object("E1", "V1", "sha1", "r1"), null, null));
    }

    /**
     * Found by the simulator (random schedule, seed 20261201): with the standing publish's object gone (deleted out
     * of band) and the newest input refused, the re-drive of that input recorded its refusal again and again (row 8,
     * since row 2 wanted "consistent"), until it gave up after MAX_DECISIONS: the sweep's re-drive never reached a
     * fixpoint.
     */
    @Test
    void row4b_aRecordedRefusal_isNotRecordedAgain_evenWhenThePublishedObjectIsGone() {
        LedgerItem item = withRefusal(published("V1", "sha1", "r1", "E1"), "V2");
        PublishDecision.Decision d = event("V2", item, null, V2_NEWEST, new PublishDecision.Refused("shaX", "PROHIBITED_FIELD"));
        assertInstanceOf(PublishDecision.Skip.class, d);
    }

    // ---- row 4: record what S3 holds first ----

    @Test
    void row4_anUnrecordedPublishOfAnInputNotOlderThanTheLedgers_isRecorded_whoeverBuiltIt() {
        PublishDecision.Decision d = event("V2", published("V1", "sha1", "r1", "E1"), object("E2", "V2", "sha2", "r2"), V2_NEWEST, null);
        assertInstanceOf(PublishDecision.RecordPublished.class, d);
        assertEquals("r2", ((PublishDecision.RecordPublished) d).object().metadata().runId());
    }

    @Test
    void row4_theCrashedRunsPublishIsRecordedEvenWhenANewerInputWasRefused() {
        // finding 4: the retry of V1 (no longer the newest) still records the publish readers are reading
        PublishDecision.Decision d = event("V1", refused("V2"), object("E1", "V1", "sha1", "r1"), V2_NEWEST, null);
        assertInstanceOf(PublishDecision.RecordPublished.class, d);
    }

    @Test
    void row4_anUnrecordedPublishOlderThanTheLedgers_isNotRecorded_theNewestReplacesIt() {
        // identical bytes promoted under If-Match by an older run over the newer's object
        LedgerItem item = published("V3", "sha1", "r3", "E1");
        assertInstanceOf(PublishDecision.Read.class, event("V3", item, object("E1", "V2", "sha1", "r2"), V3_NEWEST, null));
        assertInstanceOf(PublishDecision.Stale.class, event("V2", item, object("E1", "V2", "sha1", "r2"), V3_NEWEST, null));
    }

    @Test
    void row4_ourOwnPromoteIsRecordedAfterIt() {
        PublishDecision.Decision d = event("V2", published("V1", "sha1", "r1", "E1"), object("E2", "V2", "sha2", "me"), V2_NEWEST, CLEAN_V2);
        assertInstanceOf(PublishDecision.RecordPublished.class, d);
    }

    // ---- rows 5 and 6: gone and stale ----

    @Test
    void row5_aVersionTheInboxNoLongerHolds_isGone() {
        assertInstanceOf(PublishDecision.Gone.class, event("V9", null, null, V2_NEWEST, null));
    }

    @Test
    void row6_anEventForAnOlderVersion_isStale_andReadsNothing() {
        assertInstanceOf(PublishDecision.Stale.class, event("V1", published("V2", "sha2", "r2", "E2"), object("E2", "V2", "sha2", "r2"),
                V2_NEWEST, null));
    }

    @Test
    void row6_aNewerVersionWhoseEventWasLost_isStillTheNewest_forARedrive() {
        // finding 6: ordered by the version listing, not by an event time in milliseconds against LastModified in seconds
        UnitInputs multipartStartedEarlier = inbox(v(KEY, "V2", -5, true), v(KEY, "V1", 0, false));
        assertInstanceOf(PublishDecision.Read.class, event("V2", published("V1", "sha1", "r1", "E1"), object("E1", "V1", "sha1", "r1"),
                multipartStartedEarlier, null));
    }

    @Test
    void row6_acrossKeys_theKeyWhoseCurrentVersionIsLaterIsNewer() {
        UnitInputs both = inbox(v(KEY, "V1", 0, true), v(GZ, "G1", 3, true));
        PublishDecision.Decision jsonl = event("V1", null, null, both, null);
        assertInstanceOf(PublishDecision.Stale.class, jsonl);
        PublishDecision.Decision gz = PublishDecision.decide(new PublishDecision.Facts(GZ, "G1", PublishDecision.Choice.NEWEST, false,
                null, null, both, null));
        assertInstanceOf(PublishDecision.Read.class, gz);
    }

    @Test
    void row6_aRepairOfTheRecordedVersion_isStaleWhenANewerPublishLandedMeanwhile() {
        // finding 3: ordering is never switched off for repairs
        LedgerItem newer = published("V2", "sha2", "r2", "E2");
        PublishDecision.Decision d = decide("V1", PublishDecision.Choice.OPERATOR, true, newer, object("E2", "V2", "sha2", "r2"),
                V2_NEWEST, CLEAN_V1);
        assertInstanceOf(PublishDecision.Stale.class, d);
    }

    @Test
    void row6_aRepairOfTheRecordedVersion_proceedsWhileANewerInputIsMerelyRefused() {
        LedgerItem item = withRefusal(published("V1", "sha1", "r1", "E1"), "V2");
        PublishDecision.Decision d = decide("V1", PublishDecision.Choice.OPERATOR, true, item, object("E1", "V1", "sha1", "r1"),
                V2_NEWEST, null);
        assertInstanceOf(PublishDecision.Read.class, d);
    }

    // ---- rows 7 to 10 ----

    @Test
    void row8_aRefusal_isRecorded() {
        PublishDecision.Decision d = event("V2", published("V1", "sha1", "r1", "E1"), object("E1", "V1", "sha1", "r1"), V2_NEWEST,
                new PublishDecision.Refused("sha2", "PROHIBITED_FIELD"));
        assertInstanceOf(PublishDecision.RecordRefusal.class, d);
    }

    @Test
    void row9_aNewVersionWithThePublishedInputsBytes_isRecordedAsTheInput_notRepublished() {
        // user report: a byte-identical re-upload with another part size was skipped without being recorded
        PublishDecision.Decision d = event("V2", published("V1", "sha1", "r1", "E1"), object("E1", "V1", "sha1", "r1"), V2_NEWEST,
                new PublishDecision.Publishable("sha1"));
        assertInstanceOf(PublishDecision.RecordSameInput.class, d);
    }

    @Test
    void row10_sameRowsReencoded_isANewPublish_evenIfItsBytesAndEtagWillBeTheSame() {
        // user report: gzipped / reordered / one more rejected line: another SHA-256, so another input and a new publish
        PublishDecision.Decision d = event("V2", published("V1", "sha1", "r1", "E1"), object("E1", "V1", "sha1", "r1"), V2_NEWEST, CLEAN_V2);
        assertEquals(new PublishDecision.Promote(Precondition.match("E1")), d);
    }

    @Test
    void row10_aForcedRepairRepublishesTheSameInput() {
        // finding 2: force never stopped at "the published object carries the same input sha256"
        PublishDecision.Decision d = decide("V1", PublishDecision.Choice.OPERATOR, true, published("V1", "sha1", "r1", "E1"),
                object("E1", "V1", "sha1", "r1"), V1_ONLY, CLEAN_V1);
        assertEquals(new PublishDecision.Promote(Precondition.match("E1")), d);
    }

    @Test
    void row10_firstPublish_isIfNoneMatch_andAMissingObjectIsRepublishedTheSameWay() {
        assertEquals(new PublishDecision.Promote(Precondition.none()), event("V1", null, null, V1_ONLY, CLEAN_V1));
        assertEquals(new PublishDecision.Promote(Precondition.none()),
                event("V1", published("V1", "sha1", "r1", "E1"), null, V1_ONLY, CLEAN_V1));
    }

    @Test
    void everyNonTerminalDecisionChangesWhatTheRunKnows() {
        // the run loops on decide(): a decision that asked for the same thing twice would spin. Walk a fresh publish.
        List<Class<?>> walk = new ArrayList<>();
        PublishDecision.Published object = null;
        LedgerItem item = null;
        UnitInputs inputs = null;
        PublishDecision.Validation validation = null;
        for (int i = 0; i < 10; i++) {
            PublishDecision.Decision d = event("V1", item, object, inputs, validation);
            walk.add(d.getClass());
            if (d instanceof PublishDecision.Skip) {
                break;
            }
            switch (d) {
                case PublishDecision.ListInputs l -> inputs = V1_ONLY;
                case PublishDecision.Read r -> validation = CLEAN_V1;
                case PublishDecision.Promote p -> object = object("E1", "V1", "sha1", "me");
                case PublishDecision.RecordPublished r -> item = published("V1", "sha1", "me", "E1");
                default -> throw new AssertionError("unexpected " + d);
            }
        }
        assertEquals(List.of(PublishDecision.ListInputs.class, PublishDecision.Read.class, PublishDecision.Promote.class,
                PublishDecision.RecordPublished.class, PublishDecision.Skip.class), walk);
    }
}
