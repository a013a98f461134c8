package io.landingledger.tools.bench;

import java.lang.management.ManagementFactory;

/**
 * The main class of one cold-start run ({@link ColdStartStage}): a fresh JVM whose classpath is the functions' shaded
 * jar plus this one class. It loads the handler class named by its argument and calls its no-argument constructor,
 * as the Lambda runtime does at init, then prints one line: {@code ready_ms} from JVM start
 * ({@code RuntimeMXBean.getStartTime()}) to the constructor's return, {@code main_ms} from JVM start to this
 * {@code main}, the process's CPU time (all threads, JIT and GC included; -1 where the JVM cannot tell) and the
 * classes loaded by then (both read just after the clock, so they include the few management classes that read them).
 *
 * <p>JDK classes only, and no nested classes: the stage copies this single class file into a jar of its own, so nothing
 * of the cli (which holds its own copy of the SDK) is on the child's classpath.
 */
public final class ColdStartProbe {
    /** The prefix of the one line the probe prints on stdout. */
    static final String READY = "cold-start ";

    private ColdStartProbe() {
    }

    public static void main(String[] args) throws ReflectiveOperationException {
        long mainEntered = System.currentTimeMillis();
        Class<?> handler = Class.forName(args[0], true, ColdStartProbe.class.getClassLoader());
        Object instance = handler.getConstructor().newInstance();
        long ready = System.currentTimeMillis();
        // read after the clock: the management classes load here, outside the measured time
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        int classes = ManagementFactory.getClassLoadingMXBean().getLoadedClassCount();
        long cpuNanos = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1_000_000;
        System.out.println(READY + "ready_ms=" + (ready - jvmStart) + " main_ms=" + (mainEntered - jvmStart)
                + " cpu_ms=" + cpuNanos / 1_000_000 + " classes=" + classes + " handler=" + instance.getClass().getName());
        System.out.flush();
        // a handler may hold non-daemon threads (an SDK client's); the function would now wait for its first event
        System.exit(0);
    }
}
