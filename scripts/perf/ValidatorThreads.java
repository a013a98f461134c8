import io.landingledger.core.contract.ContractLoader;
import io.landingledger.core.contract.DatasetContract;
import io.landingledger.core.validate.LineSet;
import io.landingledger.core.validate.StreamingValidator;
import io.landingledger.core.validate.ValidationLimits;

import java.io.BufferedInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a validation's CPU goes: the in-order thread (read, SHA-256, line split, decisions, output) against the
 * others (the parse workers, the JIT, the collector), per pass of one file in one JVM. Run from the repository:
 * {@code java -XX:+UseSerialGC -cp cli/target/landing.jar scripts/perf/ValidatorThreads.java FILE WORKERS PASSES}.
 */
public class ValidatorThreads {
    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int workers = Integer.parseInt(args[1]);
        int passes = Integer.parseInt(args[2]);
        DatasetContract contract = ContractLoader.load(Path.of("datasets/progress_events.json"));
        StreamingValidator validator = new StreamingValidator(contract, ValidationLimits.builder().workers(workers).build());
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long size = Files.size(file);
        for (int pass = 1; pass <= passes; pass++) {
            long process = os.getProcessCpuTime();
            long own = threads.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
                validator.validate(in, size, OutputStream.nullOutputStream(), OutputStream.nullOutputStream(), LineSet.empty());
            }
            double wall = (System.nanoTime() - start) / 1e9;
            double inOrder = (threads.getCurrentThreadCpuTime() - own) / 1e9;
            double others = (os.getProcessCpuTime() - process) / 1e9 - inOrder;
            System.out.printf("pass %d, %d workers: %.2f s (%.0f MB/s); in-order thread %.2f s of CPU, other threads %.2f s%n",
                    pass, workers, wall, size / 1e6 / wall, inOrder, others);
        }
    }
}
