package io.landingledger.cli.testing;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The repository's {@code ./landing} script run as a user runs it: a child process, stdin closed. */
public final class LandingScript {
    /** The repository: the cli tests run in cli/. */
    public static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private LandingScript() {
    }

    /** {@code ./landing} run from the repository. */
    public static LandingRun landing(String... args) throws Exception {
        return landingIn(ROOT, Map.of(), args);
    }

    /** {@code ./landing} run from {@code directory} (a user's own folder), with {@code env} added to the environment. */
    public static LandingRun landingIn(Path directory, Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ROOT.resolve("landing").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        byte[] err = process.getErrorStream().readAllBytes();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "landing did not finish");
        return new LandingRun(process.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }
}
