package io.landingledger.core.validate;

/** Strict UTF-8 checks (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF). */
final class Utf8 {

    private Utf8() {
    }

    /** True when every byte in the range is below 0x80; reads eight bytes at a time. */
    static boolean isAscii(byte[] b, int offset, int length) {
        int i = offset;
        int end = offset + length;
        long acc = 0;
        for (; i + 8 <= end; i += 8) {
            acc |= (long) Swar.LONGS.get(b, i);
        }
        for (; i < end; i++) {
            acc |= b[i];
        }
        return (acc & Swar.HIGH_BITS) == 0;
    }

    static boolean isValid(byte[] b, int offset, int length) {
        if (isAscii(b, offset, length)) {
            return true;
        }
        int i = offset;
        int end = offset + length;
        while (i < end) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                i++;
                continue;
            }
            if (c < 0xC2) {
                return false; // continuation byte as a start, or an overlong two-byte form (C0, C1)
            }
            if (c < 0xE0) {
                if (i + 1 >= end || !continuation(b[i + 1])) {
                    return false;
                }
                i += 2;
            } else if (c < 0xF0) {
                if (i + 2 >= end) {
                    return false;
                }
                int c1 = b[i + 1] & 0xFF;
                if (!continuation(b[i + 1]) || !continuation(b[i + 2])
                        || (c == 0xE0 && c1 < 0xA0)      // overlong three-byte form
                        || (c == 0xED && c1 >= 0xA0)) {  // UTF-16 surrogates U+D800..U+DFFF
                    return false;
                }
                i += 3;
            } else if (c < 0xF5) {
                if (i + 3 >= end) {
                    return false;
                }
                int c1 = b[i + 1] & 0xFF;
                if (!continuation(b[i + 1]) || !continuation(b[i + 2]) || !continuation(b[i + 3])
                        || (c == 0xF0 && c1 < 0x90)      // overlong four-byte form
                        || (c == 0xF4 && c1 >= 0x90)) {  // above U+10FFFF
                    return false;
                }
                i += 4;
            } else {
                return false;
            }
        }
        return true;
    }

    private static boolean continuation(byte b) {
        return (b & 0xC0) == 0x80;
    }

    /** Decodes valid UTF-8 into {@code out} (at least {@code length} chars long); returns the char count. */
    static int decode(byte[] b, int offset, int length, char[] out) {
        return decode(b, offset, length, out, 0);
    }

    /** Decodes valid UTF-8 into {@code out} from {@code outOffset}; returns the number of chars written. */
    static int decode(byte[] b, int offset, int length, char[] out, int outOffset) {
        int n = outOffset;
        int i = offset;
        int end = offset + length;
        while (i < end) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                out[n++] = (char) c;
                i++;
            } else if (c < 0xE0) {
                out[n++] = (char) (((c & 0x1F) << 6) | (b[i + 1] & 0x3F));
                i += 2;
            } else if (c < 0xF0) {
                out[n++] = (char) (((c & 0x0F) << 12) | ((b[i + 1] & 0x3F) << 6) | (b[i + 2] & 0x3F));
                i += 3;
            } else {
                int cp = ((c & 0x07) << 18) | ((b[i + 1] & 0x3F) << 12) | ((b[i + 2] & 0x3F) << 6) | (b[i + 3] & 0x3F);
                out[n++] = Character.highSurrogate(cp);
                out[n++] = Character.lowSurrogate(cp);
                i += 4;
            }
        }
        return n - outOffset;
    }
}
