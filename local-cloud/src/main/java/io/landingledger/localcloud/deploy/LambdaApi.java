package io.landingledger.localcloud.deploy;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Lambda's Invoke API on the local stack's gateway ({@code POST /2015-03-31/functions/NAME/invocations}): the sweep's
 * re-drives (Event) and the on-call command line's repairs and sweeps (RequestResponse) reach the functions as they
 * would on AWS; IAM has already allowed lambda:InvokeFunction on the qualified function.
 */
final class LambdaApi implements AwsGateway.LocalService {
    private static final String PREFIX = "/2015-03-31/functions/";
    private final LocalLambda lambda;

    LambdaApi(LocalLambda lambda) {
        this.lambda = lambda;
    }

    @Override
    public AwsGateway.Answer handle(Principal principal, HttpHead head, byte[] body) {
        String path = head.rawPath();
        if (!path.startsWith(PREFIX) || !path.endsWith("/invocations") || !head.method().equals("POST")) {
            return AwsGateway.error("lambda", 400, "UnsupportedOperation", "the local stack's Lambda answers Invoke only, not "
                    + head.method() + " " + path);
        }
        String function = HttpHead.decode(path.substring(PREFIX.length(), path.length() - "/invocations".length()));
        String qualifier = head.query().get("Qualifier");
        String type = head.header("X-Amz-Invocation-Type");
        String payload = new String(body, StandardCharsets.UTF_8);
        try {
            if ("Event".equals(type)) {
                lambda.invokeAsync(function, qualifier, payload);
                return new AwsGateway.Answer(202, Map.of("Content-Type", "application/json"), new byte[0]);
            }
            if ("DryRun".equals(type)) {
                lambda.spec(function);
                return new AwsGateway.Answer(204, Map.of(), new byte[0]);
            }
            InvokeResult result = lambda.invoke(function, qualifier, payload);
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("Content-Type", "application/json");
            headers.put("X-Amz-Executed-Version", result.version());
            if (result.failed()) {
                headers.put("X-Amz-Function-Error", result.functionError());
            }
            return new AwsGateway.Answer(200, headers, result.payload());
        } catch (LocalLambda.RequestTooLarge e) {
            return AwsGateway.error("lambda", 413, "RequestEntityTooLargeException", e.getMessage());
        } catch (LocalLambda.ResourceNotFound e) {
            return AwsGateway.error("lambda", 404, "ResourceNotFoundException", e.getMessage());
        }
    }

    /** The ARN IAM authorizes an Invoke of {@code head} against (qualified when the request names a qualifier). */
    static String invokedArn(String path, Map<String, String> query, LocalLambda lambda) {
        if (!path.startsWith(PREFIX)) {
            return null;
        }
        int end = path.indexOf('/', PREFIX.length());
        String function = path.substring(PREFIX.length(), end < 0 ? path.length() : end);
        if (!lambda.exists(function)) {
            return null;
        }
        String arn = lambda.spec(function).arn();
        String qualifier = query.get("Qualifier") != null ? query.get("Qualifier") : LocalLambda.qualifierOf(function);
        return qualifier == null ? arn : arn + ":" + qualifier;
    }
}
