package io.landingledger.localcloud.iam;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Lambda REST requests to IAM actions on function ARNs
 * ({@code arn:aws:lambda:REGION:ACCOUNT:function:NAME[:QUALIFIER]}):
 * Invoke ({@code POST /2015-03-31/functions/{name}/invocations}, any InvocationType) is lambda:InvokeFunction on the
 * function as named, qualified by the {@code Qualifier} parameter or the name's own qualifier; GetFunction
 * ({@code GET .../functions/{name}}) and GetFunctionConfiguration ({@code GET .../functions/{name}/configuration}) the
 * actions of the same name; ListFunctions ({@code GET /2015-03-31/functions/}) lambda:ListFunctions on "*". The name
 * may be a name, {@code name:qualifier}, a partial ARN {@code ACCOUNT:function:name} or a full ARN. {@code rawPath} is
 * as sent, percent-encoded (an ARN's colons arrive as %3A). Anything else is unmapped.
 */
public final class LambdaRequestActions {
    private static final String FUNCTIONS = "/2015-03-31/functions/";
    private final String region;
    private final String account;

    public LambdaRequestActions(String region, String account) {
        this.region = region;
        this.account = account;
    }

    /** {@code query} holds the decoded query parameters. */
    public RequestMapping map(String method, String rawPath, Map<String, List<String>> query) {
        String where = method + " " + rawPath;
        if (rawPath == null || !rawPath.startsWith(FUNCTIONS)) {
            return RequestMapping.unmapped(where, "not a /2015-03-31/functions/ request");
        }
        String rest = rawPath.substring(FUNCTIONS.length());
        if (rest.isEmpty() && method.equals("GET")) {
            return RequestMapping.of("ListFunctions", AuthorizationRequest.of("lambda:ListFunctions", "*"));
        }
        String[] parts = rest.split("/", -1);
        String name;
        try {
            name = S3RequestActions.decode(parts[0]);
        } catch (IllegalArgumentException e) {
            return RequestMapping.unmapped(where, e.getMessage());
        }
        String suffix = parts.length > 1 ? String.join("/", Arrays.asList(parts).subList(1, parts.length)) : "";
        String operation;
        String action;
        if (method.equals("POST") && suffix.equals("invocations")) {
            operation = "Invoke";
            action = "lambda:InvokeFunction";
        } else if (method.equals("GET") && suffix.isEmpty()) {
            operation = "GetFunction";
            action = "lambda:GetFunction";
        } else if (method.equals("GET") && suffix.equals("configuration")) {
            operation = "GetFunctionConfiguration";
            action = "lambda:GetFunctionConfiguration";
        } else {
            return RequestMapping.unmapped(where, "Lambda operation " + method + " functions/{name}/" + suffix
                    + " is not mapped");
        }
        List<String> qualifiers = query.get("Qualifier");
        String arn = functionArn(name, qualifiers == null || qualifiers.isEmpty() ? null : qualifiers.get(0));
        return arn == null
                ? RequestMapping.unmapped(where, name + " is no function name, or its qualifier is not the Qualifier")
                : RequestMapping.of(operation, AuthorizationRequest.of(action, arn));
    }

    /** The ARN the function name (with the qualifier, if any) denotes, or null when they contradict each other. */
    public String functionArn(String name, String qualifier) {
        String arn;
        if (name.startsWith("arn:")) {
            arn = name;
        } else if (name.matches("\\d{12}:function:.+")) {
            arn = "arn:aws:lambda:" + region + ":" + name;
        } else {
            arn = "arn:aws:lambda:" + region + ":" + account + ":function:" + name;
        }
        String[] parts = arn.split(":");
        if (parts.length < 7 || parts.length > 8 || !parts[2].equals("lambda") || !parts[5].equals("function")) {
            return null;
        }
        if (qualifier == null || qualifier.isEmpty()) {
            return arn;
        }
        if (parts.length == 8) {
            return parts[7].equals(qualifier) ? arn : null;
        }
        return arn + ":" + qualifier;
    }
}
