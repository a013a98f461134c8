package io.landingledger.cli.local;

import com.amazonaws.services.lambda.runtime.events.S3Event;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.fasterxml.jackson.jr.ob.JSON;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The S3 ObjectCreated notification for an object the local run uploaded, shaped exactly as S3 sends it
 * (events/s3-put.json: URL-encoded key, versionId, eTag, size, sequencer) and deserialized by the same serializer
 * the Lambda runtime uses, so the handler sees what it sees in AWS.
 */
final class S3Notifications {
    private static final PojoSerializer<S3Event> SERIALIZER =
            LambdaEventSerializers.serializerFor(S3Event.class, S3Notifications.class.getClassLoader());
    /** S3's sequencer grows per key; one counter for the run keeps every new version later than the last. */
    private static final AtomicLong SEQUENCER = new AtomicLong(System.currentTimeMillis() << 8);

    private S3Notifications() {
    }

    record Created(String bucket, String key, String versionId, String etag, long size, Instant at, String region) {
    }

    static String json(List<Created> objects) {
        List<Object> records = objects.stream().map(S3Notifications::record).map(r -> (Object) r).toList();
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("Records", records);
        try {
            return JSON.std.asString(event);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static S3Event event(List<Created> objects) {
        return SERIALIZER.fromJson(json(objects));
    }

    private static Map<String, Object> record(Created created) {
        Map<String, Object> object = new LinkedHashMap<>();
        // S3 URL-encodes keys in notifications (a space becomes '+'); the handler decodes them once
        object.put("key", URLEncoder.encode(created.key(), StandardCharsets.UTF_8).replace("%2F", "/"));
        object.put("size", created.size());
        object.put("eTag", created.etag());
        if (created.versionId() != null) {
            object.put("versionId", created.versionId());
        }
        object.put("sequencer", String.format("%018X", SEQUENCER.incrementAndGet()));
        Map<String, Object> bucket = new LinkedHashMap<>();
        bucket.put("name", created.bucket());
        bucket.put("ownerIdentity", Map.of("principalId", "LOCAL"));
        bucket.put("arn", "arn:aws:s3:::" + created.bucket());
        Map<String, Object> s3 = new LinkedHashMap<>();
        s3.put("s3SchemaVersion", "1.0");
        s3.put("configurationId", "landing-local");
        s3.put("bucket", bucket);
        s3.put("object", object);
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("eventVersion", "2.1");
        record.put("eventSource", "aws:s3");
        record.put("awsRegion", created.region());
        record.put("eventTime", created.at().truncatedTo(ChronoUnit.MILLIS).toString());
        record.put("eventName", "ObjectCreated:Put");
        record.put("userIdentity", Map.of("principalId", "AWS:LOCAL:producer"));
        record.put("requestParameters", Map.of("sourceIPAddress", "127.0.0.1"));
        record.put("responseElements", Map.of("x-amz-request-id", "LOCAL", "x-amz-id-2", "LOCAL"));
        record.put("s3", s3);
        return record;
    }
}
