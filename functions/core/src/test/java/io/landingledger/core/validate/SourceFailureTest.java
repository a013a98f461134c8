package io.landingledger.core.validate;

import static io.landingledger.core.validate.Events.event;
import static io.landingledger.core.validate.Events.utf8;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.testing.FailingInputStream;
import io.landingledger.core.testing.Gzip;
import io.landingledger.core.testing.TestContracts;
import io.landingledger.core.testing.ThrottledInputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A failing source or sink is an infrastructure fault: validate() throws the IOException so the Lambda invocation
 * fails and is retried. It must never turn into a refusal (UNREADABLE) or, worse, into a result for part of a file.
 */
class SourceFailureTest {
    private static final DatasetContract EVENTS = TestContracts.progressEvents();

    private static byte[] day(int rows) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < rows; i++) {
            text.append(event("e" + i).line()).append('\n');
        }
        return utf8(text.toString());
    }

    private static void assertSourceFailurePropagates(FailingInputStream source, int readSize) {
        InputStream in = new ThrottledInputStream(source, readSize);
        IOException thrown = assertThrows(IOException.class,
                () -> new StreamingValidator(EVENTS).validate(in, new ByteArrayOutputStream(), new ByteArrayOutputStream()));
        assertSame(source.failure, thrown, "the source's own exception, not a wrapper or a refusal");
    }

    @ParameterizedTest(name = "{0}-byte reads")
    @ValueSource(ints = {Integer.MAX_VALUE, 1, 7, 8192})
    void validate_whenPlainSourceFails_throwsTheSourceException(int readSize) {
        byte[] plain = day(2_000);
        for (int failAfter : new int[] {0, 1, 100, plain.length / 2, plain.length - 1}) {
            assertSourceFailurePropagates(new FailingInputStream(plain, failAfter), readSize);
        }
    }

    @ParameterizedTest(name = "{0}-byte reads")
    @ValueSource(ints = {Integer.MAX_VALUE, 1, 7, 8192})
    void validate_whenGzipSourceFails_throwsTheSourceExceptionNotUnreadable(int readSize) {
        byte[] gz = Gzip.gzip(day(2_000));
        for (int failAfter : new int[] {1, 2, 5, 10, gz.length / 2, gz.length - 4, gz.length - 1}) {
            assertSourceFailurePropagates(new FailingInputStream(gz, failAfter), readSize);
        }
    }

    @ParameterizedTest(name = "{0}-byte reads")
    @ValueSource(ints = {Integer.MAX_VALUE, 1, 7, 8192})
    void validate_whenSourceFailsAtGzipMemberBoundary_throwsRatherThanEndingTheFile(int readSize) {
        // GZIPInputStream swallows an IOException while it looks for a next member and reports the end of the file
        byte[] member1 = Gzip.gzip(day(50));
        byte[] stored = Gzip.gzipMembers(day(50), day(60));
        assertSourceFailurePropagates(new FailingInputStream(stored, member1.length), readSize);
        assertSourceFailurePropagates(FailingInputStream.failingOnce(stored, member1.length), readSize);
    }

    @Test
    void validate_whenSourceFailsAtMemberBoundaryOnInflaterBufferEdge_throwsRatherThanEndingTheFile() {
        // GZIPInputStream reads the 10-byte header, then 64 KiB blocks: a first member that ends where such a block
        // ends (65546 bytes, give or take the 8-byte trailer) makes the failing read happen inside GZIPInputStream's
        // search for a next member, which swallows it and reports the end of the file. Measured: without the
        // validator's check, sizes 65546-65554 published the first member's rows and dropped the second member's.
        byte[] member2 = Gzip.gzip(day(10));
        for (int target = 65536; target <= 65536 + 24; target++) {
            byte[] member1 = storedMemberOfSize(target);
            byte[] stored = new byte[member1.length + member2.length];
            System.arraycopy(member1, 0, stored, 0, member1.length);
            System.arraycopy(member2, 0, stored, member1.length, member2.length);
            for (int readSize : ThrottledInputStream.READ_SIZES) {
                assertSourceFailurePropagates(FailingInputStream.failingOnce(stored, member1.length), readSize);
            }
        }
    }

    /** A gzip member of exactly {@code size} bytes whose content is valid event lines (stored blocks grow 1:1). */
    private static byte[] storedMemberOfSize(int size) {
        String body = new String(day(300), java.nio.charset.StandardCharsets.UTF_8);
        int base = Gzip.gzipStored(utf8(body + padLine(1))).length;
        byte[] member = Gzip.gzipStored(utf8(body + padLine(1 + size - base)));
        if (member.length != size) {
            throw new IllegalStateException("a stored member came out " + member.length + " bytes, not " + size);
        }
        return member;
    }

    private static String padLine(int padding) {
        return event("pad").text("learner_id", "p".repeat(padding)).line() + "\n";
    }

    @Test
    void validate_whenSourceFailsWhileDrainingAfterRefusal_throwsTheSourceException() {
        byte[] plain = day(5_000);
        byte[] refused = new byte[plain.length];
        System.arraycopy(plain, 0, refused, 0, plain.length);
        byte[] first = utf8(event("e0").text("email", "x@y.z").line() + "\n");
        byte[] stored = new byte[first.length + plain.length];
        System.arraycopy(first, 0, stored, 0, first.length);
        System.arraycopy(plain, 0, stored, first.length, plain.length);
        assertSourceFailurePropagates(new FailingInputStream(stored, stored.length - 10), 8192);
    }

    @Test
    void validate_whenAcceptedSinkFails_throwsTheSinkException() {
        IOException failure = new IOException("disk full (injected by the test)");
        OutputStream failing = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw failure;
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                throw failure;
            }
        };
        IOException thrown = assertThrows(IOException.class,
                () -> new StreamingValidator(EVENTS).validate(new ByteArrayInputStream(day(10)), failing, new ByteArrayOutputStream()));
        assertSame(failure, thrown);
        byte[] withReject = utf8(event("e1").raw("attempt_number", "0").line() + "\n");
        thrown = assertThrows(IOException.class,
                () -> new StreamingValidator(EVENTS).validate(new ByteArrayInputStream(withReject), new ByteArrayOutputStream(), failing));
        assertSame(failure, thrown);
    }
}
