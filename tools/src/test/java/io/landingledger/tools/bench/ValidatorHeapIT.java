package io.landingledger.tools.bench;

import com.fasterxml.jackson.jr.ob.JSON;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The validator's heap does not grow with the file, apart from the duplicate index (issue 2, issue 6): a child JVM
 * with a 64 MB heap validates a 2 GiB input made on the fly (never on disk) whose few thousand keys recur as
 * canonical duplicates, and a 20 MB one; both are accepted with exact counts, and the heap the validator holds at
 * the end of the input (after a full collection, the index live) is the same for both.
 *
 * <p>Measured on the 2-core build machine: the 2 GiB child takes 20-22 s at a load average of 3-4 from other
 * builds and up to 49 s at a load average of 8; the whole test 23-57 s. Not a timed test: no figure is asserted
 * but the heap.
 */
class ValidatorHeapIT {
    static final long LARGE = 2L << 30;
    static final long SMALL = 20L << 20;
    /** Heap the two runs may differ by at the end of the input: class metadata and JIT leftovers, not data. */
    static final long SAME_HEAP_TOLERANCE = 1L << 20;

    record Probe(Map<String, Object> report, String output) {
        long get(String key) {
            return ((Number) report.get(key)).longValue();
        }
    }

    static Probe probe(long bytes) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-XX:+UseSerialGC",
                // no dead space left behind by full collections, so "used after GC" is the live heap
                "-XX:MarkSweepDeadRatio=0",
                "-cp", System.getProperty("java.class.path"),
                HeapProbe.class.getName(), PerfTesting.contract().toString(), Long.toString(bytes)));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(10, TimeUnit.MINUTES), "the probe did not finish");
        assertEquals(0, process.exitValue(), output);
        String json = output.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b).orElseThrow(() -> new AssertionError(output));
        return new Probe(JSON.std.mapFrom(json), output);
    }

    static void assertAcceptedWithExactCounts(Probe p) {
        assertEquals("accept", p.report().get("decision"), p.output());
        assertEquals(p.get("expectedBytes"), p.get("storedBytes"), p.output());
        assertEquals(p.get("expectedLines"), p.get("lines"), p.output());
        assertEquals(p.get("expectedDistinct"), p.get("accepted"), p.output());
        assertEquals(p.get("expectedDistinct"), p.get("distinctKeys"), p.output());
        assertEquals(p.get("lines") - p.get("accepted"), p.get("duplicates"), p.output());
        assertEquals(0, p.get("rejected"), p.output());
        assertTrue(p.get("maxHeapBytes") <= 64L << 20, p.output());
        assertTrue(p.get("heapAtEndOfInputBytes") > 0, "the gauge measured at the end of the input: " + p.output());
    }

    @Test
    void validate_twoGibibytesIn64MegabytesOfHeap_holdsTheSameHeapAsTwentyMegabytes() throws Exception {
        Probe small = probe(SMALL);
        Probe large = probe(LARGE);
        System.out.printf("ValidatorHeapIT: %,d bytes in %.1f s, heap at end of input %,d bytes; %,d bytes in %.1f s, heap at end of input %,d bytes%n",
                small.get("storedBytes"), ((Number) small.report().get("seconds")).doubleValue(), small.get("heapAtEndOfInputBytes"),
                large.get("storedBytes"), ((Number) large.report().get("seconds")).doubleValue(), large.get("heapAtEndOfInputBytes"));

        assertAcceptedWithExactCounts(small);
        assertAcceptedWithExactCounts(large);
        assertTrue(large.get("storedBytes") >= LARGE, large.output());
        assertEquals(small.get("keyIndexBytes"), large.get("keyIndexBytes"), "the same keys, the same index");
        long difference = Math.abs(large.get("heapAtEndOfInputBytes") - small.get("heapAtEndOfInputBytes"));
        assertTrue(difference <= SAME_HEAP_TOLERANCE, "the validator held " + large.get("heapAtEndOfInputBytes") + " bytes at the end of "
                + large.get("storedBytes") + " bytes but " + small.get("heapAtEndOfInputBytes") + " at the end of " + small.get("storedBytes"));
    }
}
