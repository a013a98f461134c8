package io.landingledger.lambda.handlers;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;

import io.landingledger.core.json.JsonCodec;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A function whose input and output are types, not maps: Lambda's runtime (and the local cloud's) calls
 * {@link #handleRequest(InputStream, OutputStream, Context)}, which reads the payload as {@code I} — an AWS event
 * type (S3Event, SQSEvent) with the serializers Lambda's Java runtime uses for it ({@link LambdaEventSerializers}),
 * any other type (a record) with the core's {@link JsonCodec}, strictly: an unknown or mistyped field fails the
 * invocation with a message naming it — then runs {@link #handle} and writes its answer with the codec. Lambda's
 * runtime never guesses at a record's serialization: it hands over the bytes.
 *
 * @param <I> the payload's type
 * @param <O> the answer's type (a record)
 */
public abstract class TypedHandler<I, O> implements RequestStreamHandler {
    private final Class<I> input;
    private final PojoSerializer<I> eventSerializer;

    protected TypedHandler(Class<I> input) {
        this.input = Objects.requireNonNull(input, "input");
        this.eventSerializer = LambdaEventSerializers.isLambdaSupportedEvent(input.getName())
                ? LambdaEventSerializers.serializerFor(input, input.getClassLoader()) : null;
    }

    /** The function's work on a payload already read: what tests and in-process callers call. */
    public abstract O handle(I payload, Context context);

    /**
     * The answer to a payload the codec refused ({@code refusal} names the field), or {@code null} (the default) to
     * fail the invocation with it.
     */
    protected O refused(IllegalArgumentException refusal) {
        return null;
    }

    @Override
    public final void handleRequest(InputStream in, OutputStream out, Context context) throws IOException {
        byte[] payload = in.readAllBytes();
        I read;
        try {
            read = read(payload);
        } catch (IllegalArgumentException refusal) {
            O answer = refused(refusal);
            if (answer == null) {
                throw refusal;
            }
            JsonCodec.write(out, answer);
            return;
        }
        JsonCodec.write(out, handle(read, context));
    }

    /** The payload as {@code I}; null for an empty payload or {@code null}. */
    I read(byte[] payload) {
        if (eventSerializer != null) {
            String text = new String(payload, StandardCharsets.UTF_8);
            if (text.isBlank() || text.strip().equals("null")) {
                return null; // as the codec reads JSON null: the runtime's serializer would throw on it
            }
            try {
                return eventSerializer.fromJson(text);
            } catch (RuntimeException unreadable) {
                // the runtime's serializer says only what it tried (a JSONException, a ClassNotFoundException from its
                // fallback): say what is wrong with the payload instead, which the failure queue then shows
                throw new IllegalArgumentException("the payload is not " + input.getSimpleName() + " JSON as Lambda delivers it (a JSON"
                        + " object whose records hold every field the service always sends): "
                        + unreadable.getClass().getSimpleName(), unreadable);
            }
        }
        return JsonCodec.read(payload, input);
    }
}
