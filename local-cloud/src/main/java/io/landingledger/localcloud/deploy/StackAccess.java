package io.landingledger.localcloud.deploy;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.localcloud.iam.AuthorizationRequest;
import io.landingledger.localcloud.iam.Caller;
import io.landingledger.localcloud.iam.CloudFormationRequestActions;
import io.landingledger.localcloud.iam.Decision;
import io.landingledger.localcloud.iam.DynamoDbRequestActions;
import io.landingledger.localcloud.iam.EventBridgeRequestActions;
import io.landingledger.localcloud.iam.LambdaRequestActions;
import io.landingledger.localcloud.iam.PolicyDocument;
import io.landingledger.localcloud.iam.PolicyEvaluator;
import io.landingledger.localcloud.iam.RequestMapping;
import io.landingledger.localcloud.iam.S3Request;
import io.landingledger.localcloud.iam.S3RequestActions;
import io.landingledger.localcloud.iam.S3TablesRequestActions;
import io.landingledger.localcloud.iam.SqsRequestActions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The deployed stack's IAM, enforced: each request is mapped to the IAM actions and resources AWS authorizes it as
 * ({@code io.landingledger.localcloud.iam}), and decided by AWS's evaluation logic over the caller's identity policies
 * (its role's, as the template wrote them) and the resource's policy (the bucket's). The operator signs as an
 * administrator: their requests are still subject to the buckets' explicit denies, as on AWS.
 *
 * <p>Transport: the gateway listens on loopback HTTP, and requests are evaluated as if over TLS (aws:SecureTransport
 * true), as the SDKs and the CLI send them on AWS. That the buckets refuse plain HTTP is enforced only on AWS.
 */
final class StackAccess implements AccessPolicy {
    private static final String OPERATOR = "arn:aws:iam::%s:user/operator";
    private static final Map<String, Object> ADMINISTRATOR = Map.of("Version", "2012-10-17", "Statement",
            List.of(Map.of("Sid", "OperatorAdministrator", "Effect", "Allow", "Action", "*", "Resource", "*")));

    private final IamState iam;
    private final String account;
    private final PolicyEvaluator evaluator = new PolicyEvaluator();
    private final DynamoDbRequestActions dynamoDb;
    private final LambdaRequestActions lambda;
    private final SqsRequestActions sqs;
    private final CloudFormationRequestActions cloudFormation;
    private final EventBridgeRequestActions events;
    private final S3TablesRequestActions tables;
    private final Map<String, PolicyDocument> parsed = new ConcurrentHashMap<>();
    /** Where each authorization allowed to a role goes, with its statement; null: not recorded (the default). */
    private volatile java.util.function.Consumer<AllowedRequest> allowed;

    StackAccess(IamState iam, LocalLambda functions, String account, String region) {
        this.iam = iam;
        this.account = account;
        this.dynamoDb = new DynamoDbRequestActions(region, account);
        this.lambda = new LambdaRequestActions(region, account);
        this.sqs = new SqsRequestActions(region, account);
        this.cloudFormation = new CloudFormationRequestActions(region, account);
        this.events = new EventBridgeRequestActions(region, account);
        this.tables = new S3TablesRequestActions(region, account);
    }

    @Override
    public String authorize(Principal principal, Request request) {
        RequestMapping mapping = mapping(request);
        Decision decision = evaluator.authorize(caller(principal), mapping, identityPolicies(principal), this::resourcePolicy);
        if (decision.allowed()) {
            record(principal, mapping.operation(), mapping.requests());
        }
        return decision.allowed() ? null : decision.message();
    }

    /** Records every authorization allowed to a role from now on ({@link AllowedRequest}); null stops it. */
    void recordAllowed(java.util.function.Consumer<AllowedRequest> listener) {
        this.allowed = listener;
    }

    /**
     * Each of an allowed request's authorizations with the statement that allowed it: evaluated once more one by one
     * (the mapping's decision names one statement for all), and only while someone records them.
     */
    private void record(Principal principal, String operation, List<AuthorizationRequest> requests) {
        java.util.function.Consumer<AllowedRequest> listener = allowed;
        if (listener == null || principal.operator()) {
            return;
        }
        for (AuthorizationRequest request : requests) {
            Decision one = evaluator.evaluate(caller(principal), request, identityPolicies(principal),
                    resourcePolicy(request.resource()));
            listener.accept(new AllowedRequest(principal.roleName(), operation, request.action(), request.resource(),
                    one.policy(), one.sid()));
        }
    }

    @Override
    public String listBucketDenied(Principal principal, String bucket) {
        if (iam.isTableBucket(bucket)) {
            // a table's reader or writer asks whether a file exists: S3 Tables answers it to whoever may read table data
            AuthorizationRequest read = AuthorizationRequest.of("s3tables:GetTableData", tables.bucketArn(bucket) + "/table/*");
            Decision decision = evaluator.evaluate(caller(principal), read, identityPolicies(principal),
                    resourcePolicy(read.resource()));
            if (decision.allowed()) {
                record(principal, "HeadObject (404 or 403)", List.of(read));
            }
            return decision.allowed() ? null : decision.message();
        }
        AuthorizationRequest list = AuthorizationRequest.of("s3:ListBucket", "arn:aws:s3:::" + bucket);
        Decision decision = evaluator.evaluate(caller(principal), list, identityPolicies(principal), resourcePolicy(list.resource()));
        if (decision.allowed()) {
            record(principal, "HeadObject (404 or 403)", List.of(list));
        }
        return decision.allowed() ? null : decision.message();
    }

    /** Null when {@code service} may assume {@code role} (its trust policy, with the source the service sends); else why not. */
    String mayAssume(IamState.Role role, String service, String sourceAccount, String sourceArn) {
        Map<String, List<String>> context = new LinkedHashMap<>();
        if (sourceAccount != null) {
            context.put("aws:sourceaccount", List.of(sourceAccount));
        }
        if (sourceArn != null) {
            context.put("aws:sourcearn", List.of(sourceArn));
        }
        Decision decision = evaluator.mayAssumeRole(Caller.service(service), role.arn(), document("trust:" + role.name(), role.trust()),
                context);
        return decision.allowed() ? null : decision.message();
    }

    /** Null when a session of {@code role} may do {@code action} on {@code resource} by its identity policies; else why not. */
    String roleMay(IamState.Role role, String action, String resource) {
        Decision decision = evaluator.evaluate(Caller.roleSession(role.arn(), "local"), AuthorizationRequest.of(action, resource),
                identityPolicies(role.name()), null);
        return decision.allowed() ? null : decision.message();
    }

    private Caller caller(Principal principal) {
        if (principal.operator()) {
            return Caller.user(String.format(OPERATOR, account));
        }
        IamState.Role role = iam.role(principal.roleName());
        String session = principal.arn().substring(principal.arn().lastIndexOf('/') + 1);
        return Caller.roleSession(role.arn(), session);
    }

    private List<PolicyDocument> identityPolicies(Principal principal) {
        if (principal.operator()) {
            return List.of(document("operator", ADMINISTRATOR));
        }
        return identityPolicies(principal.roleName());
    }

    private List<PolicyDocument> identityPolicies(String roleName) {
        List<PolicyDocument> documents = new ArrayList<>();
        iam.identityPolicies(roleName).forEach((name, document) -> documents.add(document(roleName + "/" + name, document)));
        return documents;
    }

    /**
     * The resource-based policy that governs {@code arn}: a bucket's, for the bucket and its objects; a table bucket's,
     * for the table bucket and its tables.
     */
    private PolicyDocument resourcePolicy(String arn) {
        if (arn != null && arn.startsWith("arn:aws:s3tables:")) {
            int table = arn.indexOf("/table/");
            String bucketArn = table < 0 ? arn : arn.substring(0, table);
            Map<String, Object> policy = iam.tableBucketPolicy(bucketArn);
            return policy == null ? null : document("table-bucket:" + bucketArn, policy);
        }
        if (arn == null || !arn.startsWith("arn:aws:s3:::")) {
            return null;
        }
        String rest = arn.substring("arn:aws:s3:::".length());
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        Map<String, Object> policy = iam.bucketPolicy(bucket);
        return policy == null ? null : document("bucket:" + bucket, policy);
    }

    private PolicyDocument document(String name, Map<String, Object> document) {
        return parsed.computeIfAbsent(name, n -> {
            try {
                return PolicyDocument.parse(name, JSON.std.asString(document));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private RequestMapping mapping(Request request) {
        Map<String, List<String>> query = multi(request.query());
        switch (request.service()) {
            case "s3":
                // evaluated as if over TLS: see the class comment
                S3Request s3 = S3Request.of(request.method(), request.rawPath(), query, multi(request.headers()), true);
                RequestMapping mapped = S3RequestActions.map(request.body() == null ? s3 : s3.withBody(request.body()));
                String bucket = AwsGateway.bucketAndKey(HttpHead.decode(request.rawPath()))[0];
                return iam.isTableBucket(bucket) ? tables.storage(mapped, bucket) : mapped;
            case "dynamodb":
                return dynamoDb.map(request.headers().get("x-amz-target"), request.body());
            case "sqs": {
                String target = request.headers().get("x-amz-target");
                if (target != null) {
                    return sqs.mapJson(target, request.body());
                }
                return sqs.mapQuery(CloudFormationApi.form(new String(request.body(), StandardCharsets.UTF_8)));
            }
            case "lambda":
                return lambda.map(request.method(), request.rawPath(), query);
            case "cloudformation":
                return cloudFormation.map(CloudFormationApi.form(new String(request.body(), StandardCharsets.UTF_8)));
            case "events":
                return events.map(request.headers().get("x-amz-target"), request.body());
            case "s3tables":
                return tables.map(request.method(), request.rawPath(), request.query());
            default:
                return RequestMapping.unmapped(request.service(), "the local stack does not serve " + request.service());
        }
    }

    private static Map<String, List<String>> multi(Map<String, String> single) {
        Map<String, List<String>> multi = new LinkedHashMap<>();
        single.forEach((k, v) -> multi.put(k, List.of(v)));
        return multi;
    }
}
