package io.landingledger.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.jr.ob.JSON;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import io.landingledger.lambda.adapters.SqsTableQueue;
import io.landingledger.lambda.testing.AwsEmulators;
import io.landingledger.lambda.testing.TestResources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The shared Lambda jar (built by the shade plugin in {@code package}, before failsafe runs this) holds what the
 * functions need and nothing the tests or other HTTP clients bring, and its logging and metrics work when it runs on
 * its own (a child JVM, as Lambda runs it).
 */
class LandingFunctionsJarIT {
    private static final Path JAR = Path.of("target", "landing-functions.jar");

    @RegisterExtension
    static final AwsEmulators aws = new AwsEmulators();

    /** Packages that must never reach the Lambda jar: emulators, test libraries, unused HTTP clients. */
    private static final List<String> FORBIDDEN = List.of(
            "org/gaul/",                                   // S3Proxy
            "org/eclipse/jetty/",                          // S3Proxy's server
            "ch/qos/logback/",                             // S3Proxy's logging
            "tools/jackson/",                              // Jackson 3, for S3Proxy
            // jackson-databind is in: aws-embedded-metrics serializes with it (the core streams with jackson-core)
            "com/fasterxml/jackson/datatype/",             // jsr310: excluded, no class of ours or EMF's uses it
            "META-INF/services/javax.annotation.processing.Processor", // log4j-core's annotation processor
            "org/junit/",
            "com/amazonaws/services/lambda/runtime/tests/", // aws-lambda-java-tests
            "io/landingledger/lambda/testing/",
            "io/netty/",
            "software/amazon/awssdk/http/nio/netty/",
            "org/apache/http/",
            "org/apache/hc/",
            "software/amazon/awssdk/http/apache/",
            "software/amazon/awssdk/http/apache5/");

    @Test
    void jar_containsNoTestEmulatorOrUnusedHttpClientClasses() throws IOException {
        List<String> found;
        try (JarFile jar = new JarFile(JAR.toFile())) {
            found = jar.stream().map(entry -> entry.getName())
                    .filter(name -> FORBIDDEN.stream().anyMatch(name::startsWith))
                    .limit(20)
                    .toList();
        }

        assertEquals(List.of(), found);
    }

    @Test
    void jar_containsTheFunctionsAndTheirRuntime() throws IOException {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            for (String required : List.of(
                    "io/landingledger/lambda/DependencyFactory.class",
                    "io/landingledger/lambda/FunctionConfig.class",
                    "software/amazon/awssdk/http/urlconnection/UrlConnectionHttpClient.class",
                    "software/amazon/awssdk/services/s3/S3Client.class",
                    "software/amazon/awssdk/services/dynamodb/DynamoDbClient.class",
                    "com/amazonaws/services/lambda/runtime/RequestHandler.class",
                    "com/amazonaws/services/lambda/runtime/events/S3Event.class",
                    "org/joda/time/DateTime.class",
                    // observability: log4j with JsonTemplateLayout, the SLF4J provider, EMF
                    "log4j2.properties",
                    "LandingLogLayout.json",
                    "META-INF/org/apache/logging/log4j/core/config/plugins/Log4j2Plugins.dat",
                    "org/apache/logging/log4j/core/appender/ConsoleAppender.class",
                    "org/apache/logging/log4j/layout/template/json/JsonTemplateLayout.class",
                    "META-INF/services/org.slf4j.spi.SLF4JServiceProvider",
                    "software/amazon/cloudwatchlogs/emf/logger/MetricsLogger.class",
                    "com/fasterxml/jackson/databind/ObjectMapper.class")) {
                assertTrue(jar.getEntry(required) != null, required + " is missing from " + JAR);
            }
            assertEquals("true", jar.getManifest().getMainAttributes().getValue("Multi-Release"));
        }
    }

    @Test
    void jar_resolvesEveryClassTheFunctionsReference() {
        // The shade filters keep only part of some libraries (S3's events, commons-codec without its phonetic
        // encoders): jdeps proves that no class of ours or of the kept events refers to one that was left out.
        assertTrue(Files.isRegularFile(JAR), JAR + " is missing: run `mvn verify`, which packages it first");
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        int status = jdeps.run(new PrintWriter(out), new PrintWriter(out), "--multi-release", "21",
                "--missing-deps", "-include", "io\\.landingledger\\..*|com\\.amazonaws\\..*|software\\.amazon\\.cloudwatchlogs\\..*",
                "-cp", JAR.toString(), JAR.toString());

        // Joda-Time's @FromString/@ToString (joda-convert) are annotations the JVM skips when absent: the serializers'
        // shaded Joda-Time (aws-lambda-java-serialization) names them and never needs them.
        String missing = out.toString().lines()
                .filter(line -> line.startsWith(" ") && line.endsWith("not found"))
                .filter(line -> !line.contains("-> org.joda.convert."))
                .collect(Collectors.joining("\n"));
        assertEquals(0, status, out.toString());
        assertEquals("", missing, "classes referenced but not in " + JAR + " (add an include to the shade filter in "
                + "functions/lambda/pom.xml)");
    }

    @Test
    void jar_writesJsonLogLinesAndEmfDocumentsWithItsOwnConfiguration() throws Exception {
        // In a child JVM on the jar alone: the shaded log4j must find its configuration, the JsonTemplateLayout and
        // the Console appender through the merged plugin cache, and SLF4J must find log4j as its provider.
        Run run = runProbe(Map.of());

        assertEquals(List.of(), run.stderrOtherThanTimings(), "log4j status messages or SLF4J warnings on stderr");
        Map<String, Object> published = run.logLine("outcome", "published");
        assertEquals("INFO", published.get("level"));
        for (String field : List.of("dataset", "unit", "key", "version", "sha256", "bytes", "accepted", "rejected",
                "duplicates", "run_id", "run_kind", "duration_ms")) {
            assertTrue(published.containsKey(field), field + " missing from " + published);
        }
        assertEquals("WARN", run.logLine("outcome", "refused").get("level"));
        assertEquals("WARN", run.logLine("unroutable", "unroutable").get("level"));
        Map<String, Object> sdk = run.logLine("sdk warning", null);
        assertEquals("software.amazon.awssdk.probe", sdk.get("logger"));
        assertEquals("WARN", sdk.get("level"));
        assertTrue(run.stdout().stream().noneMatch(line -> line.contains("sdk info")), "the SDK logs at WARN only");

        List<Map<String, Object>> documents = run.emfDocuments();
        assertEquals(List.of("progress_events", "progress_events", "unroutable"),
                documents.stream().map(document -> document.get("dataset")).toList());
        assertEquals(1.0, documents.get(0).get("FilesPublished"));
        assertEquals(1.0, documents.get(1).get("FilesRefused"));
        assertEquals(1.0, documents.get(2).get("FilesUnroutable"));
        System.out.println("child JVM on " + JAR + ": " + run.timings());
    }

    @Test
    void jar_logLevelFollowsAwsLambdaLogLevel() throws Exception {
        Run run = runProbe(Map.of("AWS_LAMBDA_LOG_LEVEL", "WARN"));

        assertEquals(List.of(), run.stderrOtherThanTimings());
        assertTrue(run.logLines().stream().noneMatch(line -> "published".equals(line.get("action"))),
                "the INFO outcome line is below WARN: " + run.stdout());
        assertEquals("WARN", run.logLine("outcome", "refused").get("level"));
        assertEquals(3, run.emfDocuments().size(), "metrics do not depend on the log level");
    }

    @Test
    void jar_runsEveryHandlerAsTheRuntimeDoes() throws Exception {
        // The jar is minimised (shade's minimizeJar): each handler, built by its no-argument constructor from the
        // environment and invoked once against the emulators, must find every class it loads, by reference or by name.
        TestResources resources = aws.freshResources();
        String key = "progress_events/progress-2026-03-02.jsonl";
        byte[] body = Files.readAllBytes(Path.of("..", "..", "examples", "inbox", key));
        PutObjectResponse put = aws.s3().putObject(r -> r.bucket(resources.inboxBucket()).key(key), RequestBody.fromBytes(body));
        // the datasets, registered in the stack's contract store as an operator registers them (the jar holds none it reads)
        io.landingledger.core.contract.ContractRegistrar operator = new io.landingledger.core.contract.ContractRegistrar(
                new io.landingledger.lambda.adapters.S3ContractStore(aws.s3(), resources.lakeBucket()), java.time.Clock.systemUTC());
        for (String dataset : List.of("progress_events", "transactions")) {
            Path contract = Path.of("..", "..", "datasets", dataset + ".json");
            operator.add(contract.toString(), Files.readAllBytes(contract), "LandingFunctionsJarIT", false);
        }
        Map<String, String> environment = new java.util.HashMap<>(Map.of(
                FunctionConfig.INBOX_BUCKET, resources.inboxBucket(),
                FunctionConfig.LAKE_BUCKET, resources.lakeBucket(),
                FunctionConfig.LEDGER_TABLE, resources.ledgerTable(),
                FunctionConfig.LEDGER_HISTORY_TABLE, resources.ledgerHistoryTable(),
                FunctionConfig.AWS_REGION, aws.connection().region().id()));
        environment.put(FunctionConfig.LANDING_S3_ENDPOINT, aws.connection().s3Endpoint().orElseThrow().toString());
        environment.put(FunctionConfig.LANDING_DYNAMODB_ENDPOINT, aws.connection().dynamoDbEndpoint().orElseThrow().toString());
        // the table enqueue function's FIFO queue, in moto (its SQS client follows the stack's endpoint override)
        URI moto = aws.connection().dynamoDbEndpoint().orElseThrow();
        try (SqsClient queues = SqsClient.builder().region(aws.connection().region())
                .credentialsProvider(StaticCredentialsProvider.create(AwsConnection.EMULATOR_CREDENTIALS))
                .endpointOverride(moto).httpClientBuilder(UrlConnectionHttpClient.builder()).build()) {
            String queueName = "jar-probe-table-commits-" + UUID.randomUUID().toString().substring(0, 8) + ".fifo";
            environment.put(SqsTableQueue.QUEUE_URL, queues.createQueue(r -> r.queueName(queueName).attributesWithStrings(
                    Map.of("FifoQueue", "true", "ContentBasedDeduplication", "false"))).queueUrl());
        }
        environment.put(FunctionConfig.LANDING_LAMBDA_ENDPOINT, moto.toString());

        Run run = runProbe(HandlerJarProbe.class, environment, resources.inboxBucket(), key, put.versionId(), put.eTag(),
                Long.toString(body.length), "2026-03-02");

        assertEquals(List.of(), run.stderr().stream().filter(line -> !line.startsWith("probe ")).toList(), "errors or warnings");
        assertTrue(run.stderrLine("ValidateObjectHandler").contains("action=published"), run.stderr()::toString);
        assertTrue(run.stderrLine("CompletenessSweepHandler").contains("complete=true"), run.stderr()::toString);
        assertTrue(run.stderrLine("RepairHandler").contains("2026-03-02"), run.stderr()::toString);
        assertTrue(run.stderrLine("TableEnqueueHandler").contains("queued=[progress_events/2026-03-02]"), run.stderr()::toString);
        assertEquals("published", run.logLine("outcome", "published").get("action"));
    }

    private static Run runProbe(Map<String, String> environment) throws IOException, InterruptedException {
        return runProbe(ReporterJarProbe.class, environment);
    }

    private static Run runProbe(Class<?> probe, Map<String, String> environment, String... arguments)
            throws IOException, InterruptedException {
        assertTrue(Files.isRegularFile(JAR), JAR + " is missing: run `mvn verify`, which packages it first");
        String javaExecutable = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = JAR + File.pathSeparator + Path.of("target", "test-classes");
        List<String> command = new ArrayList<>(List.of(javaExecutable, "-cp", classpath, probe.getName()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command);
        // only what Lambda would set: no log level or log4j override from the machine running the build
        builder.environment().keySet().removeIf(name -> name.startsWith("LOG4J") || name.startsWith("AWS_"));
        builder.environment().putAll(environment);
        Path stdout = Files.createTempFile("probe", ".out");
        Path stderr = Files.createTempFile("probe", ".err");
        try {
            Process process = builder.redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError("the probe did not finish within 2 minutes");
            }
            Run run = new Run(Files.readAllLines(stdout), Files.readAllLines(stderr));
            assertEquals(0, process.exitValue(), "probe failed: " + run);
            return run;
        } finally {
            Files.deleteIfExists(stdout);
            Files.deleteIfExists(stderr);
        }
    }

    /** What the probe printed: JSON log lines and EMF documents on stdout, its timings on stderr. */
    private record Run(List<String> stdout, List<String> stderr) {
        List<Map<String, Object>> json() throws IOException {
            List<Map<String, Object>> parsed = new ArrayList<>();
            for (String line : stdout) {
                parsed.add(JSON.std.mapFrom(line)); // every stdout line is one JSON object
            }
            return parsed;
        }

        List<Map<String, Object>> logLines() throws IOException {
            return json().stream().filter(line -> line.containsKey("level")).toList();
        }

        List<Map<String, Object>> emfDocuments() throws IOException {
            return json().stream().filter(line -> line.containsKey("_aws")).toList();
        }

        Map<String, Object> logLine(String message, String action) throws IOException {
            return logLines().stream()
                    .filter(line -> message.equals(line.get("message")) && (action == null || action.equals(line.get("action"))))
                    .findFirst().orElseThrow(() -> new AssertionError("no log line " + message + "/" + action + " in " + stdout));
        }

        List<String> stderrOtherThanTimings() {
            return stderr.stream().filter(line -> !line.startsWith("probe ")).toList();
        }

        String stderrLine(String handler) {
            return stderr.stream().filter(line -> line.startsWith("probe " + handler + " ")).findFirst()
                    .orElseThrow(() -> new AssertionError("the probe did not run " + handler + ": " + stderr));
        }

        String timings() {
            return String.join(" ", stderr);
        }
    }
}
