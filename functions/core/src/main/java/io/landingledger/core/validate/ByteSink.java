package io.landingledger.core.validate;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/** A growable byte buffer with the few JSON writers the canonical form needs. Reused across lines. */
final class ByteSink {
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] MIN_LONG = Long.toString(Long.MIN_VALUE).getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    byte[] bytes;
    int size;

    ByteSink(int initialCapacity) {
        bytes = new byte[initialCapacity];
    }

    void reset() {
        size = 0;
    }

    /** Makes room for {@code extra} more bytes (also for a caller that then writes into {@link #bytes} directly). */
    void ensure(int extra) {
        if (size + extra > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + extra));
        }
    }

    void write(int b) {
        ensure(1);
        bytes[size++] = (byte) b;
    }

    void write(byte[] source) {
        write(source, 0, source.length);
    }

    void write(byte[] source, int offset, int length) {
        ensure(length);
        System.arraycopy(source, offset, bytes, size, length);
        size += length;
    }

    /** Writes {@code "source[offset..offset+length)"}: a JSON string whose content needs no escaping. */
    void writeQuoted(byte[] source, int offset, int length) {
        ensure(length + 2);
        byte[] out = bytes;
        out[size] = '"';
        System.arraycopy(source, offset, out, size + 1, length);
        out[size + 1 + length] = '"';
        size += length + 2;
    }

    void writeAscii(CharSequence text) {
        ensure(text.length());
        for (int i = 0; i < text.length(); i++) {
            bytes[size++] = (byte) text.charAt(i);
        }
    }

    /** Writes a long in decimal without allocating. */
    void writeLong(long value) {
        if (value == Long.MIN_VALUE) {
            write(MIN_LONG);
            return;
        }
        ensure(20);
        if (value >= 0 && value < 10) {
            bytes[size++] = (byte) ('0' + value); // counters and small codes: most integers in rows
            return;
        }
        if (value < 0) {
            bytes[size++] = '-';
            value = -value;
        }
        int digits = 1;
        for (long v = value; v >= 10; v /= 10) {
            digits++;
        }
        int end = size + digits;
        for (int i = end - 1; i >= size; i--) {
            bytes[i] = (byte) ('0' + (value % 10));
            value /= 10;
        }
        size = end;
    }

    /**
     * Writes a JSON string in the canonical form (RFC 8785 style): UTF-8, escaping only {@code "}, {@code \} and
     * control characters. Returns false, having written a partial string, when the text holds a lone surrogate.
     */
    boolean writeJsonString(char[] text, int offset, int length) {
        ensure(length * 3 + 2);
        byte[] out = bytes;
        int pos = size;
        out[pos++] = '"';
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            char c = text[i];
            if (c < 0x80) {
                if (c >= 0x20 && c != '"' && c != '\\') {
                    out[pos++] = (byte) c;
                    continue;
                }
                size = pos;
                ensure(6 + (end - i) * 3);
                out = bytes;
                pos = size;
                out[pos++] = '\\';
                switch (c) {
                    case '"' -> out[pos++] = '"';
                    case '\\' -> out[pos++] = '\\';
                    case '\b' -> out[pos++] = 'b';
                    case '\f' -> out[pos++] = 'f';
                    case '\n' -> out[pos++] = 'n';
                    case '\r' -> out[pos++] = 'r';
                    case '\t' -> out[pos++] = 't';
                    default -> {
                        out[pos++] = 'u';
                        out[pos++] = '0';
                        out[pos++] = '0';
                        out[pos++] = HEX[c >> 4];
                        out[pos++] = HEX[c & 0xF];
                    }
                }
            } else if (c < 0x800) {
                out[pos++] = (byte) (0xC0 | (c >> 6));
                out[pos++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                if (!Character.isHighSurrogate(c) || i + 1 >= end || !Character.isLowSurrogate(text[i + 1])) {
                    size = pos;
                    return false;
                }
                int cp = Character.toCodePoint(c, text[++i]);
                out[pos++] = (byte) (0xF0 | (cp >> 18));
                out[pos++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                out[pos++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                out[pos++] = (byte) (0x80 | (cp & 0x3F));
            } else {
                out[pos++] = (byte) (0xE0 | (c >> 12));
                out[pos++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                out[pos++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        out[pos++] = '"';
        size = pos;
        return true;
    }

    void writeTo(OutputStream out) throws IOException {
        out.write(bytes, 0, size);
    }
}
