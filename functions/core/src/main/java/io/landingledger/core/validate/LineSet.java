package io.landingledger.core.validate;

import java.util.BitSet;

/**
 * An immutable set of line numbers: one bit per line up to the largest, so a 50-million-line file costs at most
 * 6.25 MB whatever share of its lines the set holds. Line numbers only, never content.
 */
public final class LineSet {
    private static final LineSet EMPTY = new LineSet(new BitSet());

    private final BitSet lines;
    private final int size;

    private LineSet(BitSet lines) {
        this.lines = lines;
        this.size = lines.cardinality();
    }

    public static LineSet empty() {
        return EMPTY;
    }

    /** A set holding {@code lines} (copied). */
    public static LineSet of(long... lines) {
        BitSet bits = new BitSet();
        for (long line : lines) {
            bits.set(index(line));
        }
        return new LineSet(bits);
    }

    /** Takes ownership of {@code bits}: the caller must not change it afterwards. */
    static LineSet wrap(BitSet bits) {
        return bits.isEmpty() ? EMPTY : new LineSet(bits);
    }

    /** The bit of {@code line}; a file of 2^31 lines would be about 500 GB, far past what one function reads. */
    static int index(long line) {
        if (line < 0 || line > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("line " + line + " is outside 0.." + Integer.MAX_VALUE);
        }
        return (int) line;
    }

    public boolean contains(long line) {
        return line >= 0 && line <= Integer.MAX_VALUE && lines.get((int) line);
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The lines in ascending order (for tests and diagnostics; a refusal names at most two). */
    public long[] toArray() {
        return lines.stream().asLongStream().toArray();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof LineSet that && lines.equals(that.lines);
    }

    @Override
    public int hashCode() {
        return lines.hashCode();
    }

    @Override
    public String toString() {
        return size + " lines";
    }
}
