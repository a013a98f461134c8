package io.landingledger.core.validate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.apache.commons.codec.digest.MurmurHash3;
import org.junit.jupiter.api.Test;

import java.util.Random;

/** The validator's MurmurHash3 gives commons-codec's values: every tail length, offsets, both seeds it uses. */
class Murmur3Test {
    @Test
    void hash128_equalsCommonsCodecForEveryLengthAndOffset() {
        Random random = new Random(42);
        byte[] data = new byte[600];
        random.nextBytes(data);
        long[] out = new long[2];
        for (int seed : new int[] {0, 0x5eed}) {
            for (int off = 0; off < 9; off++) {
                for (int len = 0; len <= 300; len++) {
                    Murmur3.hash128(data, off, len, seed, out);
                    int o = off;
                    int l = len;
                    assertArrayEquals(MurmurHash3.hash128x64(data, off, len, seed), out, () -> "offset " + o + ", length " + l);
                }
            }
        }
    }
}
