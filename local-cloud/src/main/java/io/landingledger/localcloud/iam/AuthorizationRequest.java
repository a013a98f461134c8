package io.landingledger.localcloud.iam;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One IAM action on one resource with the request's condition context: what one HTTP request needs, one of possibly
 * several (a CopyObject needs s3:PutObject on the destination and s3:GetObject on the source). Context keys are
 * case-insensitive (IAM's are): they are stored lower-cased, and a key maps to the list of its values (one for a
 * single-valued key).
 */
public record AuthorizationRequest(String action, String resource, Map<String, List<String>> context) {
    public AuthorizationRequest {
        Map<String, List<String>> lower = new LinkedHashMap<>();
        context.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), List.copyOf(v)));
        context = Map.copyOf(lower);
    }

    public static AuthorizationRequest of(String action, String resource) {
        return new AuthorizationRequest(action, resource, Map.of());
    }

    /** A copy with {@code key} set to the single value {@code value}. */
    public AuthorizationRequest with(String key, String value) {
        return with(key, List.of(value));
    }

    public AuthorizationRequest with(String key, List<String> values) {
        Map<String, List<String>> copy = new LinkedHashMap<>(context);
        copy.put(key.toLowerCase(Locale.ROOT), values);
        return new AuthorizationRequest(action, resource, copy);
    }

    /** A copy with {@code extra}'s keys added where this request does not already set them. */
    public AuthorizationRequest withDefaults(Map<String, List<String>> extra) {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        extra.forEach((k, v) -> copy.put(k.toLowerCase(Locale.ROOT), v));
        copy.putAll(context);
        return new AuthorizationRequest(action, resource, copy);
    }

    /** The single value of {@code key}, or null. */
    public String value(String key) {
        List<String> values = context.get(key.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.get(0);
    }
}
