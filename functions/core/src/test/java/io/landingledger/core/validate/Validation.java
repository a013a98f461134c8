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
 * Runs the validator the way every test here wants it run: on whole, 1-byte, 7-byte and 8 KiB reads, and twice on
 * the same validator, asserting that every run gives the identical result and byte-identical accepted and rejects
 * streams. Returns that one outcome.
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
        StreamingValidator validator = new StreamingValidator(contract, limits);
        Outcome first = once(validator, stored, Integer.MAX_VALUE);
        for (int readSize : ThrottledInputStream.READ_SIZES) {
            Outcome again = once(validator, stored, readSize);
            String how = ThrottledInputStream.describe(readSize);
            assertEquals(first.result(), again.result(), "the result differs on " + how);
            assertArrayEquals(first.accepted(), again.accepted(), "the accepted bytes differ on " + how);
            assertArrayEquals(first.rejects(), again.rejects(), "the rejects bytes differ on " + how);
        }
        return first;
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
