package io.landingledger.lambda;


import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.logging.log4j.LogManager;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Where a handler's init goes, step by step, in the order a {@link DependencyFactory} takes them: run in a fresh JVM
 * on the shaded jar (plus the test classes), with the environment {@code landing bench --cold-start} gives a function,
 * e.g.
 * <pre>
 * env -i AWS_REGION=eu-west-1 AWS_ACCESS_KEY_ID=x AWS_SECRET_ACCESS_KEY=y AWS_ENDPOINT_URL=http://127.0.0.1:9 \
 *     INBOX_BUCKET=i LAKE_BUCKET=l LEDGER_TABLE=t LEDGER_HISTORY_TABLE=h \
 *     $JAVA_HOME/bin/java -XX:+TieredCompilation -XX:TieredStopAtLevel=1 \
 *     -cp functions/lambda/target/landing-functions.jar:functions/lambda/target/test-classes io.landingledger.lambda.InitStepsProbe
 * </pre>
 * A step's figure includes the classes it is the first to load (the first SDK client pays for what the second
 * shares). Prints one line per step: wall ms and this thread's CPU ms.
 */
public final class InitStepsProbe {
    private final List<String> lines = new ArrayList<>();
    private long wall = System.nanoTime();
    private long cpu = cpuNanos();

    private InitStepsProbe() {
    }

    public static void main(String[] args) {
        long mainEntered = System.currentTimeMillis();
        InitStepsProbe steps = new InitStepsProbe();
        FunctionConfig config = FunctionConfig.fromEnvironment(System.getenv());
        steps.done("FunctionConfig.fromEnvironment");
        LogManager.getLogger(InitStepsProbe.class);
        steps.done("log4j2 configured (first getLogger)");
        S3Client s3 = DependencyFactory.s3Client(config.aws());
        steps.done("S3 client");
        DynamoDbClient dynamoDb = DependencyFactory.dynamoDbClient(config.aws());
        steps.done("DynamoDB client");
        // no contract is read at init: the functions read the contract store on first use, through their cache
        DatasetMetrics.toStandardOutput();
        steps.done("EMF metrics");
        DependencyFactory factory = DependencyFactory.create(config);
        steps.done("the rest of DependencyFactory.create");
        factory.sweepThrough("arn:aws:lambda:eu-west-1:123456789012:function:v:live");
        steps.done("sweep with its Lambda client");
        long ready = System.currentTimeMillis();
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
        steps.lines.forEach(System.out::println);
        System.out.printf(Locale.ROOT, "JVM start to main %d ms, to the end of the steps %d ms, %d classes%n", mainEntered - jvmStart,
                ready - jvmStart, ManagementFactory.getClassLoadingMXBean().getLoadedClassCount());
        System.exit(s3 != null && dynamoDb != null ? 0 : 1);
    }

    private void done(String step) {
        long nowWall = System.nanoTime();
        long nowCpu = cpuNanos();
        lines.add(String.format(Locale.ROOT, "%-40s %6.0f ms wall %6.0f ms cpu", step, (nowWall - wall) / 1e6, (nowCpu - cpu) / 1e6));
        wall = nowWall;
        cpu = nowCpu;
    }

    private static long cpuNanos() {
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }
}
