package io.landingledger.localcloud.deploy;

import com.fasterxml.jackson.jr.ob.JSON;

import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * S3's event notifications for the locally deployed stack: after an object is created, every LambdaConfiguration of
 * its bucket whose event, prefix and suffix match sends the function the notification S3 sends (event version 2.1, the
 * key URL-encoded with its slashes kept, the version's size, ETag and id, a sequencer that grows per bucket), as an asynchronous invocation,
 * and only where a Lambda permission lets s3.amazonaws.com invoke it from that bucket in this account.
 */
final class S3Notifier implements AwsGateway.ObjectCreatedListener {
    private final S3NotificationRules rules;
    private final LambdaPermissions permissions;
    private final LocalLambda lambda;
    private final S3Client s3;
    private final String region;
    private final String account;
    private final AtomicLong sequencer = new AtomicLong(0x5F0000000000L);
    /** Notifications S3 could not deliver (no permission): S3 drops them; the local stack keeps them to show. */
    private final List<String> undelivered = new CopyOnWriteArrayList<>();
    /** Which created objects S3 announces: all, unless the local run practises a lost event ({@code --no-bucket-events}). */
    private volatile java.util.function.Predicate<String> announced = key -> true;

    void announce(java.util.function.Predicate<String> which) {
        this.announced = which;
    }

    S3Notifier(S3NotificationRules rules, LambdaPermissions permissions, LocalLambda lambda, S3Client s3, String region, String account) {
        this.rules = rules;
        this.permissions = permissions;
        this.lambda = lambda;
        this.s3 = s3;
        this.region = region;
        this.account = account;
    }

    List<String> undelivered() {
        return List.copyOf(undelivered);
    }

    /** Where S3's EventBridge events go: the account's default bus. */
    private volatile java.util.function.Consumer<Map<String, Object>> eventBridge = event -> { };

    void eventBridge(java.util.function.Consumer<Map<String, Object>> bus) {
        this.eventBridge = bus;
    }

    @Override
    public void deleted(Principal principal, String bucket, String key, String versionId, boolean deleteMarker) {
        if (rules.sendsToEventBridge(bucket)) {
            Map<String, Object> object = new LinkedHashMap<>();
            object.put("key", key);
            if (versionId != null) {
                object.put("version-id", versionId);
            }
            Map<String, Object> detail = detail(bucket, object, "DeleteObject");
            detail.put("deletion-type", deleteMarker ? "Delete Marker Created" : "Permanently Deleted");
            eventBridge.accept(s3Event("Object Deleted", bucket, detail));
        }
    }

    /** The detail of S3's EventBridge event: the bucket, the object (given a sequencer here), who and why. */
    private Map<String, Object> detail(String bucket, Map<String, Object> object, String reason) {
        object.put("sequencer", String.format(Locale.ROOT, "%016X", sequencer.incrementAndGet()));
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("version", "0");
        detail.put("bucket", Map.of("name", bucket));
        detail.put("object", object);
        detail.put("request-id", UUID.randomUUID().toString());
        detail.put("requester", account);
        detail.put("reason", reason);
        return detail;
    }

    private Map<String, Object> s3Event(String detailType, String bucket, Map<String, Object> detail) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("version", "0");
        event.put("id", UUID.randomUUID().toString());
        event.put("detail-type", detailType);
        event.put("source", "aws.s3");
        event.put("account", account);
        event.put("time", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        event.put("region", region);
        event.put("resources", List.of("arn:aws:s3:::" + bucket));
        event.put("detail", detail);
        return event;
    }

    @Override
    public void created(Principal principal, String bucket, String key, String versionId, String eventName) {
        if (rules.sendsToEventBridge(bucket)) {
            HeadObjectResponse head = s3.headObject(r -> r.bucket(bucket).key(key).versionId(versionId));
            Map<String, Object> object = new LinkedHashMap<>();
            object.put("key", key);
            object.put("size", head.contentLength());
            object.put("etag", head.eTag() == null ? null : head.eTag().replace("\"", ""));
            if (head.versionId() != null) {
                object.put("version-id", head.versionId());
            }
            eventBridge.accept(s3Event("Object Created", bucket, detail(bucket, object, eventName.substring(eventName.indexOf(':') + 1)
                    + "Object")));
        }
        List<S3NotificationRules.Rule> matching = new ArrayList<>();
        for (S3NotificationRules.Rule rule : rules.of(bucket)) {
            if (rule.matches(eventName, key)) {
                matching.add(rule);
            }
        }
        if (matching.isEmpty() || !announced.test(bucket + "/" + key)) {
            return;
        }
        HeadObjectResponse head = s3.headObject(r -> r.bucket(bucket).key(key).versionId(versionId));
        String sequence = String.format(Locale.ROOT, "%016X", sequencer.incrementAndGet());
        for (S3NotificationRules.Rule rule : matching) {
            if (!permissions.allows(rule.function(), "s3.amazonaws.com", "arn:aws:s3:::" + bucket, account)) {
                undelivered.add(bucket + "/" + key + " -> " + rule.function() + ": no Lambda permission for s3.amazonaws.com from "
                        + "arn:aws:s3:::" + bucket);
                continue;
            }
            try {
                lambda.invokeAsync(rule.function(), null, event(rule, principal, bucket, key, head, eventName, sequence));
            } catch (LocalLambda.RequestTooLarge e) {
                undelivered.add(bucket + "/" + key + " -> " + rule.function() + ": " + e.getMessage());
            }
        }
    }

    private String event(S3NotificationRules.Rule rule, Principal principal, String bucket, String key, HeadObjectResponse head,
                         String eventName, String sequence) {
        Map<String, Object> object = new LinkedHashMap<>();
        // as S3 writes it: form-encoded (a space is '+', '+' is %2B, UTF-8 bytes %XX), the path's slashes left as they are
        object.put("key", URLEncoder.encode(key, StandardCharsets.UTF_8).replace("%2F", "/"));
        object.put("size", head.contentLength());
        object.put("eTag", head.eTag() == null ? null : head.eTag().replace("\"", ""));
        if (head.versionId() != null && !head.versionId().equals("null")) {
            object.put("versionId", head.versionId());
        }
        object.put("sequencer", sequence);
        Map<String, Object> s3Entity = new LinkedHashMap<>();
        s3Entity.put("s3SchemaVersion", "1.0");
        s3Entity.put("configurationId", rule.id());
        s3Entity.put("bucket", Map.of("name", bucket, "ownerIdentity", Map.of("principalId", account), "arn", "arn:aws:s3:::" + bucket));
        s3Entity.put("object", object);
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("eventVersion", "2.1");
        record.put("eventSource", "aws:s3");
        record.put("awsRegion", region);
        record.put("eventTime", Instant.now().truncatedTo(ChronoUnit.MILLIS).toString());
        record.put("eventName", eventName);
        record.put("userIdentity", Map.of("principalId", "AWS:" + principal.accessKeyId()));
        record.put("requestParameters", Map.of("sourceIPAddress", "127.0.0.1"));
        record.put("responseElements", Map.of("x-amz-request-id", UUID.randomUUID().toString().replace("-", "").substring(0, 16)
                .toUpperCase(Locale.ROOT), "x-amz-id-2", UUID.randomUUID().toString()));
        record.put("s3", s3Entity);
        try {
            return JSON.std.asString(Map.of("Records", List.of(record)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
