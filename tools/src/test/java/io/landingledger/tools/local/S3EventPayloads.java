package io.landingledger.tools.local;

import com.fasterxml.jackson.jr.ob.JSON;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Seeded S3 ObjectCreated notification payloads, as Lambda hands them to the validator, and their hostile variants:
 * batches, wrong event names, records missing a field or holding one of the wrong type, keys encoded otherwise than S3
 * encodes them or not encodable at all, huge keys, another bucket, versions that do not exist, and documents that are
 * no S3 event. Each payload says how many records it holds and whether failing the invocation (Lambda then retries
 * it and parks it on the failure queue) is a fair answer: only for a payload S3 never sends whose fault is the
 * payload's shape, and only with an error that says so.
 */
final class S3EventPayloads {
    /** One payload: its JSON, what was done to it, how many records it holds, whether failing it is fair. */
    record Payload(String json, String how, int records, boolean mayFail) {
    }

    private final Random random;
    private final String inbox;
    private final List<String[]> objects;

    /** @param objects key and version id of objects that exist in {@code inbox} */
    S3EventPayloads(long seed, String inbox, List<String[]> objects) {
        this.random = new Random(seed);
        this.inbox = inbox;
        this.objects = objects;
    }

    /**
     * A key as S3 writes it in a notification: {@code application/x-www-form-urlencoded} (a space is {@code +},
     * {@code +} is {@code %2B}, UTF-8 bytes percent-encoded), the path's slashes left as they are.
     */
    static String encodeAsS3(String key) {
        return URLEncoder.encode(key, StandardCharsets.UTF_8).replace("%2F", "/");
    }

    /** The keys of a notification payload's records, decoded as S3 encoded them (none when it is no such payload). */
    @SuppressWarnings("unchecked")
    static List<String> decodedKeys(String payload) {
        List<String> keys = new ArrayList<>();
        try {
            for (Object record : (List<Object>) JSON.std.mapFrom(payload).get("Records")) {
                Object key = ((Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) record).get("s3")).get("object")).get("key");
                keys.add(URLDecoder.decode(String.valueOf(key), StandardCharsets.UTF_8));
            }
        } catch (IOException | RuntimeException e) {
            // not a notification this test can read: no keys
        }
        return keys;
    }

    @SuppressWarnings("unchecked")
    Payload next() {
        int kind = random.nextInt(12);
        return switch (kind) {
            case 0 -> payload("one record", false, record(object(), "ObjectCreated:Put"));
            case 1 -> {
                int n = 2 + random.nextInt(9);
                List<Map<String, Object>> records = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    records.add(record(object(), pick(List.of("ObjectCreated:Put", "ObjectCreated:CompleteMultipartUpload",
                            "ObjectCreated:Copy", "ObjectRemoved:Delete"))));
                }
                yield payload("a batch of " + n, false, records.toArray(Map[]::new));
            }
            case 2 -> {
                String name = pick(List.of("ObjectRemoved:Delete", "ObjectRemoved:DeleteMarkerCreated", "ObjectCreated", "",
                        "ObjectRestore:Completed", "s3:ObjectCreated:Put", "objectcreated:put", "LifecycleExpiration:Delete"));
                yield payload("event name '" + name + "'", false, record(object(), name));
            }
            case 3 -> {
                Map<String, Object> record = record(object(), "ObjectCreated:Put");
                String field = pick(List.of("eventName", "s3.object.versionId", "s3.object.eTag", "s3.object.size",
                        "s3.object.sequencer", "awsRegion", "userIdentity"));
                remove(record, field);
                yield payload("without " + field, false, record);
            }
            case 4 -> {
                Map<String, Object> record = record(object(), "ObjectCreated:Put");
                String field = pick(List.of("s3", "s3.object", "s3.object.key", "s3.bucket", "s3.bucket.name", "eventTime"));
                remove(record, field);
                // a record S3 never sends: answered as malformed (or the invocation refused with a message naming it)
                yield payload("without " + field, true, record, record(object(), "ObjectCreated:Put"));
            }
            case 5 -> {
                Map<String, Object> record = record(object(), "ObjectCreated:Put");
                String key = pick(List.of("%", "%zz", "progress_events/%C3.jsonl", "progress_events/%FF%FE.jsonl", "", "%E2%80",
                        "progress_events/progress-2026-03-02.jsonl%"));
                object(record).put("key", key);
                yield payload("raw key '" + key + "'", false, record, record(object(), "ObjectCreated:Put"));
            }
            case 6 -> {
                // the same key encoded otherwise than S3 does (%2F, %20): decodes to the same key
                String[] object = object();
                Map<String, Object> record = record(object, "ObjectCreated:Put");
                object(record).put("key", URLEncoder.encode(object[0], StandardCharsets.UTF_8).replace("+", "%20"));
                yield payload("key percent-encoded throughout", false, record);
            }
            case 7 -> {
                StringBuilder key = new StringBuilder("progress_events/");
                int length = pick(List.of(1025, 4096, 200_000));
                while (key.length() < length) {
                    key.append(random.nextBoolean() ? "x" : "\u00E9");
                }
                Map<String, Object> record = record(object(), "ObjectCreated:Put");
                object(record).put("key", encodeAsS3(key.toString()));
                yield payload("a key of " + length + " characters", false, record);
            }
            case 8 -> {
                Map<String, Object> record = record(object(), "ObjectCreated:Put");
                String bucket = pick(List.of("landing-local-lake-123456789012-us-east-1", "some-other-bucket"));
                ((Map<String, Object>) ((Map<String, Object>) record.get("s3")).get("bucket")).put("name", bucket);
                yield payload("bucket " + bucket, false, record);
            }
            case 9 -> {
                Map<String, Object> record = record(object(), "ObjectCreated:Put");
                String change = pick(List.of("versionId", "key"));
                if (change.equals("versionId")) {
                    object(record).put("versionId", "no-such-version-" + random.nextInt(1000));
                } else {
                    object(record).put("key", encodeAsS3("progress_events/progress-2026-03-0" + (3 + random.nextInt(6)) + ".jsonl"));
                }
                yield payload("a " + change + " that does not exist", false, record);
            }
            case 10 -> {
                Map<String, Object> record = record(object(), "ObjectCreated:Put");
                String field = pick(List.of("size", "eventTime", "sequencer"));
                switch (field) {
                    case "size" -> object(record).put("size", "abc");
                    case "eventTime" -> record.put("eventTime", "not-a-time");
                    default -> object(record).put("sequencer", 12);
                }
                yield payload(field + " of the wrong type", true, record);
            }
            default -> {
                String document = pick(List.of("{}", "{\"Records\":[]}", "{\"Records\":null}", "[]", "null", "\"x\"", "not json",
                        "{\"Records\":{}}", "{\"Records\":[null]}", "{\"Records\":[{}]}", "{\"Records\":[1]}"));
                // no record names an object: answered with no records (Lambda's serializer reads a Records object as none)
                boolean empty = document.equals("{}") || document.equals("{\"Records\":[]}") || document.equals("{\"Records\":null}")
                        || document.equals("null") || document.equals("{\"Records\":{}}");
                yield new Payload(document, "document " + document, empty ? 0 : 1, !empty);
            }
        };
    }

    private String[] object() {
        return objects.get(random.nextInt(objects.size()));
    }

    private Map<String, Object> record(String[] object, String eventName) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("key", encodeAsS3(object[0]));
        item.put("size", 100);
        item.put("eTag", "0123456789abcdef0123456789abcdef");
        item.put("versionId", object[1]);
        item.put("sequencer", String.format("%016X", 0x6F00000000L + random.nextInt(1 << 20)));
        Map<String, Object> bucket = new LinkedHashMap<>();
        bucket.put("name", inbox);
        bucket.put("ownerIdentity", Map.of("principalId", "A1"));
        bucket.put("arn", "arn:aws:s3:::" + inbox);
        Map<String, Object> s3 = new LinkedHashMap<>();
        s3.put("s3SchemaVersion", "1.0");
        s3.put("configurationId", "fuzz");
        s3.put("bucket", bucket);
        s3.put("object", item);
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("eventVersion", "2.1");
        record.put("eventSource", "aws:s3");
        record.put("awsRegion", "us-east-1");
        record.put("eventTime", "2026-03-02T10:00:00.000Z");
        record.put("eventName", eventName);
        record.put("userIdentity", Map.of("principalId", "AWS:A1"));
        record.put("requestParameters", Map.of("sourceIPAddress", "127.0.0.1"));
        record.put("responseElements", Map.of("x-amz-request-id", "FUZZ", "x-amz-id-2", "FUZZ"));
        record.put("s3", s3);
        return record;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Map<String, Object> record) {
        return (Map<String, Object>) ((Map<String, Object>) record.get("s3")).get("object");
    }

    @SuppressWarnings("unchecked")
    private static void remove(Map<String, Object> record, String path) {
        String[] parts = path.split("\\.");
        Map<String, Object> at = record;
        for (int i = 0; i < parts.length - 1; i++) {
            at = (Map<String, Object>) at.get(parts[i]);
        }
        at.remove(parts[parts.length - 1]);
    }

    @SafeVarargs
    private Payload payload(String how, boolean mayFail, Map<String, Object>... records) {
        try {
            return new Payload(JSON.std.asString(Map.of("Records", List.of(records))), how, records.length, mayFail);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private <T> T pick(List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }
}
