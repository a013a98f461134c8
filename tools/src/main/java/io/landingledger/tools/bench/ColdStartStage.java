package io.landingledger.tools.bench;

import static io.landingledger.tools.bench.FigureMath.median;

import io.landingledger.lambda.FunctionConfig;
import io.landingledger.lambda.handlers.CompletenessSweepHandler;
import io.landingledger.lambda.handlers.RepairHandler;
import io.landingledger.lambda.handlers.ValidateObjectHandler;

import picocli.CommandLine.Option;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code landing bench --cold-start}: the functions' init as Lambda runs it without SnapStart. Each run is a fresh
 * JVM on the shaded {@code landing-functions.jar} with the JIT flags of Lambda's java21 runtime and the environment
 * infra/template.yaml and the runtime set; {@link ColdStartProbe} constructs one handler as the runtime does and
 * reports the milliseconds from JVM start to the constructor's return (SDK clients built, logging
 * configured). Runs are interleaved across the three handlers; the table shows each handler's median.
 *
 * <p>Not measured: the Lambda runtime client's own start before it loads the handler, and the deployment package
 * being a directory there (Lambda unzips the jar into /var/task) rather than a jar.
 */
final class ColdStartStage {
    /** The target, JVM start to handler ready, without SnapStart. */
    static final long TARGET_MS = 1_500;
    /** What Lambda's java21 runtime starts the JVM with (tiered compilation stopping at C1). */
    static final List<String> LAMBDA_JIT_OPTIONS = List.of("-XX:+TieredCompilation", "-XX:TieredStopAtLevel=1");
    static final List<String> HANDLERS = List.of(ValidateObjectHandler.class.getName(),
            CompletenessSweepHandler.class.getName(), RepairHandler.class.getName());
    private static final Pattern READY = Pattern.compile(Pattern.quote(ColdStartProbe.READY)
            + "ready_ms=(\\d+) main_ms=(\\d+) cpu_ms=(-?\\d+) classes=(\\d+) handler=(\\S+)");

    /** The options of {@code landing bench} that select and shape this stage. */
    static final class Options {
        @Option(names = "--cold-start", description = {"Measure the functions' cold start instead: JVM start to handler ready,",
                "each handler in fresh JVMs on the shaded jar, as Lambda starts it without SnapStart."})
        boolean enabled;

        @Option(names = "--cold-start-runs", paramLabel = "N", description = "JVMs per handler for --cold-start (default: ${DEFAULT-VALUE}).")
        int runs = 5;

        @Option(names = "--cold-start-java-option", paramLabel = "OPTION",
                description = {"One more JVM option for the --cold-start runs (repeatable), e.g. to try an AppCDS archive:",
                        "--cold-start-java-option=-XX:+AutoCreateSharedArchive --cold-start-java-option=-XX:SharedArchiveFile=/tmp/landing.jsa"})
        List<String> javaOptions = new ArrayList<>();

        @Option(names = "--functions-jar", paramLabel = "JAR",
                description = "The shaded jar --cold-start runs (default: ${DEFAULT-VALUE}, which ./landing builds).")
        Path jar = Path.of("functions", "lambda", "target", "landing-functions.jar");
    }

    /** One JVM's figures: ms from JVM start to the probe's main and to the handler's constructor returning. */
    record Run(String handler, long readyMs, long mainMs, long cpuMs, int classes) {
        long initMs() {
            return readyMs - mainMs;
        }
    }

    private final Options options;
    private final PrintStream err;

    ColdStartStage(Options options, PrintStream err) {
        this.options = options;
        this.err = err;
    }

    /** Runs {@code runs} JVMs per handler, interleaved, and returns every run in order. */
    List<Run> measure() throws IOException {
        if (options.runs < 1) {
            throw new IllegalArgumentException("--cold-start-runs must be at least 1, not " + options.runs);
        }
        if (!Files.isRegularFile(options.jar)) {
            throw new IllegalArgumentException(options.jar + " is missing; build it with `mvn -B package -pl functions/lambda -am"
                    + " -DskipTests` (./landing builds it with the cli), or name it with --functions-jar");
        }
        Path probeJar = writeProbeJar();
        List<Run> runs = new ArrayList<>();
        for (int round = 1; round <= options.runs; round++) {
            for (String handler : HANDLERS) {
                Run run = runOnce(handler, probeJar);
                err.printf(Locale.ROOT, "landing bench: cold start %d/%d %-24s ready %5d ms (JVM to main %d ms, cpu %d ms)%n", round,
                        options.runs, simpleName(handler), run.readyMs(), run.mainMs(), run.cpuMs());
                runs.add(run);
            }
        }
        return runs;
    }

    /** The child JVM's command line: Lambda's JIT flags, any --cold-start-java-option, the jar, then the probe's jar. */
    List<String> command(String handler, Path probeJar) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(LAMBDA_JIT_OPTIONS);
        command.addAll(options.javaOptions);
        command.add("-cp");
        command.add(options.jar + File.pathSeparator + probeJar);
        command.add(ColdStartProbe.class.getName());
        command.add(handler);
        return command;
    }

    /**
     * What the function's JVM finds in its environment: the template's variables, what the Lambda runtime sets (the
     * execution role's credentials, here fake ones) and nothing inherited from this shell. Every SDK client is
     * pointed at a local port through {@code AWS_ENDPOINT_URL}, so a call made at init could not leave the machine.
     */
    static Map<String, String> lambdaEnvironment(String handler) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put(FunctionConfig.INBOX_BUCKET, "landing-prod-inbox-123456789012-eu-west-1");
        env.put(FunctionConfig.LAKE_BUCKET, "landing-prod-lake");
        env.put(FunctionConfig.LEDGER_TABLE, "landing-prod-ledger");
        env.put(FunctionConfig.LEDGER_HISTORY_TABLE, "landing-prod-ledger-history");
        if (handler.equals(CompletenessSweepHandler.class.getName())) {
            env.put(FunctionConfig.VALIDATOR_FUNCTION, "arn:aws:lambda:eu-west-1:123456789012:function:landing-prod-validator:live");
        }
        env.put(FunctionConfig.AWS_REGION, "eu-west-1");
        env.put("AWS_DEFAULT_REGION", "eu-west-1");
        env.put("AWS_ACCESS_KEY_ID", "ASIACOLDSTARTPROBE00");
        env.put("AWS_SECRET_ACCESS_KEY", "cold-start-probe-secret-not-a-real-one");
        env.put("AWS_SESSION_TOKEN", "cold-start-probe-token");
        env.put("AWS_EXECUTION_ENV", "AWS_Lambda_java21");
        env.put("AWS_LAMBDA_FUNCTION_NAME", "landing-prod-" + simpleName(handler));
        env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "2048");
        env.put("AWS_LAMBDA_FUNCTION_VERSION", "1");
        env.put("AWS_LAMBDA_LOG_FORMAT", "JSON");
        env.put("TZ", ":UTC");
        env.put("AWS_ENDPOINT_URL", "http://127.0.0.1:9");
        return env;
    }

    private Run runOnce(String handler, Path probeJar) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command(handler, probeJar)).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(lambdaEnvironment(handler));
        Process process = builder.start();
        String output;
        try (InputStream in = process.getInputStream()) {
            output = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IOException(simpleName(handler) + " was not ready within 2 minutes");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted while " + simpleName(handler) + " started", e);
        }
        Matcher ready = READY.matcher(output);
        if (process.exitValue() != 0 || !ready.find()) {
            throw new IOException(simpleName(handler) + " did not become ready (exit " + process.exitValue() + "):\n" + output.strip());
        }
        if (!ready.group(5).equals(handler)) {
            throw new IOException("the probe constructed " + ready.group(5) + ", not " + handler);
        }
        return new Run(handler, Long.parseLong(ready.group(1)), Long.parseLong(ready.group(2)), Long.parseLong(ready.group(3)),
                Integer.parseInt(ready.group(4)));
    }

    /**
     * Copies the probe's class file out of this jar into a jar of its own, so the child's classpath is the functions'
     * jar and one class. A jar, at a fixed path, rewritten only when its bytes change: a CDS archive accepts only jars
     * on the classpath, and only the same ones (path, size and time) as when it was made.
     */
    private static Path writeProbeJar() throws IOException {
        String resource = ColdStartProbe.class.getName().replace('.', '/') + ".class";
        byte[] probe;
        try (InputStream in = ColdStartProbe.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException(resource + " is not on the classpath");
            }
            probe = in.readAllBytes();
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.util.jar.JarOutputStream jar = new java.util.jar.JarOutputStream(bytes)) {
            java.util.jar.JarEntry entry = new java.util.jar.JarEntry(resource);
            entry.setTime(0);
            jar.putNextEntry(entry);
            jar.write(probe);
            jar.closeEntry();
        }
        Path target = Path.of(System.getProperty("java.io.tmpdir"), "landing-cold-start-probe.jar");
        if (!Files.isRegularFile(target) || !java.util.Arrays.equals(Files.readAllBytes(target), bytes.toByteArray())) {
            Files.write(target, bytes.toByteArray());
        }
        return target;
    }

    /** Prints one row per handler (medians over its runs) and whether each meets {@link #TARGET_MS}. */
    void printTable(List<Run> runs, PrintStream out) throws IOException {
        List<String> jvmOptions = new ArrayList<>(LAMBDA_JIT_OPTIONS);
        jvmOptions.addAll(options.javaOptions);
        out.printf(Locale.ROOT, "cold start  %s (%,d bytes), %d JVM(s) per handler, %s, %s%n", options.jar, Files.size(options.jar),
                options.runs, String.join(" ", jvmOptions), "java " + System.getProperty("java.version"));
        out.printf(Locale.ROOT, "%-26s %14s %9s %9s %16s %14s %13s %8s%n", "handler", "ready median", "min", "max", "JVM to main med.",
                "init median", "cpu median", "classes");
        boolean met = true;
        for (String handler : HANDLERS) {
            List<Run> mine = runs.stream().filter(r -> r.handler().equals(handler)).toList();
            long ready = median(mine.stream().mapToLong(Run::readyMs).toArray());
            met &= ready < TARGET_MS;
            out.printf(Locale.ROOT, "%-26s %11d ms %6d ms %6d ms %13d ms %11d ms %10d ms %8d%n", simpleName(handler), ready,
                    mine.stream().mapToLong(Run::readyMs).min().orElseThrow(), mine.stream().mapToLong(Run::readyMs).max().orElseThrow(),
                    median(mine.stream().mapToLong(Run::mainMs).toArray()), median(mine.stream().mapToLong(Run::initMs).toArray()),
                    median(mine.stream().mapToLong(Run::cpuMs).toArray()), (int) median(mine.stream().mapToLong(Run::classes).toArray()));
        }
        out.printf(Locale.ROOT, "(ready: JVM start to the handler's constructor returned; init: ready minus JVM to main; cpu: the"
                + " JVM's CPU time by then, all threads, which other load on the machine does not inflate; classes: loaded by then.) Target %d ms: %s%n", TARGET_MS, met ? "met by every handler" : "NOT met");
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
