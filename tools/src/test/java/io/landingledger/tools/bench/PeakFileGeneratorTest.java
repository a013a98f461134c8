package io.landingledger.tools.bench;

import io.landingledger.core.contract.ContractLoader;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.validate.RefusalCode;
import io.landingledger.core.validate.StreamingValidator;
import io.landingledger.core.validate.ValidationResult;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PeakFileGeneratorTest {
    static final Path CONTRACT = PerfTesting.contract();
    private static final long LINES = 20_000;

    static byte[] generate(PeakFileGenerator.Options options) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new PeakFileGenerator(options).write(out);
        return out.toByteArray();
    }

    static PeakFileGenerator.Options options(long seed, double duplicateShare, long malformed) {
        return new PeakFileGenerator.Options(LINES, seed, duplicateShare, PeakFileGenerator.DEFAULT_LATE_SHARE, malformed,
                PeakFileGenerator.DEFAULT_DAY);
    }

    static ValidationResult validate(InputStream in) throws IOException {
        DatasetContract contract = ContractLoader.load(CONTRACT);
        return new StreamingValidator(contract).validate(in, OutputStream.nullOutputStream(), OutputStream.nullOutputStream());
    }

    @Test
    void write_withTheSameSeed_isByteIdentical_andAnotherSeedDiffers() throws IOException {
        byte[] first = generate(options(7, 0.02, 10));
        byte[] second = generate(options(7, 0.02, 10));
        byte[] other = generate(options(8, 0.02, 10));
        assertArrayEquals(first, second);
        assertFalse(Arrays.equals(first, other));
    }

    @Test
    void write_summaryCountsWhatWasWritten() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PeakFileGenerator.Summary summary = new PeakFileGenerator(options(7, 0.05, 10)).write(out);
        byte[] bytes = out.toByteArray();
        assertEquals(bytes.length, summary.bytes());
        assertEquals(LINES, summary.lines());
        assertEquals(LINES, new String(bytes, StandardCharsets.UTF_8).lines().count());
        assertEquals(LINES, summary.distinct() + summary.duplicates() + summary.malformed());
        // shares land near what was asked for
        assertEquals(0.05, (double) summary.duplicates() / LINES, 0.01);
        assertEquals(0.01, (double) summary.late() / summary.distinct(), 0.005);
        double bytesPerLine = (double) summary.bytes() / LINES;
        assertTrue(bytesPerLine > 235 && bytesPerLine < 265, "lines should be peak-day sized (~250 bytes), not " + bytesPerLine);
    }

    @Test
    void generatedFile_validatesAsPublishable_withTheDuplicatesAndRejectsItWrote() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PeakFileGenerator.Summary summary = new PeakFileGenerator(options(11, 0.05, 10)).write(out);
        ValidationResult result = validate(new ByteArrayInputStream(out.toByteArray()));

        assertEquals("accept", result.decision(), () -> String.valueOf(result.refusal()));
        assertEquals(summary.lines(), result.lines());
        assertEquals(summary.distinct(), result.accepted());
        assertEquals(summary.duplicates(), result.duplicates());
        assertTrue(summary.duplicates() > 500, "a 5% share of 20,000 lines");
        assertEquals(10, result.rejected());
        assertTrue(result.reasons().size() >= 5, "malformed lines come in several kinds: " + result.reasons());
    }

    @Test
    void duplicates_areCanonicalDuplicates_notOnlyByteCopies() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PeakFileGenerator.Summary summary = new PeakFileGenerator(options(3, 0.05, 0)).write(out);
        Set<String> distinctLines = new HashSet<>(new String(out.toByteArray(), StandardCharsets.UTF_8).lines().toList());
        long byteCopies = summary.lines() - distinctLines.size();
        long rewritten = summary.duplicates() - byteCopies;
        // the generator re-sends 40% as byte copies; the rest use another key order, offset or whitespace
        assertTrue(byteCopies > summary.duplicates() / 4, "byte copies: " + byteCopies + " of " + summary.duplicates());
        assertTrue(rewritten > summary.duplicates() / 3, "rewritten duplicates: " + rewritten + " of " + summary.duplicates());
    }

    @Test
    void gen_gzip_writesAFileTheValidatorInflatesToTheSameRows(@TempDir Path dir) throws IOException {
        Path plain = dir.resolve("progress-2026-03-02.jsonl");
        Path zipped = dir.resolve("progress-2026-03-02.jsonl.gz");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, PerfTesting.execute(new GenerateCommand(System.out, new PrintStream(err, true, StandardCharsets.UTF_8)),
                "--lines", "5000", "--seed", "5", "--contract", CONTRACT.toString(), "--out", plain.toString()));
        assertEquals(0, PerfTesting.execute(new GenerateCommand(System.out, new PrintStream(err, true, StandardCharsets.UTF_8)),
                "--lines", "5000", "--seed", "5", "--contract", CONTRACT.toString(), "--gzip", "--out", zipped.toString()));

        ValidationResult fromPlain;
        ValidationResult fromGzip;
        try (InputStream in = Files.newInputStream(plain)) {
            fromPlain = validate(in);
        }
        try (InputStream in = Files.newInputStream(zipped)) {
            fromGzip = validate(in);
        }
        assertTrue(fromGzip.gzip());
        assertEquals(Files.size(plain), fromGzip.decodedBytes());
        assertEquals(fromPlain.accepted(), fromGzip.accepted());
        assertEquals(fromPlain.duplicates(), fromGzip.duplicates());
        assertEquals(10, fromGzip.rejected(), "by default as many malformed lines as the contract's cap allows");
        assertEquals("accept", fromGzip.decision());
        String log = err.toString(StandardCharsets.UTF_8);
        assertTrue(log.contains("landing gen: out=" + plain + " lines=5000 "), log);
        assertEquals(2, log.lines().count(), "one summary line per file: " + log);
        assertFalse(Files.exists(dir.resolve("." + plain.getFileName() + ".partial")));
    }

    @Test
    void gen_withMoreMalformedLinesThanTheCap_warnsAndTheFileIsRefused(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("over-cap.jsonl");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, PerfTesting.execute(new GenerateCommand(System.out, new PrintStream(err, true, StandardCharsets.UTF_8)),
                "--lines", "2000", "--malformed", "11", "--contract", CONTRACT.toString(), "--out", file.toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("above the contract's maxRejectedLines (10)"), err::toString);
        try (InputStream in = Files.newInputStream(file)) {
            ValidationResult result = validate(in);
            assertEquals(RefusalCode.REJECT_CAP, result.refusal().code());
        }
    }

    @Test
    void gen_withBadOptions_exitsTwo(@TempDir Path dir) {
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        assertEquals(2, PerfTesting.execute(new GenerateCommand(quiet, quiet), "--lines", "10", "--malformed", "11",
                "--out", dir.resolve("x").toString()));
        assertEquals(2, PerfTesting.execute(new GenerateCommand(quiet, quiet), "--duplicate-share", "1.5",
                "--out", dir.resolve("x").toString()));
        assertEquals(2, PerfTesting.execute(new GenerateCommand(quiet, quiet), "--out", dir.resolve("no/such/dir/x").toString()));
    }
}
