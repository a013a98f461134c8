package io.landingledger.lambda.handlers;

import io.landingledger.lambda.handlers.IamModel.Grant;
import io.landingledger.lambda.handlers.RecordedCalls.Call;

import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.lambda.model.InvokeRequest;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * Least privilege from recorded calls (issue 13, "Prove it offline"): each SDK request a function's code made is mapped
 * to the IAM actions and resources it needs, and checked against the function's role; every grant of the role must be
 * used by a recorded call or be one the Lambda service needs ({@link #SERVICE_GRANTS}).
 *
 * <p>Operation to action, from the Service Authorization Reference ("Actions, resources, and condition keys for Amazon
 * S3", its operations table; "Using IAM with DynamoDB transactions"; the S3 API reference's Permissions sections):
 * <ul>
 *   <li>HeadObject, GetObject: s3:GetObject on the object, or s3:GetObjectVersion when the request names a versionId
 *       ("you must have the s3:GetObjectVersion permission ... The s3:GetObject permission is not required"). A 404
 *       answer also needs s3:ListBucket on the bucket: without it S3 answers 403, which the code does not read as
 *       "not found" (HeadObject's Permissions section).</li>
 *   <li>ListObjectsV2: s3:ListBucket on the bucket (condition key s3:prefix); ListObjectVersions: s3:ListBucketVersions
 *       on the bucket ("Be aware of the name difference").</li>
 *   <li>PutObject, CreateMultipartUpload, UploadPart, CompleteMultipartUpload: s3:PutObject on the object;
 *       UploadPartCopy and CopyObject: s3:PutObject on the destination and s3:GetObject (s3:GetObjectVersion with a
 *       source version) on the source; AbortMultipartUpload: s3:AbortMultipartUpload; DeleteObject: s3:DeleteObject
 *       (s3:DeleteObjectVersion with a versionId).</li>
 *   <li>DynamoDB GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan: the action of the same name on the table ARN
 *       ({@code table/<name>/index/<index>} for a Query or Scan of an index); TransactWriteItems: per item, Put ->
 *       PutItem, Update -> UpdateItem, Delete -> DeleteItem, ConditionCheck -> ConditionCheckItem, on that item's
 *       table.</li>
 *   <li>Lambda Invoke: lambda:InvokeFunction on the function ARN as named, qualified by the alias or version when the
 *       name carries one (any invocation type).</li>
 * </ul>
 * Findings name the resource as the summary does (object keys shortened to their prefix and dataset, {@link #shape}).
 * An operation with no mapping here fails the check: a new kind of call needs its mapping first.
 *
 * <p>Statement conditions: {@code s3:prefix} (String*, on ListBucket / ListBucketVersions) is evaluated; any other key
 * is not, and the report lists the statements whose conditions were ignored. Deny statements in the role are applied.
 * Bucket policies are not evaluated here (TemplateIT checks them).
 */
final class LeastPrivilege {
    /** One IAM action on one resource that one recorded call needs. */
    record Need(String action, String resource, Map<String, String> context, Call call, String because) {
    }

    /** A grant the Lambda service uses with the function's role, not the function's code: allowed without a call. */
    record ServiceGrant(String what, String reason, java.util.function.BiPredicate<IamModel.Function, Grant> matches) {
    }

    /** The grants the code never uses but the Lambda service does, each with its reason. */
    static final List<ServiceGrant> SERVICE_GRANTS = List.of(
            new ServiceGrant("logs:CreateLogStream, logs:PutLogEvents on the function's own log group",
                    "Lambda writes the function's log lines (and EMF metric lines) to its log group with the execution role",
                    (f, g) -> (IamModel.actionMatches(g.action(), "logs:CreateLogStream") || IamModel.actionMatches(g.action(), "logs:PutLogEvents"))
                            && !g.action().contains("*")
                            && (g.resource().equals(f.logGroupArn()) || g.resource().startsWith(f.logGroupArn() + ":"))),
            new ServiceGrant("xray:PutTraceSegments, xray:PutTelemetryRecords on * (Tracing: Active)",
                    "with active tracing Lambda sends the invocation's segments with the execution role (X-Ray has no resource-level "
                            + "permissions for them); the code calls no X-Ray API",
                    (f, g) -> f.tracing() && g.resource().equals("*")
                            && (g.action().equals("xray:PutTraceSegments") || g.action().equals("xray:PutTelemetryRecords"))),
            new ServiceGrant("sqs:SendMessage / sns:Publish on the function's on-failure destination or dead-letter queue",
                    "Lambda sends a failed asynchronous invocation's record there with the execution role",
                    (f, g) -> f.failureDestinations().contains(g.resource())
                            && ((g.resource().startsWith("arn:aws:sqs:") && g.action().equals("sqs:SendMessage"))
                            || (g.resource().startsWith("arn:aws:sns:") && g.action().equals("sns:Publish")))));

    /** Managed policies: their documents are not in the template, so each one allowed must be named with its reason. */
    static final Map<String, String> SERVICE_MANAGED_POLICIES = Map.of(
            "arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
            "SAM adds it to a role it creates: Lambda writes the function's logs with it (logs:CreateLogGroup, "
                    + "CreateLogStream, PutLogEvents on every log group: broader than the function's own, issue 13)",
            "arn:aws:iam::aws:policy/AWSXrayWriteOnlyAccess",
            "SAM adds it for Tracing: Active: Lambda sends the trace segments with it; the code calls no X-Ray API");

    /** Condition keys this check evaluates. */
    private static final Set<String> EVALUATED_KEYS = Set.of("s3:prefix");

    private LeastPrivilege() {
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Operation -> IAM
    // ---------------------------------------------------------------------------------------------------------------

    /**
     * What {@code call} needs. {@code deployed} maps the names the emulators use (test bucket and table names) to the
     * deployed ones (the function's environment in the template).
     */
    static List<Need> needs(Call call, UnaryOperator<String> deployed) {
        SdkRequest request = call.request();
        List<Need> needs = new ArrayList<>();
        boolean notFound = call.status() != null && call.status() == 404;
        switch (request) {
            case HeadObjectRequest r -> {
                needs.add(object(call, version(r.versionId()) ? "s3:GetObjectVersion" : "s3:GetObject", deployed, r.bucket(), r.key()));
                if (notFound) {
                    needs.add(bucket(call, "s3:ListBucket", deployed, r.bucket(), Map.of(), "a 404 (not 403) for a missing key"));
                }
            }
            case GetObjectRequest r -> {
                needs.add(object(call, version(r.versionId()) ? "s3:GetObjectVersion" : "s3:GetObject", deployed, r.bucket(), r.key()));
                if (notFound) {
                    needs.add(bucket(call, "s3:ListBucket", deployed, r.bucket(), Map.of(), "a 404 (not 403) for a missing key"));
                }
            }
            case ListObjectsV2Request r -> needs.add(bucket(call, "s3:ListBucket", deployed, r.bucket(),
                    Map.of("s3:prefix", r.prefix() == null ? "" : r.prefix()), null));
            case ListObjectVersionsRequest r -> needs.add(bucket(call, "s3:ListBucketVersions", deployed, r.bucket(),
                    Map.of("s3:prefix", r.prefix() == null ? "" : r.prefix()), null));
            case PutObjectRequest r -> needs.add(object(call, "s3:PutObject", deployed, r.bucket(), r.key()));
            case CreateMultipartUploadRequest r -> needs.add(object(call, "s3:PutObject", deployed, r.bucket(), r.key()));
            case UploadPartRequest r -> needs.add(object(call, "s3:PutObject", deployed, r.bucket(), r.key()));
            case CompleteMultipartUploadRequest r -> needs.add(object(call, "s3:PutObject", deployed, r.bucket(), r.key()));
            case UploadPartCopyRequest r -> {
                needs.add(object(call, "s3:PutObject", deployed, r.destinationBucket(), r.destinationKey()));
                needs.add(source(call, deployed, r.sourceBucket(), r.sourceKey(), r.sourceVersionId(), r.copySource()));
            }
            case CopyObjectRequest r -> {
                needs.add(object(call, "s3:PutObject", deployed, r.destinationBucket(), r.destinationKey()));
                needs.add(source(call, deployed, r.sourceBucket(), r.sourceKey(), r.sourceVersionId(), r.copySource()));
            }
            case AbortMultipartUploadRequest r -> needs.add(object(call, "s3:AbortMultipartUpload", deployed, r.bucket(), r.key()));
            case DeleteObjectRequest r -> needs.add(object(call, version(r.versionId()) ? "s3:DeleteObjectVersion" : "s3:DeleteObject",
                    deployed, r.bucket(), r.key()));
            case GetItemRequest r -> needs.add(table(call, "dynamodb:GetItem", deployed, r.tableName(), null));
            case PutItemRequest r -> needs.add(table(call, "dynamodb:PutItem", deployed, r.tableName(), null));
            case UpdateItemRequest r -> needs.add(table(call, "dynamodb:UpdateItem", deployed, r.tableName(), null));
            case DeleteItemRequest r -> needs.add(table(call, "dynamodb:DeleteItem", deployed, r.tableName(), null));
            case QueryRequest r -> needs.add(table(call, "dynamodb:Query", deployed, r.tableName(), r.indexName()));
            case ScanRequest r -> needs.add(table(call, "dynamodb:Scan", deployed, r.tableName(), r.indexName()));
            case TransactWriteItemsRequest r -> {
                for (TransactWriteItem item : r.transactItems()) {
                    if (item.put() != null) {
                        needs.add(table(call, "dynamodb:PutItem", deployed, item.put().tableName(), null));
                    }
                    if (item.update() != null) {
                        needs.add(table(call, "dynamodb:UpdateItem", deployed, item.update().tableName(), null));
                    }
                    if (item.delete() != null) {
                        needs.add(table(call, "dynamodb:DeleteItem", deployed, item.delete().tableName(), null));
                    }
                    if (item.conditionCheck() != null) {
                        needs.add(table(call, "dynamodb:ConditionCheckItem", deployed, item.conditionCheck().tableName(), null));
                    }
                }
            }
            case InvokeRequest r -> {
                String name = r.functionName();
                String arn = name.startsWith("arn:") ? name
                        : "arn:aws:lambda:" + IamModel.REGION + ":" + IamModel.ACCOUNT + ":function:" + name;
                if (r.qualifier() != null && arn.split(":").length == 7) {
                    arn = arn + ":" + r.qualifier();
                }
                needs.add(new Need("lambda:InvokeFunction", arn, Map.of(), call, null));
            }
            default -> throw new AssertionError("no IAM mapping for " + call.operation() + " (at " + call.site()
                    + "): add it to LeastPrivilege.needs from the Service Authorization Reference");
        }
        return needs;
    }

    /**
     * A copy's source object. The SDK's own interceptor folds sourceBucket/sourceKey/sourceVersionId into the
     * x-amz-copy-source header value ({@code bucket/key?versionId=...}, URL-encoded) before the recorder sees the
     * request, so that is read when the fields are gone.
     */
    @SuppressWarnings("deprecation")
    private static Need source(Call call, UnaryOperator<String> deployed, String bucket, String key, String versionId, String copySource) {
        if (bucket == null && copySource != null) {
            String source = copySource.startsWith("/") ? copySource.substring(1) : copySource;
            int query = source.indexOf("?versionId=");
            versionId = query < 0 ? null : java.net.URLDecoder.decode(source.substring(query + "?versionId=".length()), java.nio.charset.StandardCharsets.UTF_8);
            source = query < 0 ? source : source.substring(0, query);
            bucket = java.net.URLDecoder.decode(source.substring(0, source.indexOf('/')), java.nio.charset.StandardCharsets.UTF_8);
            key = java.net.URLDecoder.decode(source.substring(source.indexOf('/') + 1), java.nio.charset.StandardCharsets.UTF_8);
        }
        return object(call, version(versionId) ? "s3:GetObjectVersion" : "s3:GetObject", deployed, bucket, key);
    }

    private static boolean version(String versionId) {
        return versionId != null && !versionId.isEmpty();
    }

    private static Need object(Call call, String action, UnaryOperator<String> deployed, String bucket, String key) {
        return new Need(action, "arn:aws:s3:::" + deployed.apply(bucket) + "/" + key, Map.of(), call, null);
    }

    private static Need bucket(Call call, String action, UnaryOperator<String> deployed, String bucket, Map<String, String> context,
                               String because) {
        return new Need(action, "arn:aws:s3:::" + deployed.apply(bucket), context, call, because);
    }

    private static Need table(Call call, String action, UnaryOperator<String> deployed, String table, String index) {
        String arn = "arn:aws:dynamodb:" + IamModel.REGION + ":" + IamModel.ACCOUNT + ":table/" + deployed.apply(table);
        return new Need(action, index == null ? arn : arn + "/index/" + index, Map.of(), call, null);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Evaluation
    // ---------------------------------------------------------------------------------------------------------------

    /** The statement matches the need: action, resource and the conditions this check evaluates. */
    static boolean matches(Grant grant, Need need) {
        return IamModel.actionMatches(grant.action(), need.action()) && IamModel.glob(grant.resource(), need.resource(), false)
                && conditionsHold(grant.condition(), need.context());
    }

    @SuppressWarnings("unchecked")
    private static boolean conditionsHold(Map<String, Object> condition, Map<String, String> context) {
        for (Map.Entry<String, Object> operator : condition.entrySet()) {
            for (Map.Entry<String, Object> entry : ((Map<String, Object>) operator.getValue()).entrySet()) {
                if (!EVALUATED_KEYS.contains(entry.getKey())) {
                    continue; // reported as ignored
                }
                String value = context.get(entry.getKey());
                List<String> patterns = entry.getValue() instanceof List<?> l ? l.stream().map(String::valueOf).toList()
                        : List.of(String.valueOf(entry.getValue()));
                boolean holds = switch (operator.getKey()) {
                    case "StringEquals" -> value != null && patterns.contains(value);
                    case "StringLike" -> value != null && patterns.stream().anyMatch(p -> IamModel.glob(p, value, false));
                    case "StringNotEquals" -> value == null || !patterns.contains(value);
                    case "StringNotLike" -> value == null || patterns.stream().noneMatch(p -> IamModel.glob(p, value, false));
                    default -> throw new AssertionError("condition operator " + operator.getKey() + " on " + entry.getKey() + " is not evaluated");
                };
                if (!holds) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The statement's condition keys this check did not evaluate. */
    @SuppressWarnings("unchecked")
    static Set<String> ignoredConditionKeys(Grant grant) {
        Set<String> ignored = new LinkedHashSet<>();
        grant.condition().values().forEach(v -> ((Map<String, Object>) v).keySet().stream()
                .filter(k -> !EVALUATED_KEYS.contains(k)).forEach(ignored::add));
        return ignored;
    }

    /** The outcome for one function: what it called, which grants allowed each call, and the findings. */
    record Report(String text, List<String> findings) {
    }

    static Report check(IamModel model, IamModel.Function function, List<Call> calls, UnaryOperator<String> deployed) {
        Set<String> findings = new LinkedHashSet<>();
        StringBuilder text = new StringBuilder();
        text.append(function.logicalId()).append(" (role ").append(function.role()).append(", transformed template)\n");
        text.append("  calls seen (operation -> IAM action on resource: the grant that allows it; at the call site):\n");

        Map<Grant, Integer> used = new LinkedHashMap<>();
        function.grants().forEach(g -> used.put(g, 0));
        // one line per (operation, action, resource with the key's last segment generalised, site, grant)
        Map<String, Integer> lines = new TreeMap<>();
        for (Call call : calls) {
            for (Need need : needs(call, deployed)) {
                List<Grant> allowing = function.grants().stream().filter(g -> g.allow() && matches(g, need)).toList();
                List<Grant> denying = function.grants().stream().filter(g -> !g.allow() && matches(g, need)).toList();
                allowing.forEach(g -> used.merge(g, 1, Integer::sum));
                String verdict;
                if (!denying.isEmpty()) {
                    verdict = "DENIED by " + denying.get(0).label();
                } else if (allowing.isEmpty()) {
                    verdict = "MISSING";
                } else {
                    verdict = String.join(", ", allowing.stream().map(g -> g.sid() == null ? g.policy() : g.sid()).distinct().toList());
                }
                String line = call.operation() + " -> " + need.action() + " " + model.display(shape(need.resource()))
                        + (need.because() == null ? "" : " (for " + need.because() + ")") + ": " + verdict + "; at " + call.site();
                lines.merge(line, 1, Integer::sum);
                if (verdict.equals("MISSING") || verdict.startsWith("DENIED")) {
                    findings.add(function.logicalId() + ": " + (verdict.equals("MISSING") ? "missing permission " : verdict + ": ")
                            + need.action() + " on " + model.display(shape(need.resource()))
                            + " for " + call.operation() + (need.because() == null ? "" : " (" + need.because() + ")") + " at " + call.site());
                }
            }
        }
        lines.forEach((line, count) -> text.append("    ").append(line).append(count > 1 ? "  (x" + count + ")" : "").append('\n'));

        text.append("  grants of the role (action on resource: how many recorded needs used it):\n");
        for (Map.Entry<Grant, Integer> entry : used.entrySet()) {
            Grant grant = entry.getKey();
            String where = (grant.sid() == null ? grant.policy() : grant.sid()) + " " + grant.action() + " on " + model.display(grant.resource());
            Set<String> ignored = ignoredConditionKeys(grant);
            String conditions = ignored.isEmpty() ? "" : " [condition keys not evaluated: " + String.join(", ", ignored) + "]";
            if (!grant.allow()) {
                text.append("    ").append(where).append(": Deny").append(conditions).append('\n');
                continue;
            }
            if (entry.getValue() > 0) {
                text.append("    ").append(where).append(": used ").append(entry.getValue()).append(conditions).append('\n');
                continue;
            }
            ServiceGrant service = SERVICE_GRANTS.stream().filter(s -> s.matches().test(function, grant)).findFirst().orElse(null);
            if (service != null) {
                text.append("    ").append(where).append(": Lambda service (").append(service.reason()).append(")\n");
            } else {
                text.append("    ").append(where).append(": UNUSED").append(conditions).append('\n');
                findings.add(function.logicalId() + ": unused grant " + where + " (policy " + grant.policy()
                        + "): no recorded call needs it and it is not a Lambda service grant");
            }
        }
        for (String managed : function.managedPolicies()) {
            String reason = SERVICE_MANAGED_POLICIES.get(managed);
            text.append("    managed ").append(managed).append(": ").append(reason == null ? "NOT ALLOWED" : "Lambda service (" + reason + ")").append('\n');
            if (reason == null) {
                findings.add(function.logicalId() + ": managed policy " + managed + " is not in LeastPrivilege.SERVICE_MANAGED_POLICIES "
                        + "(its grants cannot be checked against the calls)");
            }
        }
        text.append(findings.isEmpty() ? "  findings: none\n" : "  findings:\n");
        findings.forEach(f -> text.append("    ").append(f).append('\n'));
        return new Report(text.toString(), List.copyOf(findings));
    }

    /**
     * A resource as shown in the summary: dates, run ids and hashes in object keys become {@code ...} so that calls of
     * one kind share a line (the findings always show the full resource).
     */
    static String shape(String resource) {
        int objectKey = resource.startsWith("arn:aws:s3:::") ? resource.indexOf('/') : -1;
        if (objectKey < 0) {
            return resource;
        }
        String key = resource.substring(objectKey + 1);
        String[] parts = key.split("/", -1);
        // keep the top-level prefix and the dataset; the rest varies per unit and run
        if (parts.length <= 2) {
            return resource.substring(0, objectKey + 1) + (parts.length == 2 ? parts[0] + "/..." : key);
        }
        return resource.substring(0, objectKey + 1) + parts[0] + "/" + parts[1] + "/...";
    }
}
