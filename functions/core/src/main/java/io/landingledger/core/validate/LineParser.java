package io.landingledger.core.validate;

import io.landingledger.core.contract.DataFormat;
import io.landingledger.core.contract.DatasetContract;

/**
 * Reads one line of a dataset's format into its canonical row and what was wrong with it: JSON Lines
 * ({@link JsonLineParser}) or CSV ({@link CsvLineParser}). A parser is used by one thread; {@link #copy()} gives
 * another thread its own in the same state.
 */
interface LineParser {

    /** Whether the parse of {@link #parse} may end inside a record that continues on the next line. */
    enum Parsed {
        /** The line was one whole record: {@code outcome} and {@code row} hold what it says. */
        RECORD,
        /** A quoted CSV cell holds a line break: join the next physical line and parse again. */
        UNTERMINATED
    }

    static LineParser forContract(DatasetContract contract, ValidationLimits limits) {
        return contract.format() == DataFormat.CSV ? new CsvLineParser(contract) : new JsonLineParser(contract, limits);
    }

    /** Whether records can be parsed now; a CSV parser first reads its header row ({@link #readHeader}). */
    boolean ready();

    /** Reads the header row of a parser that is not {@link #ready()}: null when it matches the contract, else the refusal. */
    Refusal readHeader(byte[] b, int off, int len, long line);

    /** Parses one valid UTF-8 record in {@code b[off, off + len)} into {@code row}, its problems into {@code outcome}. */
    Parsed parse(byte[] b, int off, int len, CanonicalRow row, LineOutcome outcome);

    /** What {@link #scanRecord} returns when the record has ended. */
    int RECORD_ENDS = -1;

    /**
     * Whether a record that grows a physical line at a time has ended (valid UTF-8 or not; it has not while a quoted CSV
     * cell is open), in time linear in its length: scans {@code b[off, off + len)} from {@code from} on, which is
     * {@code off} for the record's first line, else what the call before returned for a prefix of the same text (the
     * bytes since, like a line that is not valid UTF-8, need not each have been given a call). Returns
     * {@link #RECORD_ENDS} when the record has ended, else where to resume (always past {@code off}).
     */
    int scanRecord(byte[] b, int off, int len, int from);

    /**
     * For a line that is not valid UTF-8: whether it still names a prohibited field, which refuses the file however
     * the rest of the line is encoded ({@code outcome.prohibited} then names it).
     */
    boolean namesProhibitedField(byte[] b, int off, int len, CanonicalRow row, LineOutcome outcome);

    /** A parser for another thread, in this one's state (a CSV header already read). */
    LineParser copy();
}
