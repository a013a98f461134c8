package io.landingledger.localcloud.deploy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The head of one HTTP/1.1 message as it arrived: the start line and the header lines, kept as bytes so a request can
 * be passed on exactly as signed. Header names are matched case-insensitively.
 */
final class HttpHead {
    private static final int MAX_HEAD_BYTES = 64 * 1024;

    final String startLine;
    final List<String[]> headers;

    private HttpHead(String startLine, List<String[]> headers) {
        this.startLine = startLine;
        this.headers = headers;
    }

    /** Reads a head up to its blank line; null at the end of the stream before any byte. */
    static HttpHead read(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int previous = -1;
        int lineStart = 0;
        List<String> lines = new ArrayList<>();
        while (true) {
            int b = in.read();
            if (b < 0) {
                if (bytes.size() == 0) {
                    return null;
                }
                throw new IOException("the connection closed inside an HTTP head");
            }
            bytes.write(b);
            if (bytes.size() > MAX_HEAD_BYTES) {
                throw new IOException("an HTTP head over " + MAX_HEAD_BYTES + " bytes");
            }
            if (b == '\n' && previous == '\r') {
                byte[] all = bytes.toByteArray();
                String line = new String(all, lineStart, all.length - lineStart - 2, StandardCharsets.ISO_8859_1);
                lineStart = all.length;
                if (line.isEmpty()) {
                    break;
                }
                lines.add(line);
            }
            previous = b;
        }
        List<String[]> headers = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.add(new String[] {line.substring(0, colon).trim(), line.substring(colon + 1).trim()});
            }
        }
        return new HttpHead(lines.get(0), headers);
    }

    String header(String name) {
        for (String[] header : headers) {
            if (header[0].equalsIgnoreCase(name)) {
                return header[1];
            }
        }
        return null;
    }

    /** Every header, names lower-cased (the form IAM condition keys and the request mappings read). */
    Map<String, String> headerMap() {
        Map<String, String> map = new TreeMap<>();
        for (String[] header : headers) {
            map.put(header[0].toLowerCase(Locale.ROOT), header[1]);
        }
        return map;
    }

    String method() {
        return startLine.substring(0, startLine.indexOf(' '));
    }

    /** The request target as sent (path and query, still percent-encoded). */
    String target() {
        String[] parts = startLine.split(" ");
        return parts.length > 1 ? parts[1] : "/";
    }

    String rawPath() {
        String target = target();
        int query = target.indexOf('?');
        return query < 0 ? target : target.substring(0, query);
    }

    /** The query parameters, decoded (a parameter without a value maps to ""). */
    Map<String, String> query() {
        Map<String, String> parameters = new LinkedHashMap<>();
        String target = target();
        int start = target.indexOf('?');
        if (start < 0) {
            return parameters;
        }
        for (String pair : target.substring(start + 1).split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            parameters.put(name, eq < 0 ? "" : decode(pair.substring(eq + 1)));
        }
        return parameters;
    }

    static String decode(String text) {
        return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** The response status of a response head. */
    int status() {
        String[] parts = startLine.split(" ");
        return parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
    }

    /** The head as bytes, {@code Connection: close} in place of any connection header. */
    byte[] bytesClosingConnection() {
        StringBuilder text = new StringBuilder(startLine).append("\r\n");
        for (String[] header : headers) {
            if (header[0].equalsIgnoreCase("Connection") || header[0].equalsIgnoreCase("Keep-Alive")) {
                continue;
            }
            text.append(header[0]).append(": ").append(header[1]).append("\r\n");
        }
        text.append("Connection: close\r\n\r\n");
        return text.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The body that follows this head (Content-Length or chunked), read whole: for the small JSON and form APIs. */
    byte[] readBody(InputStream in, int limit) throws IOException {
        String length = header("Content-Length");
        if (length != null) {
            int n = Integer.parseInt(length.trim());
            if (n > limit) {
                throw new IOException("a request body of " + n + " bytes (at most " + limit + " here)");
            }
            return in.readNBytes(n);
        }
        String encoding = header("Transfer-Encoding");
        if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            while (true) {
                String size = readLine(in);
                int semicolon = size.indexOf(';');
                int n = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
                if (n == 0) {
                    while (!readLine(in).isEmpty()) {
                        // trailers
                    }
                    return body.toByteArray();
                }
                if (body.size() + n > limit) {
                    throw new IOException("a chunked request body over " + limit + " bytes");
                }
                body.write(in.readNBytes(n));
                readLine(in);
            }
        }
        return new byte[0];
    }

    /** Copies the body that follows this head from {@code in} to {@code out} as it arrived, framing included. */
    void copyBody(InputStream in, java.io.OutputStream out) throws IOException {
        String length = header("Content-Length");
        if (length != null) {
            long left = Long.parseLong(length.trim());
            byte[] buffer = new byte[64 * 1024];
            while (left > 0) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    throw new IOException("the client closed inside a request body");
                }
                out.write(buffer, 0, n);
                left -= n;
            }
            out.flush();
            return;
        }
        String encoding = header("Transfer-Encoding");
        if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            while (true) {
                String size = readLine(in);
                out.write((size + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                int semicolon = size.indexOf(';');
                long n = Long.parseLong((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
                if (n == 0) {
                    String trailer;
                    do {
                        trailer = readLine(in);
                        out.write((trailer + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    } while (!trailer.isEmpty());
                    out.flush();
                    return;
                }
                byte[] chunk = in.readNBytes((int) n);
                out.write(chunk);
                out.write((readLine(in) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            }
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the connection closed inside a chunked body");
            }
            if (b == '\n' && previous == '\r') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
            previous = b;
        }
    }
}
