package io.landingledger.core.validate;

import java.io.IOException;
import java.io.InputStream;

/**
 * Splits a byte stream into lines (LF or CRLF; the last line may lack a terminator) in a buffer the caller may swap
 * at each read. A line longer than {@code maxLineBytes} is reported as too long and skipped to its end without being
 * held: memory stays at a buffer of about {@code maxLineBytes} per buffer in use, whatever the file.
 */
final class LineReader {
    private static final int READ_CHUNK = 256 * 1024;
    private static final long NEWLINES = '\n' * Swar.ONES;

    private final InputStream in;
    private final int maxLineBytes;
    private byte[] buffer;
    private int start;
    private int end;
    private boolean eof;
    /** Bytes read from the stream so far. */
    private long read;

    /** The current line: {@code buffer()[lineStart .. lineStart + lineLength)}, without its terminator. */
    int lineStart;
    int lineLength;
    /** The current line is plain ASCII (so valid UTF-8): seen while looking for its end, so no second look. */
    boolean lineAscii;
    /** Every byte of the current line scanned so far, OR-ed (negative bytes sign-extended): any high bit is non-ASCII. */
    private long scannedBits;
    /** 1-based number of the current line. */
    long lineNumber;
    /** The current line exceeded maxLineBytes; {@link #lineLength} is 0 and {@link #tooLongBytes} its length. */
    boolean tooLong;
    long tooLongBytes;

    /** What {@link #next()} found. */
    enum Next {
        /** A line: {@link #lineStart}, {@link #lineLength}, {@link #lineNumber} and the flags describe it. */
        LINE,
        /** Every line read so far is handed out: {@link #read} reads more, or the caller ends the stream here. */
        NEED_INPUT,
        /** The stream ended and every line is handed out. */
        END
    }

    /** The scan of the current line continues at {@link #scan} after a read (its bytes so far are in scannedBits). */
    private boolean resuming;
    private int scan;
    /** {@link #read} skipped a line too long to hold: the next {@link #next()} hands it out. */
    private boolean skipped;

    LineReader(InputStream in, int maxLineBytes) {
        this.in = in;
        this.maxLineBytes = maxLineBytes;
        this.buffer = new byte[bufferBytes(maxLineBytes)];
    }

    /** Room for one maximal line (+ CR) plus a read, so a full read never splits a legal line twice. */
    /**
     * Bytes of a line begun moved into the next buffer by {@link #read}: each line at most once, whatever its length
     * (a cost measure independent of the machine, for tests).
     */
    long carriedBytes;

    static int bufferBytes(int maxLineBytes) {
        return maxLineBytes + 1 + READ_CHUNK;
    }

    /** The buffer the current line is in: the one given to the last {@link #read}. */
    byte[] buffer() {
        return buffer;
    }

    /**
     * Advances to the next line without reading: the caller decides at {@link Next#NEED_INPUT} whether the stream
     * goes on, so nothing past a decided end is ever read, decompressed or counted.
     */
    Next next() {
        if (skipped) {
            skipped = false;
            return Next.LINE;
        }
        if (!resuming) {
            tooLong = false;
            scannedBits = 0;
            scan = start;
        }
        resuming = false;
        int newline = scanForNewline(scan, end);
        if (newline >= 0) {
            emit(start, newline);
            start = newline + 1;
            return Next.LINE;
        }
        if (eof) {
            if (start < end) {
                emit(start, end);
                start = end;
                return Next.LINE;
            }
            return Next.END;
        }
        resuming = true;
        scan = end;
        return Next.NEED_INPUT;
    }

    /**
     * Reads more after {@link Next#NEED_INPUT}, into {@code into} (a buffer of {@link #bufferBytes} bytes, or the
     * current one): the line begun so far moves to its start, so the lines handed out before stay intact in the old
     * buffer when {@code into} is another. The reads are the same whichever buffer is given.
     */
    void read(byte[] into) throws IOException {
        if (into.length != buffer.length) {
            throw new IllegalArgumentException("a line buffer of " + buffer.length + " bytes is needed, not " + into.length);
        }
        if (end - start > maxLineBytes + 1) {
            long length = end - start;
            boolean lastWasCr = buffer[end - 1] == '\r';
            buffer = into;
            skipLongLine(length, lastWasCr);
            resuming = false;
            skipped = true;
            return;
        }
        int tail = end - start;
        System.arraycopy(buffer, start, into, 0, tail);
        carriedBytes += tail;
        buffer = into;
        scan -= start;
        start = 0;
        end = tail;
        fill();
    }

    /**
     * True when the buffer has room for a read on in place ({@link #readMore}): less than a line too long and a
     * read's worth is held.
     */
    boolean hasRoom() {
        return end - start <= maxLineBytes + 1 && end < buffer.length && !eof;
    }

    /**
     * Reads more after {@link Next#NEED_INPUT} into the current buffer, when {@link #hasRoom}: the line begun so far
     * stays where it is (no copy), and the scan for its end resumes where it stopped.
     */
    void readMore() throws IOException {
        fill();
    }

    private void emit(int from, int newline) {
        int length = newline - from;
        if (length > 0 && buffer[newline - 1] == '\r') {
            length--;
        }
        lineNumber++;
        if (length > maxLineBytes) {
            tooLong = true;
            tooLongBytes = length;
            lineStart = from;
            lineLength = 0;
        } else {
            lineStart = from;
            lineLength = length;
        }
        lineAscii = (scannedBits & Swar.HIGH_BITS) == 0;
    }

    /** The buffer holds more than a legal line and no newline: count the rest of the line without keeping it. */
    private void skipLongLine(long length, boolean lastWasCr) throws IOException {
        start = 0;
        end = 0;
        while (true) {
            fill();
            if (end == 0 && eof) {
                break;
            }
            int newline = scanForNewline(0, end); // its ASCII bits are not used: the line is too long to read
            if (newline >= 0) {
                length += newline;
                lastWasCr = newline > 0 ? buffer[newline - 1] == '\r' : lastWasCr;
                start = newline + 1;
                break;
            }
            length += end;
            lastWasCr = buffer[end - 1] == '\r';
            end = 0;
            if (eof) {
                break;
            }
        }
        lineNumber++;
        tooLong = true;
        lineAscii = false; // not looked at: a line too long is never read
        tooLongBytes = lastWasCr ? length - 1 : length;
        lineStart = 0;
        lineLength = 0;
    }

    private void fill() throws IOException {
        int room = buffer.length - end;
        int n = in.read(buffer, end, Math.min(room, READ_CHUNK));
        if (n < 0) {
            eof = true;
        } else {
            end += n;
            read += n;
        }
    }

    /** Bytes of the stream up to the end of the current line (its terminator included): what was read, less what waits. */
    long consumed() {
        return read - (end - start);
    }

    /**
     * The first '\n' in {@code buffer[from..to)}, or -1, eight bytes at a time (lines are ~250 bytes on a peak day).
     * Every byte before the newline is also OR-ed into {@link #scannedBits}, so the line's ASCII check costs nothing
     * more.
     */
    private int scanForNewline(int from, int to) {
        byte[] b = buffer;
        long bits = scannedBits;
        int i = from;
        for (int last = to - Long.BYTES; i <= last; i += Long.BYTES) {
            long word = (long) Swar.LONGS.get(b, i);
            long newline = Swar.zeroBytes(word ^ NEWLINES);
            if (newline != 0) {
                int before = Swar.firstMarked(newline); // bytes of the word before the newline
                scannedBits = bits | (before == 0 ? 0 : word & (-1L >>> (Long.SIZE - Byte.SIZE * before)));
                return i + before;
            }
            bits |= word;
        }
        for (; i < to; i++) {
            if (b[i] == '\n') {
                scannedBits = bits;
                return i;
            }
            bits |= b[i];
        }
        scannedBits = bits;
        return -1;
    }
}
