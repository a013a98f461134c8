package io.landingledger.localcloud.aws;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * moto 5's server (the DynamoDB emulator docs/emulators.md picked) as a child process on a free loopback port, started
 * through {@code scripts/moto-server.py} (bundled in this jar), which serves moto's own application behind one lock: stock
 * {@code moto_server} lets two concurrent TransactWriteItems pass the same condition (measured 2 of 20 rounds of 8
 * writers), which DynamoDB never does and the ledger relies on. Stopped through its own {@link Process} handle.
 */
public final class MotoServer implements AutoCloseable {
    /** Overrides the server command: an executable taking moto_server's {@code -H HOST -p PORT} flags. */
    public static final String EXECUTABLE_VARIABLE = "LANDING_MOTO_SERVER";
    /** The Python that runs the launcher: the one ./landing and ./verify chose (scripts/python-env.sh), else python3. */
    public static final String PYTHON_VARIABLE = "LANDING_PYTHON";
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
        // if the JVM exits without closing us, do not leave the server behind
        this.shutdownHook = new Thread(this::stopProcess, "moto-server-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts the server and returns once its port answers. */
    public static MotoServer start() throws IOException, InterruptedException {
        List<String> base = baseCommand();
        IOException last = null;
        for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
            // the free port can be taken between closing the probe socket and moto binding it: try another
            int port = freeLoopbackPort();
            Path log = Files.createTempFile("moto-server-" + port + "-", ".log");
            List<String> command = new java.util.ArrayList<>(base);
            command.addAll(List.of("-H", "127.0.0.1", "-p", Integer.toString(port)));
            Process process = startProcess(command, log);
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

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    public long pid() {
        return process.pid();
    }

    public Path log() {
        return log;
    }

    /** What to tell a user whose Python has no moto. */
    public static final String INSTALL_HINT = "DynamoDB is emulated by moto's server (docs/emulators.md). ./landing local and"
            + " ./verify install it into the checkout's .venv when python3 lacks it (scripts/python-env.sh); else install it with:"
            + " pip install 'moto[server]' (the project's machine image ships it), or set " + PYTHON_VARIABLE
            + " to a Python that has it, or set " + EXECUTABLE_VARIABLE + " to a server command, or point the run at LocalStack"
            + " (--endpoint).";
    /** The launcher's exit status when moto cannot be imported (scripts/moto-server.py). */
    static final int MOTO_MISSING_EXIT = 3;
    private static final String LAUNCHER_RESOURCE = "moto-server.py";
    private static Path extractedLauncher;

    /**
     * The override as is, or the serialized launcher run by {@value #PYTHON_VARIABLE} (else python3). The launcher is a
     * resource of this jar (copied from scripts/moto-server.py by the build), so it is found from the installation, not
     * the working directory; it exits with {@value #MOTO_MISSING_EXIT} when moto cannot be imported.
     */
    private static List<String> baseCommand() throws IOException {
        String override = System.getenv(EXECUTABLE_VARIABLE);
        if (override != null && !override.isBlank()) {
            if (!Files.isExecutable(Path.of(override))) {
                throw new IllegalStateException(EXECUTABLE_VARIABLE + " is '" + override + "', not an executable file");
            }
            return List.of(override);
        }
        return List.of(PYTHON, launcher().toString());
    }

    private static final String PYTHON = python();

    private static String python() {
        String python = System.getenv(PYTHON_VARIABLE);
        return python == null || python.isBlank() ? "python3" : python;
    }

    /** The bundled launcher, extracted once per JVM to a temporary file (deleted on exit). */
    static synchronized Path launcher() throws IOException {
        if (extractedLauncher != null && Files.isRegularFile(extractedLauncher)) {
            return extractedLauncher;
        }
        try (InputStream in = MotoServer.class.getResourceAsStream(LAUNCHER_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(LAUNCHER_RESOURCE + " is missing from the emulators' jar (the build copies"
                        + " scripts/moto-server.py into it); rebuild the project");
            }
            Path file = Files.createTempFile("landing-moto-server-", ".py");
            file.toFile().deleteOnExit();
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            extractedLauncher = file;
            return file;
        }
    }

    private static Process startProcess(List<String> command, Path log) throws IOException {
        try {
            return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            if (command.get(0).equals(PYTHON)) {
                throw new IllegalStateException(PYTHON + " could not be started (" + e.getMessage() + "). " + INSTALL_HINT, e);
            }
            throw e;
        }
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
                if (process.exitValue() == MOTO_MISSING_EXIT) {
                    throw new IllegalStateException(tail(log).strip() + ". " + INSTALL_HINT);
                }
                throw new IOException("the DynamoDB emulator exited with " + process.exitValue() + " before port " + port
                        + " answered; its output: " + tail(log));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        throw new IOException("the DynamoDB emulator did not answer on port " + port + " within " + START_TIMEOUT.toSeconds()
                + " s; its output: " + tail(log));
    }

    private static String tail(Path log) {
        try {
            String text = Files.readString(log);
            return text.length() > 2000 ? text.substring(text.length() - 2000) : text;
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    private void stopProcess() {
        destroy(process);
    }

    private static void destroy(Process process) {
        // children first: a launcher may have started the Python interpreter as a child
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

    @Override
    public void close() {
        stopProcess();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run
        }
    }
}
