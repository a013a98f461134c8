package io.landingledger.tools.bench;

import java.util.Arrays;

/** The arithmetic every figure the benchmarks print goes through: the median of the runs, and rounding for the JSON. */
final class FigureMath {
    private FigureMath() {
    }

    /** The median of {@code values} (the mean of the middle two for an even count); {@code values} is not reordered. */
    static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** {@code value} rounded half up to {@code decimals} places. */
    static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
