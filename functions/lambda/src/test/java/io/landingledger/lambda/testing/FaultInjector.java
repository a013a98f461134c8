package io.landingledger.lambda.testing;

import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpResponse;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Fails attempts of matching requests before they are transmitted (inside the SDK's retry loop, so the retry
 * strategy judges them as it would a real response, and the emulator never executes them), or replaces a
 * matching response body with one that throws after some bytes.
 */
public final class FaultInjector implements ExecutionInterceptor {
    private record Rule(Predicate<SdkRequest> matches, AtomicInteger remaining, Supplier<? extends RuntimeException> fault) {
    }

    private record BodyRule(Predicate<SdkRequest> matches, AtomicInteger remaining, long afterBytes,
                            Supplier<? extends IOException> fault) {
    }

    private final List<Rule> rules = new CopyOnWriteArrayList<>();
    private final List<BodyRule> bodyRules = new CopyOnWriteArrayList<>();
    private final List<String> injected = Collections.synchronizedList(new ArrayList<>());
    private final List<LostRule> lostRules = new CopyOnWriteArrayList<>();
    private final List<SentRule> sentRules = new CopyOnWriteArrayList<>();

    /** Something that happens in the world (time passing, say) when a matching request is first sent. */
    private record SentRule(Predicate<SdkRequest> matches, java.util.concurrent.atomic.AtomicBoolean done, Runnable action) {
    }

    /** Run {@code action} once, when the first matching request is sent (it is still sent). */
    public void whenSent(Predicate<SdkRequest> matches, Runnable action) {
        sentRules.add(new SentRule(matches, new java.util.concurrent.atomic.AtomicBoolean(), action));
    }
    private static final ExecutionAttribute<String> LOST_BODY = new ExecutionAttribute<>("FaultInjector.lostBody");

    /** An error the client sees although the request took effect at the server (a response lost on the way back). */
    private record LostRule(Predicate<SdkRequest> matches, AtomicInteger remaining, int status, String contentType,
                            String errorType, String body) {
    }

    /** Replace the next {@code times} responses to matching requests, after the server executed them, with an error. */
    public void loseResponse(Predicate<SdkRequest> matches, int times, int status, String contentType, String errorType, String body) {
        lostRules.add(new LostRule(matches, new AtomicInteger(times), status, contentType, errorType, body));
    }

    /** Fail the next {@code times} attempts of matching requests with {@code fault}. */
    public void fail(Predicate<SdkRequest> matches, int times, Supplier<? extends RuntimeException> fault) {
        rules.add(new Rule(matches, new AtomicInteger(times), fault));
    }

    /** Break the body of the next {@code times} matching responses after {@code afterBytes} bytes. */
    public void breakBody(Predicate<SdkRequest> matches, int times, long afterBytes, Supplier<? extends IOException> fault) {
        bodyRules.add(new BodyRule(matches, new AtomicInteger(times), afterBytes, fault));
    }

    public int injected() {
        return injected.size();
    }

    /** What was injected so far, one entry a fault: the request's class name, with " body" or " response lost". */
    public List<String> injectedRequests() {
        synchronized (injected) {
            return List.copyOf(injected);
        }
    }

    public void clear() {
        rules.clear();
        bodyRules.clear();
        lostRules.clear();
        sentRules.clear();
        injected.clear();
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        for (SentRule rule : sentRules) {
            if (rule.matches().test(context.request()) && rule.done().compareAndSet(false, true)) {
                rule.action().run();
            }
        }
        for (Rule rule : rules) {
            if (rule.matches().test(context.request()) && rule.remaining().getAndDecrement() > 0) {
                injected.add(context.request().getClass().getSimpleName());
                throw rule.fault().get();
            }
        }
    }

    @Override
    public SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
        attributes.putAttribute(LOST_BODY, "");
        for (LostRule rule : lostRules) {
            if (context.httpResponse().isSuccessful() && rule.matches().test(context.request())
                    && rule.remaining().getAndDecrement() > 0) {
                injected.add(context.request().getClass().getSimpleName() + " response lost");
                attributes.putAttribute(LOST_BODY, rule.body());
                var response = context.httpResponse().toBuilder().statusCode(rule.status())
                        .removeHeader("Content-Length").removeHeader("x-amz-crc32").removeHeader("ETag")
                        .putHeader("Content-Type", rule.contentType())
                        .putHeader("Content-Length", Integer.toString(rule.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length));
                if (rule.errorType() != null) {
                    response.putHeader("x-amzn-ErrorType", rule.errorType());
                }
                return response.build();
            }
        }
        return context.httpResponse();
    }

    @Override
    public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
        Optional<InputStream> body = context.responseBody();
        String lost = attributes.getAttribute(LOST_BODY);
        if (lost != null && !lost.isEmpty()) {
            body.ifPresent(in -> {
                try {
                    in.close();
                } catch (IOException e) {
                    // the real response is discarded either way
                }
            });
            return Optional.of(new java.io.ByteArrayInputStream(lost.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
        for (BodyRule rule : bodyRules) {
            if (body.isPresent() && rule.matches().test(context.request()) && rule.remaining().getAndDecrement() > 0) {
                java.util.concurrent.atomic.AtomicBoolean once = new java.util.concurrent.atomic.AtomicBoolean();
                return Optional.of(new BreakingStream(body.get(), rule.afterBytes(), () -> {
                    if (once.compareAndSet(false, true)) {
                        injected.add(context.request().getClass().getSimpleName() + " body");
                    }
                    return rule.fault().get();
                }));
            }
        }
        return body;
    }
}
