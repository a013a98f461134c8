package io.landingledger.core.validate;

import java.io.IOException;

/**
 * Reads the decoded input one read at a time into {@link LineChunk}s, in order, on the validation's own thread: the
 * reads, the SHA-256 of the stored bytes and the line split are one pass, and the reads are the same whoever parses
 * the lines and however far ahead of the in-order pass they run (so are the decoded-byte counts a chunk records).
 */
final class ChunkReader {
    private final LineReader reader;
    private final DecodedInput input;
    private final HashingInputStream source;
    private boolean done;

    ChunkReader(HashingInputStream source, DecodedInput input, int maxLineBytes) {
        this.source = source;
        this.input = input;
        this.reader = new LineReader(input.stream(), maxLineBytes);
    }

    /** The bytes a chunk's buffer must have: as many as the line reader's own (a read may swap them). */
    int bufferBytes() {
        return reader.buffer().length;
    }

    /** See {@link LineReader#carriedBytes}. */
    long carriedBytes() {
        return reader.carriedBytes;
    }

    /** The stream ended or a read failed: there is no next chunk. */
    boolean done() {
        return done;
    }

    /**
     * Makes the next read into {@code into} and hands it the lines that read completed. A read the decoder refuses
     * (corrupt gzip, the decompression ratio) becomes the chunk's {@link LineChunk#readFailure}; a failure of the
     * source itself is thrown.
     *
     * @throws SourceReadException the source failed (an infrastructure fault to retry)
     */
    void read(LineChunk into) throws IOException {
        into.reset(reader.lineNumber + 1);
        boolean first = true;
        while (true) {
            try {
                if (first) {
                    reader.read(into.text);
                } else {
                    reader.readMore();
                }
            } catch (SourceReadException e) {
                throw e;
            } catch (IOException e) {
                into.readFailure = input.readFailure(e, reader.lineNumber);
                into.decodedAfterRead = input.decodedBytes();
                done = true;
                return;
            }
            first = false;
            into.decodedAfterRead = input.decodedBytes();
            if (!lines(into)) {
                return;
            }
            // no line ended in this chunk yet (one long line): read on into the same buffer, where the line begun
            // stays put, rather than hand over a chunk without a line, whose successor would copy the whole line
            // begun so far again (a line of L bytes cost L^2 / 512 KiB bytes copied, issue 30's linear-time search)
        }
    }

    /**
     * Hands {@code into} the lines its reads completed.
     *
     * @return true when it needs more input, holds no line yet and has room to read on in place
     */
    private boolean lines(LineChunk into) {
        while (true) {
            switch (reader.next()) {
                case LINE -> {
                    into.add(reader.lineStart, reader.lineLength, reader.lineAscii, reader.tooLong, reader.tooLongBytes);
                    if (reader.lineNumber == StreamingValidator.LINES_BEFORE_ESTIMATE) {
                        // for gzip the stored bytes read so far include the inflater's read-ahead
                        into.storedAtEstimateLine = input.gzip() ? source.count() : reader.consumed();
                    }
                }
                case NEED_INPUT -> {
                    return into.count == 0 && reader.hasRoom();
                }
                case END -> {
                    into.end = true;
                    done = true;
                    return false;
                }
            }
        }
    }
}
