package io.landingledger.tools.bench;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.stream.Collectors;

/** Heap figures for the benchmark and the heap test: what is live after a full collection. */
final class HeapGauge {
    private HeapGauge() {
    }

    /** Heap bytes in use after forcing a full collection (twice: the first may only queue finalisable objects). */
    static long usedAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    static long maxHeap() {
        return Runtime.getRuntime().maxMemory();
    }

    /** The collectors this JVM runs, e.g. {@code Copy+MarkSweepCompact} for the serial collector. */
    static String collectors() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName)
                .collect(Collectors.joining("+"));
    }

    /**
     * Measures the heap at the moment the reader reaches the end of the input, while the reader (the validator,
     * with its line buffer, parser and duplicate index) is still live: that is the validator's retained heap at
     * its largest, since the index only grows. Not for timed passes: the forced collection takes time.
     */
    static final class AtEndOfInput extends FilterInputStream {
        private long usedAtEnd = -1;

        AtEndOfInput(InputStream in) {
            super(in);
        }

        /** Heap used after a full collection at the end of the input; -1 before the end is reached. */
        long usedAtEnd() {
            return usedAtEnd;
        }

        @Override
        public int read() throws IOException {
            return atEnd(in.read());
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return atEnd(in.read(b, off, len));
        }

        private int atEnd(int n) {
            if (n < 0 && usedAtEnd < 0) {
                usedAtEnd = usedAfterGc();
            }
            return n;
        }
    }
}
