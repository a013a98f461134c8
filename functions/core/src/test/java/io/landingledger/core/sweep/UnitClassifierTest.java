package io.landingledger.core.sweep;

import io.landingledger.core.ledger.AttemptOutcome;
import io.landingledger.core.ledger.EmptyAcceptance;
import io.landingledger.core.ledger.InputIdentity;
import io.landingledger.core.ledger.LastAttempt;
import io.landingledger.core.ledger.LedgerItem;
import io.landingledger.core.ledger.LedgerStatus;
import io.landingledger.core.ledger.PublishedRef;
import io.landingledger.core.ledger.RunKind;
import io.landingledger.core.ledger.VolumeAcceptance;
import io.landingledger.core.store.ObjectStore;
import io.landingledger.core.volume.VolumeBand;
import io.landingledger.core.volume.VolumeBasis;
import io.landingledger.core.volume.VolumeCheck;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;


/** The classification rules and their precedence, one finding or combination at a time. */
class UnitClassifierTest {
    private static final String UNIT = "2026-03-02";
    private static final String KEY = "progress_events/progress-2026-03-02.jsonl";
    private static final String PUBLISHED_KEY = "published/progress_events/unit=2026-03-02/part-00000.jsonl";
    private static final Instant DEADLINE = Instant.parse("2026-03-03T06:00:00Z");
    private static final Instant NOW = Instant.parse("2026-03-10T00:00:00Z");
    private static final Instant V1_TIME = Instant.parse("2026-03-02T23:10:00.250Z");
    private static final Instant PUBLISHED_AT = Instant.parse("2026-03-02T23:10:02Z");

    private static InputIdentity v1() {
        return InputIdentity.builder().bucket("inbox").key(KEY).versionId("v1").etag("etag1").sha256("sha1").size(100).sequencer("0A")
                .lastModified(V1_TIME).build();
    }

    private static LedgerItem published(long accepted, long publishCount, LastAttempt last) {
        return LedgerItem.builder("progress_events", UNIT)
                .status(LedgerStatus.PUBLISHED)
                .input(v1())
                .published(new PublishedRef(PUBLISHED_KEY, "pub1-1", accepted, 0, 0, null))
                .run("run1", RunKind.INGEST)
                .contractVersion(1)
                .publishCount(publishCount)
                .publishedAt(PUBLISHED_AT, PUBLISHED_AT)
                .lastAttempt(last == null ? LastAttempt.builder().at(PUBLISHED_AT).runId("run1").runKind(RunKind.INGEST)
                        .outcome(AttemptOutcome.PUBLISHED).inputVersionId("v1").inputSha256("sha1").build() : last)
                .build();
    }

    /** {@code item} whose rows changed {@code times} times. */
    private static LedgerItem restated(LedgerItem item, long times) {
        return item.toBuilder().restatements(times).build();
    }

    private static LedgerItem healthy() {
        return published(10, 1, null);
    }

    private static ObjectStore.ListedObject publishedObject(String etag) {
        return new ObjectStore.ListedObject(PUBLISHED_KEY, etag, 500, PUBLISHED_AT);
    }

    private static InboxObject inbox(String etag, Instant modified, String versionId) {
        return new InboxObject(KEY, etag, 100, modified, versionId);
    }

    private static InboxObject inboxV1() {
        return inbox("etag1", V1_TIME.minusMillis(250), "v1"); // listings have whole seconds
    }

    private static Classification classify(Instant now, LedgerItem item, InboxObject inbox, ObjectStore.ListedObject published) {
        return UnitClassifier.classify(new UnitClassifier.Evidence(UNIT, DEADLINE, now, item, inbox, published));
    }

    private static Classification classify(LedgerItem item, InboxObject inbox, ObjectStore.ListedObject published) {
        return classify(NOW, item, inbox, published);
    }

    @Test
    void classify_publishedFromTheNewestInput_isOk() {
        Classification c = classify(healthy(), inboxV1(), publishedObject("pub1-1"));
        assertEquals(UnitStatus.OK, c.status());
        assertEquals(List.of(), c.flags());
    }

    @Test
    void classify_nothingAtAll_isPendingBeforeTheDeadline_andMissingFromIt() {
        assertEquals(UnitStatus.PENDING, classify(DEADLINE.minusNanos(1), null, null, null).status());
        assertEquals(UnitStatus.MISSING, classify(DEADLINE, null, null, null).status());
        Classification list = UnitClassifier.classify(new UnitClassifier.Evidence("tenant-a", null, NOW, null, null, null));
        assertEquals(UnitStatus.MISSING, list.status(), "a list unit has no deadline: missing as soon as the sweep looks");
    }

    @Test
    void classify_inputWithoutLedgerItem_isUnprocessed_evenBeforeTheDeadline() {
        Classification c = classify(DEADLINE.minusSeconds(60), null, inboxV1(), null);
        assertEquals(UnitStatus.UNPROCESSED, c.status());
        assertEquals("NOT_IN_LEDGER", c.reason());
    }

    @Test
    void classify_publishedObjectMissingOrChanged_isLedgerDrift() {
        assertEquals("PUBLISHED_OBJECT_MISSING", classify(healthy(), inboxV1(), null).reason());
        Classification changed = classify(healthy(), inboxV1(), publishedObject("other-1"));
        assertEquals(UnitStatus.LEDGER_DRIFT, changed.status());
        assertEquals("PUBLISHED_ETAG_MISMATCH", changed.reason());
    }

    @Test
    void classify_publishWithoutLedgerItem_isLedgerDriftBeforeUnprocessed() {
        Classification c = classify(null, inboxV1(), publishedObject("pub1-1"));
        assertEquals(List.of(UnitStatus.LEDGER_DRIFT, UnitStatus.UNPROCESSED), c.flags());
        assertEquals("UNRECORDED_PUBLISH", c.reason());
    }

    @Test
    void classify_newerVersionNotRecorded_isUnprocessed() {
        Classification c = classify(healthy(), inbox("etag2", Instant.parse("2026-03-04T08:00:00Z"), "v2"), publishedObject("pub1-1"));
        assertEquals(UnitStatus.UNPROCESSED, c.status());
        assertEquals("NEWER_INPUT", c.reason());
    }

    /**
     * User report: a byte-identical re-upload (another multipart part size, so another ETag) was matched to the ledger by
     * ETag and shown UNPROCESSED for ever. Now the ingest path records the new version (UNCHANGED) and the sweep
     * matches by version id: before the record it is unprocessed (and re-driven), after it OK.
     */
    @Test
    void classify_byteIdenticalReuploadWithAnotherEtag_isUnprocessedUntilRecorded_thenOk() {
        InboxObject reupload = inbox("etag1b-3", NOW.minusSeconds(5), "v9");
        assertEquals("NEWER_INPUT", classify(healthy(), reupload, publishedObject("pub1-1")).reason());
        InputIdentity seen = v1().toBuilder().versionId("v9").etag("etag1b-3").sequencer(null).lastModified(NOW.minusSeconds(5)).build();
        LedgerItem recorded = LedgerItem.builder("progress_events", UNIT)
                .status(LedgerStatus.PUBLISHED)
                .input(seen)
                .published(new PublishedRef(PUBLISHED_KEY, "pub1-1", 10, 0, 0, null))
                .run("run1", RunKind.INGEST)
                .contractVersion(1)
                .publishCount(1)
                .publishedAt(PUBLISHED_AT, PUBLISHED_AT)
                .lastAttempt(LastAttempt.builder().at(NOW).runId("run2").runKind(RunKind.INGEST).outcome(AttemptOutcome.UNCHANGED)
                        .inputVersionId("v9").inputSha256("sha1").inputKey(KEY).build())
                .build();
        assertEquals(UnitStatus.OK, classify(recorded, reupload, publishedObject("pub1-1")).status());
    }

    @Test
    void classify_sameEtagAnotherVersion_isStillUnprocessed_theVersionIsWhatIsRecorded() {
        // an ETag equal to the recorded one says nothing about which version the ledger knows
        assertEquals(UnitStatus.UNPROCESSED, classify(healthy(), inbox("etag1", NOW.minusSeconds(5), "v9"), publishedObject("pub1-1")).status());
    }

    @Test
    void classify_recordedInputDeletedAndAnotherVersionCurrent_isUnprocessed() {
        // the listing's newest (by UnitInputs' rule) is v0 because v1 is gone: the unit follows the inbox
        Classification c = classify(restated(published(10, 2, null), 1), inbox("etag0", V1_TIME.minusSeconds(3600), "v0"),
                publishedObject("pub1-1"));
        assertEquals(List.of(UnitStatus.UNPROCESSED, UnitStatus.RESTATED), c.flags());
    }

    @Test
    void classify_publishedUnitWhoseInboxIsEmpty_isOk() {
        assertEquals(UnitStatus.OK, classify(healthy(), null, publishedObject("pub1-1")).status());
    }

    @Test
    void classify_newestInputRefusedWhileTheOlderPublishStands_isRefused_notUnprocessed() {
        LastAttempt refused = LastAttempt.builder().at(PUBLISHED_AT.plusSeconds(3600)).runId("run2").runKind(RunKind.INGEST)
                .outcome(AttemptOutcome.REFUSED).reason("PROHIBITED_FIELD").inputVersionId("v2").inputSha256("sha2").inputKey(KEY).build();
        Classification c = classify(published(10, 1, refused), inbox("etag2", PUBLISHED_AT.plusSeconds(3500), "v2"), publishedObject("pub1-1"));
        assertEquals(List.of(UnitStatus.REFUSED), c.flags());
        assertEquals("PROHIBITED_FIELD", c.reason());
        assertTrue(c.detail().contains("still stands"), c.detail());
    }

    @Test
    void classify_refusedVersionWithdrawnByTheProducer_isOk() {
        LastAttempt refused = LastAttempt.builder().at(PUBLISHED_AT.plusSeconds(3600)).runId("run2").runKind(RunKind.INGEST)
                .outcome(AttemptOutcome.REFUSED).reason("PROHIBITED_FIELD").inputVersionId("v2").inputSha256("sha2").build();
        assertEquals(UnitStatus.OK, classify(published(10, 1, refused), inboxV1(), publishedObject("pub1-1")).status());
        assertEquals(UnitStatus.REFUSED, classify(published(10, 1, refused), null, publishedObject("pub1-1")).status(),
                "the inbox emptied: the refusal of its last input is still the last word");
    }

    @Test
    void classify_neverPublished_isRefused_unlessANewerInputWaits() {
        LedgerItem refused = LedgerItem.builder("progress_events", UNIT)
                .status(LedgerStatus.REFUSED)
                .input(v1())
                .run("run1", RunKind.INGEST)
                .contractVersion(1)
                .lastAttempt(LastAttempt.builder().at(PUBLISHED_AT).runId("run1").runKind(RunKind.INGEST).outcome(AttemptOutcome.REFUSED)
                        .reason("KEY_CONFLICT").inputVersionId("v1").inputSha256("sha1").build())
                .reason("KEY_CONFLICT")
                .build();
        Classification c = classify(refused, inboxV1(), null);
        assertEquals(List.of(UnitStatus.REFUSED), c.flags());
        assertEquals("KEY_CONFLICT", c.reason());
        Classification newer = classify(refused, inbox("etag2", NOW.minusSeconds(60), "v2"), null);
        assertEquals(List.of(UnitStatus.UNPROCESSED, UnitStatus.REFUSED), newer.flags());
    }

    @Test
    void classify_emptyAndRestated_areFlagsInThatOrder() {
        Classification c = classify(restated(published(0, 3, null), 2), inboxV1(), publishedObject("pub1-1"));
        assertEquals(List.of(UnitStatus.EMPTY, UnitStatus.RESTATED), c.flags());
        assertEquals("NO_ROWS", c.reason());
    }

    @Test
    void classify_republishedWithTheSameRows_isOk_whateverThePublishCount() {
        // a repair after the published object was deleted out of band: two publishes, one content
        Classification c = classify(published(10, 2, null), inboxV1(), publishedObject("pub1-1"));
        assertEquals(UnitStatus.OK, c.status());
        assertEquals(List.of(), c.flags());
    }

    @Test
    void classify_rowsChanged_isRestated_andComplete() {
        Classification c = classify(restated(published(10, 3, null), 1), inboxV1(), publishedObject("pub1-1"));
        assertEquals(List.of(UnitStatus.RESTATED), c.flags());
        assertEquals("ROWS_CHANGED_1_TIMES", c.reason());
        assertTrue(c.detail().contains("changed 1 time in 3 publishes"), c.detail());
        assertFalse(c.status().failsCompleteness(), "new rows that stand are the unit's: shown, counted, complete");
    }

    @Test
    void classify_empty_failsCompleteness_untilAnOperatorAcceptsIt() {
        LedgerItem empty = published(0, 1, null);
        Classification before = classify(empty, inboxV1(), publishedObject("pub1-1"));
        assertEquals(UnitStatus.EMPTY, before.status());
        assertTrue(before.status().failsCompleteness());

        LedgerItem accepted = empty.toBuilder().emptyAccepted(new EmptyAcceptance(NOW, "run-op", "INC-9 bank holiday")).build();
        Classification after = classify(accepted, inboxV1(), publishedObject("pub1-1"));
        assertEquals(List.of(UnitStatus.EMPTY_ACCEPTED), after.flags());
        assertEquals("ACCEPTED_BY_OPERATOR", after.reason());
        assertTrue(after.detail().endsWith(": INC-9 bank holiday"), after.detail());
        assertFalse(after.status().failsCompleteness());
    }

    private static Classification classifyVolume(LedgerItem item, long low, long high) {
        VolumeCheck volume = new VolumeCheck(UNIT, item.published().accepted(),
                new VolumeBand(low, high, (low + high) / 2, VolumeBasis.HISTORY, 8, "median of the last 8 Mondays"));
        return UnitClassifier.classify(new UnitClassifier.Evidence(UNIT, DEADLINE, NOW, item, inboxV1(), publishedObject("pub1-1"),
                false, null, volume));
    }

    @Test
    void classify_rowsOutsideTheExpectedBand_areSuspectVolume_untilAnOperatorAcceptsTheCount() {
        LedgerItem truncated = published(4, 1, null);
        Classification before = classifyVolume(truncated, 150, 260);
        assertEquals(UnitStatus.SUSPECT_VOLUME, before.status());
        assertEquals(VolumeCheck.BELOW, before.reason());
        assertTrue(before.detail().startsWith("4 rows accepted; expected 150..260 (history: median of the last 8 Mondays)"),
                before.detail());
        assertTrue(before.status().failsCompleteness());
        assertEquals(UnitStatus.SUSPECT_VOLUME, classifyVolume(published(900, 1, null), 150, 260).status());
        assertEquals(VolumeCheck.ABOVE, classifyVolume(published(900, 1, null), 150, 260).reason());

        LedgerItem accepted = truncated.toBuilder().volumeAccepted(new VolumeAcceptance(NOW, "run-op", "INC-4 a strike")).build();
        assertEquals(UnitStatus.OK, classifyVolume(accepted, 150, 260).status(), "the operator said the count is the day's");
        assertEquals(UnitStatus.OK, classifyVolume(published(200, 1, null), 150, 260).status());
    }

    @Test
    void classify_suspectVolume_comesAfterRefusedAndNeverMeetsEmpty() {
        LastAttempt refusal = LastAttempt.builder().at(NOW).runId("run-2").runKind(RunKind.INGEST).outcome(AttemptOutcome.REFUSED)
                .reason("PROHIBITED_FIELD").inputVersionId("v1").inputSha256("b".repeat(64)).inputKey(KEY).build();
        Classification refused = classifyVolume(published(4, 1, refusal), 150, 260);
        assertEquals(UnitStatus.REFUSED, refused.status());
        assertEquals(List.of(UnitStatus.REFUSED, UnitStatus.SUSPECT_VOLUME), refused.flags());
        // an empty publish is EMPTY's to judge, whatever the band says
        Classification empty = classifyVolume(published(0, 1, null), 150, 260);
        assertEquals(List.of(UnitStatus.EMPTY), empty.flags());
    }

    @Test
    void classify_empty_isAccepted_whenTheContractAcceptsEmptyUnits() {
        Classification c = UnitClassifier.classify(new UnitClassifier.Evidence(UNIT, DEADLINE, NOW, published(0, 1, null), inboxV1(),
                publishedObject("pub1-1"), true));
        assertEquals(UnitStatus.EMPTY_ACCEPTED, c.status());
        assertEquals("ACCEPTED_BY_CONTRACT", c.reason());
    }

    @Test
    void classify_anAcceptanceOfRowsThatAreNotEmpty_changesNothing() {
        LedgerItem item = published(10, 1, null).toBuilder().emptyAccepted(new EmptyAcceptance(NOW, "run-op", "stale")).build();
        assertEquals(UnitStatus.OK, classify(item, inboxV1(), publishedObject("pub1-1")).status());
    }

    @Test
    void failsCompleteness_exactlyTheStatusesAnOperatorMustClose() {
        List<UnitStatus> failing = java.util.Arrays.stream(UnitStatus.values()).filter(UnitStatus::failsCompleteness).toList();
        assertEquals(List.of(UnitStatus.LEDGER_DRIFT, UnitStatus.TABLE_BEHIND,
                UnitStatus.UNPROCESSED, UnitStatus.REFUSED, UnitStatus.SUSPECT_VOLUME,
                UnitStatus.EMPTY, UnitStatus.MISSING), failing);
    }

    @Test
    void classify_omitted_winsOverEverything() {
        LedgerItem omitted = LedgerItem.builder("progress_events", UNIT)
                .status(LedgerStatus.OMITTED)
                .run("run3", RunKind.OMIT)
                .contractVersion(1)
                .lastAttempt(LastAttempt.omitted(NOW, "run3", "tenant left"))
                .reason("tenant left")
                .build();
        Classification c = classify(omitted, inboxV1(), publishedObject("pub1-1"));
        assertEquals(UnitStatus.OMITTED, c.status());
        assertEquals("tenant left", c.reason());
        assertFalse(UnitStatus.OMITTED.failsCompleteness());
        assertFalse(UnitStatus.PENDING.failsCompleteness());
    }

    @Test
    void unitReport_freshnessFigures() {
        UnitClassifier.Evidence evidence = new UnitClassifier.Evidence(UNIT, DEADLINE, NOW, healthy(), inboxV1(), publishedObject("pub1-1"));
        UnitReport report = UnitReport.of(evidence, UnitClassifier.classify(evidence));
        assertEquals(NOW.getEpochSecond() - PUBLISHED_AT.getEpochSecond(), report.ageSeconds());
        assertEquals(PUBLISHED_AT.getEpochSecond() - DEADLINE.getEpochSecond(), report.publishedAfterDeadlineSeconds(), "published before its deadline");
        UnitClassifier.Evidence missing = new UnitClassifier.Evidence(UNIT, DEADLINE, NOW, null, null, null);
        assertEquals(NOW.getEpochSecond() - DEADLINE.getEpochSecond(), UnitReport.of(missing, UnitClassifier.classify(missing)).unpublishedAgeSeconds());
    }
}
