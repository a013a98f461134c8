package io.landingledger.core.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/** The strict UTF-8 check agrees with the JDK's strict decoder (RFC 3629) on random bytes, at any offset. */
class Utf8Test {
    private static final int[] INTERESTING = {0x00, 0x0A, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
            0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFE, 0xFF};

    private static boolean jdkAccepts(byte[] b, int off, int len) {
        try {
            StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b, off, len));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    @Test
    void isValid_whenRandomBytes_agreesWithJdkStrictDecoder() {
        SplittableRandom random = new SplittableRandom(8);
        int valid = 0;
        for (int i = 0; i < 500_000; i++) {
            byte[] b = new byte[random.nextInt(1, 24)];
            for (int k = 0; k < b.length; k++) {
                b[k] = (byte) (random.nextInt(3) == 0 ? random.nextInt(256) : INTERESTING[random.nextInt(INTERESTING.length)]);
            }
            int off = random.nextInt(b.length);
            int len = random.nextInt(b.length - off + 1);
            boolean expected = jdkAccepts(b, off, len);
            assertEquals(expected, Utf8.isValid(b, off, len), () -> java.util.HexFormat.ofDelimiter(" ").formatHex(b, off, off + len));
            if (expected) {
                valid++;
                char[] chars = new char[len];
                int n = Utf8.decode(b, off, len, chars);
                assertEquals(new String(b, off, len, StandardCharsets.UTF_8), new String(chars, 0, n));
            }
        }
        assertTrue(valid > 10_000, "the generator must produce valid sequences too, got " + valid);
    }

    @Test
    void isValid_whenNamedMalformedSequences_rejectsEach() {
        int[][] malformed = {{0xC0, 0xAF}, {0xE0, 0x80, 0xAF}, {0xF0, 0x80, 0x80, 0xAF}, {0xED, 0xA0, 0x80}, {0xED, 0xBF, 0xBF},
                {0xF4, 0x90, 0x80, 0x80}, {0x80}, {0xE2, 0x82}, {0xF8, 0x88, 0x80, 0x80, 0x80}};
        for (int[] sequence : malformed) {
            byte[] b = new byte[sequence.length + 9];
            java.util.Arrays.fill(b, (byte) 'a');
            for (int k = 0; k < sequence.length; k++) {
                b[9 + k] = (byte) sequence[k];
            }
            assertFalse(Utf8.isValid(b, 0, b.length), java.util.Arrays.toString(sequence));
        }
    }
}
