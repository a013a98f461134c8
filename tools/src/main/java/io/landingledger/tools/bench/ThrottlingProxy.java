package io.landingledger.tools.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A model of S3's per-connection limit for the end-to-end bench: a TCP proxy on the loopback interface in front of
 * the embedded S3 that holds the response direction of each connection to {@code bytesPerSecond} (a token bucket per
 * connection, 5 ms of burst), and passes requests through as they come. AWS's guidance is about 85-90 MB/s per
 * GetObject connection; the emulator alone serves far more over loopback, so without the proxy the bench cannot show
 * what one connection costs or what K concurrent ranges buy.
 */
final class ThrottlingProxy implements AutoCloseable {
    private static final long BURST_NANOS = 5_000_000;

    private final InetSocketAddress upstream;
    private final double bytesPerSecond;
    private final ServerSocket server;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger sending = new AtomicInteger();
    private final AtomicInteger maxSending = new AtomicInteger();
    private volatile boolean closed;

    /**
     * @param upstream       the emulator's address (loopback)
     * @param bytesPerSecond each connection's limit on the bytes the emulator sends back
     */
    ThrottlingProxy(InetSocketAddress upstream, double bytesPerSecond) throws IOException {
        if (!(bytesPerSecond > 0)) {
            throw new IllegalArgumentException("bytesPerSecond must be positive, not " + bytesPerSecond);
        }
        this.upstream = upstream;
        this.bytesPerSecond = bytesPerSecond;
        this.server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "landing-bench-throttle-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The proxy's endpoint: point the S3 client here. */
    URI endpoint() {
        return URI.create("http://" + server.getInetAddress().getHostAddress() + ":" + server.getLocalPort());
    }

    /** Connections accepted so far. */
    int connections() {
        return connections.get();
    }

    /**
     * The most connections held back by their bucket at the same moment (sending more than the burst at the limit) since
     * the last {@link #resetMaxSending()}: how many bodies, ranges among them, were really streaming at once.
     */
    int maxSending() {
        return maxSending.get();
    }

    void resetMaxSending() {
        maxSending.set(0);
    }

    double bytesPerSecond() {
        return bytesPerSecond;
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                connections.incrementAndGet();
                Socket target = new Socket();
                try {
                    target.connect(upstream, 5_000);
                } catch (IOException e) {
                    closeQuietly(client);
                    closeQuietly(target);
                    continue;
                }
                client.setTcpNoDelay(true);
                target.setTcpNoDelay(true);
                Thread.ofVirtual().name("landing-bench-throttle-up").start(() -> pump(client, target, 0));
                Thread.ofVirtual().name("landing-bench-throttle-down").start(() -> pump(target, client, bytesPerSecond));
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("landing bench: throttling proxy: " + e);
                }
            }
        }
    }

    /** Copies {@code from} to {@code to}, at most {@code rate} bytes a second when positive; closes both at the end. */
    private void pump(Socket from, Socket to, double rate) {
        // 128 KiB a read, under the 5 ms burst at 85 MB/s (425 KB): the bucket still holds the rate, and the model's own
        // CPU (a read, a park and a write per buffer, both directions) fell from 0.24-0.28 to 0.18-0.21 s per 100 MB
        byte[] buffer = new byte[128 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            // the bucket's clock: the moment the bytes sent so far are paid for; idle time earns at most the burst
            long paidUntil = System.nanoTime();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (rate > 0) {
                    long now = System.nanoTime();
                    paidUntil = Math.max(paidUntil, now - BURST_NANOS) + (long) (n * 1e9 / rate);
                    long wait = paidUntil - now;
                    if (wait > 0) { // a body larger than the burst: this connection is held to the rate
                        maxSending.accumulateAndGet(sending.incrementAndGet(), Math::max);
                        try {
                            while (wait > 0) {
                                LockSupport.parkNanos(wait);
                                wait = paidUntil - System.nanoTime();
                            }
                        } finally {
                            sending.decrementAndGet();
                        }
                    }
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // a side closed or reset the connection: end both directions
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // closing
        }
    }
}
