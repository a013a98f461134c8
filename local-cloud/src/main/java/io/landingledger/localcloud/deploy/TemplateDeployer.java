package io.landingledger.localcloud.deploy;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.localcloud.tables.LocalTableBucket;
import io.landingledger.localcloud.template.Resources;
import io.landingledger.localcloud.template.StackScope;
import io.landingledger.localcloud.template.Template;
import io.landingledger.localcloud.template.TemplateException;

import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Creates a transformed template's resources on the local stack, in dependency order, as CloudFormation would: its
 * parameters checked against their constraints, its conditions evaluated, every property resolved (the one template
 * model, {@link StackScope}, over the resources created so far), and each resource created on the service that stands for AWS here: buckets on S3Proxy, tables
 * and queues on moto, roles and policies in {@link IamState}, functions, versions, aliases, permissions and
 * EventInvokeConfigs in {@link LocalLambda}, schedules and rules in {@link LocalEvents}. Nothing here names a resource
 * of the template: what exists is what the template declares. A type that cannot run here is recorded and listed
 * ({@link DeployedResource#modelled} false); a property that would change behaviour and is not modelled fails the
 * deploy naming the resource.
 */
final class TemplateDeployer {
    /** Types recorded but not run locally: their effect exists only on AWS (docs/emulators.md). */
    static final Set<String> RECORDED_ONLY = Set.of("AWS::CloudWatch::Alarm", "AWS::CloudWatch::Dashboard", "AWS::SNS::Topic",
            "AWS::SNS::Subscription", "AWS::Glue::Database", "AWS::Glue::Table", "AWS::Athena::WorkGroup", "AWS::Pipes::Pipe",
            "AWS::Events::EventBusPolicy");

    private final StackParts stack;
    private final Template template;
    private final StackScope scope;
    private final MotoApi moto;
    private final S3Client s3;
    private final SecureRandom random = new SecureRandom();

    TemplateDeployer(StackParts stack, Template template, Map<String, String> parameterValues) {
        this.stack = stack;
        this.template = template;
        try {
            this.scope = new StackScope(template, stack.region, stack.account, stack.stackName, stack.stackId, parameterValues,
                    new Created());
        } catch (TemplateException e) {
            throw new DeployException(e.getMessage(), e);
        }
        this.moto = new MotoApi(stack.motoEndpoint, stack.region);
        this.s3 = stack.adminS3;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Order
    // ---------------------------------------------------------------------------------------------------------------

    private String scalarText(Object value) {
        return value instanceof Double d && d == Math.rint(d) ? Long.toString(d.longValue()) : String.valueOf(value);
    }

    /** Logical ids in an order where every resource comes after the ones it refers to or depends on. */
    @SuppressWarnings("unchecked")
    private List<String> order() {
        Set<String> ids = template.resources().keySet();
        Map<String, Set<String>> dependencies = new TreeMap<>();
        for (String id : ids) {
            Map<String, Object> resource = template.resource(id);
            Set<String> needs = new LinkedHashSet<>(template.references(id));
            Object dependsOn = resource.get("DependsOn");
            if (dependsOn instanceof String single) {
                needs.add(single);
            } else if (dependsOn instanceof List<?> list) {
                list.forEach(d -> needs.add(String.valueOf(d)));
            }
            for (String need : needs) {
                if (!ids.contains(need)) {
                    throw new DeployException(id + " depends on " + need + ", which the template does not declare");
                }
            }
            dependencies.put(id, needs);
        }
        List<String> ordered = new ArrayList<>();
        Set<String> done = new LinkedHashSet<>();
        for (String id : dependencies.keySet()) {
            visit(id, dependencies, done, new ArrayDeque<>(), ordered);
        }
        return ordered;
    }

    private static void visit(String id, Map<String, Set<String>> dependencies, Set<String> done, Deque<String> path, List<String> ordered) {
        if (done.contains(id)) {
            return;
        }
        if (path.contains(id)) {
            throw new DeployException("circular dependency: " + String.join(" -> ", path) + " -> " + id);
        }
        path.push(id);
        for (String need : dependencies.get(id)) {
            visit(need, dependencies, done, path, ordered);
        }
        path.pop();
        done.add(id);
        ordered.add(id);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Deploy
    // ---------------------------------------------------------------------------------------------------------------

    void deploy() {
        for (String id : order()) {
            String type = template.type(id);
            Map<String, Object> properties;
            try {
                if (!scope.included(id)) {
                    stack.skipped(id, type, "condition " + template.resource(id).get("Condition") + " is false");
                    continue;
                }
                properties = scope.properties(id);
            } catch (TemplateException e) {
                throw new DeployException(e.getMessage(), e);
            }
            try {
                stack.created(create(id, type, properties));
            } catch (DeployException e) {
                throw new DeployException(id + " (" + type + "): " + e.getMessage(), e);
            } catch (RuntimeException e) {
                throw new DeployException(id + " (" + type + ") could not be created: " + e, e);
            }
        }
    }

    /** What the deploy resolved against: the stack's parameters, conditions and created resources (for its Outputs). */
    StackScope scope() {
        return scope;
    }

    private DeployedResource create(String id, String type, Map<String, Object> properties) {
        return switch (type) {
            case "AWS::S3::Bucket" -> bucket(id, properties);
            case "AWS::S3::BucketPolicy" -> bucketPolicy(id, properties);
            case "AWS::DynamoDB::Table" -> table(id, properties);
            case "AWS::SQS::Queue" -> queue(id, properties);
            case "AWS::IAM::Role" -> role(id, properties);
            case "AWS::IAM::ManagedPolicy" -> managedPolicy(id, properties);
            case "AWS::Logs::LogGroup" -> logGroup(id, properties);
            case "AWS::Lambda::Function" -> function(id, properties);
            case "AWS::Lambda::Version" -> version(id, properties);
            case "AWS::Lambda::Alias" -> alias(id, properties);
            case "AWS::Lambda::Permission" -> permission(id, properties);
            case "AWS::Lambda::EventInvokeConfig" -> eventInvokeConfig(id, properties);
            case "AWS::Lambda::EventSourceMapping" -> stack.events.eventSourceMapping(id, properties, stack);
            case "AWS::Scheduler::ScheduleGroup" -> stack.events.scheduleGroup(id, properties, stack);
            case "AWS::Scheduler::Schedule" -> stack.events.schedule(id, properties, stack);
            case "AWS::Events::EventBus" -> stack.events.eventBus(id, properties, stack);
            case "AWS::Events::Rule" -> stack.events.rule(id, properties, stack);
            case "AWS::S3Tables::TableBucket" -> tableBucket(id, properties);
            case "AWS::S3Tables::Namespace" -> tableNamespace(id, properties);
            case "AWS::S3Tables::TableBucketPolicy" -> tableBucketPolicy(id, properties);
            default -> {
                if (!RECORDED_ONLY.contains(type)) {
                    throw new DeployException("the local deploy cannot model " + type + " and does not know whether it matters here;"
                            + " add it to TemplateDeployer (modelled, or recorded only with the reason in docs/emulators.md)");
                }
                yield recorded(id, type, properties);
            }
        };
    }

    private DeployedResource recorded(String id, String type, Map<String, Object> properties) {
        String name = firstString(properties, "Name", "AlarmName", "DashboardName", "TopicName");
        if (name == null && properties.get("TableInput") instanceof Map<?, ?> table) {
            name = String.valueOf(table.get("Name"));
        }
        if (name == null && properties.get("DatabaseInput") instanceof Map<?, ?> database) {
            name = String.valueOf(database.get("Name"));
        }
        if (name == null) {
            name = generatedName(id);
        }
        Map<String, String> attributes = new LinkedHashMap<>();
        String physical = name;
        switch (type) {
            case "AWS::SNS::Topic" -> {
                physical = arn("sns", name);
                attributes.put("TopicArn", physical);
                attributes.put("TopicName", name);
            }
            case "AWS::Pipes::Pipe" -> attributes.put("Arn", arn("pipes", "pipe/" + name));
            case "AWS::CloudWatch::Alarm" -> attributes.put("Arn", arn("cloudwatch", "alarm:" + name));
            default -> {
            }
        }
        return new DeployedResource(id, type, physical, attributes, properties, false);
    }

    // ---- S3 --------------------------------------------------------------------------------------------------------

    private DeployedResource bucket(String id, Map<String, Object> properties) {
        String given = firstString(properties, "BucketName");
        String name = given != null ? given : generatedName(id).toLowerCase(Locale.ROOT);
        s3.createBucket(r -> r.bucket(name));
        if (properties.get("VersioningConfiguration") instanceof Map<?, ?> versioning && "Enabled".equals(versioning.get("Status"))) {
            s3.putBucketVersioning(r -> r.bucket(name).versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
        }
        if (properties.get("NotificationConfiguration") instanceof Map<?, ?> notifications) {
            if (notifications.get("EventBridgeConfiguration") instanceof Map<?, ?> eventBridge
                    && Boolean.parseBoolean(String.valueOf(eventBridge.get("EventBridgeEnabled")))) {
                stack.notificationRules.eventBridge(name);
            }
            for (String unsupported : List.of("QueueConfigurations", "TopicConfigurations")) {
                if (notifications.containsKey(unsupported)) {
                    throw new DeployException("NotificationConfiguration." + unsupported + " is not modelled by the local deploy");
                }
            }
            if (notifications.get("LambdaConfigurations") instanceof List<?> configurations) {
                int index = 0;
                for (Object entry : configurations) {
                    Map<?, ?> configuration = (Map<?, ?>) entry;
                    String function = String.valueOf(configuration.get("Function"));
                    String where = "NotificationConfiguration.LambdaConfigurations[" + index + "]";
                    if (!stack.lambda.exists(function)) {
                        throw new DeployException(where + " names " + function + ", which is not a function of this stack");
                    }
                    // S3 checks that it may invoke the destination when the configuration is written (PutBucketNotification)
                    if (!stack.permissions.allows(function, "s3.amazonaws.com", "arn:aws:s3:::" + name, stack.account)) {
                        throw new DeployException(where + ": Unable to validate the following destination configurations: S3 may not "
                                + "invoke " + function + " (no AWS::Lambda::Permission for s3.amazonaws.com from arn:aws:s3:::" + name + ")");
                    }
                    String prefix = null;
                    String suffix = null;
                    if (configuration.get("Filter") instanceof Map<?, ?> filter && filter.get("S3Key") instanceof Map<?, ?> s3Key
                            && s3Key.get("Rules") instanceof List<?> rules) {
                        for (Object r : rules) {
                            Map<?, ?> rule = (Map<?, ?>) r;
                            String ruleName = String.valueOf(rule.get("Name")).toLowerCase(Locale.ROOT);
                            if (ruleName.equals("prefix")) {
                                prefix = String.valueOf(rule.get("Value"));
                            } else if (ruleName.equals("suffix")) {
                                suffix = String.valueOf(rule.get("Value"));
                            }
                        }
                    }
                    String ruleId = configuration.get("Id") != null ? String.valueOf(configuration.get("Id")) : id + "-lambda-" + index;
                    stack.notificationRules.add(name, new S3NotificationRules.Rule(ruleId, String.valueOf(configuration.get("Event")),
                            prefix, suffix, function));
                    index++;
                }
            }
        }
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("Arn", "arn:aws:s3:::" + name);
        attributes.put("DomainName", name + ".s3.amazonaws.com");
        attributes.put("RegionalDomainName", name + ".s3." + stack.region + ".amazonaws.com");
        return new DeployedResource(id, "AWS::S3::Bucket", name, attributes, properties, true);
    }

    @SuppressWarnings("unchecked")
    private DeployedResource bucketPolicy(String id, Map<String, Object> properties) {
        String bucket = String.valueOf(properties.get("Bucket"));
        if (!stack.hasBucket(bucket)) {
            throw new DeployException("Bucket " + bucket + " is not a bucket of this stack");
        }
        stack.iam.bucketPolicy(bucket, (Map<String, Object>) properties.get("PolicyDocument"));
        return new DeployedResource(id, "AWS::S3::BucketPolicy", generatedName(id), Map.of(), properties, true);
    }

    // ---- S3 Tables -------------------------------------------------------------------------------------------------

    /**
     * A table bucket: an S3 bucket of the same name holds its files, and an Iceberg catalog whose warehouse is that
     * bucket is served at the stack's Iceberg REST endpoint. Ref and TableBucketARN are its ARN, as on AWS.
     * Encryption and unreferenced-file removal are recorded, not run (docs/emulators.md).
     */
    private DeployedResource tableBucket(String id, Map<String, Object> properties) {
        String name = firstString(properties, "TableBucketName");
        if (name == null) {
            throw new DeployException("TableBucketName is required");
        }
        // S3 Tables: 3-63 characters, lower-case letters, digits and hyphens, starting and ending with a letter or digit
        if (!name.matches("[a-z0-9][a-z0-9-]{1,61}[a-z0-9]")) {
            throw new DeployException("TableBucketName " + name + " is not a valid table bucket name (3-63 lower-case letters,"
                    + " digits, hyphens)");
        }
        for (String unmodelled : List.of("ReplicationConfiguration", "StorageClassConfiguration", "MetricsConfiguration")) {
            if (properties.containsKey(unmodelled)) {
                throw new DeployException(unmodelled + " is not modelled by the local deploy");
            }
        }
        s3.createBucket(r -> r.bucket(name));
        stack.iam.tableBucket(name);
        String arn = arn("s3tables", "bucket/" + name);
        stack.tables.add(LocalTableBucket.open(name, arn, stack.tablesDirectory, stack.tableStorage));
        return new DeployedResource(id, "AWS::S3Tables::TableBucket", arn, Map.of("TableBucketARN", arn), properties, true);
    }

    private DeployedResource tableNamespace(String id, Map<String, Object> properties) {
        String bucketArn = String.valueOf(properties.get("TableBucketARN"));
        LocalTableBucket bucket = stack.tables.byArn(bucketArn);
        if (bucket == null) {
            throw new DeployException("TableBucketARN " + bucketArn + " is not a table bucket of this stack");
        }
        String namespace = firstString(properties, "Namespace");
        // S3 Tables: 1-255 characters, lower-case letters, digits and underscores, starting and ending with a letter or digit
        if (namespace == null || !namespace.matches("[a-z0-9]([a-z0-9_]{0,253}[a-z0-9])?")) {
            throw new DeployException("Namespace " + namespace + " is not a valid namespace name (lower-case letters, digits, "
                    + "underscores)");
        }
        bucket.createNamespace(namespace);
        return new DeployedResource(id, "AWS::S3Tables::Namespace", bucketArn + "|" + namespace, Map.of(), properties, true);
    }

    @SuppressWarnings("unchecked")
    private DeployedResource tableBucketPolicy(String id, Map<String, Object> properties) {
        String bucketArn = String.valueOf(properties.get("TableBucketARN"));
        if (stack.tables.byArn(bucketArn) == null) {
            throw new DeployException("TableBucketARN " + bucketArn + " is not a table bucket of this stack");
        }
        if (!(properties.get("ResourcePolicy") instanceof Map<?, ?> policy)) {
            throw new DeployException("ResourcePolicy is required (a policy document)");
        }
        stack.iam.tableBucketPolicy(bucketArn, (Map<String, Object>) policy);
        return new DeployedResource(id, "AWS::S3Tables::TableBucketPolicy", bucketArn, Map.of(), properties, true);
    }

    // ---- DynamoDB and SQS (moto) -----------------------------------------------------------------------------------

    @SuppressWarnings("unchecked")
    private DeployedResource table(String id, Map<String, Object> properties) {
        String name = firstString(properties, "TableName");
        if (name == null) {
            name = generatedName(id);
        }
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("TableName", name);
        for (String copied : List.of("KeySchema", "AttributeDefinitions", "BillingMode", "ProvisionedThroughput", "GlobalSecondaryIndexes",
                "LocalSecondaryIndexes", "SSESpecification", "DeletionProtectionEnabled", "TableClass", "Tags")) {
            if (properties.containsKey(copied)) {
                request.put(copied, properties.get(copied));
            }
        }
        if (properties.get("StreamSpecification") instanceof Map<?, ?> stream) {
            request.put("StreamSpecification", Map.of("StreamEnabled", true, "StreamViewType", stream.get("StreamViewType")));
        }
        Map<String, Object> answer = moto.call("dynamodb", "DynamoDB_20120810.CreateTable", request);
        Map<String, Object> description = (Map<String, Object>) answer.get("TableDescription");
        if (properties.get("TimeToLiveSpecification") instanceof Map<?, ?> ttl && Boolean.TRUE.equals(asBoolean(ttl.get("Enabled")))) {
            moto.call("dynamodb", "DynamoDB_20120810.UpdateTimeToLive", Map.of("TableName", name, "TimeToLiveSpecification",
                    Map.of("Enabled", true, "AttributeName", ttl.get("AttributeName"))));
        }
        if (properties.get("PointInTimeRecoverySpecification") instanceof Map<?, ?> pitr
                && Boolean.TRUE.equals(asBoolean(pitr.get("PointInTimeRecoveryEnabled")))) {
            moto.call("dynamodb", "DynamoDB_20120810.UpdateContinuousBackups", Map.of("TableName", name,
                    "PointInTimeRecoverySpecification", Map.of("PointInTimeRecoveryEnabled", true)));
        }
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("Arn", arn("dynamodb", "table/" + name));
        if (description != null && description.get("LatestStreamArn") != null) {
            attributes.put("StreamArn", String.valueOf(description.get("LatestStreamArn")));
        }
        return new DeployedResource(id, "AWS::DynamoDB::Table", name, attributes, properties, true);
    }

    private DeployedResource queue(String id, Map<String, Object> properties) {
        String name = firstString(properties, "QueueName");
        if (name == null) {
            name = generatedName(id) + (Boolean.TRUE.equals(asBoolean(properties.get("FifoQueue"))) ? ".fifo" : "");
        }
        Map<String, Object> attributes = new LinkedHashMap<>();
        for (Map.Entry<String, Object> property : properties.entrySet()) {
            String key = property.getKey();
            if (key.equals("QueueName") || key.equals("Tags")) {
                continue;
            }
            Object value = property.getValue();
            attributes.put(key, value instanceof Map<?, ?> || value instanceof List<?> ? json(value) : scalarText(value));
        }
        Map<String, Object> answer = moto.call("sqs", "AmazonSQS.CreateQueue", Map.of("QueueName", name, "Attributes", attributes));
        String url = String.valueOf(answer.get("QueueUrl"));
        String arn = arn("sqs", name);
        stack.queue(arn, url);
        return new DeployedResource(id, "AWS::SQS::Queue", url, Map.of("Arn", arn, "QueueName", name, "QueueUrl", url), properties, true);
    }

    // ---- IAM -------------------------------------------------------------------------------------------------------

    @SuppressWarnings("unchecked")
    private DeployedResource role(String id, Map<String, Object> properties) {
        String name = firstString(properties, "RoleName");
        if (name == null) {
            name = generatedName(id);
        }
        String path = firstString(properties, "Path");
        String arn = "arn:aws:iam::" + stack.account + ":role" + (path == null ? "/" : path) + name;
        Map<String, Map<String, Object>> inline = new LinkedHashMap<>();
        if (properties.get("Policies") instanceof List<?> policies) {
            for (Object p : policies) {
                Map<String, Object> policy = (Map<String, Object>) p;
                inline.put(String.valueOf(policy.get("PolicyName")), (Map<String, Object>) policy.get("PolicyDocument"));
            }
        }
        List<String> managed = new ArrayList<>();
        if (properties.get("ManagedPolicyArns") instanceof List<?> arns) {
            arns.forEach(a -> managed.add(String.valueOf(a)));
        }
        Map<String, Object> trust = (Map<String, Object>) properties.get("AssumeRolePolicyDocument");
        if (trust == null) {
            throw new DeployException("AssumeRolePolicyDocument is required");
        }
        stack.iam.role(new IamState.Role(name, arn, trust, inline, managed));
        String roleId = "AROA" + HexFormat.of().formatHex(randomBytes(8)).toUpperCase(Locale.ROOT);
        return new DeployedResource(id, "AWS::IAM::Role", name, Map.of("Arn", arn, "RoleId", roleId), properties, true);
    }

    @SuppressWarnings("unchecked")
    private DeployedResource managedPolicy(String id, Map<String, Object> properties) {
        String name = firstString(properties, "ManagedPolicyName");
        if (name == null) {
            name = generatedName(id);
        }
        String arn = "arn:aws:iam::" + stack.account + ":policy/" + name;
        stack.iam.managedPolicy(arn, (Map<String, Object>) properties.get("PolicyDocument"));
        if (properties.get("Roles") instanceof List<?> roles) {
            for (Object roleName : roles) {
                IamState.Role role = stack.iam.role(String.valueOf(roleName));
                if (role == null) {
                    throw new DeployException("Roles names " + roleName + ", which is not a role of this stack");
                }
                List<String> managed = new ArrayList<>(role.managed());
                managed.add(arn);
                stack.iam.role(new IamState.Role(role.name(), role.arn(), role.trust(), role.inline(), managed));
            }
        }
        return new DeployedResource(id, "AWS::IAM::ManagedPolicy", arn, Map.of("PolicyArn", arn), properties, true);
    }

    private DeployedResource logGroup(String id, Map<String, Object> properties) {
        String name = firstString(properties, "LogGroupName");
        if (name == null) {
            name = generatedName(id);
        }
        return new DeployedResource(id, "AWS::Logs::LogGroup", name, Map.of("Arn", arn("logs", "log-group:" + name + ":*")), properties, true);
    }

    // ---- Lambda ----------------------------------------------------------------------------------------------------

    @SuppressWarnings("unchecked")
    private DeployedResource function(String id, Map<String, Object> properties) {
        String name = firstString(properties, "FunctionName");
        if (name == null) {
            name = generatedName(id);
        }
        String runtime = firstString(properties, "Runtime");
        if (runtime == null || !runtime.startsWith("java")) {
            throw new DeployException("Runtime " + runtime + ": the local runtime runs Java handlers only");
        }
        String roleArn = firstString(properties, "Role");
        IamState.Role role = stack.iam.roleByArn(roleArn);
        if (role == null) {
            throw new DeployException("Role " + roleArn + " is not a role of this stack");
        }
        // Lambda's CreateFunction: "The role defined for the function cannot be assumed by Lambda."
        String trustDenied = stack.access.mayAssume(role, "lambda.amazonaws.com", null, null);
        if (trustDenied != null) {
            throw new DeployException("The role defined for the function cannot be assumed by Lambda (" + role.name() + "): " + trustDenied);
        }
        Map<String, String> environment = new TreeMap<>();
        if (properties.get("Environment") instanceof Map<?, ?> env && env.get("Variables") instanceof Map<?, ?> variables) {
            variables.forEach((k, v) -> environment.put(String.valueOf(k), scalarText(v)));
        }
        int timeout = properties.containsKey("Timeout") ? Integer.parseInt(scalarText(properties.get("Timeout"))) : 3;
        int memory = properties.containsKey("MemorySize") ? Integer.parseInt(scalarText(properties.get("MemorySize"))) : 128;
        String logGroup = "/aws/lambda/" + name;
        if (properties.get("LoggingConfig") instanceof Map<?, ?> logging && logging.get("LogGroup") != null) {
            logGroup = String.valueOf(logging.get("LogGroup"));
        }
        boolean snapStart = properties.get("SnapStart") instanceof Map<?, ?> snap && "PublishedVersions".equals(snap.get("ApplyOn"));
        String arn = arn("lambda", "function:" + name);
        FunctionSpec spec = new FunctionSpec(id, name, arn, String.valueOf(properties.get("Handler")), environment, timeout, memory,
                roleArn, logGroup, snapStart);
        try {
            stack.lambda.create(spec);
        } catch (IOException e) {
            throw new DeployException("cannot open the function's log: " + e.getMessage(), e);
        }
        return new DeployedResource(id, "AWS::Lambda::Function", name, Map.of("Arn", arn), properties, true);
    }

    private DeployedResource version(String id, Map<String, Object> properties) {
        String function = String.valueOf(properties.get("FunctionName"));
        String version;
        try {
            version = stack.lambda.publishVersion(function);
        } catch (LocalLambda.InitFailure e) {
            // SnapStart runs the init to publish a version; a failing init fails the version, and the deploy with it
            throw new DeployException("publishing a version ran the function's init (SnapStart), which failed: " + e.getMessage(), e);
        }
        String arn = stack.lambda.spec(function).arn() + ":" + version;
        return new DeployedResource(id, "AWS::Lambda::Version", arn, Map.of("Version", version, "FunctionArn", arn), properties, true);
    }

    private DeployedResource alias(String id, Map<String, Object> properties) {
        String function = String.valueOf(properties.get("FunctionName"));
        String name = String.valueOf(properties.get("Name"));
        String version = String.valueOf(properties.get("FunctionVersion"));
        stack.lambda.alias(function, name, version);
        String arn = stack.lambda.spec(function).arn() + ":" + name;
        return new DeployedResource(id, "AWS::Lambda::Alias", arn, Map.of("AliasArn", arn), properties, true);
    }

    private DeployedResource permission(String id, Map<String, Object> properties) {
        String function = String.valueOf(properties.get("FunctionName"));
        if (!stack.lambda.exists(function)) {
            throw new DeployException("FunctionName " + function + " is not a function of this stack");
        }
        stack.permissions.add(new LambdaPermissions.Grant(id, LambdaPermissions.nameOf(function), LocalLambda.qualifierOf(function),
                String.valueOf(properties.get("Action")), String.valueOf(properties.get("Principal")), firstString(properties, "SourceArn"),
                firstString(properties, "SourceAccount")));
        return new DeployedResource(id, "AWS::Lambda::Permission", generatedName(id), Map.of(), properties, true);
    }

    private DeployedResource eventInvokeConfig(String id, Map<String, Object> properties) {
        String function = String.valueOf(properties.get("FunctionName"));
        String qualifier = String.valueOf(properties.get("Qualifier"));
        int retries = properties.containsKey("MaximumRetryAttempts") ? Integer.parseInt(scalarText(properties.get("MaximumRetryAttempts"))) : 2;
        int age = properties.containsKey("MaximumEventAgeInSeconds")
                ? Integer.parseInt(scalarText(properties.get("MaximumEventAgeInSeconds"))) : 21600;
        String onFailure = null;
        if (properties.get("DestinationConfig") instanceof Map<?, ?> destinations) {
            if (destinations.get("OnFailure") instanceof Map<?, ?> failure) {
                onFailure = String.valueOf(failure.get("Destination"));
                if (!stack.hasQueueArn(onFailure)) {
                    throw new DeployException("DestinationConfig.OnFailure " + onFailure + " is not a queue of this stack (the local deploy "
                            + "models SQS destinations)");
                }
            }
            if (destinations.get("OnSuccess") != null) {
                throw new DeployException("DestinationConfig.OnSuccess is not modelled by the local deploy");
            }
        }
        stack.lambda.asyncConfig(function, new LocalLambda.AsyncConfig(retries, age, onFailure));
        return new DeployedResource(id, "AWS::Lambda::EventInvokeConfig", function + ":" + qualifier, Map.of(), properties, true);
    }

    // ---------------------------------------------------------------------------------------------------------------

    String generatedName(String id) {
        return stack.stackName + "-" + id + "-" + HexFormat.of().formatHex(randomBytes(4)).toUpperCase(Locale.ROOT);
    }

    private byte[] randomBytes(int n) {
        byte[] bytes = new byte[n];
        random.nextBytes(bytes);
        return bytes;
    }

    String arn(String service, String resource) {
        return "arn:aws:" + service + ":" + stack.region + ":" + stack.account + ":" + resource;
    }

    private static Boolean asBoolean(Object value) {
        if (value instanceof Boolean b) {
            return b;
        }
        return value == null ? null : Boolean.parseBoolean(String.valueOf(value));
    }

    private static String firstString(Map<String, Object> properties, String... names) {
        for (String name : names) {
            Object value = properties.get(name);
            if (value != null && !(value instanceof Map) && !(value instanceof List)) {
                return String.valueOf(value);
            }
        }
        return null;
    }

    private static String json(Object value) {
        try {
            return JSON.std.asString(value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The physical side of the template's references: the resources created so far. */
    private final class Created implements Resources {
        @Override
        public Object ref(String logicalId, StackScope scope) {
            DeployedResource resource = stack.resource(logicalId);
            return resource == null ? null : resource.physicalId();
        }

        @Override
        public Object attribute(String logicalId, String attribute, StackScope scope) {
            DeployedResource resource = stack.resource(logicalId);
            return resource == null ? null : resource.attributes().get(attribute);
        }
    }
}
