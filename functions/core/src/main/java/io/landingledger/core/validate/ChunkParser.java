package io.landingledger.core.validate;

import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.contract.UnknownFieldPolicy;

/**
 * Parses the lines of a {@link LineChunk} into their {@link ParsedLines} verdicts: everything about a line that does
 * not depend on the lines before it (blank, too long, encoding, the record's fields, its canonical row and hashes).
 * What does depend on them (line numbers in messages, the duplicate-key index, the reject cap, where the file stops)
 * is the in-order pass's, so a chunk parsed on any thread gives the same verdicts. One parser per thread.
 */
final class ChunkParser {
    private final DatasetContract contract;
    private final LineParser parser;
    private final CanonicalRow row;
    private final LineOutcome outcome = new LineOutcome();
    private final boolean refusesUnknownFields;
    private final long[] keyHash = new long[2];
    private final long[] payloadHash = new long[2];

    ChunkParser(DatasetContract contract, LineParser parser) {
        this.contract = contract;
        this.parser = parser;
        this.row = new CanonicalRow(contract);
        this.refusesUnknownFields = contract.unknownFields() == UnknownFieldPolicy.REFUSE_FILE;
    }

    /** Whether chunks can be parsed on other threads: a CSV file's header row must be read first. */
    boolean ready() {
        return parser.ready();
    }

    /** A parser for another thread, in this one's state. */
    ChunkParser copy() {
        return new ChunkParser(contract, parser.copy());
    }

    /**
     * Gives lines {@code from..} of the chunk their verdicts, up to the chunk's end or a line after which the next
     * lines cannot be parsed on their own: a CSV record that continues past its line, or a header that refuses the
     * file. {@code chunk.parsed.parsed} says how far it got.
     */
    void parse(LineChunk chunk, int from) {
        ParsedLines verdicts = chunk.parsed;
        verdicts.ensure(chunk.count);
        byte[] b = chunk.text;
        for (int i = from; i < chunk.count; i++) {
            verdicts.parsed = i + 1;
            if (chunk.tooLong(i)) {
                verdicts.set(i, ParsedLines.Kind.TOO_LONG);
                continue;
            }
            int bom = byteOrderMarkBytes(chunk, i);
            int off = chunk.start[i] + bom;
            int len = chunk.length[i] - bom;
            if (isBlank(b, off, len)) {
                verdicts.set(i, ParsedLines.Kind.BLANK);
                continue;
            }
            if (!chunk.ascii(i) && !Utf8.isValid(b, off, len)) {
                if (!parser.ready()) {
                    verdicts.set(i, ParsedLines.Kind.HEADER_NOT_UTF8);
                    return;
                }
                if (parser.namesProhibitedField(b, off, len, row, outcome)) {
                    record(verdicts, i); // refuses the file however the rest of its line is encoded
                } else {
                    verdicts.set(i, ParsedLines.Kind.INVALID_UTF8);
                }
                continue;
            }
            if (!parser.ready()) {
                verdicts.set(i, ParsedLines.Kind.HEADER);
                verdicts.headerRefusal = parser.readHeader(b, off, len, chunk.firstLine + i);
                if (verdicts.headerRefusal != null) {
                    return;
                }
                continue;
            }
            outcome.clear();
            if (parser.parse(b, off, len, row, outcome) == LineParser.Parsed.UNTERMINATED) {
                verdicts.set(i, ParsedLines.Kind.UNTERMINATED);
                return;
            }
            record(verdicts, i);
        }
    }

    /** {@link LineParser#scanRecord}: resumes the scan of a record joined a physical line at a time. */
    int scanRecord(byte[] b, int off, int len, int from) {
        return parser.scanRecord(b, off, len, from);
    }

    /** The bytes {@link #scanRecord} has read so far (a cost measure independent of the machine, for tests). */
    long recordScanBytes() {
        return parser instanceof CsvLineParser csv ? csv.recordScanBytes : 0;
    }

    /**
     * Gives a record joined from several physical lines its verdict, in slot {@code slot} of {@code chunk} (the
     * chunk of its last line, whose own verdict the record replaces). Text that is not valid UTF-8 is malformed.
     */
    void parseJoined(byte[] b, int off, int len, LineChunk chunk, int slot) {
        ParsedLines verdicts = chunk.parsed;
        outcome.clear();
        if (!Utf8.isValid(b, off, len)) {
            outcome.reject(ReasonCode.CSV_MALFORMED, null);
        } else if (parser.parse(b, off, len, row, outcome) == LineParser.Parsed.UNTERMINATED) {
            throw new IllegalStateException("a joined record is parsed only once it ends");
        }
        record(verdicts, slot);
    }

    /** Records the outcome in {@code outcome} (and the row, when nothing is wrong with it) as line {@code i}'s verdict. */
    private void record(ParsedLines verdicts, int i) {
        verdicts.kind[i] = ParsedLines.Kind.RECORD;
        verdicts.reason[i] = outcome.reason;
        verdicts.field[i] = outcome.field;
        verdicts.prohibited[i] = outcome.prohibited;
        verdicts.unknownField[i] = outcome.unknownField;
        if (outcome.prohibited != null || outcome.unknownField && refusesUnknownFields || outcome.reason != null) {
            return;
        }
        ByteSink rows = verdicts.rows;
        int start = rows.size;
        row.appendTo(rows);
        Murmur3.hash128(row.keyBytes(), row.keyStart(), row.keyEnd() - row.keyStart(), 0, keyHash);
        Murmur3.hash128(rows.bytes, start, rows.size - start, 0x5eed, payloadHash);
        verdicts.rowStart[i] = start;
        verdicts.rowEnd[i] = rows.size;
        verdicts.keyHi[i] = keyHash[0];
        verdicts.keyLo[i] = keyHash[1];
        verdicts.payloadHash[i] = payloadHash[0];
    }

    /** 3 when line {@code i} of the chunk is the file's first and starts with a UTF-8 byte order mark (tolerated there), else 0. */
    private static int byteOrderMarkBytes(LineChunk chunk, int i) {
        int off = chunk.start[i];
        byte[] b = chunk.text;
        return chunk.firstLine + i == 1 && chunk.length[i] >= 3 && b[off] == (byte) 0xEF && b[off + 1] == (byte) 0xBB
                && b[off + 2] == (byte) 0xBF ? 3 : 0;
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
