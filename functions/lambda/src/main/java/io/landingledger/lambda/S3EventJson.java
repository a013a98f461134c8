package io.landingledger.lambda;

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

/**
 * The S3 ObjectCreated notification for an object, shaped exactly as S3 sends it (events/s3-put.json: the key
 * URL-encoded, versionId, eTag, size, sequencer). Used where no S3 event exists but the validator must be driven as
 * if one had arrived: the local run, and the deployed sweep's re-drive through the validator function.
 */
public final class S3EventJson {
    private S3EventJson() {
    }

    /**
     * One created object.
     *
     * @param sequencer the event's sequencer, or null when this is a re-drive (no S3 event ordered it)
     */
    public record Created(String bucket, String key, String versionId, String etag, long size, Instant at, String region,
                          String sequencer) {
    }

    public static String of(List<Created> objects) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("Records", objects.stream().map(S3EventJson::record).toList());
        try {
            return JSON.std.asString(event);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
        if (created.sequencer() != null) {
            object.put("sequencer", created.sequencer());
        }
        Map<String, Object> bucket = new LinkedHashMap<>();
        bucket.put("name", created.bucket());
        bucket.put("ownerIdentity", Map.of("principalId", "LANDING"));
        bucket.put("arn", "arn:aws:s3:::" + created.bucket());
        Map<String, Object> s3 = new LinkedHashMap<>();
        s3.put("s3SchemaVersion", "1.0");
        s3.put("configurationId", "landing-ledger");
        s3.put("bucket", bucket);
        s3.put("object", object);
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("eventVersion", "2.1");
        record.put("eventSource", "aws:s3");
        record.put("awsRegion", created.region());
        record.put("eventTime", created.at().truncatedTo(ChronoUnit.MILLIS).toString());
        record.put("eventName", "ObjectCreated:Put");
        record.put("userIdentity", Map.of("principalId", "LANDING"));
        record.put("requestParameters", Map.of("sourceIPAddress", "127.0.0.1"));
        record.put("responseElements", Map.of("x-amz-request-id", "LANDING", "x-amz-id-2", "LANDING"));
        record.put("s3", s3);
        return record;
    }
}
