package io.landingledger.tools.bench;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ThrottlingProxy}: the upstream's bytes unchanged, no faster than the limit, requests passed through. */
class ThrottlingProxyTest {

    @Test
    void passesTheBytesThrough_noFasterThanTheLimitOnEachConnection() throws Exception {
        byte[] body = new byte[2_000_000];
        new Random(7).nextBytes(body);
        try (ServerSocket upstream = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            Thread server = Thread.ofVirtual().start(() -> {
                try (Socket s = upstream.accept(); InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                    int request = in.read(); // one request byte, then the body
                    out.write(request);
                    out.write(body);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            try (ThrottlingProxy proxy = new ThrottlingProxy(new InetSocketAddress(InetAddress.getLoopbackAddress(), upstream.getLocalPort()), 10e6);
                 Socket client = new Socket(proxy.endpoint().getHost(), proxy.endpoint().getPort())) {
                long start = System.nanoTime();
                client.getOutputStream().write(42);
                client.getOutputStream().flush();
                InputStream in = client.getInputStream();
                assertEquals(42, in.read());
                byte[] read = in.readNBytes(body.length);
                double seconds = (System.nanoTime() - start) / 1e9;
                assertArrayEquals(body, read);
                // 2 MB at 10 MB/s: at least 0.2 s less the 5 ms burst
                assertTrue(seconds >= 0.19, "took " + seconds + " s");
                assertEquals(1, proxy.connections());
                assertEquals(1, proxy.maxSending());
            }
            server.join();
        }
    }
}
