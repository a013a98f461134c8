package io.landingledger.core.validate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.testing.ThrottledInputStream;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Runs the validator the way every test here wants it run: on whole, 1-byte, 7-byte and 8 KiB reads, twice on the
 * same validator, and with 1, 2 and 4 parse workers, asserting that every run gives the identical result and
 * byte-identical accepted and rejects streams. Returns that one outcome.
 */
final class Validation {

    /** What one validation produced. */
    record Outcome(ValidationResult result, byte[] accepted, byte[] rejects) {
        String acceptedText() {
            return new String(accepted, StandardCharsets.UTF_8);
        }

        List<String> acceptedLines() {
            return lines(acceptedText());
        }

        String rejectsText() {
            return new String(rejects, StandardCharsets.UTF_8);
        }

        List<String> rejectLines() {
            return lines(rejectsText());
        }

        Refusal refusal() {
            return result.refusal();
        }

        RefusalCode refusalCode() {
            return result.refusal() == null ? null : result.refusal().code();
        }

        private static List<String> lines(String text) {
            return text.lines().toList();
        }
    }

    private Validation() {
    }

    static Outcome validate(DatasetContract contract, String text) {
        return validate(contract, ValidationLimits.defaults(), text.getBytes(StandardCharsets.UTF_8));
    }

    static Outcome validate(DatasetContract contract, byte[] stored) {
        return validate(contract, ValidationLimits.defaults(), stored);
    }

    static Outcome validate(DatasetContract contract, ValidationLimits limits, String text) {
        return validate(contract, limits, text.getBytes(StandardCharsets.UTF_8));
    }

    static Outcome validate(DatasetContract contract, ValidationLimits limits, byte[] stored) {
        StreamingValidator validator = new StreamingValidator(contract, limits.withWorkers(1));
        Outcome first = once(validator, stored, Integer.MAX_VALUE);
        for (int readSize : ThrottledInputStream.READ_SIZES) {
            assertSame(first, once(validator, stored, readSize), ThrottledInputStream.describe(readSize));
        }
        assertSameAtEveryWorkerCount(first, contract, limits, stored);
        return first;
    }

    /**
     * Asserts that {@code stored} validated by {@link #WORKERS} parse workers gives {@code single}, the one-worker
     * outcome: on whole reads, and on 7-byte reads, where every read is a chunk of its own and records cross chunks.
     */
    static void assertSameAtEveryWorkerCount(Outcome single, DatasetContract contract, ValidationLimits limits, byte[] stored) {
        for (int workers : WORKERS) {
            for (int readSize : new int[] {Integer.MAX_VALUE, 7}) {
                assertSameWithWorkers(single, contract, limits, stored, workers, readSize);
            }
        }
    }

    /** Asserts that {@code stored} validated by {@code workers} parse workers on reads of {@code readSize} gives {@code single}. */
    static void assertSameWithWorkers(Outcome single, DatasetContract contract, ValidationLimits limits, byte[] stored,
                                      int workers, int readSize) {
        StreamingValidator parallel = new StreamingValidator(contract, limits.withWorkers(workers).withWorkersFromTheStart());
        assertSame(single, once(parallel, stored, readSize), workers + " workers on " + ThrottledInputStream.describe(readSize));
    }

    /** Worker counts compared with one worker: more workers than this machine's cores, too. */
    static final int[] WORKERS = {2, 4};

    private static void assertSame(Outcome expected, Outcome actual, String how) {
        assertEquals(expected.result(), actual.result(), "the result differs on " + how);
        assertArrayEquals(expected.accepted(), actual.accepted(), "the accepted bytes differ on " + how);
        assertArrayEquals(expected.rejects(), actual.rejects(), "the rejects bytes differ on " + how);
    }

    /** One run on reads of at most {@code readSize} bytes, without the cross-checks. */
    static Outcome once(StreamingValidator validator, byte[] stored, int readSize) {
        ByteArrayOutputStream accepted = new ByteArrayOutputStream();
        ByteArrayOutputStream rejects = new ByteArrayOutputStream();
        try {
            ValidationResult result = validator.validate(new ThrottledInputStream(new ByteArrayInputStream(stored), readSize), accepted, rejects);
            return new Outcome(result, accepted.toByteArray(), rejects.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
