package io.landingledger.core.validate;

import static io.landingledger.core.validate.Events.event;
import static io.landingledger.core.validate.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.testing.FailingInputStream;
import io.landingledger.core.testing.TestContracts;
import io.landingledger.core.validate.Validation.Outcome;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The duplicate-key index past its memory budget, seen through the validator: it spills sorted runs to disk, and
 * the result (after the second pass the result asks for) is exactly what an index that never spills gives. A budget
 * of 1 byte makes a run every 820 keys, so a few thousand keys make several runs.
 */
class KeyIndexSpillTest {
    private static final DatasetContract EVENTS = TestContracts.progressEvents(c -> c.put("maxRejectedLines", 1000));
    private static final int KEYS = 4000;

    @TempDir
    Path spill;

    private ValidationLimits tinyBudget() {
        return ValidationLimits.builder().keyIndexMemoryBytes(1).spillDirectory(spill).build();
    }

    /** e0..e(KEYS-1) with payloads that differ by key; a retry of the previous event every 37 lines (inline). */
    private static List<String> day() {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            lines.add(row(i));
            if (i % 37 == 36) {
                lines.add(row(i - 1));
            }
        }
        return lines;
    }

    private static String row(int i) {
        return event("e" + i).raw("attempt_number", String.valueOf(1 + i % 5)).line();
    }

    private static byte[] join(List<String> lines) {
        return utf8(String.join("\n", lines) + "\n");
    }

    private static ValidationResult validate(StreamingValidator validator, byte[] input, ByteArrayOutputStream accepted,
                                             LineSet dropRows) throws IOException {
        return validator.validate(new ByteArrayInputStream(input), accepted, OutputStream.nullOutputStream(), dropRows);
    }

    private void assertSpillDirectoryEmpty() throws IOException {
        try (Stream<Path> left = Files.list(spill)) {
            assertEquals(List.of(), left.toList(), "spill files left behind");
        }
    }

    @Test
    void validate_whenIdenticalDuplicatesCrossRuns_secondPassGivesTheUnlimitedIndexOutputByteForByte() throws IOException {
        List<String> lines = day();
        // identical repeats of early keys at the end: their first occurrence is in a spilled run by then; e5 twice,
        // so its second repeat collapses inline against the first
        List<Long> repeatsAtTheEnd = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            lines.add(row(i * 7));
            repeatsAtTheEnd.add((long) lines.size());
        }
        lines.add(row(5));
        repeatsAtTheEnd.add((long) lines.size());
        lines.add(row(5));
        long inlineRepeat = lines.size();
        byte[] input = join(lines);

        Outcome unlimited = Validation.validate(EVENTS, input);
        Outcome firstPass = Validation.validate(EVENTS, tinyBudget(), input); // also on 1-byte, 7-byte and 8 KiB reads
        ValidationResult first = firstPass.result();
        assertTrue(first.keyIndexRuns() >= 4, "runs: " + first.keyIndexRuns());
        assertFalse(first.acceptedFinal());
        // a retry right after its original may also land just past a spill: it is dropped the same way
        repeatsAtTheEnd.forEach(line -> assertTrue(first.rowsToDrop().contains(line), "line " + line));
        assertFalse(first.rowsToDrop().contains(inlineRepeat));
        assertEquals(unlimited.result().accepted(), first.accepted(), "counts are final already");
        assertEquals(unlimited.result().duplicates(), first.duplicates());
        assertEquals(unlimited.result().distinctKeys(), first.distinctKeys());
        assertEquals(KEYS, first.distinctKeys());

        ByteArrayOutputStream accepted = new ByteArrayOutputStream();
        ValidationResult second = validate(new StreamingValidator(EVENTS, tinyBudget()), input, accepted, first.rowsToDrop());
        assertTrue(second.acceptedFinal());
        assertNull(second.refusal());
        assertArrayEquals(unlimited.accepted(), accepted.toByteArray());
        assertEquals(unlimited.result().accepted(), second.accepted());
        assertEquals(unlimited.result().duplicates(), second.duplicates());
        assertEquals(unlimited.result().acceptedBytes(), second.acceptedBytes());
        assertEquals(unlimited.result().sha256(), second.sha256());
        assertEquals(0, unlimited.result().keyIndexRuns());
        assertSpillDirectoryEmpty();
    }

    @Test
    void validate_whenNoDuplicateCrossesRuns_needsOnePass() throws IOException {
        byte[] input = join(day());
        Outcome unlimited = Validation.validate(EVENTS, input);
        ByteArrayOutputStream accepted = new ByteArrayOutputStream();
        ValidationResult result = validate(new StreamingValidator(EVENTS, tinyBudget()), input, accepted, LineSet.empty());
        assertTrue(result.keyIndexRuns() >= 4);
        assertTrue(result.acceptedFinal());
        assertArrayEquals(unlimited.accepted(), accepted.toByteArray());
        assertEquals(unlimited.result().duplicates(), result.duplicates());
        assertSpillDirectoryEmpty();
    }

    @Test
    void validate_whenKeyConflictsAcrossRuns_refusesNamingBothLines() throws IOException {
        List<String> lines = day();
        lines.add(event("e12").raw("attempt_number", "9").line()); // e12 was line 13 with attempt 3
        lines.add(row(14)); // an identical repeat after the conflict changes nothing
        byte[] input = join(lines);

        Outcome unlimited = Validation.validate(EVENTS, input);
        Outcome spilled = Validation.validate(EVENTS, tinyBudget(), input);
        assertEquals(RefusalCode.KEY_CONFLICT, spilled.refusalCode());
        long conflictLine = lines.size() - 1;
        assertEquals(List.of(13L, conflictLine), spilled.refusal().lines());
        assertEquals(unlimited.refusal(), spilled.refusal());
        assertEquals("the event_id on line " + conflictLine + " repeats the one on line 13 with a different payload",
                spilled.refusal().detail());
        assertTrue(spilled.result().keyIndexRuns() >= 4);
        assertSpillDirectoryEmpty();
    }

    @Test
    void validate_whenKeyConflictsInlineAfterASpill_namesTheFirstLineOfAnyRun() throws IOException {
        List<String> lines = day();
        lines.add(row(3));                                          // identical: its first run was spilled long ago
        lines.add(event("e3").raw("attempt_number", "9").line());   // conflicts with that inline, and with line 4
        byte[] input = join(lines);

        Outcome unlimited = Validation.validate(EVENTS, input);
        Outcome spilled = Validation.validate(EVENTS, tinyBudget(), input);
        assertEquals(List.of(4L, (long) lines.size()), spilled.refusal().lines());
        assertEquals(unlimited.refusal(), spilled.refusal());
    }

    @Test
    void validate_whenCrossRunConflictPrecedesAnotherRefusal_refusesAsTheUnlimitedIndexWould() {
        List<String> lines = day();
        lines.add(event("e20").raw("attempt_number", "9").line()); // cross-run conflict: found only at the merge
        lines.add(event("e9000").raw("email", "\"a@b\"").line());   // a prohibited field, where reading stops
        byte[] input = join(lines);

        Outcome unlimited = Validation.validate(EVENTS, input);
        Outcome spilled = Validation.validate(EVENTS, tinyBudget(), input);
        assertEquals(RefusalCode.KEY_CONFLICT, unlimited.refusalCode());
        assertEquals(unlimited.refusal(), spilled.refusal());
    }

    @Test
    void validate_whenSourceFailsAfterSpilling_deletesTheRuns() throws IOException {
        byte[] input = join(day());
        FailingInputStream failing = new FailingInputStream(input, input.length - 1000);
        StreamingValidator validator = new StreamingValidator(EVENTS, tinyBudget());
        IOException thrown = assertThrows(IOException.class,
                () -> validator.validate(failing, OutputStream.nullOutputStream(), OutputStream.nullOutputStream()));
        assertSame(failing.failure, thrown);
        assertSpillDirectoryEmpty();
    }

    @Test
    void validate_whenRunsWouldPassTheDiskLimit_refusesNamingTheKnobAndLeavesNothing() throws IOException {
        ValidationLimits limits = ValidationLimits.builder().keyIndexMemoryBytes(1).keyIndexDiskBytes(100_000)
                .spillDirectory(spill).build();
        Outcome outcome = Validation.validate(EVENTS, limits, join(day()));
        assertEquals(RefusalCode.TOO_MANY_KEYS, outcome.refusalCode());
        // 820 keys a run at 32 bytes: three runs fit in 100,000 bytes, the fourth does not
        assertEquals(3, outcome.result().keyIndexRuns());
        assertEquals(3 * 820 * 32, outcome.result().keyIndexDiskBytes());
        assertTrue(outcome.refusal().detail().contains("keyIndexDiskBytes"), outcome.refusal().detail());
        assertSpillDirectoryEmpty();
    }

    @Test
    void validate_whenDropRowsAreNotCrossRunDuplicates_throws() {
        byte[] input = join(day());
        StreamingValidator validator = new StreamingValidator(EVENTS, tinyBudget());
        assertThrows(IllegalArgumentException.class,
                () -> validate(validator, input, new ByteArrayOutputStream(), LineSet.of(1)));
    }

    @Test
    void limits_whenUnset_budgetHalfTheHeapInTheTemporaryDirectory() {
        ValidationLimits defaults = ValidationLimits.defaults();
        assertEquals(Runtime.getRuntime().maxMemory() / 2, defaults.keyIndexMemoryBytes());
        assertEquals(Path.of(System.getProperty("java.io.tmpdir")), defaults.spillDirectory());
        assertThrows(IllegalArgumentException.class, () -> ValidationLimits.builder().keyIndexMemoryBytes(0));
    }

    @Test
    void deleteLeftoverSpills_removesRunDirectoriesAKilledProcessLeftAndNothingElse() throws IOException {
        Path killed = Files.createDirectory(spill.resolve("landing-key-index-123"));
        Files.write(killed.resolve("run-0"), new byte[64]);
        Files.write(killed.resolve("run-1"), new byte[32]);
        Path other = Files.createDirectory(spill.resolve("someone-elses"));
        Path file = Files.write(spill.resolve("landing-key-index-note.txt"), new byte[1]);

        assertEquals(1, StreamingValidator.deleteLeftoverSpills(spill));

        assertFalse(Files.exists(killed));
        assertTrue(Files.isDirectory(other));
        assertTrue(Files.exists(file));
        assertEquals(0, StreamingValidator.deleteLeftoverSpills(spill.resolve("missing")));
    }
}
