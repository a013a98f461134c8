package io.landingledger.core.validate;

/**
 * Resource limits of the streaming validator, named like jackson's {@code StreamReadConstraints}: every message
 * that a limit causes names the knob.
 */
public final class ValidationLimits {
    /** Longest accepted line in bytes, excluding its line terminator: 1 MiB. */
    public static final int DEFAULT_MAX_LINE_BYTES = 1 << 20;
    /** Deepest accepted nesting of objects and arrays inside a line. */
    public static final int DEFAULT_MAX_NESTING_DEPTH = 64;
    /** Largest accepted ratio of decompressed to stored bytes for gzip input. */
    public static final int DEFAULT_MAX_COMPRESSION_RATIO = 200;
    /** The ratio is only judged once this many bytes are decompressed, so small files never trip it. */
    public static final long DEFAULT_COMPRESSION_RATIO_GRACE_BYTES = 64L << 20;

    private static final ValidationLimits DEFAULTS = builder().build();

    private final int maxLineBytes;
    private final int maxNestingDepth;
    private final int maxCompressionRatio;
    private final long compressionRatioGraceBytes;

    private ValidationLimits(Builder builder) {
        this.maxLineBytes = builder.maxLineBytes;
        this.maxNestingDepth = builder.maxNestingDepth;
        this.maxCompressionRatio = builder.maxCompressionRatio;
        this.compressionRatioGraceBytes = builder.compressionRatioGraceBytes;
    }

    public static ValidationLimits defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    public int maxLineBytes() {
        return maxLineBytes;
    }

    public int maxNestingDepth() {
        return maxNestingDepth;
    }

    public int maxCompressionRatio() {
        return maxCompressionRatio;
    }

    public long compressionRatioGraceBytes() {
        return compressionRatioGraceBytes;
    }

    public static final class Builder {
        private int maxLineBytes = DEFAULT_MAX_LINE_BYTES;
        private int maxNestingDepth = DEFAULT_MAX_NESTING_DEPTH;
        private int maxCompressionRatio = DEFAULT_MAX_COMPRESSION_RATIO;
        private long compressionRatioGraceBytes = DEFAULT_COMPRESSION_RATIO_GRACE_BYTES;

        private Builder() {
        }

        public Builder maxLineBytes(int value) {
            if (value < 16 || value > (256 << 20)) {
                throw new IllegalArgumentException("maxLineBytes must be between 16 and 268435456, not " + value);
            }
            this.maxLineBytes = value;
            return this;
        }

        public Builder maxNestingDepth(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("maxNestingDepth must be at least 1, not " + value);
            }
            this.maxNestingDepth = value;
            return this;
        }

        public Builder maxCompressionRatio(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("maxCompressionRatio must be at least 1, not " + value);
            }
            this.maxCompressionRatio = value;
            return this;
        }

        public Builder compressionRatioGraceBytes(long value) {
            if (value < 0) {
                throw new IllegalArgumentException("compressionRatioGraceBytes must not be negative, not " + value);
            }
            this.compressionRatioGraceBytes = value;
            return this;
        }

        public ValidationLimits build() {
            return new ValidationLimits(this);
        }
    }
}
