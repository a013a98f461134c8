package io.landingledger.core.validate;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hands the in-order pass its chunks one after another, parsed ahead by worker threads. The calling thread reads (and
 * hashes) up to {@code 2 x workers + 1} chunks ahead and gives each to a worker; the pass takes them back in input
 * order, so nothing it decides depends on which worker parsed what or when. With one worker, before a CSV file's
 * header is read, or in a file's first {@link ValidationLimits#PARALLEL_FROM_BYTES} decoded bytes, no chunk is read
 * ahead and the pass parses each itself.
 *
 * <p>Memory: the chunks in flight, each a line buffer ({@code maxLineBytes} plus a read) and its rows; chunks are
 * recycled, so a file of any size uses the same few.
 */
final class ChunkPipeline implements AutoCloseable {
    private static final AtomicInteger POOLS = new AtomicInteger();
    /** The parse of a chunk no worker was given: the pass parses it. */
    private static final Future<?> PARSED_BY_THE_PASS = CompletableFuture.completedFuture(null);

    private final ChunkReader reader;
    private final ChunkParser passParser;
    private final int workers;
    private final int window;
    private final int bufferBytes;
    private final ArrayDeque<LineChunk> inFlight = new ArrayDeque<>();
    private final ArrayDeque<Future<?>> parsing = new ArrayDeque<>();
    private final ArrayDeque<LineChunk> free = new ArrayDeque<>();
    private final ConcurrentLinkedQueue<ChunkParser> workerParsers = new ConcurrentLinkedQueue<>();
    private ExecutorService pool;
    private LineChunk handedOut;
    private final long parallelFromBytes;
    /** Decoded bytes read so far. */
    private long decodedRead;

    /**
     * @param passParser the in-order pass's parser: the workers' are copies of it, made once it is ready
     */
    ChunkPipeline(ChunkReader reader, ChunkParser passParser, int workers, long parallelFromBytes) {
        this.reader = reader;
        this.parallelFromBytes = parallelFromBytes;
        this.passParser = passParser;
        this.workers = workers;
        this.window = 2 * workers + 1;
        this.bufferBytes = reader.bufferBytes();
    }

    /**
     * The next chunk in input order, parsed as far as {@code parsed.parsed} says (the pass parses the rest). The
     * chunk handed out before is recycled from this call on.
     *
     * @throws SourceReadException the source failed while reading ahead
     */
    LineChunk next() throws IOException {
        if (handedOut != null) {
            free.push(handedOut);
            handedOut = null;
        }
        boolean parallel = workers > 1 && passParser.ready() && decodedRead >= parallelFromBytes;
        while (!reader.done() && (inFlight.isEmpty() || parallel && inFlight.size() < window)) {
            LineChunk chunk = free.isEmpty() ? new LineChunk(bufferBytes) : free.pop();
            reader.read(chunk);
            decodedRead = chunk.decodedAfterRead;
            inFlight.add(chunk);
            parsing.add(parallel && chunk.count > 0 ? submit(chunk) : PARSED_BY_THE_PASS);
        }
        if (inFlight.isEmpty()) {
            throw new IllegalStateException("no chunk after the end of the input");
        }
        LineChunk chunk = inFlight.poll();
        await(parsing.poll());
        handedOut = chunk;
        return chunk;
    }

    private Future<?> submit(LineChunk chunk) {
        if (pool == null) {
            for (int i = 0; i < workers; i++) {
                workerParsers.add(passParser.copy());
            }
            pool = Executors.newFixedThreadPool(workers, workerThreads());
        }
        return pool.submit(() -> {
            ChunkParser parser = workerParsers.poll(); // as many parsers as threads
            try {
                parser.parse(chunk, 0);
            } finally {
                workerParsers.add(parser);
            }
        });
    }

    private static void await(Future<?> parse) throws IOException {
        try {
            parse.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while a worker parsed lines");
        } catch (ExecutionException e) {
            // parsing throws nothing checked and nothing for content: this is a defect, or the JVM out of memory
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("a parse worker failed", e.getCause());
        }
    }

    private static ThreadFactory workerThreads() {
        int pool = POOLS.incrementAndGet();
        AtomicInteger thread = new AtomicInteger();
        return task -> {
            Thread t = new Thread(task, "validator-" + pool + "-worker-" + thread.incrementAndGet());
            t.setDaemon(true); // never keeps a JVM alive: the pass that owns them shuts them down
            return t;
        };
    }

    /** Stops the workers; chunks still being parsed are abandoned (the pass stopped before them). */
    @Override
    public void close() {
        if (pool == null) {
            return;
        }
        pool.shutdownNow();
        try {
            if (!pool.awaitTermination(1, TimeUnit.MINUTES)) {
                throw new IllegalStateException("parse workers did not stop within a minute");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
