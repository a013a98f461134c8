package io.landingledger.tools.bench;

/**
 * One progress event as the generator models it: its values (what the validator publishes) and how one producer
 * wrote it (key order, whitespace, the offset the instant is written in). Mutable and reused: the generator makes
 * millions of them.
 */
final class ProgressEvent {
    /** {@link #offsetMinutes} value that renders as {@code Z}. */
    static final int UTC_Z = Integer.MIN_VALUE;
    /** {@link #checkpoint} value for a null checkpoint. */
    static final int NO_CHECKPOINT = -1;

    // Values: two events with equal values publish the same canonical row.
    long idHigh;
    long idLow;
    long learner;
    int lesson;
    boolean completed;
    int attempt;
    int checkpoint = NO_CHECKPOINT;
    long epochSecond;
    int nanos;
    /** Sub-second digits written (0, 3, 6 or 9): part of the value, since the validator keeps the digits it reads. */
    int fractionDigits;

    // Presentation: changing these never changes the canonical row.
    int offsetMinutes = UTC_Z;
    int keyOrder;
    boolean compact;
    /** A null checkpoint is left out rather than written as {@code null} (the contract treats both alike). */
    boolean checkpointAbsent;

    void copyFrom(ProgressEvent other) {
        idHigh = other.idHigh;
        idLow = other.idLow;
        learner = other.learner;
        lesson = other.lesson;
        completed = other.completed;
        attempt = other.attempt;
        checkpoint = other.checkpoint;
        epochSecond = other.epochSecond;
        nanos = other.nanos;
        fractionDigits = other.fractionDigits;
        offsetMinutes = other.offsetMinutes;
        keyOrder = other.keyOrder;
        compact = other.compact;
        checkpointAbsent = other.checkpointAbsent;
    }
}
