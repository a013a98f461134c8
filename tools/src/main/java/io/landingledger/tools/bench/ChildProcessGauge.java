package io.landingledger.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Watches a child process from {@code /proc/PID} while it runs, for the peers' whole-process figures: its peak
 * resident set ({@code VmHWM}, which only grows, so the last reading is the peak to within one interval) and its CPU
 * time (utime + stime of {@code stat}, in the kernel's 100 Hz ticks). Both read -1 where there is no {@code /proc}.
 */
final class ChildProcessGauge implements AutoCloseable {
    private static final long POLL_MILLIS = 5;
    private static final long NANOS_PER_TICK = 10_000_000L;

    private final long pid;
    private final Thread poller;
    private volatile long peakRssBytes = -1;
    private volatile long cpuNanos = -1;
    private volatile boolean stopped;

    ChildProcessGauge(Process process) {
        this.pid = process.pid();
        this.poller = Thread.ofPlatform().daemon().name("peer-gauge-" + pid).start(() -> {
            while (!stopped && process.isAlive()) {
                sample();
                try {
                    Thread.sleep(POLL_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    private void sample() {
        long peak = ResidentMemory.peakBytes(pid);
        if (peak > 0) {
            peakRssBytes = Math.max(peakRssBytes, peak);
        }
        long cpu = cpuTicks();
        if (cpu >= 0) {
            cpuNanos = Math.max(cpuNanos, cpu * NANOS_PER_TICK);
        }
    }

    /** utime + stime: fields 14 and 15 of /proc/PID/stat, counted after the command name's closing parenthesis. */
    private long cpuTicks() {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    long peakRssBytes() {
        return peakRssBytes;
    }

    /** CPU time up to the last reading before the process ended (at most one interval short). */
    long cpuNanos() {
        return cpuNanos;
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        poller.join();
    }
}
