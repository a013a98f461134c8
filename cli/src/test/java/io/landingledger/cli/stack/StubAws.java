package io.landingledger.cli.stack;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/** A loopback HTTP server standing in for an AWS API: answers queued responses in order and records every request. */
final class StubAws implements AutoCloseable {
    record Request(String method, String path, String query, Map<String, List<String>> headers, String body) {
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).map(e -> e.getValue().get(0)).findFirst().orElse(null);
        }
    }

    record Response(int status, Map<String, String> headers, String body) {
    }

    private final HttpServer server;
    private final Deque<Response> responses = new ArrayDeque<>();
    final List<Request> requests = new ArrayList<>();

    StubAws() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Response response;
            synchronized (this) {
                requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(), exchange.getRequestURI().getRawQuery(),
                        Map.copyOf(exchange.getRequestHeaders()), body));
                response = responses.isEmpty() ? new Response(599, Map.of(), "no response queued") : responses.poll();
            }
            byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
            response.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            exchange.sendResponseHeaders(response.status(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                exchange.getResponseBody().write(bytes);
            }
            exchange.close();
        });
        server.start();
    }

    synchronized StubAws answer(int status, Map<String, String> headers, String body) {
        responses.add(new Response(status, headers, body));
        return this;
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
