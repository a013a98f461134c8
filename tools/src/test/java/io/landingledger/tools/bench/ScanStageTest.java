package io.landingledger.tools.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ScanStageTest {

    @Test
    void countNewlines_eightAtATime_countsExactlyWhatAByteLoopCounts() {
        SplittableRandom random = new SplittableRandom(1);
        // bytes near '\n' (0x0A) and with the high bit set are where a loose zero-byte test miscounts
        byte[] alphabet = {'\n', 0x0B, 0x09, (byte) 0x8A, (byte) 0x80, 0, 0x7F, 'a', '\r', (byte) 0xFF};
        for (int round = 0; round < 2_000; round++) {
            byte[] b = new byte[random.nextInt(64)];
            for (int i = 0; i < b.length; i++) {
                b[i] = alphabet[random.nextInt(alphabet.length)];
            }
            int length = b.length == 0 ? 0 : random.nextInt(b.length + 1);
            long expected = 0;
            for (int i = 0; i < length; i++) {
                expected += b[i] == '\n' ? 1 : 0;
            }
            assertEquals(expected, ScanStage.countNewlines(b, length));
        }
    }

    @Test
    void run_countsALastLineWithoutNewline_andHashesTheStoredBytes(@TempDir Path dir) throws IOException, NoSuchAlgorithmException {
        byte[] text = "one\ntwo\r\n\nthree".getBytes(StandardCharsets.UTF_8);
        Path plain = Files.write(dir.resolve("plain.jsonl"), text);
        Path zipped = dir.resolve("zipped.jsonl.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(zipped))) {
            out.write(text);
        }
        for (Path file : new Path[] {plain, zipped}) {
            BenchStage.Pass pass = new ScanStage().run(BenchStage.BenchFile.of(file));
            assertEquals(4, pass.lines(), file.toString());
            assertEquals(text.length, pass.bytes(), file.toString());
            String sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
            assertEquals(sha256, pass.sha256(), file.toString());
        }
    }
}
