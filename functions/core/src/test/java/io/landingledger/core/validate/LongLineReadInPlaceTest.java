package io.landingledger.core.validate;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30, the linear-time search (LinearTimePropertyTest, -Dlinear.sizes=1,2,4,8,16): a line longer than one
 * read took time quadratic in its length, each 256 KiB read handing over a chunk without a line whose successor
 * copied the whole line begun so far into its buffer (a 16 MiB line: 64 reads, about 512 MiB copied). A chunk with no
 * line yet now reads on in place, so no byte of a line is carried into another buffer more than once.
 */
class LongLineReadInPlaceTest {

    @ParameterizedTest
    @ValueSource(ints = {1 << 20, 4 << 20, 16 << 20})
    void aLongLine_isReadOnInPlace_andCarriedToAnotherBufferAtMostOnce(int length) throws IOException {
        byte[] text = ("a,b\n" + "x".repeat(length) + "\nc,d\n").getBytes(StandardCharsets.UTF_8);
        ValidationLimits limits = ValidationLimits.builder().maxLineBytes(length + 1024).build().withWorkers(1);
        HashingInputStream source = new HashingInputStream(new ByteArrayInputStream(text));
        DecodedInput input = new DecodedInput(source, limits);
        assertNull(input.open());
        ChunkReader reader = new ChunkReader(source, input, limits.maxLineBytes());
        LineChunk chunk = new LineChunk(reader.bufferBytes());
        int lines = 0;
        long longest = 0;
        while (!reader.done()) {
            reader.read(chunk);
            assertNull(chunk.readFailure);
            lines += chunk.count;
            for (int i = 0; i < chunk.count; i++) {
                longest = Math.max(longest, chunk.length[i]);
            }
        }
        assertEquals(3, lines);
        assertEquals(length, longest, "the long line is one line, read whole");
        // before: every read after the first carried the line begun so far (length^2 / 512 KiB bytes in all)
        assertTrue(reader.carriedBytes() <= length + 4, "carried " + reader.carriedBytes() + " bytes for a "
                + length + "-byte line");
    }
}
