package io.landingledger.lambda.testing;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * moto 5's server (the DynamoDB emulator EMULATORS.md picked) as a child process on a free loopback port, started
 * through {@code scripts/moto-server.py}, which serves moto's own application behind one lock: stock
 * {@code moto_server} lets two concurrent TransactWriteItems pass the same condition (measured 2 of 20 rounds of 8
 * writers), which DynamoDB never does and the ledger relies on. Stopped through its own {@link Process} handle.
 */
final class MotoServer implements AutoCloseable {
    /** Overrides the executable looked up on PATH (a virtualenv's moto_server, say). */
    static final String EXECUTABLE_VARIABLE = "LANDING_MOTO_SERVER";
    private static final String EXECUTABLE = "moto_server";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final int PORT_ATTEMPTS = 3;

    private final Process process;
    private final int port;
    private final Path log;
    private final Thread shutdownHook;

    private MotoServer(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
        // Belt and braces: if the JVM exits without closing the JUnit store, do not leave moto_server behind.
        this.shutdownHook = new Thread(this::stopProcess, "moto_server-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts moto_server and returns once its port answers. */
    static MotoServer start() throws IOException, InterruptedException {
        Path executable = findExecutable();
        IOException last = null;
        for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
            // The free port can be taken between closing the probe socket and moto binding it: try another.
            int port = freeLoopbackPort();
            Path log = Files.createTempFile("moto_server-" + port + "-", ".log");
            Process process = new ProcessBuilder(command(executable, port))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            try {
                awaitPort(process, port, log);
                return new MotoServer(process, port, log);
            } catch (IOException e) {
                destroy(process);
                last = e;
            }
        }
        throw last;
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        stopProcess();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down and runs the hook itself
        }
    }

    private void stopProcess() {
        destroy(process);
        try {
            Files.deleteIfExists(log);
        } catch (IOException e) {
            // a temp file; the OS cleans it up
        }
    }

    private static void destroy(Process process) {
        // The PATH entry may be a wrapper (pyenv shim) that execs or forks python: end its children first.
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The serialized launcher with the Python that has moto, or the executable named by the override as is. */
    private static List<String> command(Path executable, int port) {
        String portText = Integer.toString(port);
        if (System.getenv(EXECUTABLE_VARIABLE) != null && !System.getenv(EXECUTABLE_VARIABLE).isBlank()) {
            return List.of(executable.toString(), "-H", "127.0.0.1", "-p", portText);
        }
        Path launcher = launcher();
        return List.of("python3", launcher.toString(), "-H", "127.0.0.1", "-p", portText);
    }

    /** scripts/moto-server.py, found from the working directory upwards (tests run in a module directory). */
    private static Path launcher() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("scripts/moto-server.py");
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("scripts/moto-server.py not found above " + Path.of("").toAbsolutePath());
    }

    private static Path findExecutable() {
        String override = System.getenv(EXECUTABLE_VARIABLE);
        if (override != null && !override.isBlank()) {
            Path path = Path.of(override);
            if (Files.isExecutable(path)) {
                return path;
            }
            throw new IllegalStateException(EXECUTABLE_VARIABLE + " is '" + override + "', not an executable file");
        }
        Optional<Path> onPath = List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)).stream()
                .filter(dir -> !dir.isBlank())
                .map(dir -> Path.of(dir, EXECUTABLE))
                .filter(Files::isExecutable)
                .findFirst();
        return onPath.orElseThrow(() -> new IllegalStateException(EXECUTABLE + " is not on PATH. The DynamoDB tests "
                + "start moto's server (EMULATORS.md). Install it with: pip install \"moto[server]\" (then check "
                + "that `moto_server --help` runs), or set " + EXECUTABLE_VARIABLE + " to its path, or set "
                + AwsEmulators.ENDPOINT_VARIABLE + " to run against LocalStack instead."));
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void awaitPort(Process process, int port, Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("moto_server exited with " + process.exitValue() + " before port " + port
                        + " answered; its output:\n" + tail(log));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(25);
            }
        }
        throw new IOException("moto_server did not answer on port " + port + " within " + START_TIMEOUT.toSeconds()
                + " s; its output:\n" + tail(log));
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
