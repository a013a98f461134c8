package io.landingledger.core.ingest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class BatchFailuresTest {

    @Test
    void noFault_throwsNothing() {
        assertDoesNotThrow(new BatchFailures()::throwIfAny);
    }

    @Test
    void severalFaults_throwTheFirst_withTheOthersSuppressedInOrder() {
        BatchFailures failures = new BatchFailures();
        IllegalStateException first = new IllegalStateException("record 1");
        IllegalArgumentException second = new IllegalArgumentException("record 2");
        RuntimeException third = new RuntimeException("record 3");
        failures.add(first);
        failures.add(second);
        failures.add(third);
        RuntimeException thrown = assertThrows(RuntimeException.class, failures::throwIfAny);
        assertSame(first, thrown);
        assertArrayEquals(new Throwable[] {second, third}, thrown.getSuppressed());
    }

    @Test
    void theSameFaultTwice_isThrownOnce_notSuppressedInItself() {
        BatchFailures failures = new BatchFailures();
        IllegalStateException shared = new IllegalStateException("a client both records share");
        failures.add(shared);
        failures.add(shared);
        RuntimeException thrown = assertThrows(RuntimeException.class, failures::throwIfAny);
        assertSame(shared, thrown);
        assertArrayEquals(new Throwable[0], thrown.getSuppressed());
    }
}
