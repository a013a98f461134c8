package io.landingledger.tools.bench;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ThreadCpuGaugeTest {

    @Test
    void threadsAreGroupedByTheirNames_asProcCutsThem() {
        assertEquals("S3 emulator", ThreadCpuGauge.group("S3Proxy-Jetty-1"));
        assertEquals("parse workers", ThreadCpuGauge.group("validator-3-wor"));
        assertEquals("throttling proxy", ThreadCpuGauge.group("ForkJoinPool-1-"));
        assertEquals(ThreadCpuGauge.OTHER, ThreadCpuGauge.group("ForkJoinPool.co"), "the common pool is not the proxy's");
        assertEquals("GC and VM", ThreadCpuGauge.group("G1 Conc#0"));
        assertEquals(ThreadCpuGauge.GAUGE, ThreadCpuGauge.group("landing-bench-c"));
        assertEquals("JIT", ThreadCpuGauge.group("C2 CompilerThre"));
        assertEquals(ThreadCpuGauge.OTHER, ThreadCpuGauge.group("sdk-async-respo"));
        assertEquals(ThreadCpuGauge.OTHER, ThreadCpuGauge.group(null));
    }

    @Test
    void schedstat_firstFieldIsTheNanosecondsOnACpu() {
        assertEquals(600209164L, ThreadCpuGauge.onCpuNanos("600209164 594404 29\n"));
        assertEquals(-1L, ThreadCpuGauge.onCpuNanos("garbage"));
    }

    @Test
    void theCallingThread_isItsOwnGroup_whateverItsName() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
        Map<String, Long> cpu;
        try (ThreadCpuGauge gauge = new ThreadCpuGauge("caller")) {
            spinForCpu(200_000_000L);
            cpu = gauge.stop();
        }
        assertTrue(cpu.get("caller") >= 200_000_000L, cpu::toString);
        assertTrue(cpu.get(ThreadCpuGauge.OTHER) < 200_000_000L, "the caller's CPU is not among the others: " + cpu);
    }

    @Test
    void aBusyThreadThatEndsInsideTheSpan_isCountedInItsGroup() throws InterruptedException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
        Map<String, Long> cpu;
        try (ThreadCpuGauge gauge = new ThreadCpuGauge("caller")) {
            Thread worker = Thread.ofPlatform().name("validator-9-worker-1").start(() -> spinForCpu(300_000_000L));
            worker.join();
            Thread.sleep(50);
            cpu = gauge.stop();
        }
        // it used 0.3 s of CPU and ended before the gauge stopped: the samples kept all but its last 20 ms or so
        assertTrue(cpu.get("parse workers") >= 250_000_000L, cpu::toString);
        assertTrue(cpu.get("caller") < 150_000_000L, "the caller only waited: " + cpu);
    }

    /** Spins until this thread has used {@code nanos} of CPU, however busy the machine is. */
    private static void spinForCpu(long nanos) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + nanos;
        while (threads.getCurrentThreadCpuTime() < until) {
            Thread.onSpinWait();
        }
    }
}
