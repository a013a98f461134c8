package io.landingledger.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code landing bench --cold-start} on the shaded jar the reactor packaged before this module's tests: each handler
 * becomes ready in a fresh JVM and the table reports it. Its figures are not asserted (not a timed test).
 */
class ColdStartStageIT {
    private static final Path JAR = Path.of("..", "functions", "lambda", "target", "landing-functions.jar");

    @Test
    void coldStart_constructsEveryHandlerInAFreshJvm_andReportsItsReadyTime() {
        assertTrue(Files.isRegularFile(JAR), JAR + " is missing: run `mvn verify` from the root, which packages it first");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int exit = PerfTesting.execute(new BenchCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)), "--cold-start", "--cold-start-runs", "1", "--functions-jar", JAR.toString());

        String table = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        for (String handler : List.of("ValidateObjectHandler", "CompletenessSweepHandler", "RepairHandler")) {
            Matcher row = Pattern.compile("(?m)^" + handler + " +(\\d+) ms").matcher(table);
            assertTrue(row.find(), handler + " missing from\n" + table);
            assertTrue(Long.parseLong(row.group(1)) > 0, table);
        }
        assertTrue(table.contains("Target 1500 ms: "), table);
    }

    @Test
    void coldStart_whenTheJarIsMissing_saysHowToBuildIt() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int exit = PerfTesting.execute(new BenchCommand(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)), "--cold-start", "--functions-jar", "no-such.jar");

        assertEquals(BenchCommand.ERROR, exit);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("no-such.jar is missing; build it with"), err::toString);
    }
}
