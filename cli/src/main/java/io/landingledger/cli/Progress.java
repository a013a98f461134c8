package io.landingledger.cli;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Progress of one long read on stderr, fed by the bytes read through {@link #wrap} (one add per read call on the
 * reading thread; a daemon thread renders). On a terminal one line rewritten in place a few times a second; on a
 * pipe one line every {@link #PIPE_INTERVAL}; {@link #quiet()} prints nothing. stdout is never touched.
 */
public final class Progress implements AutoCloseable {
    public static final Duration PIPE_INTERVAL = Duration.ofSeconds(5);
    static final Duration TERMINAL_INTERVAL = Duration.ofMillis(200);

    public enum Mode { TERMINAL, PIPE, QUIET }

    private final PrintStream err;
    private final String label;
    private final long total;
    private final Mode mode;
    private final long startNanos = System.nanoTime();
    private final ScheduledExecutorService ticker;
    private volatile long bytes;
    private int lastWidth;

    Progress(PrintStream err, String label, long totalBytes, Mode mode, Duration interval) {
        this.err = err;
        this.label = label;
        this.total = totalBytes;
        this.mode = mode;
        if (mode == Mode.QUIET) {
            this.ticker = null;
        } else {
            this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "landing-progress");
                thread.setDaemon(true);
                return thread;
            });
            long every = interval.toNanos();
            ticker.scheduleAtFixedRate(this::render, every, every, TimeUnit.NANOSECONDS);
        }
    }

    /** Terminal when stderr's process has a console, else pipe; quiet when asked. {@code totalBytes} may be negative (unknown). */
    public static Progress start(PrintStream err, String label, long totalBytes, boolean quiet) {
        Mode mode = quiet ? Mode.QUIET : System.console() != null ? Mode.TERMINAL : Mode.PIPE;
        return new Progress(err, label, totalBytes, mode, mode == Mode.TERMINAL ? TERMINAL_INTERVAL : PIPE_INTERVAL);
    }

    /** As {@link #start(PrintStream, String, long, boolean)}; a non-null {@code pipeInterval} forces pipe mode at that interval (tests). */
    public static Progress start(PrintStream err, String label, long totalBytes, boolean quiet, Duration pipeInterval) {
        if (pipeInterval == null) {
            return start(err, label, totalBytes, quiet);
        }
        return new Progress(err, label, totalBytes, quiet ? Mode.QUIET : Mode.PIPE, pipeInterval);
    }

    public static Progress quiet() {
        return new Progress(System.err, "", -1, Mode.QUIET, PIPE_INTERVAL);
    }

    /** Counts {@code n} more bytes done (a reader that cannot hand its stream to {@link #wrap}). */
    public void count(long n) {
        if (mode != Mode.QUIET && n > 0) {
            bytes += n; // one writer at a time: the reading thread
        }
    }

    /** Counts the bytes read through the returned stream. */
    public InputStream wrap(InputStream in) {
        if (mode == Mode.QUIET) {
            return in;
        }
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) {
                    bytes++;
                }
                return b;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                int n = super.read(buffer, offset, length);
                if (n > 0) {
                    bytes += n; // one writer: the reading thread
                }
                return n;
            }

            @Override
            public long skip(long n) throws IOException {
                long skipped = super.skip(n);
                bytes += skipped;
                return skipped;
            }
        };
    }

    /** The last line, with the rows the reader counted (negative: not known), then the terminal's line ends. */
    public synchronized void finish(long rows) {
        if (mode == Mode.QUIET) {
            return;
        }
        ticker.shutdownNow();
        String line = line(true, rows);
        if (mode == Mode.TERMINAL) {
            err.print("\r" + pad(line) + "\n");
        } else {
            err.println(line);
        }
        err.flush();
    }

    private synchronized void render() {
        if (ticker.isShutdown()) {
            return;
        }
        String line = line(false, -1);
        if (mode == Mode.TERMINAL) {
            err.print("\r" + pad(line));
        } else {
            err.println(line);
        }
        err.flush();
    }

    private String pad(String line) {
        String padded = line.length() < lastWidth ? line + " ".repeat(lastWidth - line.length()) : line;
        lastWidth = line.length();
        return padded;
    }

    /** e.g. {@code landing validate: 12.6 MB of 502.1 MB (2%), 148.3 MB/s, 3 s left} or, done, {@code ... 2000000 lines, 148.0 MB/s in 3.4 s}. */
    String line(boolean done, long rows) {
        long read = bytes;
        double seconds = Math.max(1e-9, (System.nanoTime() - startNanos) / 1e9);
        double rate = read / 1e6 / seconds;
        StringBuilder text = new StringBuilder(label).append(done ? ": done, " : ": ").append(mb(read));
        if (total >= 0) {
            text.append(" of ").append(mb(total)).append(String.format(Locale.ROOT, " (%d%%)", total == 0 ? 100 : Math.min(100, read * 100 / total)));
        }
        if (rows >= 0) {
            text.append(", ").append(rows).append(" lines");
        }
        text.append(String.format(Locale.ROOT, ", %.1f MB/s", rate));
        if (done) {
            text.append(String.format(Locale.ROOT, " in %.1f s", seconds));
        } else if (total > 0 && read > 0) {
            text.append(String.format(Locale.ROOT, ", %d s left", (long) Math.ceil(Math.max(0, total - read) / 1e6 / rate)));
        }
        return text.toString();
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    @Override
    public void close() {
        if (ticker != null) {
            ticker.shutdownNow();
        }
    }
}
