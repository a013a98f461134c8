package io.landingledger.tools.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CPU time this process's threads used during a span, by what they do: where an end-to-end pass's CPU goes when
 * the S3 emulator, the upload and the validator share the machine. Read from Linux's {@code /proc/self/task/TID}:
 * {@code schedstat} (nanoseconds on a CPU) and {@code comm} (the thread's name, cut to 15 bytes). A daemon samples
 * every 20 ms, so a thread that ends inside the span (the validator's workers end with their validation) loses at
 * most its last 20 ms; what no thread accounts for is {@link #UNATTRIBUTED}. The sampling costs CPU too (about 20-40
 * ms a second here): it is reported as {@link #GAUGE}, not hidden among the others. A thread is known by its id and
 * name, and an id whose CPU goes backwards is a new thread the kernel gave a finished one's id. Empty where there
 * is no {@code /proc}.
 */
final class ThreadCpuGauge implements AutoCloseable {
    static final String UNATTRIBUTED = "unattributed";
    static final String OTHER = "other threads";
    static final String GAUGE = "this gauge";
    private static final String GAUGE_THREAD = "landing-bench-cpu-gauge";
    private static final long SAMPLE_MILLIS = 20;

    /** Each group and the name prefixes of its threads, in the order they are reported. */
    static final Map<String, List<String>> GROUPS = groups();

    private static Map<String, List<String>> groups() {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        groups.put("S3 emulator", List.of("S3Proxy"));
        groups.put("parse workers", List.of("validator-"));
        groups.put("part uploads and copies", List.of("landing-part-up"));
        groups.put("ranged reads", List.of("landing-range-r"));
        // the proxy's pumps are virtual threads: their CPU is their carriers'
        groups.put("throttling proxy", List.of("landing-bench-t", "ForkJoinPool-"));
        groups.put("JIT", List.of("C1 CompilerThre", "C2 CompilerThre"));
        groups.put("GC and VM", List.of("VM Thread", "GC Thread", "VM Periodic Tas", "G1 "));
        groups.put(GAUGE, List.of(GAUGE_THREAD.substring(0, 15)));
        return groups;
    }

    private final String callerGroup;
    /** The task id of the thread that made the gauge (its group is {@link #callerGroup}), or null. */
    private final String callerTid = threadSelfTid();
    /** By task id: {first, last} CPU nanoseconds of the thread now holding the id. */
    private final Map<String, long[]> firstAndLast = new HashMap<>();
    private final Map<String, String> names = new HashMap<>();
    /** CPU of threads whose id was given to another thread inside the span, by group. */
    private final Map<String, Long> banked = new HashMap<>();
    private final long processStart = processCpuNanos();
    private final Thread sampler;
    private volatile boolean open = true;

    /** Starts sampling; the calling thread's CPU is reported as {@code callerGroup}, whatever its name. */
    ThreadCpuGauge(String callerGroup) {
        this.callerGroup = callerGroup;
        sample(true);
        sampler = Thread.ofPlatform().daemon().name(GAUGE_THREAD).start(() -> {
            while (open) {
                try {
                    Thread.sleep(SAMPLE_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
                sample(false);
            }
        });
    }

    /**
     * Stops sampling; the span's CPU nanoseconds by group: the caller's, {@link #GROUPS}, other threads, unattributed.
     */
    Map<String, Long> stop() {
        close();
        try {
            sampler.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sample(false);
        if (firstAndLast.isEmpty()) {
            return Map.of(); // no /proc
        }
        long process = processCpuNanos() - processStart;
        Map<String, Long> byGroup = new LinkedHashMap<>();
        byGroup.put(callerGroup, 0L);
        GROUPS.keySet().forEach(group -> byGroup.put(group, 0L));
        byGroup.put(OTHER, 0L);
        long attributed = 0;
        synchronized (this) {
            for (Map.Entry<String, long[]> thread : firstAndLast.entrySet()) {
                long used = thread.getValue()[1] - thread.getValue()[0];
                byGroup.merge(groupOf(thread.getKey()), used, Long::sum);
                attributed += used;
            }
            for (Map.Entry<String, Long> gone : banked.entrySet()) {
                byGroup.merge(gone.getKey(), gone.getValue(), Long::sum);
                attributed += gone.getValue();
            }
        }
        byGroup.put(UNATTRIBUTED, Math.max(0, process - attributed));
        return byGroup;
    }

    /** Stops the sampler without a figure (stop() stops it too). */
    @Override
    public void close() {
        open = false;
        sampler.interrupt();
    }

    private String groupOf(String tid) {
        return tid.equals(callerTid) ? callerGroup : group(names.get(tid));
    }

    /** The group of a thread named {@code name} (as {@code comm} has it). */
    static String group(String name) {
        for (Map.Entry<String, List<String>> group : GROUPS.entrySet()) {
            for (String prefix : group.getValue()) {
                if (name != null && name.startsWith(prefix)) {
                    return group.getKey();
                }
            }
        }
        return OTHER;
    }

    /** A thread's nanoseconds on a CPU from its {@code schedstat} line ("ns-on-cpu ns-waiting timeslices"), or -1. */
    static long onCpuNanos(String schedstat) {
        String text = schedstat.strip();
        int space = text.indexOf(' ');
        try {
            return Long.parseLong(space < 0 ? text : text.substring(0, space));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Reads every thread's CPU; a thread first seen after the start began the span at 0. */
    private void sample(boolean start) {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                String tid = task.getFileName().toString();
                long cpu;
                try {
                    cpu = onCpuNanos(Files.readString(task.resolve("schedstat")));
                } catch (IOException e) {
                    continue; // the thread ended between the listing and the read
                }
                if (cpu < 0) {
                    continue;
                }
                synchronized (this) {
                    long[] span = firstAndLast.get(tid);
                    if (span != null && cpu < span[1]) {
                        // the id was given to a new thread: bank the old one's CPU under its group and start again
                        banked.merge(groupOf(tid), span[1] - span[0], Long::sum);
                        names.remove(tid);
                        span = null;
                    }
                    if (span == null) {
                        firstAndLast.put(tid, new long[] {start ? cpu : 0, cpu});
                    } else {
                        span[1] = cpu;
                    }
                }
                if (!names.containsKey(tid)) {
                    try {
                        String name = Files.readString(task.resolve("comm")).strip();
                        synchronized (this) {
                            names.put(tid, name);
                        }
                    } catch (IOException e) {
                        // ended: its CPU stays under "other threads"
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc: nothing is sampled and stop() reports nothing
        }
    }

    /** This thread's task id: {@code /proc/thread-self} links to {@code PID/task/TID}. */
    private static String threadSelfTid() {
        try {
            return Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** This process's CPU time, all threads, or -1 where the JVM cannot say. */
    static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }
}
