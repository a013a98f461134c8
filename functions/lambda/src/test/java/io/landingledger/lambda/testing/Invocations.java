package io.landingledger.lambda.testing;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;

import io.landingledger.core.json.JsonCodec;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A handler invoked as Lambda's runtime invokes it: the payload as JSON bytes in (an AWS event through the serializers
 * Lambda uses for it, a map or record through JsonCodec), the answer's JSON read back as a map for the test to check.
 * A handler's exception is thrown as it is.
 */
public final class Invocations {
    private Invocations() {
    }

    public static Map<String, Object> invoke(RequestStreamHandler handler, Object payload, Context context) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            handler.handleRequest(new ByteArrayInputStream(json(payload)), out, context);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return JsonCodec.readMap(out.toString(StandardCharsets.UTF_8));
    }

    /** The payload's JSON: an AWS event type's as Lambda writes it, anything else the codec's. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static byte[] json(Object payload) {
        if (payload instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        if (payload != null && LambdaEventSerializers.isLambdaSupportedEvent(payload.getClass().getName())) {
            PojoSerializer serializer = LambdaEventSerializers.serializerFor(payload.getClass(), payload.getClass().getClassLoader());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            serializer.toJson(payload, out);
            return out.toByteArray();
        }
        return JsonCodec.write(payload);
    }
}
