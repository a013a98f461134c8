package io.landingledger.core.validate;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnknownFieldPolicy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
    static final long LINES_BEFORE_ESTIMATE = 1 << 12;
    /** Rows whose keys are offered to the index together (see Pass.settlePending). */
    private static final int PENDING_ROWS = 16;

    private final DatasetContract contract;
    private final ValidationLimits limits;
    /**
     * The bytes the joiner of CSV records over several lines has scanned for their ends, over every pass: a cost
     * measure independent of the machine, which tests bound linearly in the records' lengths.
     */
    private final java.util.concurrent.atomic.LongAdder joinScanBytes = new java.util.concurrent.atomic.LongAdder();

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

    /** See {@link #joinScanBytes}. */
    long joinScanBytes() {
        return joinScanBytes.sum();
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

    /**
     * The state of one validation pass (a spilled key index can make a second pass with {@code dropRows}): the
     * in-order decisions over the chunks a {@link ChunkPipeline} hands it, whose lines workers parsed.
     */
    private final class Pass {
        private final HashingInputStream source;
        private final OutputStream acceptedOut;
        private final OutputStream rejectsOut;
        private final ByteSink acceptedBuffer = new ByteSink(OUTPUT_FLUSH_BYTES + 4096);
        private final ByteSink rejectBuffer = new ByteSink(4096);
        private final SpilledKeyRuns runs = new SpilledKeyRuns(limits.spillDirectory(), limits.keyIndexDiskBytes());
        private final DuplicateKeyIndex index = new DuplicateKeyIndex(1024, limits.keyIndexMemoryBytes(), runs);
        /** Parses what the workers did not: a CSV header and what follows it, records over several lines. */
        private final ChunkParser parser;
        /**
         * Rows parsed whose keys are not yet offered to the index ({@link #settlePending}): offered together, their
         * index lookups overlap in memory instead of waiting one after another.
         */
        private final long[] pendingHi = new long[PENDING_ROWS];
        private final long[] pendingLo = new long[PENDING_ROWS];
        private final long[] pendingPayload = new long[PENDING_ROWS];
        private final long[] pendingLine = new long[PENDING_ROWS];
        /** The number of each pending row's record, so that a conflict can put {@link #records} back to it. */
        private final long[] pendingRecord = new long[PENDING_ROWS];
        private final byte[][] pendingRows = new byte[PENDING_ROWS][];
        private final int[] pendingStart = new int[PENDING_ROWS];
        private final int[] pendingEnd = new int[PENDING_ROWS];
        private int pending;
        private final LineSet dropRows;
        private final boolean dropping;
        private final long storedBytes;
        private final Map<ReasonCode, Long> reasons = new EnumMap<>(ReasonCode.class);
        private final ByteSink join = new ByteSink(1024);

        private final DecodedInput input;
        private ChunkPipeline chunks;
        /** The chunk of the current line and the line's index in it. */
        private LineChunk chunk;
        private int at;
        private long lines;
        /** Data records read: not the header, not blank lines, and a quoted CSV record over several lines once. */
        private long records;
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
            this.parser = new ChunkParser(contract, LineParser.forContract(contract, limits));
        }

        ValidationResult execute() throws IOException {
            try (SpilledKeyRuns spilled = runs) {
                return validateAndSettle();
            }
        }

        private ValidationResult validateAndSettle() throws IOException {
            try {
                refusal = input.open();
                if (refusal == null) {
                    ChunkReader reader = new ChunkReader(source, input, limits.maxLineBytes());
                    try (ChunkPipeline pipeline = new ChunkPipeline(reader, parser, limits.workers(), limits.parallelFromBytes())) {
                        chunks = pipeline;
                        readLines();
                        settlePending();
                    }
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
            // where reading stopped: the last read this pass took, not how far the read-ahead went
            long decoded = chunk != null ? chunk.decodedAfterRead : input.decodedBytes();
            return ValidationResult.builder()
                    .dataset(contract.dataset())
                    .contractVersion(contract.version())
                    .sha256(source.sha256Hex())
                    .storedBytes(source.count())
                    .decodedBytes(input.gzip() ? decoded : source.count())
                    .gzip(input.gzip())
                    .lines(lines)
                    .records(records)
                    .blankLines(blankLines)
                    .accepted(acceptedRows)
                    .duplicates(duplicates)
                    .rejected(rejected)
                    .reasons(reasons)
                    .acceptedBytes(acceptedBytes)
                    .distinctKeys(distinctKeys)
                    .keyIndexBytes(index.bytes())
                    .keyIndexRuns(runs.count())
                    .keyIndexDiskBytes(runs.diskBytes())
                    .rowsToDrop(rowsToDrop)
                    .refusal(refusal)
                    .build();
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

        /**
         * Moves to the next line, crossing into the next chunk (the next read) when this one is done: false at the end
         * of the input or where reading stops. Rows waiting to be settled against the key index are settled before each
         * read, so that a conflict among them ends the input where reading row by row would have (the same bytes read,
         * decompressed and counted).
         */
        private boolean nextLine() throws IOException {
            while (chunk == null || at + 1 >= chunk.count) {
                if (chunk != null && chunk.end) {
                    if (refusal == null) {
                        input.ended();
                    }
                    return false;
                }
                settlePending();
                if (refusal != null) {
                    return false;
                }
                chunk = chunks.next();
                at = -1;
                if (chunk.readFailure != null) {
                    refusal = chunk.readFailure;
                    return false;
                }
            }
            at++;
            if (at >= chunk.parsed.parsed) {
                parser.parse(chunk, at); // after a record over several lines, or a chunk no worker was given
            }
            return true;
        }

        private long lineNumber() {
            return chunk.firstLine + at;
        }

        private void readLines() throws IOException {
            while (refusal == null && nextLine()) {
                long line = lineNumber();
                lines = line;
                if (line == LINES_BEFORE_ESTIMATE && storedBytes > 0) {
                    reserveKeyIndex(chunk.storedAtEstimateLine, line);
                }
                ParsedLines verdicts = chunk.parsed;
                switch (verdicts.kind[at]) {
                    case TOO_LONG, INVALID_UTF8, UNTERMINATED, RECORD -> records++;
                    default -> {
                    }
                }
                switch (verdicts.kind[at]) {
                    case TOO_LONG -> reject(line, ReasonCode.LINE_TOO_LONG, null, "line is " + chunk.tooLongBytes(at)
                            + " bytes, above maxLineBytes (" + limits.maxLineBytes() + ")");
                    case BLANK -> {
                        settlePending(); // a repeat in the rows before may end the file there
                        if (refusal == null) {
                            blankLines++;
                        }
                    }
                    case HEADER_NOT_UTF8 -> refusal = new Refusal(RefusalCode.CSV_HEADER_MISMATCH, "the header row (line " + line
                            + ") is not valid UTF-8", List.of(line));
                    case INVALID_UTF8 -> reject(line, ReasonCode.INVALID_UTF8, null, null);
                    case HEADER -> refusal = verdicts.headerRefusal;
                    case UNTERMINATED -> joinRecord(line);
                    case RECORD -> judge(chunk, at, line);
                }
            }
        }

        /**
         * Sizes the key index for the lines the whole file will have at the average length read so far (exact for
         * plain text whose first lines are typical). For gzip the stored bytes read so far include the inflater's
         * read-ahead, so the estimate errs low: a table a little small grows once more, one too large would waste
         * memory (never more than the budget).
         */
        private void reserveKeyIndex(long storedSoFar, long line) {
            if (storedSoFar > 0) {
                index.reserve((long) ((double) storedBytes / storedSoFar * line));
            }
        }

        /**
         * A quoted CSV cell holds a line break: joins physical lines until the record closes, then judges it as the
         * record of its first line. A record past maxLineBytes is rejected LINE_TOO_LONG, one the file ends inside is
         * CSV_MALFORMED; the lines it took count as read, and the next record starts after them.
         */
        private void joinRecord(long line) throws IOException {
            long scannedBefore = parser.recordScanBytes();
            try {
                joinLines(line);
            } finally {
                joinScanBytes.add(parser.recordScanBytes() - scannedBefore);
            }
        }

        private void joinLines(long line) throws IOException {
            // never the file's first line (a byte order mark's place): a CSV file's records start after its header row
            join.reset();
            join.write(chunk.text, chunk.start[at], chunk.length[at]);
            // where the scan for the record's end resumes: each joined byte is scanned once, not once per line after it
            int scanFrom = parser.scanRecord(join.bytes, 0, join.size, 0);
            while (true) {
                // the next physical line; a worker may have parsed it as a record of its own, a verdict never used
                if (!nextLine()) {
                    if (refusal == null) { // the file ended inside quotes
                        reject(line, ReasonCode.CSV_MALFORMED, null, null);
                    }
                    return;
                }
                lines = lineNumber();
                int length = chunk.length[at];
                if (chunk.tooLong(at) || join.size + 1 + length > limits.maxLineBytes()) {
                    reject(line, ReasonCode.LINE_TOO_LONG, null, "the quoted record starting here exceeds maxLineBytes ("
                            + limits.maxLineBytes() + ")");
                    return;
                }
                join.write('\n');
                join.write(chunk.text, chunk.start[at], length);
                if (!chunk.ascii(at) && !Utf8.isValid(chunk.text, chunk.start[at], length)) {
                    continue; // reported as malformed once the record is complete
                }
                scanFrom = parser.scanRecord(join.bytes, 0, join.size, scanFrom);
                if (scanFrom == LineParser.RECORD_ENDS) {
                    parser.parseJoined(join.bytes, 0, join.size, chunk, at);
                    judge(chunk, at, line);
                    return;
                }
            }
        }

        /** Turns a parsed line's verdict into a rejection, a refusal, a duplicate or a row waiting for its key. */
        private void judge(LineChunk lines, int i, long line) throws IOException {
            ParsedLines verdict = lines.parsed;
            String prohibited = verdict.prohibited[i];
            boolean unknownField = verdict.unknownField[i];
            ReasonCode reason = verdict.reason[i];
            if (prohibited != null || unknownField || reason != null) {
                settlePending(); // what this line decides comes after the rows before it
                if (refusal != null) {
                    return;
                }
            }
            if (prohibited != null) {
                refusal = new Refusal(RefusalCode.PROHIBITED_FIELD, "line " + line + " has the prohibited field " + prohibited, List.of(line));
                return;
            }
            if (unknownField && contract.unknownFields() == UnknownFieldPolicy.REFUSE_FILE) {
                refusal = new Refusal(RefusalCode.UNKNOWN_FIELD, "line " + line + " has a field the contract does not name (unknownFields is refuse-file)", List.of(line));
                return;
            }
            if (reason != null) {
                reject(line, reason, verdict.field[i], null);
                return;
            }
            pendingHi[pending] = verdict.keyHi[i];
            pendingLo[pending] = verdict.keyLo[i];
            pendingPayload[pending] = verdict.payloadHash[i];
            pendingLine[pending] = line;
            pendingRecord[pending] = records;
            pendingRows[pending] = verdict.rows.bytes;
            pendingStart[pending] = verdict.rowStart[i];
            pendingEnd[pending] = verdict.rowEnd[i];
            if (++pending == PENDING_ROWS) {
                settlePending();
            }
        }

        /**
         * Offers the pending rows' keys to the index in line order and writes each row only when its key is new, as if
         * each had been offered as it was read. A repeat with another payload refuses the file at its line: the rows
         * after it are dropped and {@link #lines} goes back to it, since reading would have stopped there. Anything
         * else a line decides (a reject, a blank line, a refusal) settles the pending rows first, so it always comes
         * after them, and so does reading more of the input ({@link #nextLine} settles first): what the stream itself
         * decides there (gzip faults, the decompression ratio, CSV records over several lines) is never reached past
         * a conflict.
         */
        private void settlePending() throws IOException {
            if (pending == 0) {
                return;
            }
            index.warm(pendingLo, pending);
            for (int k = 0; k < pending; k++) {
                long line = pendingLine[k];
                DuplicateKeyIndex.Offered offered = index.offer(pendingHi[k], pendingLo[k], pendingPayload[k], line);
                if (offered == DuplicateKeyIndex.Offered.NEW && !(dropping && dropRows.contains(line))) {
                    int length = pendingEnd[k] - pendingStart[k];
                    acceptedBuffer.write(pendingRows[k], pendingStart[k], length);
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
                if (offered == DuplicateKeyIndex.Offered.CONFLICT || offered == DuplicateKeyIndex.Offered.FULL) {
                    lines = line; // this refusal replaces any the stream gave after this line
                    records = pendingRecord[k];
                    break;
                }
            }
            Arrays.fill(pendingRows, 0, pending, null);
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
    }
}
