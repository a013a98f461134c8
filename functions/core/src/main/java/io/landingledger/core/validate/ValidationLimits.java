package io.landingledger.core.validate;

import java.nio.file.Path;
import java.util.Objects;

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

    /**
     * Heap the duplicate-key index may hold before it spills to disk: half the JVM's maximum heap. The other half
     * holds the staging upload's part buffers (5 x 16 MiB), the line buffer and the collector's headroom.
     */
    public static final long DEFAULT_KEY_INDEX_MEMORY_BYTES = Runtime.getRuntime().maxMemory() / 2;
    /** Disk the index's spilled runs may take: no bound of its own, the spill directory's free space decides. */
    public static final long DEFAULT_KEY_INDEX_DISK_BYTES = Long.MAX_VALUE;
    /**
     * The system property that pins the default worker count ({@link #DEFAULT_WORKERS}): the build runs the core
     * suite at 1, 2 and 4 workers with it, and an operator can pin a run with {@code -D} without a new build.
     */
    public static final String WORKERS_PROPERTY = "landing.validator.workers";
    /**
     * Threads that parse lines: {@value #WORKERS_PROPERTY} when set, else the processors this JVM may use (a Lambda
     * function has about one vCPU per 1,769 MB). With 1 the calling thread parses; above 1 it reads, hashes and
     * writes while the workers parse, and what is written is the same byte for byte.
     */
    public static final int DEFAULT_WORKERS = defaultWorkers();
    /** More workers than this only add buffers: the single in-order reader and writer is the limit well before. */
    public static final int MAX_WORKERS = 64;
    /**
     * Decoded bytes the validation's own thread parses before it starts workers: a smaller file is over before
     * threads would pay for themselves (the sweep and the tests validate thousands of small files).
     */
    static final long PARALLEL_FROM_BYTES = 1 << 20;

    private static final ValidationLimits DEFAULTS = builder().build();

    private final int maxLineBytes;
    private final int maxNestingDepth;
    private final int maxCompressionRatio;
    private final long compressionRatioGraceBytes;
    private final long keyIndexMemoryBytes;
    private final long keyIndexDiskBytes;
    private final Path spillDirectory;
    private final int workers;
    private final long parallelFromBytes;

    private ValidationLimits(Builder builder) {
        this.maxLineBytes = builder.maxLineBytes;
        this.maxNestingDepth = builder.maxNestingDepth;
        this.maxCompressionRatio = builder.maxCompressionRatio;
        this.compressionRatioGraceBytes = builder.compressionRatioGraceBytes;
        this.keyIndexMemoryBytes = builder.keyIndexMemoryBytes;
        this.keyIndexDiskBytes = builder.keyIndexDiskBytes;
        this.spillDirectory = builder.spillDirectory != null ? builder.spillDirectory
                : Path.of(System.getProperty("java.io.tmpdir"));
        this.workers = builder.workers;
        this.parallelFromBytes = builder.parallelFromBytes;
    }

    private static int defaultWorkers() {
        String pinned = System.getProperty(WORKERS_PROPERTY);
        if (pinned == null || pinned.isBlank()) {
            return Math.min(MAX_WORKERS, Runtime.getRuntime().availableProcessors());
        }
        try {
            int value = Integer.parseInt(pinned.trim());
            if (value >= 1 && value <= MAX_WORKERS) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below with the range
        }
        throw new IllegalArgumentException(WORKERS_PROPERTY + " must be a whole number from 1 to " + MAX_WORKERS
                + ", not '" + pinned + "'");
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

    /** Heap the duplicate-key index may hold; past it the index spills sorted runs to {@link #spillDirectory()}. */
    public long keyIndexMemoryBytes() {
        return keyIndexMemoryBytes;
    }

    /** Disk the spilled runs may take (also bounded by the spill directory's free space); past it the file is refused. */
    public long keyIndexDiskBytes() {
        return keyIndexDiskBytes;
    }

    /** Threads that parse lines ({@link #DEFAULT_WORKERS}); the output never depends on it. */
    public int workers() {
        return workers;
    }

    /** Decoded bytes parsed on the validation's own thread before workers start ({@link #PARALLEL_FROM_BYTES}). */
    long parallelFromBytes() {
        return parallelFromBytes;
    }

    /** These limits with another worker count. */
    public ValidationLimits withWorkers(int value) {
        Builder copy = copy();
        copy.workers(value);
        return copy.build();
    }

    /** These limits with workers from the first read on, so that small test files exercise them too. */
    ValidationLimits withWorkersFromTheStart() {
        Builder copy = copy();
        copy.parallelFromBytes = 0;
        return copy.build();
    }

    private Builder copy() {
        Builder copy = builder().maxLineBytes(maxLineBytes).maxNestingDepth(maxNestingDepth)
                .maxCompressionRatio(maxCompressionRatio).compressionRatioGraceBytes(compressionRatioGraceBytes)
                .keyIndexMemoryBytes(keyIndexMemoryBytes).keyIndexDiskBytes(keyIndexDiskBytes).workers(workers);
        copy.spillDirectory = spillDirectory;
        copy.parallelFromBytes = parallelFromBytes;
        return copy;
    }

    /** Where the index spills: {@code java.io.tmpdir} unless set (Lambda: /tmp, the function's ephemeral storage). */
    public Path spillDirectory() {
        return spillDirectory;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ValidationLimits that && maxLineBytes == that.maxLineBytes
                && maxNestingDepth == that.maxNestingDepth && maxCompressionRatio == that.maxCompressionRatio
                && compressionRatioGraceBytes == that.compressionRatioGraceBytes
                && keyIndexMemoryBytes == that.keyIndexMemoryBytes && keyIndexDiskBytes == that.keyIndexDiskBytes
                && spillDirectory.equals(that.spillDirectory) && workers == that.workers
                && parallelFromBytes == that.parallelFromBytes;
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxLineBytes, maxNestingDepth, maxCompressionRatio, compressionRatioGraceBytes,
                keyIndexMemoryBytes, keyIndexDiskBytes, spillDirectory, workers, parallelFromBytes);
    }

    @Override
    public String toString() {
        return "ValidationLimits[maxLineBytes=" + maxLineBytes + ", maxNestingDepth=" + maxNestingDepth
                + ", maxCompressionRatio=" + maxCompressionRatio + ", compressionRatioGraceBytes=" + compressionRatioGraceBytes
                + ", keyIndexMemoryBytes=" + keyIndexMemoryBytes + ", keyIndexDiskBytes=" + keyIndexDiskBytes
                + ", spillDirectory=" + spillDirectory + ", workers=" + workers + "]";
    }

    public static final class Builder {
        private int maxLineBytes = DEFAULT_MAX_LINE_BYTES;
        private int maxNestingDepth = DEFAULT_MAX_NESTING_DEPTH;
        private int maxCompressionRatio = DEFAULT_MAX_COMPRESSION_RATIO;
        private long compressionRatioGraceBytes = DEFAULT_COMPRESSION_RATIO_GRACE_BYTES;
        private long keyIndexMemoryBytes = DEFAULT_KEY_INDEX_MEMORY_BYTES;
        private long keyIndexDiskBytes = DEFAULT_KEY_INDEX_DISK_BYTES;
        private Path spillDirectory;
        private int workers = DEFAULT_WORKERS;
        private long parallelFromBytes = PARALLEL_FROM_BYTES;

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

        /**
         * Heap for the duplicate-key index (about 30 bytes per distinct key, more while its table grows). The index
         * never holds less than its first chunk and table, about 410 KB: a smaller value spills every 820 keys.
         */
        public Builder keyIndexMemoryBytes(long value) {
            if (value < 1) {
                throw new IllegalArgumentException("keyIndexMemoryBytes must be at least 1, not " + value);
            }
            this.keyIndexMemoryBytes = value;
            return this;
        }

        /** Disk for the index's spilled runs ({@value SpilledKeyRuns#RECORD_BYTES} bytes per key and run). */
        public Builder keyIndexDiskBytes(long value) {
            if (value < 0) {
                throw new IllegalArgumentException("keyIndexDiskBytes must not be negative, not " + value);
            }
            this.keyIndexDiskBytes = value;
            return this;
        }

        /** Where the index spills its runs (an existing, writable directory). */
        public Builder spillDirectory(Path value) {
            this.spillDirectory = Objects.requireNonNull(value, "spillDirectory");
            return this;
        }

        /** Threads that parse lines, 1 to {@value ValidationLimits#MAX_WORKERS}. */
        public Builder workers(int value) {
            if (value < 1 || value > MAX_WORKERS) {
                throw new IllegalArgumentException("workers must be between 1 and " + MAX_WORKERS + ", not " + value);
            }
            this.workers = value;
            return this;
        }

        public ValidationLimits build() {
            return new ValidationLimits(this);
        }
    }
}
