package io.landingledger.localcloud.iam;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An S3 REST request as the gateway receives it, path-style. {@code rawPath} is the request target's path as sent on
 * the wire, still percent-encoded ({@code /lake/published/a%20b.jsonl}): the mapper decodes the bucket and key itself,
 * so a key with {@code %2F} or {@code +} is read as S3 reads it ('+' in a path is a plus). {@code query} holds the
 * decoded query parameters (a parameter without value, {@code ?uploads}, maps to [""]); {@code headers} any case;
 * {@code tls} whether the client's connection was TLS (aws:SecureTransport); {@code body} the request body, needed
 * only by DeleteObjects ({@code POST /bucket?delete}), else null.
 */
public record S3Request(String method, String rawPath, Map<String, List<String>> query,
        Map<String, List<String>> headers,
                        boolean tls, byte[] body) {
    public S3Request {
        method = method.toUpperCase(Locale.ROOT);
        query = Map.copyOf(query);
        Map<String, List<String>> lower = new LinkedHashMap<>();
        headers.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), List.copyOf(v)));
        headers = Map.copyOf(lower);
    }

    public static S3Request of(String method, String rawPath, Map<String, List<String>> query,
            Map<String, List<String>> headers, boolean tls) {
        return new S3Request(method, rawPath, query, headers, tls, null);
    }

    public S3Request withBody(byte[] content) {
        return new S3Request(method, rawPath, query, headers, tls, content);
    }

    /** The first value of a header, or null. */
    public String header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** The first value of a query parameter, or null. */
    public String parameter(String name) {
        List<String> values = query.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }
}
