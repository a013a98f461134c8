package io.landingledger.core.validate;

/**
 * MurmurHash3 x64 128-bit (Austin Appleby's public-domain reference), reading each 16-byte block as two
 * little-endian longs and writing the result into a caller's array.
 *
 * <p>Why not commons-codec's {@code MurmurHash3.hash128x64}, which gives the same values (Murmur3Test checks it
 * on every length and alignment): it builds each 64-bit word from eight byte loads and shifts and returns a new
 * array per call, and with two hashes a line (the key's fingerprint, the row's payload) that costs a tenth of the
 * validator's profile.
 */
final class Murmur3 {
    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    private Murmur3() {
    }

    /** Hashes {@code b[off .. off + len)} with {@code seed}; the 128 bits go to {@code out[0]} and {@code out[1]}. */
    static void hash128(byte[] b, int off, int len, long seed, long[] out) {
        long h1 = seed;
        long h2 = seed;
        int blocksEnd = off + (len & ~15);
        for (int i = off; i < blocksEnd; i += 16) {
            long k1 = (long) Swar.LONGS.get(b, i);
            long k2 = (long) Swar.LONGS.get(b, i + 8);
            h1 ^= mixK1(k1);
            h1 = Long.rotateLeft(h1, 27) + h2;
            h1 = h1 * 5 + 0x52dce729;
            h2 ^= mixK2(k2);
            h2 = Long.rotateLeft(h2, 31) + h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        int tail = blocksEnd;
        int rest = len & 15;
        if (rest > 8) {
            long k2 = 0;
            for (int i = rest - 1; i >= 8; i--) {
                k2 = k2 << 8 | (b[tail + i] & 0xFFL);
            }
            h2 ^= mixK2(k2);
        }
        if (rest > 0) {
            long k1 = 0;
            for (int i = Math.min(rest, 8) - 1; i >= 0; i--) {
                k1 = k1 << 8 | (b[tail + i] & 0xFFL);
            }
            h1 ^= mixK1(k1);
        }
        h1 ^= len;
        h2 ^= len;
        h1 += h2;
        h2 += h1;
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1 += h2;
        h2 += h1;
        out[0] = h1;
        out[1] = h2;
    }

    private static long mixK1(long k1) {
        return Long.rotateLeft(k1 * C1, 31) * C2;
    }

    private static long mixK2(long k2) {
        return Long.rotateLeft(k2 * C2, 33) * C1;
    }

    private static long fmix64(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
