package io.landingledger.core.validate;

import java.util.Arrays;

/**
 * What parsing found in each line of a {@link LineChunk}, for the in-order pass to decide on: the line's kind, a
 * row's problems, and an acceptable row's canonical bytes (in {@link #rows}) with its key and payload hashes. Filled
 * by one thread, read by another after it finished.
 */
final class ParsedLines {
    /** What a line is, before the in-order pass decides what it does to the file. */
    enum Kind {
        /** A record; {@link #prohibited}, {@link #unknownField} and {@link #reason} say what was wrong, if anything. */
        RECORD,
        BLANK,
        /** Longer than maxLineBytes, skipped unread. */
        TOO_LONG,
        INVALID_UTF8,
        /** A CSV header row; {@link #headerRefusal} says whether it matched. */
        HEADER,
        /** The line that should have been the CSV header is not valid UTF-8. */
        HEADER_NOT_UTF8,
        /** A CSV record whose quoted cell goes on past the line: the in-order pass joins the next lines. */
        UNTERMINATED
    }

    /** Lines {@code [0, parsed)} of the chunk have a verdict; the rest are for the in-order pass to parse. */
    int parsed;
    Kind[] kind = new Kind[256];
    ReasonCode[] reason = new ReasonCode[256];
    String[] field = new String[256];
    String[] prohibited = new String[256];
    boolean[] unknownField = new boolean[256];
    int[] rowStart = new int[256];
    int[] rowEnd = new int[256];
    long[] keyHi = new long[256];
    long[] keyLo = new long[256];
    long[] payloadHash = new long[256];
    Refusal headerRefusal;
    /** Canonical rows of the acceptable records, one after another. */
    final ByteSink rows = new ByteSink(64 * 1024);

    void reset() {
        parsed = 0;
        headerRefusal = null;
        rows.reset();
    }

    /** Makes room for verdicts up to line {@code line} of the chunk: a parse of the chunk makes it for all its lines. */
    void ensure(int line) {
        if (line < kind.length) {
            return;
        }
        int capacity = Math.max(line + 1, kind.length * 2);
        kind = Arrays.copyOf(kind, capacity);
        reason = Arrays.copyOf(reason, capacity);
        field = Arrays.copyOf(field, capacity);
        prohibited = Arrays.copyOf(prohibited, capacity);
        unknownField = Arrays.copyOf(unknownField, capacity);
        rowStart = Arrays.copyOf(rowStart, capacity);
        rowEnd = Arrays.copyOf(rowEnd, capacity);
        keyHi = Arrays.copyOf(keyHi, capacity);
        keyLo = Arrays.copyOf(keyLo, capacity);
        payloadHash = Arrays.copyOf(payloadHash, capacity);
    }

    /** A line whose verdict is only its kind (room made by {@link #ensure}). */
    void set(int line, Kind value) {
        kind[line] = value;
        reason[line] = null;
        field[line] = null;
        prohibited[line] = null;
        unknownField[line] = false;
    }
}
