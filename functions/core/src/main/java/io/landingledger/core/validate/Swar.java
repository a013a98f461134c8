package io.landingledger.core.validate;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Reading bytes eight at a time as a little-endian long ("SIMD within a register"): the line splitter, the string
 * scanner, the ASCII check, the hash and the date cache all look at every byte of a file, and one load and a few
 * arithmetic steps per eight bytes beat a branch per byte.
 */
final class Swar {
    /** {@code (long) LONGS.get(bytes, i)}: bytes {@code i .. i + 7}, the first in the lowest bits. */
    static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** The same for two bytes. */
    static final VarHandle SHORTS = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    /** Multiplied by a byte value: that byte in all eight places. */
    static final long ONES = 0x0101010101010101L;
    static final long HIGH_BITS = 0x8080808080808080L;
    static final long LOW_SEVEN_BITS = 0x7F7F7F7F7F7F7F7FL;

    private Swar() {
    }

    /**
     * The high bit of each zero byte of {@code x}, and no other bit. Exact, unlike the shorter test that only says
     * whether there is one: the sums cannot carry into the next byte. XOR with {@code c * ONES} first to find byte c.
     */
    static long zeroBytes(long x) {
        return ~(((x & LOW_SEVEN_BITS) + LOW_SEVEN_BITS) | x | LOW_SEVEN_BITS);
    }

    /** The index, within its word, of the first byte {@link #zeroBytes} (or a test like it) marked. */
    static int firstMarked(long marks) {
        return Long.numberOfTrailingZeros(marks) >>> 3;
    }
}
