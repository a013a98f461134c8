package io.landingledger.core.validate;

import io.landingledger.core.contract.DataFormat;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnknownFieldPolicy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

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
    private static final int OUTPUT_FLUSH_BYTES = 64 * 1024;
    /** The stored size is not known (standard input): the duplicate-key index grows as keys come. */
    public static final long UNKNOWN_SIZE = -1;
    /** Lines read before the key count is estimated from the stored size: enough for a steady average line. */
    private static final long LINES_BEFORE_ESTIMATE = 1 << 12;
    /** Rows whose keys are offered to the index together (see Pass.settlePending). */
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
        return new Pass(stored, storedBytes, accepted, rejects, dropRows).execute();
    }

    /** The state of one validation pass (a spilled key index can make a second pass with {@code dropRows}). */
    private final class Pass {
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

        private final DecodedInput input;
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

        Pass(InputStream stored, long storedBytes, OutputStream accepted, OutputStream rejects, LineSet dropRows) {
            this.source = new HashingInputStream(stored);
            this.input = new DecodedInput(source, limits);
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
            if (refusal == null) {
                refusal = input.trailingBytes();
            }
            if (refusal == null && acceptedRows == 0 && !contract.allowEmpty()) {
                refusal = new Refusal(RefusalCode.EMPTY, "no row was accepted and the contract does not allow an empty unit (allowEmpty is false)", List.of());
            }
            flushAccepted();
            flushRejects();
            return new ValidationResult(contract.dataset(), contract.version(), source.sha256Hex(), source.count(),
                    input.gzip() ? input.decodedBytes() : source.count(), input.gzip(), lines, blankLines, acceptedRows, duplicates, rejected,
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

        /** Opens the decoded input and its line reader; null after an unreadable-header refusal. */
        private LineReader open() throws IOException {
            refusal = input.open();
            if (refusal != null) {
                return null;
            }
            // rows wait to be settled against the key index: settle them before reading on, so that a conflict among
            // them ends the input where reading row by row would have (same bytes read, decompressed and counted)
            return new LineReader(input.stream(), limits.maxLineBytes(), () -> {
                settlePending();
                return refusal == null;
            });
        }

        private boolean next(LineReader reader) throws IOException {
            try {
                boolean more = reader.next();
                if (!more && refusal == null) { // the end of the stream, not a stop
                    input.ended();
                }
                return more;
            } catch (SourceReadException e) {
                throw e;
            } catch (IOException e) {
                refusal = input.readFailure(e, reader.lineNumber);
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
            long storedSoFar = input.gzip() ? source.count() : reader.consumed();
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
    }
}
