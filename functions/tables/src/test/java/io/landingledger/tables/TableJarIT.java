package io.landingledger.tables;

import io.landingledger.core.testing.TestContracts;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The two artifacts: the table writer's shaded jar holds what the writer loads and nothing of the tests, and the
 * validator's jar (landing-functions.jar, built before this module) holds nothing of Iceberg, Parquet or Hadoop. The
 * writer's jar is proven by running it: a fresh JVM with only the jar (the classes that drive it and the test catalog's
 * sqlite driver beside it) writes and commits two units to S3 through S3FileIO, and never loads Hadoop's user-group
 * code (which JDK 24+ refuses).
 */
class TableJarIT {
    private static final Path TABLES_JAR = Path.of("target", "landing-tables.jar");
    private static final Path FUNCTIONS_JAR = Path.of("..", "lambda", "target", "landing-functions.jar");

    private static List<String> entries(Path jar) throws Exception {
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.stream().map(e -> e.getName()).toList();
        }
    }

    /** The sqlite JDBC driver's jar from this JVM's class path: the test catalog's, never the function's. */
    private static String sqliteDriver() {
        return java.util.Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(p -> p.contains("sqlite-jdbc")).findFirst().orElseThrow();
    }

    @Test
    void theWritersJarHoldsTheWriterAndNothingOfTheTests() throws Exception {
        assertTrue(Files.isRegularFile(TABLES_JAR), "mvn package builds " + TABLES_JAR);
        List<String> entries = entries(TABLES_JAR);

        for (String needed : List.of("io/landingledger/tables/TableWriterHandler.class",
                "org/apache/iceberg/aws/s3/S3FileIO.class", "org/apache/iceberg/rest/RESTCatalog.class",
                "org/apache/iceberg/aws/RESTSigV4AuthManager.class", "org/apache/hadoop/conf/Configuration.class",
                "core-default.xml", "linux/amd64/libzstd-jni-1.5.7-3.so", "linux/aarch64/libzstd-jni-1.5.7-3.so")) {
            assertTrue(entries.contains(needed), needed);
        }
        for (String prefix : List.of("org/gaul/", "org/duckdb/", "org/sqlite/", "org/junit/", "org/eclipse/jetty/",
                "io/landingledger/localcloud/", "darwin/", "win/", "org/xerial/snappy/native/Mac/")) {
            assertFalse(entries.stream().anyMatch(e -> e.startsWith(prefix)), prefix);
        }
        System.out.printf("landing-tables.jar %,d bytes, %,d entries%n", Files.size(TABLES_JAR), entries.size());
    }

    @Test
    void theValidatorsJarHoldsNoIcebergParquetOrHadoop() throws Exception {
        assumeTrue(Files.isRegularFile(FUNCTIONS_JAR), "functions/lambda is packaged first in the reactor");
        List<String> heavy = entries(FUNCTIONS_JAR).stream().filter(e -> e.startsWith("org/apache/iceberg/")
                || e.startsWith("org/apache/parquet/") || e.startsWith("org/apache/hadoop/")).toList();

        assertEquals(List.of(), heavy);
        System.out.printf("landing-functions.jar %,d bytes%n", Files.size(FUNCTIONS_JAR));
    }

    @Test
    void aFreshJvmWithOnlyTheJarWritesAndCommitsWithoutHadoopsUserGroupCode(@TempDir Path directory) throws Exception {
        assertTrue(Files.isRegularFile(TABLES_JAR), "mvn package builds " + TABLES_JAR);
        Path classes = Path.of("target", "test-classes");
        Path log = directory.resolve("classes.log");
        try (S3ProxyLake lake = S3ProxyLake.start()) {
            String javaBinary = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = new ArrayList<>(List.of(javaBinary,
                    "-Xlog:class+load=info:file=" + log, "--enable-native-access=ALL-UNNAMED",
                    "-XX:TieredStopAtLevel=1", // Lambda's java21 runtime runs C1 only
                    "-cp", TABLES_JAR.toAbsolutePath() + File.pathSeparator + directory.resolve("cold")
                            + File.pathSeparator + sqliteDriver(),
                    TableWriterColdStart.class.getName(), lake.endpoint.toString(),
                    TestContracts.DATASETS.resolve("transactions.json").toAbsolutePath().toString(),
                    directory.resolve("catalog.db").toString()));
            // only the two classes that drive the jar, copied apart from the rest of the test classes
            Path cold = Files.createDirectories(directory.resolve("cold/io/landingledger/tables"));
            for (String name : List.of("TableWriterColdStart", "TransactionLines")) {
                Files.copy(classes.resolve("io/landingledger/tables/" + name + ".class"), cold.resolve(name + ".class"),
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the child JVM ends");
            assertEquals(0, child.exitValue(), output);
            System.out.print(output);
            assertTrue(output.contains("rows 1000 1000"), output);
            assertTrue(output.contains("handler answered {\"batchItemFailures\":[]}"), output);
        }
        List<String> loaded = Files.readAllLines(log);
        assertTrue(loaded.stream().anyMatch(l -> l.contains("org.apache.iceberg.aws.s3.S3FileIO ")), "the log is read");
        assertEquals("", loaded.stream().filter(l -> l.contains("org.apache.hadoop.security.UserGroupInformation"))
                .collect(Collectors.joining("\n")));
    }
}
