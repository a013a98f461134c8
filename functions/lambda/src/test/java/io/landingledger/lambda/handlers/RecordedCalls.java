package io.landingledger.lambda.handlers;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;

import io.landingledger.lambda.testing.PipelineFixture;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Records every SDK request one function's clients make, with the call site that made it and the HTTP status it got
 * (LeastPrivilegeIT). One recorder per function, on that function's own clients: a request is attributed to the
 * function whose clients sent it, whichever thread sent it (the staging upload's parts and the promote's ranges go
 * out on the upload executor's threads).
 */
final class RecordedCalls implements ExecutionInterceptor {
    /**
     * A request as sent over HTTP, what the local cloud's request-to-action mappers read ({@code iam.*RequestActions}):
     * the service, method, encoded path, decoded query, headers, and the body of a DynamoDB or SQS request (its JSON
     * names the table or the queue; S3 and Lambda requests are mapped without theirs).
     */
    record Http(String service, String method, String rawPath, Map<String, List<String>> query, Map<String, List<String>> headers,
                byte[] body) {
        String header(String name) {
            return headers.entrySet().stream().filter(h -> h.getKey().equalsIgnoreCase(name) && !h.getValue().isEmpty())
                    .map(h -> h.getValue().get(0)).findFirst().orElse(null);
        }
    }

    /**
     * A request, where in the code it was made, the status it got (null: no response, e.g. an I/O fault), and how it
     * went over the wire (null: it never left the client).
     */
    record Call(SdkRequest request, String site, Integer status, Http http) {
        String operation() {
            String name = request.getClass().getSimpleName();
            return name.endsWith("Request") ? name.substring(0, name.length() - "Request".length()) : name;
        }
    }

    private static final ExecutionAttribute<String> SITE = new ExecutionAttribute<>("LeastPrivilegeIT.site");
    /** The request as the code made it: the SDK's own interceptors rewrite some (UploadPartCopy's source becomes a header). */
    private static final ExecutionAttribute<SdkRequest> REQUEST = new ExecutionAttribute<>("LeastPrivilegeIT.request");
    /** The last attempt's HTTP request (a retry sends the same operation again). */
    private static final ExecutionAttribute<Http> HTTP = new ExecutionAttribute<>("LeastPrivilegeIT.http");
    /** Test classes that also live in io.landingledger packages: never a call site of the function's code. */
    private static final Set<String> NOT_FUNCTION_CODE = Set.of(RecordedCalls.class.getName(), "io.landingledger.lambda.handlers.LeastPrivilegeIT",
            PipelineFixture.class.getName());

    private final List<Call> calls = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        attributes.putAttribute(SITE, site(Thread.currentThread().getStackTrace()));
        attributes.putAttribute(REQUEST, context.request());
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        SdkHttpRequest http = context.httpRequest();
        String service = service(attributes.getAttribute(REQUEST));
        byte[] body = null;
        if ((service.equals("dynamodb") || service.equals("sqs") || service.equals("eventbridge")) && context.requestBody().isPresent()) {
            try (InputStream in = context.requestBody().get().contentStreamProvider().newStream()) {
                body = in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        Map<String, List<String>> query = new LinkedHashMap<>();
        // a parameter without a value (?uploads) is [""] to the mappers, as the gateway hands it over
        http.rawQueryParameters().forEach((k, v) -> query.put(k, v.isEmpty() ? List.of("")
                : v.stream().map(value -> value == null ? "" : value).toList()));
        attributes.putAttribute(HTTP, new Http(service, http.method().name(), http.encodedPath(), query, http.headers(), body));
    }

    /** The service of an SDK request, by its model package: software.amazon.awssdk.services.<service>.model. */
    private static String service(SdkRequest request) {
        String name = request.getClass().getName();
        String prefix = "software.amazon.awssdk.services.";
        return name.startsWith(prefix) ? name.substring(prefix.length(), name.indexOf('.', prefix.length())) : name;
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        calls.add(new Call(attributes.getAttribute(REQUEST), attributes.getAttribute(SITE), context.httpResponse().statusCode(),
                attributes.getAttribute(HTTP)));
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        Integer status = context.exception() instanceof AwsServiceException service ? service.statusCode()
                : context.httpResponse().map(r -> r.statusCode()).orElse(null);
        calls.add(new Call(attributes.getAttribute(REQUEST), attributes.getAttribute(SITE), status, attributes.getAttribute(HTTP)));
    }

    List<Call> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    /**
     * The first io.landingledger frame (the adapter that called the SDK, e.g. {@code S3ObjectStore.head}) and, when
     * there is one, the first frame of another class after it (who asked, e.g. {@code IngestService$Run.headPublished}).
     */
    static String site(StackTraceElement[] stack) {
        String first = null;
        String firstClass = null;
        for (StackTraceElement frame : stack) {
            String type = frame.getClassName();
            if (!type.startsWith("io.landingledger.") || NOT_FUNCTION_CODE.stream().anyMatch(type::startsWith)) {
                continue;
            }
            String outer = type.contains("$") ? type.substring(0, type.indexOf('$')) : type;
            if (first == null) {
                first = name(frame);
                firstClass = outer;
            } else if (!outer.equals(firstClass)) {
                return first + " <- " + name(frame);
            }
        }
        return first == null ? "(no io.landingledger frame)" : first;
    }

    private static String name(StackTraceElement frame) {
        String type = frame.getClassName().substring(frame.getClassName().lastIndexOf('.') + 1);
        type = type.replaceAll("\\$\\$Lambda.*$", "").replaceAll("\\$\\d+$", "");
        String method = frame.getMethodName();
        if (method.startsWith("lambda$")) { // lambda$submitPart$2 -> submitPart
            method = method.substring("lambda$".length());
            method = method.contains("$") ? method.substring(0, method.indexOf('$')) : method;
        }
        return type + "." + method;
    }
}
