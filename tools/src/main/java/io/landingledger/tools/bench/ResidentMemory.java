package io.landingledger.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's resident set, from Linux's {@code /proc/PID/status}: {@code VmRSS} (now) and {@code VmHWM} (the
 * peak). The benchmark reports these rather than the heap because they are what a Lambda's memory setting must hold:
 * heap as committed and touched, thread stacks, the JIT's code, direct buffers. Every figure is -1 where there is no
 * {@code /proc} (not Linux) or the process has ended.
 */
final class ResidentMemory {
    private ResidentMemory() {
    }

    /** Resets this process's peak to its current resident set ({@code clear_refs} 5, Linux 4.0+); false when it cannot. */
    static boolean resetPeak() {
        try {
            Files.writeString(Path.of("/proc/self/clear_refs"), "5");
            return true;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /** This process's peak resident bytes since it started or since {@link #resetPeak}. */
    static long peakBytes() {
        return field("self", "VmHWM:");
    }

    /** This process's resident bytes now. */
    static long currentBytes() {
        return field("self", "VmRSS:");
    }

    /** Another process's peak resident bytes so far (its {@code VmHWM}); -1 once it has ended. */
    static long peakBytes(long pid) {
        return field(Long.toString(pid), "VmHWM:");
    }

    private static long field(String process, String name) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", process, "status"))) {
                if (line.startsWith(name)) {
                    // "VmHWM:	  123456 kB"
                    String value = line.substring(name.length()).trim();
                    return Long.parseLong(value.substring(0, value.indexOf(' '))) * 1024;
                }
            }
            return -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
