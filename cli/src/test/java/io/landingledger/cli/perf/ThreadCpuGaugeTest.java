package io.landingledger.cli.perf;

import org.junit.jupiter.api.Test;

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
            long until = System.nanoTime() + 200_000_000L;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            cpu = gauge.stop();
        }
        assertEquals("caller", cpu.keySet().iterator().next());
        assertTrue(cpu.get("caller") >= 100_000_000L, cpu::toString);
    }

    @Test
    void aBusyThreadThatEndsInsideTheSpan_isCountedInItsGroup() throws InterruptedException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
        Map<String, Long> cpu;
        try (ThreadCpuGauge gauge = new ThreadCpuGauge("caller")) {
            Thread worker = Thread.ofPlatform().name("validator-9-worker-1").start(() -> {
                long until = System.nanoTime() + 300_000_000L;
                long x = 0;
                while (System.nanoTime() < until) {
                    x += System.nanoTime() & 1;
                }
                if (x == 42) {
                    System.out.print("");
                }
            });
            worker.join();
            Thread.sleep(50);
            cpu = gauge.stop();
        }
        // it spun for 0.3 s and ended before the gauge stopped: the samples kept all but its last 20 ms
        assertTrue(cpu.get("parse workers") >= 150_000_000L, cpu::toString);
        assertTrue(cpu.get(ThreadCpuGauge.UNATTRIBUTED) >= 0, cpu::toString);
        assertTrue(cpu.get("caller") < 150_000_000L, "the caller only waited: " + cpu);
    }
}
