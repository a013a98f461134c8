package io.landingledger.localcloud.iam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;

/** Request bodies of the JSON protocols (DynamoDB, SQS's JSON protocol), read as trees. */
final class JsonBodies {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonBodies() {
    }

    /** The body as a JSON object, or null when it is absent, not JSON, or not an object. */
    static JsonNode object(byte[] body) {
        if (body == null || body.length == 0) {
            return null;
        }
        try {
            JsonNode node = JSON.readTree(body);
            return node != null && node.isObject() ? node : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** A string member, or null. */
    static String text(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        return value != null && value.isTextual() ? value.asText() : null;
    }
}
