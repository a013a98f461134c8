package io.landingledger.tools.local;

import com.amazonaws.services.lambda.runtime.events.S3Event;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;

import io.landingledger.lambda.S3EventJson;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The S3 ObjectCreated notification for an object the local run uploaded ({@link S3EventJson}, exactly as S3
 * shapes it), deserialized by the same serializer the Lambda runtime uses, so the handler sees what it sees in AWS.
 */
public final class S3Notifications {
    private static final PojoSerializer<S3Event> SERIALIZER =
            LambdaEventSerializers.serializerFor(S3Event.class, S3Notifications.class.getClassLoader());
    /** S3's sequencer grows per key; one counter for the run keeps every new version later than the last. */
    private static final AtomicLong SEQUENCER = new AtomicLong(System.currentTimeMillis() << 8);

    private S3Notifications() {
    }

    public record Created(String bucket, String key, String versionId, String etag, long size, Instant at, String region) {
    }

    public static S3Event event(List<Created> objects) {
        return SERIALIZER.fromJson(S3EventJson.of(objects.stream()
                .map(c -> new S3EventJson.Created(c.bucket(), c.key(), c.versionId(), c.etag(), c.size(), c.at(), c.region(),
                        String.format("%018X", SEQUENCER.incrementAndGet())))
                .toList()));
    }
}
