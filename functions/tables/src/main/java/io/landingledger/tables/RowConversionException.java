package io.landingledger.tables;

/**
 * A published line that does not fit the table's columns. The validator refuses every such value before it is
 * published, so this means the table and the publish disagree (another contract version, a hand-written object): the
 * commit is abandoned and the table keeps its previous snapshot. The message names the line and the column, never a
 * value (row content stays out of logs and exceptions).
 */
public final class RowConversionException extends RuntimeException {
    private final long line;
    private final String column;

    RowConversionException(long line, String column, String problem) {
        super("published line " + line + (column == null ? "" : ", column " + column) + ": " + problem);
        this.line = line;
        this.column = column;
    }

    /** The published object's line (1-based). */
    public long line() {
        return line;
    }

    /** The column, or null when the line itself is malformed. */
    public String column() {
        return column;
    }
}
