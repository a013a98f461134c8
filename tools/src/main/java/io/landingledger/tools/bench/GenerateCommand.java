package io.landingledger.tools.bench;

import io.landingledger.core.contract.ContractLoader;
import io.landingledger.core.contract.InvalidContractException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDate;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.zip.GZIPOutputStream;

/**
 * {@code landing gen}: writes a deterministic, peak-shaped {@code progress_events} file for the benchmark and for
 * producers who want a realistic day to try {@code landing validate} on. Streams: memory does not grow with
 * {@code --lines}.
 */
@Command(name = "gen", mixinStandardHelpOptions = true,
        description = {"Generate a peak-shaped progress_events day, streamed to --out; the same --seed gives the same bytes.",
                "Ids, key order, whitespace, offsets and sub-second digits vary by producer.",
                "Retries are canonical duplicates: byte copies, other key orders, the same instant in another offset.",
                "Late rows (earlier days) and malformed lines (line rejects) are mixed in.",
                "Prints a one-line summary on stderr. Exit status: 0 written, 2 usage or I/O error."})
public final class GenerateCommand implements Callable<Integer> {
    static final int OK = 0;
    static final int ERROR = 2;
    /** Used when the contract cannot be read: progress_events' maxRejectedLines. */
    static final long FALLBACK_MALFORMED = 10;

    @Option(names = "--out", required = true, paramLabel = "FILE",
            description = "Where to write the file; - writes to stdout. Name it progress-<day>.jsonl[.gz] to drop it in an inbox.")
    String out;

    @Option(names = "--lines", paramLabel = "N", description = "Lines to write, all kinds included (default: ${DEFAULT-VALUE}).")
    long lines = PeakFileGenerator.DEFAULT_LINES;

    @Option(names = "--seed", paramLabel = "N", description = "The same seed and options give byte-identical files (default: ${DEFAULT-VALUE}).")
    long seed = PeakFileGenerator.DEFAULT_SEED;

    @Option(names = "--duplicate-share", paramLabel = "SHARE",
            description = "Share of lines that repeat an earlier event as a canonical duplicate (default: ${DEFAULT-VALUE}).")
    double duplicateShare = PeakFileGenerator.DEFAULT_DUPLICATE_SHARE;

    @Option(names = "--late-share", paramLabel = "SHARE",
            description = "Share of events timed on an earlier day: late rows, which stay in this file's unit (default: ${DEFAULT-VALUE}).")
    double lateShare = PeakFileGenerator.DEFAULT_LATE_SHARE;

    @Option(names = "--malformed", paramLabel = "COUNT",
            description = {"Malformed lines (each one a line reject), spread through the file.",
                    "Default: the contract's maxRejectedLines, so the file is still publishable."})
    Long malformed;

    @Option(names = "--day", paramLabel = "YYYY-MM-DD", description = "The UTC day the file holds (default: ${DEFAULT-VALUE}).")
    LocalDate day = PeakFileGenerator.DEFAULT_DAY;

    @Option(names = "--gzip", description = "Gzip the output (the validator detects gzip by its magic bytes).")
    boolean gzip;

    @Option(names = "--contract", paramLabel = "FILE",
            description = "The progress_events contract, read for its reject cap (default: ${DEFAULT-VALUE}).")
    String contract = "datasets/progress_events.json";

    private final PrintStream stdout;
    private final PrintStream err;

    public GenerateCommand() {
        this(System.out, System.err);
    }

    GenerateCommand(PrintStream stdout, PrintStream err) {
        this.stdout = stdout;
        this.err = err;
    }

    @Override
    public Integer call() {
        Long rejectCap = rejectCap();
        long malformedLines = malformed != null ? malformed : Math.min(lines, rejectCap != null ? rejectCap : FALLBACK_MALFORMED);
        PeakFileGenerator.Options options;
        try {
            options = new PeakFileGenerator.Options(lines, seed, duplicateShare, lateShare, malformedLines, day);
        } catch (IllegalArgumentException e) {
            err.println("landing gen: " + e.getMessage());
            return ERROR;
        }
        if (rejectCap != null && malformedLines > rejectCap) {
            err.println("landing gen: --malformed " + malformedLines + " is above the contract's maxRejectedLines (" + rejectCap
                    + "): the validator will refuse this file (REJECT_CAP)");
        }
        long started = System.nanoTime();
        try {
            Written written = "-".equals(out) ? write(options, stdout, gzip) : writeFile(options, Path.of(out));
            double seconds = (System.nanoTime() - started) / 1e9;
            PeakFileGenerator.Summary s = written.summary();
            err.println(String.format(Locale.ROOT,
                    "landing gen: out=%s lines=%d bytes=%d stored_bytes=%d gzip=%s seed=%d distinct=%d duplicates=%d late=%d"
                            + " malformed=%d bytes_per_line=%.1f seconds=%.2f",
                    out, s.lines(), s.bytes(), written.storedBytes(), gzip, seed, s.distinct(), s.duplicates(), s.late(),
                    s.malformed(), s.lines() == 0 ? 0.0 : (double) s.bytes() / s.lines(), seconds));
            return OK;
        } catch (IOException e) {
            err.println("landing gen: cannot write " + out + ": " + e);
            return ERROR;
        }
    }

    /** What a write produced: the generator's summary and the bytes that reached the file (after gzip). */
    record Written(PeakFileGenerator.Summary summary, long storedBytes) {
    }

    /** Writes to a temporary sibling first, so a file under the final name is always complete. */
    private Written writeFile(PeakFileGenerator.Options options, Path target) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path partial = absolute.resolveSibling("." + absolute.getFileName() + ".partial");
        try {
            Written written;
            try (OutputStream file = Files.newOutputStream(partial)) {
                written = write(options, file, gzip);
            }
            Files.move(partial, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return written;
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    /** Streams the file to {@code sink} (flushed, not closed). */
    static Written write(PeakFileGenerator.Options options, OutputStream sink, boolean gzip) throws IOException {
        CountingOutputStream counted = new CountingOutputStream(sink);
        PeakFileGenerator.Summary summary;
        if (gzip) {
            GZIPOutputStream zip = new GZIPOutputStream(counted, 1 << 16);
            OutputStream buffered = new BufferedOutputStream(zip, 1 << 16);
            summary = new PeakFileGenerator(options).write(buffered);
            buffered.flush();
            zip.finish();
        } else {
            OutputStream buffered = new BufferedOutputStream(counted, 1 << 16);
            summary = new PeakFileGenerator(options).write(buffered);
            buffered.flush();
        }
        counted.flush();
        return new Written(summary, counted.count);
    }

    /** The contract's reject cap, or null when the contract cannot be read (the fallback default applies). */
    private Long rejectCap() {
        Path path = contractPath(contract);
        if (!Files.isRegularFile(path)) {
            return null;
        }
        try {
            return ContractLoader.load(path).maxRejectedLines();
        } catch (InvalidContractException e) {
            err.println("landing gen: ignoring the contract for the reject cap: " + e.getMessage());
            return null;
        }
    }

    /** A bare dataset name means {@code datasets/<name>.json}, as for {@code landing validate}. */
    static Path contractPath(String value) {
        return !value.contains("/") && !value.endsWith(".json") ? Path.of("datasets", value + ".json") : Path.of(value);
    }

    /** Counts the bytes that pass to the underlying stream. */
    static final class CountingOutputStream extends FilterOutputStream {
        long count;

        CountingOutputStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }
}
