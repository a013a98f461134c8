package io.landingledger.core.validate;

import io.landingledger.core.json.JsonCodec;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The JSON of a {@link ValidationResult} ({@code landing validate}'s output, log lines), byte for byte: field names,
 * their order, what is left out and how numbers are written are a public shape.
 */
class ValidationResultJsonTest {

    private static final Refusal REFUSAL = new Refusal(RefusalCode.KEY_CONFLICT, "key repeated", List.of(2L, 5L));

    static ValidationResult refused() {
        Map<ReasonCode, Long> reasons = new LinkedHashMap<>();
        reasons.put(ReasonCode.TYPE_MISMATCH, 1L);
        reasons.put(ReasonCode.INVALID_JSON, 2L);
        return ValidationResult.builder().dataset("progress_events").contractVersion(3).sha256("abc")
                .storedBytes(100).decodedBytes(300).gzip(true).lines(6).records(5).blankLines(1).accepted(3).duplicates(1).rejected(1)
                .reasons(reasons).acceptedBytes(90).distinctKeys(4).keyIndexBytes(64).keyIndexRuns(2)
                .keyIndexDiskBytes(32).rowsToDrop(LineSet.of(4)).refusal(REFUSAL).build();
    }

    static ValidationResult accepted() {
        return ValidationResult.builder().dataset("d").sha256("0f").lines(3_000_000_000L).records(2).accepted(2).build();
    }

    @Test
    void refused_withReasonsAndRefusalLines() {
        assertEquals("{\"dataset\":\"progress_events\",\"contractVersion\":3,\"decision\":\"refuse\","
                + "\"refusal\":{\"code\":\"KEY_CONFLICT\",\"detail\":\"key repeated\",\"lines\":[2,5]},\"sha256\":\"abc\","
                + "\"storedBytes\":100,\"decodedBytes\":300,\"gzip\":true,\"records\":5,\"lines\":6,\"blankLines\":1,\"accepted\":3,"
                + "\"duplicates\":1,\"rejected\":1,\"reasons\":{\"INVALID_JSON\":2,\"TYPE_MISMATCH\":1},\"acceptedBytes\":90,"
                + "\"distinctKeys\":4,\"keyIndexBytes\":64,\"keyIndexRuns\":2,\"keyIndexDiskBytes\":32}", json(refused()));
    }

    @Test
    void refused_withoutLines_leavesLinesOut() {
        ValidationResult result = refused().toBuilder().refusal(new Refusal(RefusalCode.REJECT_CAP, "too many", List.of())).build();
        assertEquals("{\"dataset\":\"progress_events\",\"contractVersion\":3,\"decision\":\"refuse\","
                + "\"refusal\":{\"code\":\"REJECT_CAP\",\"detail\":\"too many\"},\"sha256\":\"abc\","
                + "\"storedBytes\":100,\"decodedBytes\":300,\"gzip\":true,\"records\":5,\"lines\":6,\"blankLines\":1,\"accepted\":3,"
                + "\"duplicates\":1,\"rejected\":1,\"reasons\":{\"INVALID_JSON\":2,\"TYPE_MISMATCH\":1},\"acceptedBytes\":90,"
                + "\"distinctKeys\":4,\"keyIndexBytes\":64,\"keyIndexRuns\":2,\"keyIndexDiskBytes\":32}", json(result));
    }

    @Test
    void accepted_leavesRefusalOut_andKeepsEmptyReasons() {
        assertEquals("{\"dataset\":\"d\",\"contractVersion\":0,\"decision\":\"accept\",\"sha256\":\"0f\",\"storedBytes\":0,"
                + "\"decodedBytes\":0,\"gzip\":false,\"records\":2,\"lines\":3000000000,\"blankLines\":0,\"accepted\":2,\"duplicates\":0,"
                + "\"rejected\":0,\"reasons\":{},\"acceptedBytes\":0,\"distinctKeys\":0,\"keyIndexBytes\":0,\"keyIndexRuns\":0,"
                + "\"keyIndexDiskBytes\":0}", json(accepted()));
    }

    @Test
    void pretty() {
        assertEquals("""
                {
                  "dataset" : "d",
                  "contractVersion" : 0,
                  "decision" : "accept",
                  "sha256" : "0f",
                  "storedBytes" : 0,
                  "decodedBytes" : 0,
                  "gzip" : false,
                  "records" : 2,
                  "lines" : 3000000000,
                  "blankLines" : 0,
                  "accepted" : 2,
                  "duplicates" : 0,
                  "rejected" : 0,
                  "reasons" : { },
                  "acceptedBytes" : 0,
                  "distinctKeys" : 0,
                  "keyIndexBytes" : 0,
                  "keyIndexRuns" : 0,
                  "keyIndexDiskBytes" : 0
                }""", new String(JsonCodec.writePretty(document(accepted())), StandardCharsets.UTF_8));
    }

    private static Object document(ValidationResult result) {
        return result.document();
    }

    private static String json(ValidationResult result) {
        return JsonCodec.writeString(document(result));
    }
}
