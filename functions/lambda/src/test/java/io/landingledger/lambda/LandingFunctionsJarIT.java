package io.landingledger.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The shared Lambda jar (built by the shade plugin in {@code package}, before failsafe runs this) holds what the
 * functions need and nothing the tests or other HTTP clients bring.
 */
class LandingFunctionsJarIT {
    private static final Path JAR = Path.of("target", "landing-functions.jar");

    /** Packages that must never reach the Lambda jar: emulators, test libraries, unused HTTP clients. */
    private static final List<String> FORBIDDEN = List.of(
            "org/gaul/",                                   // S3Proxy
            "org/eclipse/jetty/",                          // S3Proxy's server
            "ch/qos/logback/",                             // S3Proxy's logging
            "tools/jackson/",                              // Jackson 3, for S3Proxy
            "com/fasterxml/jackson/databind/",             // the core streams with jackson-core only
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
                    "org/joda/time/DateTime.class")) {
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
                "--missing-deps", "-include", "io\\.landingledger\\..*|com\\.amazonaws\\..*",
                "-cp", JAR.toString(), JAR.toString());

        String missing = out.toString().lines()
                .filter(line -> line.startsWith(" ") && line.endsWith("not found"))
                .collect(Collectors.joining("\n"));
        assertEquals(0, status, out.toString());
        assertEquals("", missing, "classes referenced but not in " + JAR + " (add an include to the shade filter in "
                + "functions/lambda/pom.xml)");
    }
}
