package io.landingledger.core.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.testing.TestContracts;
import io.landingledger.core.validate.Validation.Outcome;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

/**
 * Issue 30, item 2: a quoted CSV cell holding many line breaks took time quadratic in its length, the joined record
 * being scanned again after every physical line. The joiner now resumes its scan where the last one stopped.
 */
class CsvQuotedLineBreaksTest {
    private static final String HEADER = "txn_id,account_id,business_date,amount,batch_date";
    private static final DatasetContract TRANSACTIONS = TestContracts.transactions();

    /** A file whose second record's account_id holds {@code breaks} line breaks (pieces of {@code piece}). */
    private static byte[] file(int breaks, String piece) {
        StringBuilder text = new StringBuilder(HEADER).append('\n')
                .append("T1,A1,2026-10-01,1,2026-10-02\n")
                .append("T2,\"A");
        for (int i = 0; i < breaks; i++) {
            text.append(piece).append('\n');
        }
        text.append("\",2026-10-01,2,2026-10-02\n").append("T3,A3,2026-10-01,3,2026-10-02\n");
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The bytes the joiner scanned for the record's end, on one worker. */
    private static long joinScanBytes(byte[] stored) {
        StreamingValidator validator = new StreamingValidator(TRANSACTIONS, ValidationLimits.defaults().withWorkers(1));
        Outcome outcome = Validation.once(validator, stored, Integer.MAX_VALUE);
        assertNull(outcome.result().refusal());
        assertEquals(3, outcome.result().accepted());
        return validator.joinScanBytes();
    }

    @ParameterizedTest
    @ValueSource(strings = {"x", "", "\"\"", "y,\"\"z"})
    void csvQuotedCellWithManyLineBreaks_isLinear(String piece) {
        int n = 4096;
        byte[] once = file(n, piece);
        byte[] twice = file(2 * n, piece);
        long scannedOnce = joinScanBytes(once);
        long scannedTwice = joinScanBytes(twice);
        // every byte of the record is scanned a bounded number of times (before the fix: once per line after it)
        assertTrue(scannedOnce > 0, "the joiner scanned nothing");
        assertTrue(scannedOnce <= 2L * once.length, "scanned " + scannedOnce + " bytes of a " + once.length + "-byte file");
        assertTrue(scannedTwice <= 2 * scannedOnce + 64,
                "2N line breaks cost " + scannedTwice + " scanned bytes, N cost " + scannedOnce + ": not linear");
    }

    @Test
    void csvQuotedCellWithManyLineBreaks_isOneRecordOverItsLines() {
        int n = 10_000;
        Outcome outcome = Validation.validate(TRANSACTIONS, file(n, "x"));
        assertNull(outcome.result().refusal());
        assertEquals(3, outcome.result().records());
        assertEquals(3, outcome.result().accepted());
        assertEquals(n + 4, outcome.result().lines()); // header, T1, T2's n + 1 lines, T3
        String account = "A" + "x\\n".repeat(n);
        assertEquals("{\"account_id\":\"" + account + "\",\"amount\":2,\"batch_date\":\"2026-10-02\",\"business_date\":\"2026-10-01\",\"txn_id\":\"T2\"}",
                outcome.acceptedLines().get(1));
    }

    @Test
    void csvQuotedCellWithManyLineBreaks_overMaxLineBytes_isStillRejectedAtItsFirstLine() {
        int n = 10_000;
        ValidationLimits limits = ValidationLimits.builder().maxLineBytes(8 * 1024).build();
        Outcome outcome = Validation.validate(TestContracts.transactions(c -> c.put("maxRejectedLines", 100_000)), limits, file(n, "x"));
        assertNull(outcome.result().refusal());
        assertEquals(n + 4, outcome.result().lines());
        assertEquals("T1", outcome.acceptedLines().get(0).replaceAll(".*\"txn_id\":\"([^\"]*)\".*", "$1"));
        assertTrue(outcome.rejectLines().get(0).startsWith("{\"line\":3,\"reason\":\"LINE_TOO_LONG\""), outcome.rejectLines().get(0));
    }
}
