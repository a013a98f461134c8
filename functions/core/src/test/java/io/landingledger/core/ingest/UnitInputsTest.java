package io.landingledger.core.ingest;

import io.landingledger.core.contract.Cadence;
import io.landingledger.core.contract.UnitSpec;
import io.landingledger.core.store.ObjectStore.ListedVersion;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one ordering rule (docs/design.md, "Which input is newer"), and the listing prefix that finds a unit's keys. */
class UnitInputsTest {
    private static final String A = "d/progress-2026-03-01.jsonl";
    private static final String B = "d/progress-2026-03-01.jsonl.gz";
    private static final Instant T = Instant.parse("2026-03-01T10:00:00Z");

    private static ListedVersion v(String key, String id, long second, boolean latest) {
        return new ListedVersion(key, id, "e", 1, T.plusMillis(second * 1000 + 400), latest);
    }

    @Test
    void withinAKey_theVersionOrderWins_evenAgainstLastModified() {
        // a multipart upload's LastModified is when it started: the current version can carry the earlier time
        UnitInputs inputs = UnitInputs.of(List.of(v(A, "a2", 0, true), v(A, "a1", 5, false)), k -> true);
        assertTrue(inputs.compare(A, "a2", A, "a1") > 0);
        assertEquals("a2", inputs.newest().orElseThrow().versionId());
    }

    @Test
    void acrossKeys_theLaterCurrentVersionWins_toTheSecond_thenTheKeyThatSortsLast() {
        UnitInputs later = UnitInputs.of(List.of(v(A, "a1", 3, true), v(B, "b1", 1, true)), k -> true);
        assertEquals(A, later.newest().orElseThrow().key());
        UnitInputs sameSecond = UnitInputs.of(List.of(v(A, "a1", 1, true), v(B, "b1", 1, true)), k -> true);
        assertEquals(B, sameSecond.newest().orElseThrow().key(), "same second: the key that sorts last");
        assertTrue(sameSecond.compare(A, "a1", B, "b1") < 0);
    }

    @Test
    void aKeyWhoseLatestIsADeleteMarker_isOlderThanEveryKeyWithACurrentVersion() {
        UnitInputs inputs = UnitInputs.of(List.of(v(A, "a1", 9, false), v(B, "b1", 1, true)), k -> true);
        assertEquals(B, inputs.newest().orElseThrow().key());
        assertTrue(inputs.compare(A, "a1", B, "b1") < 0);
    }

    @Test
    void aVersionTheInboxNoLongerHolds_isOlderThanEveryVersionItHolds() {
        UnitInputs inputs = UnitInputs.of(List.of(v(A, "a1", 0, true)), k -> true);
        assertTrue(inputs.compare(A, "a1", A, "a2-deleted") > 0);
        assertTrue(inputs.compare(B, "gone", A, "a1") < 0);
        assertEquals(0, inputs.compare(B, "gone", A, "gone-too"));
        assertFalse(inputs.holds(A, "a2-deleted"));
        assertTrue(inputs.isNewest(A, null), "no version id: the key's current version");
    }

    @Test
    void fileNamePrefix_isTheLiteralTextThenTheUnit() {
        assertEquals("progress-2026-03-01", spec("progress-(?<unit>\\d{4}-\\d{2}-\\d{2})\\.jsonl(\\.gz)?").fileNamePrefix("2026-03-01"));
        assertEquals("tx.acme", spec("tx\\.(?<unit>[a-z]+)\\.csv").fileNamePrefix("acme"));
        assertEquals("acme", spec("(?<unit>\\w+)\\.csv").fileNamePrefix("acme"), "the unit group first: the unit itself");
        assertEquals("", spec("[a-z]+-(?<unit>\\w+)\\.csv").fileNamePrefix("acme"), "nothing literal: the whole dataset prefix");
        assertEquals("export", spec("exports?-(?<unit>\\w+)\\.csv").fileNamePrefix("acme"), "an optional letter is not certain");
        assertEquals("data-", spec("data-[0-9]+-(?<unit>\\w+)\\.csv").fileNamePrefix("acme"), "stops at the first construct");
    }

    private static UnitSpec spec(String pattern) {
        return UnitSpec.builder().pattern(Pattern.compile(pattern)).cadence(Cadence.LIST).units(List.of("acme")).lookbackDays(7).build();
    }
}
