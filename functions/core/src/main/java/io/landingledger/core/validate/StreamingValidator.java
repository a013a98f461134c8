package io.landingledger.core.validate;

import io.landingledger.core.contract.DataFormat;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnknownFieldPolicy;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PushbackInputStream;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Validates one input file against its dataset contract in a single streaming pass: SHA-256 of the stored bytes,
 * gzip (detected by its magic bytes) inflated, lines split, each line checked and written in canonical form to
 * the accepted stream or as {line, reason, field} to the rejects stream. Memory is one line buffer plus the
 * duplicate-key index; the file, its lines and its accepted rows are never held.
 *
 * <p>Findings are data: a rejected line or a refused file is part of the {@link ValidationResult}. Exceptions
 * mean infrastructure faults only: the source or an output stream failed, and the caller should retry.
 *
 * <p>A validator is reusable and thread-safe: each {@link #validate} call has its own state.
 *
 * <p>Past {@link ValidationLimits#keyIndexMemoryBytes()} the duplicate-key index spills sorted runs to local disk
 * and merges them at the end. A row whose identical first occurrence sits in an earlier run has already been written
 * by then: the result names such rows ({@link ValidationResult#rowsToDrop()}) and the caller validates the same
 * input again with them as {@code dropRows}, which gives exactly the output of an index that never spilled.
 */
public final class StreamingValidator {
    private static final int GZIP_BUFFER = 64 * 1024;
    private static final int OUTPUT_FLUSH_BYTES = 64 * 1024;
    /** The stored size is not known (standard input): the duplicate-key index grows as keys come. */
    public static final long UNKNOWN_SIZE = -1;
    /** Lines read before the key count is estimated from the stored size: enough for a steady average line. */
    private static final long LINES_BEFORE_ESTIMATE = 1 << 12;
    /** Rows whose keys are offered to the index together (see Run.settlePending). */
    private static final int PENDING_ROWS = 16;

    private final DatasetContract contract;
    private final ValidationLimits limits;

    public StreamingValidator(DatasetContract contract) {
        this(contract, ValidationLimits.defaults());
    }

    public StreamingValidator(DatasetContract contract, ValidationLimits limits) {
        this.contract = contract;
        this.limits = limits;
    }

    public DatasetContract contract() {
        return contract;
    }

    /**
     * Deletes the duplicate-key index's spill directories that a killed process left in {@code spillDirectory}
     * ({@link ValidationLimits#spillDirectory()}); call it where no validation runs, as at a function's init.
     *
     * @return how many were removed
     */
    public static int deleteLeftoverSpills(java.nio.file.Path spillDirectory) throws IOException {
        return SpilledKeyRuns.deleteLeftovers(spillDirectory);
    }

    /**
     * Validates {@code stored} (the bytes as stored, possibly gzip), writing accepted canonical rows to
     * {@code accepted} and quarantine records to {@code rejects}. Neither stream is closed. On a refusal the rest
     * of the source is still read so that {@link ValidationResult#sha256()} covers every stored byte.
     *
     * @throws IOException when the source or an output stream fails (never for bad content)
     */
    public ValidationResult validate(InputStream stored, OutputStream accepted, OutputStream rejects) throws IOException {
        return validate(stored, UNKNOWN_SIZE, accepted, rejects, LineSet.empty());
    }

    /**
     * Like {@link #validate(InputStream, OutputStream, OutputStream)}, but the rows on {@code dropRows} (the
     * {@link ValidationResult#rowsToDrop()} of an earlier pass over the same bytes) are counted as duplicates and
     * not written: their identical first occurrence is in a spilled run, so this pass cannot see it inline.
     *
     * @throws IllegalArgumentException {@code dropRows} names a line that is not such a duplicate in this input
     */
    public ValidationResult validate(InputStream stored, OutputStream accepted, OutputStream rejects, LineSet dropRows)
            throws IOException {
        return validate(stored, UNKNOWN_SIZE, accepted, rejects, dropRows);
    }

    /**
     * Like {@link #validate(InputStream, OutputStream, OutputStream, LineSet)}, told how many bytes {@code stored}
     * holds (or {@link #UNKNOWN_SIZE}). The size is only a hint, never trusted: after the first lines it sizes the
     * duplicate-key index for the file's estimated line count at once, instead of rehashing every key at each of
     * the dozens of growths a large file would take. A wrong size costs memory or speed, never a row: the index
     * stays within {@link ValidationLimits#keyIndexMemoryBytes()} and grows past an estimate too low. With a memory
     * budget the table's size decides where the index spills, so the number of runs, their disk, and whether a
     * file near {@link ValidationLimits#keyIndexDiskBytes()} is refused TOO_MANY_KEYS can depend on the size
     * given (the function and the CLI give the real one); what is published never does.
     */
    public ValidationResult validate(InputStream stored, long storedBytes, OutputStream accepted, OutputStream rejects,
                                     LineSet dropRows) throws IOException {
        return new Run(stored, storedBytes, accepted, rejects, dropRows).execute();
    }

    /** The state of one validation. */
    private final class Run {
        private final HashingInputStream source;
        private final OutputStream acceptedOut;
        private final OutputStream rejectsOut;
        private final ByteSink acceptedBuffer = new ByteSink(OUTPUT_FLUSH_BYTES + 4096);
        private final ByteSink rejectBuffer = new ByteSink(4096);
        private final CanonicalRow row = new CanonicalRow(contract);
        private final LineOutcome outcome = new LineOutcome();
        private final SpilledKeyRuns runs = new SpilledKeyRuns(limits.spillDirectory(), limits.keyIndexDiskBytes());
        private final DuplicateKeyIndex index = new DuplicateKeyIndex(1024, limits.keyIndexMemoryBytes(), runs);
        private final long[] keyHash = new long[2];
        /**
         * Rows written to the output whose keys are not yet offered to the index ({@link #settlePending}): offered
         * together, their index lookups overlap in memory instead of waiting one after another.
         */
        private final long[] pendingHi = new long[PENDING_ROWS];
        private final long[] pendingLo = new long[PENDING_ROWS];
        private final long[] pendingPayload = new long[PENDING_ROWS];
        private final long[] pendingLine = new long[PENDING_ROWS];
        private final int[] pendingStart = new int[PENDING_ROWS];
        private final int[] pendingEnd = new int[PENDING_ROWS];
        private int pending;
        private final long[] payloadHash = new long[2];
        private final LineSet dropRows;
        private final boolean dropping;
        private final long storedBytes;
        private final Map<ReasonCode, Long> reasons = new EnumMap<>(ReasonCode.class);
        private final JsonLineParser json;
        private final CsvLineParser csv;

        private DecodedInputStream decoded;
        private boolean gzip;
        private GzipMembersInputStream gzipMembers;
        /** Where the last gzip member ended in the stored bytes, once the gzip stream was read to its end; else -1. */
        private long gzipMembersEnd = -1;
        private long lines;
        private long blankLines;
        private long acceptedRows;
        private long duplicates;
        private long rejected;
        private long acceptedBytes;
        private Refusal refusal;
        /** The key of an inline KEY_CONFLICT, so the merge can name its first line across runs. */
        private long conflictHi;
        private long conflictLo;
        private long distinctKeys;
        private LineSet rowsToDrop = LineSet.empty();

        Run(InputStream stored, long storedBytes, OutputStream accepted, OutputStream rejects, LineSet dropRows) {
            this.source = new HashingInputStream(stored);
            this.storedBytes = storedBytes;
            this.acceptedOut = accepted;
            this.rejectsOut = rejects;
            this.dropRows = dropRows;
            this.dropping = !dropRows.isEmpty();
            this.json = contract.format() == DataFormat.JSONL ? new JsonLineParser(contract, limits) : null;
            this.csv = contract.format() == DataFormat.CSV ? new CsvLineParser(contract) : null;
        }

        ValidationResult execute() throws IOException {
            try (SpilledKeyRuns spilled = runs) {
                return validateAndSettle();
            }
        }

        private ValidationResult validateAndSettle() throws IOException {
            try {
                LineReader reader = open();
                if (reader != null) {
                    readLines(reader);
                    settlePending();
                }
                // Always read to the end, not only after a refusal: GZIPInputStream stops at bytes after its last
                // member that are not another member, and sha256 must still cover every stored byte.
                source.drain();
            } catch (SourceReadException e) {
                throw e.original();
            }
            if (source.failure() != null) {
                // the source failed where a reader swallowed it (GZIPInputStream looking for a next member): the
                // end of the file was never seen, so this is an infrastructure fault to retry, not a result
                throw source.failure();
            }
            distinctKeys = index.size();
            if (runs.count() > 0) {
                settleAcrossRuns();
            } else if (dropping) {
                throw new IllegalArgumentException("dropRows names " + dropRows.size() + " lines but the key index did not spill: "
                        + "validate with the limits of the pass that produced them");
            }
            if (refusal == null && gzipMembersEnd >= 0 && source.count() > gzipMembersEnd) {
                // GZIPInputStream ends quietly at bytes that do not start another member: a second file appended by
                // mistake, a broken upload, or a payload hidden behind the rows. Publishing the front half of such
                // a file would look like success, so it is refused; the offset lets the producer find the join.
                refusal = new Refusal(RefusalCode.GZIP_TRAILING_BYTES, "the last complete gzip member ends at byte offset "
                        + gzipMembersEnd + " of " + source.count() + " stored bytes, and the bytes after it do not start"
                        + " another gzip member", List.of());
            }
            if (refusal == null && acceptedRows == 0 && !contract.allowEmpty()) {
                refusal = new Refusal(RefusalCode.EMPTY, "no row was accepted and the contract does not allow an empty unit (allowEmpty is false)", List.of());
            }
            flushAccepted();
            flushRejects();
            long decodedBytes = decoded == null ? source.count() : decoded.count;
            return new ValidationResult(contract.dataset(), contract.version(), source.sha256Hex(), source.count(),
                    gzip ? decodedBytes : source.count(), gzip, lines, blankLines, acceptedRows, duplicates, rejected,
                    reasons, acceptedBytes, distinctKeys, index.bytes(), runs.count(), runs.diskBytes(), rowsToDrop, refusal);
        }

        /**
         * Merges the spilled runs with the index's remainder and applies what only the merge can see: a key repeated
         * across runs. Identical repeats become duplicates (rows to drop when this pass wrote them); a repeat with
         * another payload refuses the file, as the unlimited index would have on that line, unless reading had
         * already stopped at an earlier line for another reason.
         */
        private void settleAcrossRuns() throws IOException {
            boolean inlineConflict = refusal != null && refusal.code() == RefusalCode.KEY_CONFLICT;
            SpilledKeyRuns.Merged merged = runs.merge(index.sorted(), conflictHi, conflictLo);
            distinctKeys = runs.records() + distinctKeys - merged.repeats();
            // a refusal found at a line stopped reading there; one about the stream as a whole came after every line
            long stoppedAt = refusal == null || refusal.lines().isEmpty() ? Long.MAX_VALUE : lines;
            if (merged.conflictLine() > 0 && merged.conflictLine() < stoppedAt) {
                refusal = keyConflict(merged.conflictFirstLine(), merged.conflictLine());
            } else if (inlineConflict && merged.keyFirstLine() > 0) {
                // the index only knew the key's first line within its current run
                refusal = keyConflict(merged.keyFirstLine(), refusal.lines().get(1));
            }
            BitSet repeated = merged.repeatedLines();
            int confirmed = 0;
            BitSet toDrop = new BitSet();
            for (int line = repeated.nextSetBit(0); line >= 0; line = repeated.nextSetBit(line + 1)) {
                if (dropRows.contains(line)) {
                    confirmed++; // not written by this pass, already counted as a duplicate
                } else {
                    toDrop.set(line);
                    acceptedRows--;
                    duplicates++;
                }
            }
            if (confirmed != dropRows.size()) {
                throw new IllegalArgumentException("dropRows names " + (dropRows.size() - confirmed)
                        + " lines that do not repeat an identical row of an earlier run in this input");
            }
            rowsToDrop = LineSet.wrap(toDrop);
        }

        private Refusal keyConflict(long firstLine, long line) {
            return new Refusal(RefusalCode.KEY_CONFLICT, "the " + contract.key() + " on line " + line
                    + " repeats the one on line " + firstLine + " with a different payload", List.of(firstLine, line));
        }

        /** Detects gzip by its magic bytes and opens the line reader; null after an unreadable-header refusal. */
        private LineReader open() throws IOException {
            PushbackInputStream peek = new PushbackInputStream(source, 2);
            byte[] magic = new byte[2];
            int n = 0;
            while (n < 2) {
                int r = peek.read(magic, n, 2 - n);
                if (r < 0) {
                    break;
                }
                n += r;
            }
            peek.unread(magic, 0, n);
            gzip = n == 2 && magic[0] == (byte) 0x1f && magic[1] == (byte) 0x8b;
            InputStream text = peek;
            if (gzip) {
                try {
                    gzipMembers = new GzipMembersInputStream(new GzipSource(peek), GZIP_BUFFER);
                    text = gzipMembers;
                } catch (SourceReadException e) {
                    throw e;
                } catch (IOException e) {
                    refusal = new Refusal(RefusalCode.UNREADABLE, "the gzip header is corrupt or truncated", List.of());
                    return null;
                }
            }
            decoded = new DecodedInputStream(text);
            // rows wait to be settled against the key index: settle them before reading on, so that a conflict among
            // them ends the input where reading row by row would have (same bytes read, decompressed and counted)
            return new LineReader(decoded, limits.maxLineBytes(), () -> {
                settlePending();
                return refusal == null;
            });
        }

        private boolean next(LineReader reader) throws IOException {
            try {
                boolean more = reader.next();
                if (!more && gzipMembers != null && refusal == null) { // the end of the stream, not a stop
                    gzipMembersEnd = gzipMembers.endOfLastMember();
                }
                return more;
            } catch (SourceReadException e) {
                throw e;
            } catch (CompressionRatioException e) {
                refusal = new Refusal(RefusalCode.DECOMPRESSION_RATIO, "gzip input expanded to " + decoded.count + " bytes from "
                        + source.count() + " stored bytes, above maxCompressionRatio (" + limits.maxCompressionRatio() + ")", List.of());
                return false;
            } catch (IOException e) {
                refusal = new Refusal(RefusalCode.UNREADABLE, "the gzip stream is corrupt or truncated after line " + reader.lineNumber
                        + " (" + decoded.count + " bytes decompressed)", List.of());
                return false;
            }
        }

        private void readLines(LineReader reader) throws IOException {
            ByteSink join = csv == null ? null : new ByteSink(1024);
            while (refusal == null && next(reader)) {
                long line = reader.lineNumber;
                lines = line;
                if (line == LINES_BEFORE_ESTIMATE && storedBytes > 0) {
                    reserveKeyIndex(reader);
                }
                if (reader.tooLong) {
                    reject(line, ReasonCode.LINE_TOO_LONG, null, "line is " + reader.tooLongBytes
                            + " bytes, above maxLineBytes (" + limits.maxLineBytes() + ")");
                    continue;
                }
                byte[] b = reader.buffer();
                int off = reader.lineStart;
                int len = reader.lineLength;
                if (line == 1 && len >= 3 && b[off] == (byte) 0xEF && b[off + 1] == (byte) 0xBB && b[off + 2] == (byte) 0xBF) {
                    off += 3; // a UTF-8 byte order mark is tolerated at the start of the file
                    len -= 3;
                }
                if (isBlank(b, off, len)) {
                    settlePending(); // a repeat in the rows before may end the file there
                    if (refusal == null) {
                        blankLines++;
                    }
                    continue;
                }
                if (!reader.lineAscii && !Utf8.isValid(b, off, len)) {
                    if (csv != null && !csv.hasHeader()) {
                        refusal = new Refusal(RefusalCode.CSV_HEADER_MISMATCH, "the header row (line " + line + ") is not valid UTF-8", List.of(line));
                    } else if (json != null && hasProhibitedKey(b, off, len)) {
                        judge(line); // a prohibited key refuses the file however the rest of its line is encoded
                    } else {
                        reject(line, ReasonCode.INVALID_UTF8, null, null);
                    }
                    continue;
                }
                outcome.clear();
                if (csv != null) {
                    if (!csv.hasHeader()) {
                        refusal = csv.readHeader(b, off, len, line);
                        continue;
                    }
                    CsvLineParser.Split split = csv.split(b, off, len);
                    if (split == CsvLineParser.Split.UNTERMINATED) {
                        // a quoted cell holds a line break: join physical lines until the record closes
                        join.reset();
                        join.write(b, off, len);
                        split = joinRecord(reader, join);
                        if (refusal != null) {
                            return;
                        }
                        if (split == null) {
                            reject(line, ReasonCode.LINE_TOO_LONG, null, "the quoted record starting here exceeds maxLineBytes ("
                                    + limits.maxLineBytes() + ")");
                            continue;
                        }
                    }
                    if (split == CsvLineParser.Split.OK) {
                        csv.parse(row, outcome);
                    } else {
                        outcome.reject(ReasonCode.CSV_MALFORMED, null);
                    }
                } else {
                    json.parse(b, off, len, row, outcome);
                }
                judge(line);
            }
        }

        /**
         * Sizes the key index for the lines the whole file will have at the average length read so far (exact for
         * plain text whose first lines are typical). For gzip the stored bytes read so far include the inflater's
         * read-ahead, so the estimate errs low: a table a little small grows once more, one too large would waste
         * memory (never more than the budget).
         */
        private void reserveKeyIndex(LineReader reader) {
            long storedSoFar = gzip ? source.count() : reader.consumed();
            if (storedSoFar > 0) {
                index.reserve((long) ((double) storedBytes / storedSoFar * reader.lineNumber));
            }
        }

        /**
         * Whether a line that is not valid UTF-8 still names a prohibited key before its first bad byte (a Latin-1
         * export that joined a profile: {@code "name":"Zo\xEB"}). The parser does not decode plain values, so it reads
         * on past a bad byte in one: keys before it count, and keys after it while the line stays JSON.
         */
        private boolean hasProhibitedKey(byte[] b, int off, int len) {
            outcome.clear();
            json.parse(b, off, len, row, outcome);
            return outcome.prohibited != null;
        }

        /** Appends physical lines to {@code join} until the CSV record closes; null when it grows past the limit. */
        private CsvLineParser.Split joinRecord(LineReader reader, ByteSink join) throws IOException {
            while (true) {
                if (!next(reader)) {
                    return refusal != null ? null : CsvLineParser.Split.MALFORMED; // the file ended inside quotes
                }
                lines = reader.lineNumber;
                if (reader.tooLong || join.size + 1 + reader.lineLength > limits.maxLineBytes()) {
                    return null;
                }
                join.write('\n');
                join.write(reader.buffer(), reader.lineStart, reader.lineLength);
                if (!Utf8.isValid(reader.buffer(), reader.lineStart, reader.lineLength)) {
                    continue; // reported as malformed below, once the record is complete
                }
                CsvLineParser.Split split = csv.split(join.bytes, 0, join.size);
                if (split != CsvLineParser.Split.UNTERMINATED) {
                    return Utf8.isValid(join.bytes, 0, join.size) ? split : CsvLineParser.Split.MALFORMED;
                }
            }
        }

        /** Turns a parsed line's outcome into a rejection, a refusal, a duplicate or an accepted row. */
        private void judge(long line) throws IOException {
            if (outcome.prohibited != null || outcome.unknownField || outcome.reason != null) {
                settlePending(); // what this line decides comes after the rows before it
                if (refusal != null) {
                    return;
                }
            }
            if (outcome.prohibited != null) {
                refusal = new Refusal(RefusalCode.PROHIBITED_FIELD, "line " + line + " has the prohibited field " + outcome.prohibited, List.of(line));
                return;
            }
            if (outcome.unknownField && contract.unknownFields() == UnknownFieldPolicy.REFUSE_FILE) {
                refusal = new Refusal(RefusalCode.UNKNOWN_FIELD, "line " + line + " has a field the contract does not name (unknownFields is refuse-file)", List.of(line));
                return;
            }
            if (outcome.reason != null) {
                reject(line, outcome.reason, outcome.field, null);
                return;
            }
            int start = acceptedBuffer.size;
            row.appendTo(acceptedBuffer);
            Murmur3.hash128(row.keyBytes(), row.keyStart(), row.keyEnd() - row.keyStart(), 0, keyHash);
            Murmur3.hash128(acceptedBuffer.bytes, start, acceptedBuffer.size - start, 0x5eed, payloadHash);
            pendingHi[pending] = keyHash[0];
            pendingLo[pending] = keyHash[1];
            pendingPayload[pending] = payloadHash[0];
            pendingLine[pending] = line;
            pendingStart[pending] = start;
            pendingEnd[pending] = acceptedBuffer.size;
            if (++pending == PENDING_ROWS) {
                settlePending();
            }
        }

        /**
         * Offers the pending rows' keys to the index in line order and keeps each row in the output only when its key
         * is new (closing the gaps the others leave), as if each had been offered as it was read. A repeat with
         * another payload refuses the file at its line: the rows after it are dropped and {@link #lines} goes back
         * to it, since reading would have stopped there. Anything else a line decides (a reject, a blank line, a
         * refusal) settles the pending rows first, so it always comes after them, and so does reading more of the
         * input (the LineReader asks first): what the stream itself decides there (gzip faults, the decompression
         * ratio, CSV records over several lines) is never reached past a conflict.
         */
        private void settlePending() throws IOException {
            if (pending == 0) {
                return;
            }
            index.warm(pendingLo, pending);
            byte[] out = acceptedBuffer.bytes;
            int write = pendingStart[0];
            for (int k = 0; k < pending; k++) {
                long line = pendingLine[k];
                DuplicateKeyIndex.Outcome offered = index.offer(pendingHi[k], pendingLo[k], pendingPayload[k], line);
                if (offered == DuplicateKeyIndex.Outcome.NEW && !(dropping && dropRows.contains(line))) {
                    int length = pendingEnd[k] - pendingStart[k];
                    if (write != pendingStart[k]) {
                        System.arraycopy(out, pendingStart[k], out, write, length);
                    }
                    write += length;
                    acceptedBytes += length;
                    acceptedRows++;
                    continue;
                }
                switch (offered) {
                    // NEW here: an identical row in an earlier spilled run (the first pass found it)
                    case NEW, SAME -> duplicates++;
                    case CONFLICT -> {
                        refusal = keyConflict(index.conflictFirstLine, line);
                        conflictHi = pendingHi[k];
                        conflictLo = pendingLo[k];
                    }
                    case FULL -> refusal = new Refusal(RefusalCode.TOO_MANY_KEYS, "the duplicate-key index reached line " + line
                            + " with " + (runs.records() + index.size()) + " keys and would need more than " + runs.limit()
                            + " bytes of disk in " + runs.parent() + " (keyIndexDiskBytes, or the free space there): give the function "
                            + "more memory (keyIndexMemoryBytes) or more ephemeral storage, then repair the unit with force (its input is "
                            + "unchanged, so a repair without force reports this refusal again)", List.of(line));
                }
                if (offered == DuplicateKeyIndex.Outcome.CONFLICT || offered == DuplicateKeyIndex.Outcome.FULL) {
                    lines = line; // this refusal replaces any the stream gave after this line
                    break;
                }
            }
            acceptedBuffer.size = write;
            pending = 0;
            if (acceptedBuffer.size >= OUTPUT_FLUSH_BYTES) {
                flushAccepted();
            }
        }

        private void reject(long line, ReasonCode reason, String field, String detail) throws IOException {
            settlePending();
            if (refusal != null) {
                return; // a row before this line ended the file
            }
            rejected++;
            reasons.merge(reason, 1L, Long::sum);
            ByteSink out = rejectBuffer;
            out.writeAscii("{\"line\":");
            out.writeLong(line);
            out.writeAscii(",\"reason\":\"");
            out.writeAscii(reason.name());
            out.write('"');
            if (field != null) {
                out.writeAscii(",\"field\":\"");
                out.write(field.getBytes(StandardCharsets.UTF_8));
                out.write('"');
            }
            if (detail != null) {
                out.writeAscii(",\"detail\":\"");
                out.writeAscii(detail);
                out.write('"');
            }
            out.writeAscii("}\n");
            if (out.size >= 4096) {
                flushRejects();
            }
            if (rejected > contract.maxRejectedLines()) {
                refusal = new Refusal(RefusalCode.REJECT_CAP, rejected + " lines rejected, above maxRejectedLines ("
                        + contract.maxRejectedLines() + ")", List.of(line));
            }
        }

        private void flushAccepted() throws IOException {
            if (acceptedBuffer.size > 0) {
                acceptedBuffer.writeTo(acceptedOut);
                acceptedBuffer.reset();
            }
        }

        private void flushRejects() throws IOException {
            if (rejectBuffer.size > 0) {
                rejectBuffer.writeTo(rejectsOut);
                rejectBuffer.reset();
            }
        }

        private static boolean isBlank(byte[] b, int off, int len) {
            for (int i = off; i < off + len; i++) {
                if (b[i] != ' ' && b[i] != '\t') {
                    return false;
                }
            }
            return true;
        }

        /** Counts decoded bytes and stops a gzip stream that expands past maxCompressionRatio. */
        private final class DecodedInputStream extends FilterInputStream {
            long count;

            DecodedInputStream(InputStream in) {
                super(in);
            }

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = in.read(b, off, len);
                if (n > 0) {
                    count += n;
                    if (gzip && count > limits.compressionRatioGraceBytes()
                            && count > (double) limits.maxCompressionRatio() * Math.max(1, source.count())) {
                        throw new CompressionRatioException();
                    }
                }
                return n;
            }
        }
    }

    /**
     * A GZIPInputStream that knows where its last complete member ended in the stored bytes, so that bytes after it
     * (which GZIPInputStream skips without a word when they do not start another member) can be refused.
     *
     * <p>Only documented protected members are used. Deflate data reaches the inflater only through {@link #fill()},
     * one read of up to {@code buf.length} bytes from the source; headers, and trailer bytes past the end of
     * {@code buf}, are read from the source outside it. When the last member's deflate data ends,
     * {@code inf.getRemaining()} bytes of the last fill are left over and the 8-byte trailer starts at the first of
     * them (when fewer than 8 are left, it continues in the source). At the end of the stream neither Java 21
     * (Lambda's) nor Java 25 (the build's) has touched the inflater since, even after failing to read a further
     * member's header; RefusalTest checks trailers inside, across and after a 64 KiB read.
     */
    private static final class GzipMembersInputStream extends GZIPInputStream {
        private static final int TRAILER_BYTES = 8;

        private final GzipSource source;
        private long deliveredAtLastFill;

        GzipMembersInputStream(GzipSource source, int size) throws IOException {
            super(source, size);
            this.source = source;
        }

        @Override
        protected void fill() throws IOException {
            super.fill();
            deliveredAtLastFill = source.delivered;
        }

        /** The stored offset just past the last member's trailer; valid once {@code read} has returned -1. */
        long endOfLastMember() {
            return deliveredAtLastFill - inf.getRemaining() + TRAILER_BYTES;
        }
    }

    /**
     * The stored bytes as GZIPInputStream reads them.
     *
     * <p>Reads are filled completely (to the length asked for, or the end of the stream), so the inflater is fed the
     * same chunks however the network delivered the bytes. The decompression-ratio decision and a refusal's counts are
     * then a function of the file alone: before, a file near the ratio could be accepted on one retry and refused on
     * the next, and the counts in a refusal differed between 1-byte and whole reads.
     *
     * <p>{@link #available()} answers by peeking one byte (so it may block). Java 21's GZIPInputStream, Lambda's
     * runtime, only reads a further concatenated member when {@code in.available() > 0} or enough bytes are already
     * buffered; an S3 or socket stream may answer 0 at a member boundary, and the rest of the file would be dropped
     * silently. Java 23 and later no longer ask.
     */
    private static final class GzipSource extends FilterInputStream {
        private int peeked = -1;
        /** Bytes handed to the reader so far (a peeked byte counts once it is handed over): the stored offset. */
        long delivered;

        GzipSource(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b;
            if (peeked >= 0) {
                b = peeked;
                peeked = -1;
            } else {
                b = in.read();
            }
            if (b >= 0) {
                delivered++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            int n = 0;
            if (peeked >= 0) {
                b[off] = (byte) peeked;
                peeked = -1;
                n = 1;
            }
            while (n < len) {
                int r = in.read(b, off + n, len - n);
                if (r < 0) {
                    break;
                }
                n += r;
            }
            delivered += n;
            return n == 0 ? -1 : n;
        }

        @Override
        public long skip(long n) throws IOException {
            return HashingInputStream.skipByReading(this, n);
        }

        @Override
        public int available() throws IOException {
            if (peeked < 0) {
                peeked = in.read();
            }
            return peeked < 0 ? 0 : 1;
        }

        @Override
        public boolean markSupported() {
            return false;
        }
    }

    private static final class CompressionRatioException extends IOException {
        private static final long serialVersionUID = 1L;
    }
}
