package io.landingledger.core.validate;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ValidationResult's builder: every component by name, defaults for the collections, the required ones named. */
class ValidationResultBuilderTest {

    @Test
    void builder_namesEveryComponent_andCopiesKeepTheRest() {
        Refusal refusal = new Refusal(RefusalCode.KEY_CONFLICT, "key repeated", List.of(2L, 5L));
        ValidationResult result = ValidationResult.builder().dataset("progress_events").contractVersion(3).sha256("abc")
                .storedBytes(100).decodedBytes(300).gzip(true).lines(6).records(5).blankLines(1).accepted(3).duplicates(1).rejected(1)
                .reasons(Map.of(ReasonCode.TYPE_MISMATCH, 1L)).acceptedBytes(90).distinctKeys(4).keyIndexBytes(64).keyIndexRuns(2)
                .keyIndexDiskBytes(32).rowsToDrop(LineSet.of(4)).refusal(refusal).build();
        assertEquals(List.of("progress_events", 3, "abc", 100L, 300L, true, 6L, 5L, 1L, 3L, 1L, 1L, Map.of(ReasonCode.TYPE_MISMATCH, 1L),
                90L, 4L, 64L, 2, 32L, List.of(4L), refusal), List.of(result.dataset(), result.contractVersion(), result.sha256(),
                result.storedBytes(), result.decodedBytes(), result.gzip(), result.lines(), result.records(), result.blankLines(),
                result.accepted(), result.duplicates(), result.rejected(), result.reasons(), result.acceptedBytes(), result.distinctKeys(),
                result.keyIndexBytes(), result.keyIndexRuns(), result.keyIndexDiskBytes(), Arrays.stream(result.rowsToDrop().toArray()).boxed().toList(),
                result.refusal()));
        assertEquals(result, result.toBuilder().build());
        ValidationResult noIndex = result.toBuilder().keyIndexBytes(0).keyIndexRuns(0).keyIndexDiskBytes(0).build();
        assertEquals(0, noIndex.keyIndexRuns());
        assertEquals(result.reasons(), noIndex.reasons());
        assertEquals(io.landingledger.core.json.JsonCodec.fields(result.document()).keySet(),
                io.landingledger.core.json.JsonCodec.fields(noIndex.document()).keySet());
    }

    @Test
    void builder_defaultsToNoReasonsNoRowsToDropAndNoRefusal() {
        ValidationResult result = ValidationResult.builder().dataset("d").sha256("abc").build();
        assertTrue(result.reasons().isEmpty());
        assertTrue(result.acceptedFinal());
        assertTrue(result.publishable());
    }

    @Test
    void build_namesTheMissingComponent() {
        assertEquals("ValidationResult: dataset is required", assertThrows(IllegalStateException.class,
                () -> ValidationResult.builder().sha256("abc").build()).getMessage());
        assertEquals("ValidationResult: sha256 is required", assertThrows(IllegalStateException.class,
                () -> ValidationResult.builder().dataset("d").build()).getMessage());
        assertEquals("ValidationResult: rowsToDrop is required", assertThrows(IllegalStateException.class,
                () -> ValidationResult.builder().dataset("d").sha256("abc").rowsToDrop(null).build()).getMessage());
    }
}
