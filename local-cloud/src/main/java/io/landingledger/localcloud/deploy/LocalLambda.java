package io.landingledger.localcloud.deploy;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.jr.ob.JSON;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Lambda service of the locally deployed stack: each function of the template runs in this JVM from the same
 * handler class Lambda runs, with the template's environment plus the runtime's own variables, its timeout as the
 * context's deadline (a run past it is abandoned as "Task timed out") and its memory size reported. Synchronous
 * invocations answer as Invoke does; asynchronous ones queue per function, in order, and follow the function's
 * EventInvokeConfig: its retries, then its on-failure destination (sent with the function's own role, as Lambda does).
 */
public final class LocalLambda implements AutoCloseable {
    /** The functions' runtime variables that tell the SDK clients where the stack's APIs are and as whom to sign. */
    public interface RuntimeVariables {
        Map<String, String> of(FunctionSpec function);
    }

    /** Where an asynchronous invocation's failure record goes (an SQS queue, sent with the function's role). */
    public interface FailureDestinations {
        void send(FunctionSpec function, String destinationArn, String record);
    }

    /** EventInvokeConfig: retries after the first attempt, the event's maximum age, the on-failure destination. */
    public record AsyncConfig(int maximumRetryAttempts, int maximumEventAgeSeconds, String onFailure) {
        static final AsyncConfig DEFAULT = new AsyncConfig(2, 21600, null);
    }

    private final Path logDirectory;
    private final RuntimeVariables runtimeVariables;
    private final FunctionRuntime runtime;
    private final Map<String, Deployed> functions = new ConcurrentHashMap<>();
    private final List<InvocationListener> listeners = new CopyOnWriteArrayList<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final java.util.concurrent.atomic.AtomicLong initNanos = new java.util.concurrent.atomic.AtomicLong();
    private final Object idle = new Object();
    private volatile FailureDestinations destinations = (function, arn, record) -> {
        throw new IllegalStateException("no failure destinations");
    };

    public LocalLambda(Path logDirectory, RuntimeVariables runtimeVariables, FunctionRuntime runtime) {
        this.logDirectory = logDirectory;
        this.runtimeVariables = runtimeVariables;
        this.runtime = runtime;
        FunctionLogs.install();
    }

    void destinations(FailureDestinations value) {
        this.destinations = value;
    }

    public void addListener(InvocationListener listener) {
        listeners.add(listener);
    }

    /** One function: its spec, its aliases, its async settings, its current handler instance (null until its init). */
    private static final class Deployed {
        final FunctionSpec spec;
        final Map<String, String> aliases = new ConcurrentHashMap<>();
        final ExecutorService queue;
        final PrintStream log;
        volatile AsyncConfig async = AsyncConfig.DEFAULT;
        volatile RequestStreamHandler handler;
        int versions;

        Deployed(FunctionSpec spec, PrintStream log) {
            this.spec = spec;
            this.log = log;
            this.queue = Executors.newSingleThreadExecutor(r -> {
                Thread thread = new Thread(r, "lambda-async-" + spec.name());
                thread.setDaemon(true);
                return thread;
            });
        }
    }

    /** Creates the function (no init yet: as on Lambda, the first invocation or a published SnapStart version runs it). */
    public void create(FunctionSpec spec) throws IOException {
        Files.createDirectories(logDirectory);
        Path file = logDirectory.resolve(spec.logGroup().replaceAll("[^A-Za-z0-9._-]+", "_") + ".log");
        PrintStream log = new PrintStream(Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND), true,
                StandardCharsets.UTF_8);
        functions.put(spec.name(), new Deployed(spec, log));
    }

    /**
     * Publishes a version. With SnapStart on published versions Lambda runs the function's init to take the snapshot,
     * and an init that fails fails the version (and so the deploy): the same here.
     */
    public String publishVersion(String name) {
        Deployed function = function(name);
        synchronized (function) {
            if (function.spec.snapStart()) {
                FunctionLogs.current(function.log);
                try {
                    init(function);
                } finally {
                    FunctionLogs.current(null);
                }
            }
            return Integer.toString(++function.versions);
        }
    }

    public void alias(String name, String alias, String version) {
        function(name).aliases.put(alias, version);
    }

    public void asyncConfig(String name, AsyncConfig config) {
        function(name).async = config;
    }

    public boolean exists(String nameOrArn) {
        return lookup(nameOrArn) != null;
    }

    public FunctionSpec spec(String nameOrArn) {
        return function(nameOrArn).spec;
    }

    /** Function name and qualifier of a name, an unqualified or a qualified ARN. */
    private Deployed lookup(String nameOrArn) {
        String name = nameOrArn;
        if (name.startsWith("arn:")) {
            String[] parts = name.split(":");
            name = parts.length > 6 ? parts[6] : name;
        } else if (name.contains(":")) {
            name = name.substring(0, name.indexOf(':'));
        }
        return functions.get(name);
    }

    private Deployed function(String nameOrArn) {
        Deployed function = lookup(nameOrArn);
        if (function == null) {
            throw new ResourceNotFound("Function not found: " + nameOrArn);
        }
        return function;
    }

    /** The qualifier a name or ARN carries (arn:...:function:NAME:QUALIFIER or NAME:QUALIFIER), or null. */
    static String qualifierOf(String nameOrArn) {
        String[] parts = nameOrArn.split(":");
        if (nameOrArn.startsWith("arn:")) {
            return parts.length > 7 ? parts[7] : null;
        }
        return parts.length > 1 ? parts[1] : null;
    }

    /** A function or alias that does not exist (Invoke's 404 ResourceNotFoundException). */
    public static final class ResourceNotFound extends RuntimeException {
        ResourceNotFound(String message) {
            super(message);
        }
    }

    /** Invoke's 413 RequestEntityTooLargeException: a payload over Lambda's quota for its invocation type. */
    public static final class RequestTooLarge extends RuntimeException {
        RequestTooLarge(String message) {
            super(message);
        }
    }

    /**
     * RequestResponse: runs now, on a thread of its own, and answers; a payload over Lambda's synchronous quota is
     * refused ({@link RequestTooLarge}), an answer over it fails the invocation (Function.ResponseSizeTooLarge).
     */
    public InvokeResult invoke(String nameOrArn, String qualifier, String payload) {
        Deployed function = function(nameOrArn);
        String version = version(function, qualifier == null ? qualifierOf(nameOrArn) : qualifier);
        String tooLarge = LambdaPayloadLimits.synchronousRequest(payload);
        if (tooLarge != null) {
            throw new RequestTooLarge(tooLarge);
        }
        inFlight.incrementAndGet();
        try {
            InvokeResult result = run(function, version, payload);
            String responseTooLarge = LambdaPayloadLimits.synchronousResponse(result.payload());
            if (responseTooLarge != null) {
                function.log.println("local runtime: " + responseTooLarge);
                result = error(version, "Function.ResponseSizeTooLarge", responseTooLarge);
            }
            for (InvocationListener listener : listeners) {
                listener.completed(function.spec, payload, result, 1, false);
            }
            return result;
        } finally {
            done();
        }
    }

    /**
     * Event: queued, answered at once; the attempts run in order on the function's queue. A payload over Lambda's
     * asynchronous quota is refused before it is queued ({@link RequestTooLarge}).
     */
    public void invokeAsync(String nameOrArn, String qualifier, String payload) {
        Deployed function = function(nameOrArn);
        String version = version(function, qualifier == null ? qualifierOf(nameOrArn) : qualifier);
        String tooLarge = LambdaPayloadLimits.asynchronousRequest(payload);
        if (tooLarge != null) {
            throw new RequestTooLarge(tooLarge);
        }
        Instant queued = Instant.now();
        inFlight.incrementAndGet();
        function.queue.execute(() -> {
            try {
                AsyncConfig config = function.async;
                InvokeResult result = null;
                int attempts = 1 + config.maximumRetryAttempts();
                for (int attempt = 1; attempt <= attempts; attempt++) {
                    if (Duration.between(queued, Instant.now()).getSeconds() > config.maximumEventAgeSeconds()) {
                        break;
                    }
                    result = run(function, version, payload);
                    for (InvocationListener listener : listeners) {
                        listener.completed(function.spec, payload, result, attempt, true);
                    }
                    if (!result.failed()) {
                        return;
                    }
                }
                if (config.onFailure() != null) {
                    destinations.send(function.spec, config.onFailure(), failureRecord(function, version, payload, result, attempts));
                }
            } catch (RuntimeException e) {
                function.log.println("local runtime: the asynchronous invocation could not be completed: " + e);
            } finally {
                done();
            }
        });
    }

    private void done() {
        if (inFlight.decrementAndGet() == 0) {
            synchronized (idle) {
                idle.notifyAll();
            }
        }
    }

    /** Work that runs when nothing else does (event source pollers): true when it ran something. */
    void whenIdle(java.util.function.BooleanSupplier work) {
        idleWork.add(work);
    }

    private final List<java.util.function.BooleanSupplier> idleWork = new CopyOnWriteArrayList<>();

    /**
     * Waits until no invocation is queued or running and no event source has a message left (the local run's "every
     * event handled").
     */
    public void awaitIdle(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            synchronized (idle) {
                while (inFlight.get() > 0) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw new IllegalStateException("the local stack's functions did not finish within " + timeout);
                    }
                    idle.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                }
            }
            boolean ran = false;
            for (java.util.function.BooleanSupplier work : idleWork) {
                ran |= work.getAsBoolean();
            }
            if (!ran && inFlight.get() == 0) {
                return;
            }
        }
    }

    private static String version(Deployed function, String qualifier) {
        if (qualifier == null || qualifier.equals("$LATEST")) {
            return "$LATEST";
        }
        String version = function.aliases.get(qualifier);
        if (version != null) {
            return version;
        }
        if (qualifier.chars().allMatch(Character::isDigit) && Integer.parseInt(qualifier) <= function.versions) {
            return qualifier;
        }
        throw new ResourceNotFound("Function not found: " + function.spec.arn() + ":" + qualifier);
    }

    private InvokeResult run(Deployed function, String version, String payload) {
        FunctionSpec spec = function.spec;
        String requestId = UUID.randomUUID().toString();
        long deadline = System.currentTimeMillis() + spec.timeoutSeconds() * 1000L;
        function.log.println("START RequestId: " + requestId + " Version: " + version);
        ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "lambda-" + spec.name() + "-" + requestId.substring(0, 8));
            t.setDaemon(true);
            return t;
        });
        try {
            Future<byte[]> run = thread.submit(() -> {
                FunctionLogs.current(function.log);
                synchronized (function) {
                    init(function);
                }
                ByteArrayOutputStream output = new ByteArrayOutputStream();
                function.handler.handleRequest(new java.io.ByteArrayInputStream(payload.getBytes(StandardCharsets.UTF_8)), output,
                        new LocalContext(spec, requestId, version, deadline, function.log));
                return output.size() == 0 ? "null".getBytes(StandardCharsets.UTF_8) : output.toByteArray();
            });
            try {
                return new InvokeResult(run.get(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS), null, version);
            } catch (TimeoutException e) {
                run.cancel(true);
                function.handler = null; // Lambda discards the environment of a run that timed out
                String message = String.format("%s Task timed out after %d.00 seconds", Instant.now(), spec.timeoutSeconds());
                function.log.println(message);
                return error(version, "Sandbox.Timedout", message);
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof InitFailure init) {
                    return error(version, "Runtime.ExceptionInInitializerError", init.getMessage());
                }
                function.log.println("ERROR RequestId: " + requestId + " " + cause);
                return error(version, cause.getClass().getName(), String.valueOf(cause.getMessage()), cause.getStackTrace());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return error(version, "Runtime.Interrupted", "the local runtime was interrupted");
            }
        } finally {
            thread.shutdownNow();
            function.log.println("END RequestId: " + requestId);
        }
    }

    private static InvokeResult error(String version, String type, String message) {
        return error(version, type, message, null);
    }

    /** Lambda's Java runtime's error document: errorMessage, errorType and, for an exception, its stackTrace lines. */
    private static InvokeResult error(String version, String type, String message, StackTraceElement[] trace) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("errorMessage", message);
        body.put("errorType", type);
        if (trace != null) {
            List<String> lines = new ArrayList<>();
            for (StackTraceElement element : trace) {
                lines.add(element.toString());
            }
            body.put("stackTrace", lines);
        }
        try {
            return new InvokeResult(JSON.std.asBytes(body), "Unhandled", version);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A function's init failed: no handler instance, the invocation fails (and so would a SnapStart version). */
    static final class InitFailure extends RuntimeException {
        InitFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The function's init, as the runtime does it: the project's runtime builds the handler the template names, given
     * the template's environment (and the runtime's own variables) and the function's log stream, since in one JVM
     * neither can be the process's.
     */
    private void init(Deployed function) {
        if (function.handler != null) {
            return;
        }
        FunctionSpec spec = function.spec;
        long begin = System.nanoTime();
        try {
            construct(function, spec);
        } finally {
            initNanos.addAndGet(System.nanoTime() - begin);
        }
    }

    /** Time spent in the functions' inits so far. */
    Duration initTime() {
        return Duration.ofNanos(initNanos.get());
    }

    private void construct(Deployed function, FunctionSpec spec) {
        Map<String, String> environment = new LinkedHashMap<>(runtimeVariables.of(spec));
        environment.putAll(spec.environment());
        PrintStream stdout = new PrintStream(new LineToLog(function.log), true, StandardCharsets.UTF_8);
        RequestStreamHandler handler;
        try {
            handler = runtime.handler(spec, environment, stdout);
        } catch (Exception | LinkageError e) {
            function.log.println("INIT_REPORT Status: error " + e);
            throw new InitFailure(spec.logicalId() + " (" + spec.name() + ") failed its init: " + e.getClass().getSimpleName()
                    + ": " + e.getMessage(), e);
        }
        if (handler == null) {
            throw new InitFailure(spec.logicalId() + ": handler " + spec.handler() + " is not one of the functions' handlers", null);
        }
        function.handler = handler;
    }

    /** Lambda's failure record for an asynchronous invocation (the shape its destinations receive). */
    private static String failureRecord(Deployed function, String version, String payload, InvokeResult result, int attempts) {
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("version", "1.0");
        record.put("timestamp", Instant.now().toString());
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("requestId", UUID.randomUUID().toString());
        request.put("functionArn", function.spec.arn() + ":" + version);
        request.put("condition", result == null ? "EventAgeExceeded" : "RetriesExhausted");
        request.put("approximateInvokeCount", attempts);
        record.put("requestContext", request);
        try {
            record.put("requestPayload", JSON.std.anyFrom(payload));
            Map<String, Object> response = new LinkedHashMap<>();
            response.put("statusCode", 200);
            response.put("executedVersion", version);
            if (result != null) {
                response.put("functionError", result.functionError());
                record.put("responsePayload", JSON.std.anyFrom(result.payloadText()));
            }
            record.put("responseContext", response);
            return JSON.std.asString(record);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Names of every function created. */
    public List<String> names() {
        return new ArrayList<>(functions.keySet());
    }

    @Override
    public void close() {
        for (Deployed function : functions.values()) {
            function.queue.shutdownNow();
            function.log.close();
        }
    }

    /** The function's standard output, line by line into its log (what Lambda sends to CloudWatch Logs). */
    private static final class LineToLog extends OutputStream {
        private final PrintStream log;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        LineToLog(PrintStream log) {
            this.log = log;
        }

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                flush();
            } else {
                line.write(b);
            }
        }

        @Override
        public synchronized void flush() {
            if (line.size() > 0) {
                log.println(line.toString(StandardCharsets.UTF_8));
                line.reset();
            }
        }
    }
}
