package io.landingledger.core.validate;

import java.util.Arrays;

/**
 * The lines one read of the decoded stream completed, in the buffer that read filled, and what parsing them found
 * ({@link #parsed}). It is the unit the in-order reader hands to the parse workers and the workers hand back, and a
 * read is where a validation may decide to stop: nothing after a chunk that ends the file is read.
 */
final class LineChunk {
    private static final byte ASCII = 1;
    private static final byte TOO_LONG = 2;

    /** The reader's buffer holding the lines (a chunk is recycled with its buffer). */
    final byte[] text;
    /** Number of the chunk's first line in the file (1-based). */
    long firstLine;
    int count;
    int[] start = new int[256];
    int[] length = new int[256];
    private byte[] flags = new byte[256];
    private long[] tooLongBytes = new long[256];
    /** Decoded bytes read once this chunk's read was made: what a validation that stops here has decoded. */
    long decodedAfterRead;
    /** The read failed (corrupt gzip, the decompression ratio): the refusal, and the chunk has no lines. */
    Refusal readFailure;
    /** The stream ended after these lines. */
    boolean end;
    /**
     * Stored bytes read when line {@link StreamingValidator#LINES_BEFORE_ESTIMATE} was handed out, when that line is
     * in this chunk, else -1: what the key index's size estimate divides by.
     */
    long storedAtEstimateLine = -1;
    final ParsedLines parsed = new ParsedLines();

    LineChunk(int bufferBytes) {
        this.text = new byte[bufferBytes];
    }

    /** Empties the chunk for the read that starts at line {@code firstLine}. */
    void reset(long firstLine) {
        this.firstLine = firstLine;
        count = 0;
        decodedAfterRead = 0;
        readFailure = null;
        end = false;
        storedAtEstimateLine = -1;
        parsed.reset();
    }

    void add(int lineStart, int lineLength, boolean ascii, boolean tooLong, long tooLongLength) {
        if (count == start.length) {
            int capacity = count * 2;
            start = Arrays.copyOf(start, capacity);
            length = Arrays.copyOf(length, capacity);
            flags = Arrays.copyOf(flags, capacity);
            tooLongBytes = Arrays.copyOf(tooLongBytes, capacity);
        }
        start[count] = lineStart;
        length[count] = lineLength;
        flags[count] = (byte) ((ascii ? ASCII : 0) | (tooLong ? TOO_LONG : 0));
        tooLongBytes[count] = tooLongLength;
        count++;
    }

    boolean ascii(int line) {
        return (flags[line] & ASCII) != 0;
    }

    boolean tooLong(int line) {
        return (flags[line] & TOO_LONG) != 0;
    }

    /** The length of a line too long to hold, which was skipped without being read. */
    long tooLongBytes(int line) {
        return tooLongBytes[line];
    }
}
