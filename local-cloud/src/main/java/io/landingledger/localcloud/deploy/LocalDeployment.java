package io.landingledger.localcloud.deploy;

import com.fasterxml.jackson.jr.ob.JSON;

import io.landingledger.localcloud.aws.EmbeddedAws;
import io.landingledger.localcloud.tables.IcebergRestRouter;
import io.landingledger.localcloud.tables.LocalTableBucket;
import io.landingledger.localcloud.tables.TableBucketsEndpoint;
import io.landingledger.localcloud.template.Template;
import io.landingledger.localcloud.template.TemplateException;
import io.landingledger.localcloud.template.TransformedTemplate;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The stack {@code infra/template.yaml} deploys, deployed here: the transformed template's resources created on the
 * embedded emulators by {@link TemplateDeployer}, one gateway endpoint in front of them that enforces the roles and
 * bucket policies, the functions run by {@link LocalLambda} with the template's environment and credentials of their
 * own role, and S3's notifications, Scheduler and EventBridge wired from the deployed configuration.
 */
public final class LocalDeployment implements AutoCloseable {
    /** The account moto and the deploy use (moto's default). */
    public static final String ACCOUNT = "123456789012";

    /**
     * What to deploy and how.
     *
     * @param repository   the checkout (scripts/sam-transform.py, and the template's default place)
     * @param template     the SAM template
     * @param stackName    the stack's name ({@code --stack NAME})
     * @param parameters   parameter values over the template's defaults
     * @param workDirectory the transform cache and the functions' logs
     * @param enforce      enforce IAM and bucket policies (the default; off only to compare)
     */
    public record Options(Path repository, Path template, String stackName, Map<String, String> parameters, Path workDirectory,
                          boolean enforce) {
        public static Options of(Path repository, Path workDirectory) {
            return new Options(repository, repository.resolve("infra/template.yaml"), "landing-local",
                    Map.of("NamePrefix", "landing", "Stage", "local", "DeletionProtection", "false", "SnapStartApplyOn", "PublishedVersions"),
                    workDirectory, true);
        }

        public Options withTemplate(Path value) {
            return new Options(repository, value, stackName, parameters, workDirectory, enforce);
        }
    }

    private final String region = "us-east-1";
    private final EmbeddedAws emulators;
    private final boolean ownsEmulators;
    private final AwsGateway gateway;
    private final LocalLambda lambda;
    private final FunctionRuntime runtime;
    private final IamState iam = new IamState();
    private final StackParts parts;
    private final TableBucketsEndpoint tables;
    private final LocalEvents events;
    private final List<String> denied = new CopyOnWriteArrayList<>();
    private final StackAccess access;
    private final Map<String, AwsBasicCredentials> sessions = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private S3Notifier notifier;
    private Duration startup = Duration.ZERO;
    private String phases = "";

    private LocalDeployment(Options options, FunctionRuntime runtime, EmbeddedAws emulators, boolean ownsEmulators) throws IOException {
        this.runtime = runtime;
        String stackName = options.stackName();
        String stackId = "arn:aws:cloudformation:" + region + ":" + ACCOUNT + ":stack/" + stackName + "/" + UUID.randomUUID();
        this.emulators = emulators;
        this.ownsEmulators = ownsEmulators;
        this.gateway = AwsGateway.start(emulators.s3Endpoint(), emulators.dynamoDbEndpoint());
        this.gateway.principal(new Principal(EmbeddedAws.ACCESS_KEY, "arn:aws:iam::" + ACCOUNT + ":user/operator", null));
        this.lambda = new LocalLambda(options.workDirectory().resolve("logs"), this::runtimeVariables, runtime);
        this.access = new StackAccess(iam, lambda, ACCOUNT, region);
        S3Client adminS3 = s3Client(new StackConnection(Region.of(region), emulators.s3Endpoint(), operatorCredentials()));
        this.tables = new TableBucketsEndpoint(gateway.endpoint());
        this.parts = new StackParts(stackName, stackId, region, ACCOUNT, lambda, iam, access, adminS3, emulators.dynamoDbEndpoint(),
                gateway.endpoint(), this::functionConnection, tables, options.workDirectory().resolve("tables"),
                new LocalTableBucket.Storage(emulators.s3Endpoint(), region, EmbeddedAws.ACCESS_KEY, EmbeddedAws.SECRET_KEY));
        this.events = parts.events;
        if (options.enforce()) {
            gateway.policy(access);
        }
        gateway.localService("lambda", new LambdaApi(lambda));
        gateway.localService("cloudformation", new CloudFormationApi(parts));
        gateway.localService("s3tables", (principal, head, body) -> {
            IcebergRestRouter.Response answer = tables.handle(head.method(), head.rawPath(), head.query(), body);
            return new AwsGateway.Answer(answer.status(), answer.json() == null ? Map.of() : Map.of("Content-Type", "application/json"),
                    answer.json() == null ? new byte[0] : answer.json());
        });
        gateway.localService("events", (principal, head, body) -> {
            Map<String, Object> request = JSON.std.mapFrom(new String(body, java.nio.charset.StandardCharsets.UTF_8));
            String target = String.valueOf(head.header("X-Amz-Target"));
            try {
                return AwsGateway.Answer.json(200, JSON.std.asString(switch (target) {
                    case "AWSEvents.PutRule" -> events.putRule(request, parts);
                    case "AWSEvents.PutTargets" -> events.putTargets(request, parts);
                    default -> events.putEvents(request, parts);
                }));
            } catch (IllegalArgumentException e) {
                return AwsGateway.error("events", 400, target.endsWith("PutTargets") ? "ResourceNotFoundException"
                        : "ValidationException", e.getMessage());
            }
        });
        lambda.destinations(this::sendFailure);
        Path trail = options.workDirectory().resolve("logs/access-denied.log");
        java.nio.file.Files.createDirectories(trail.getParent());
        gateway.denials((principal, message) -> {
            String line = Instant.now() + " " + principal.arn() + " " + message;
            denied.add(line);
            try {
                java.nio.file.Files.writeString(trail, line + "\n", java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            } catch (IOException e) {
                // the list above still has it
            }
        });
    }

    /**
     * Starts the emulators and deploys the template onto them, its functions run by {@code runtime}; the template is
     * transformed while they start.
     *
     * @throws DeployException naming the resource and why, when the template cannot be deployed
     */
    public static LocalDeployment start(Options options, FunctionRuntime runtime) throws Exception {
        long begin = System.nanoTime();
        CompletableFuture<Template> template = CompletableFuture.supplyAsync(() -> {
            try {
                return TransformedTemplate.load(options.repository(), options.template(), options.workDirectory().resolve("template-cache"));
            } catch (IOException e) {
                throw new DeployException("cannot transform " + options.template() + ": " + e.getMessage(), e);
            } catch (TemplateException e) {
                throw new DeployException(e.getMessage(), e);
            }
        });
        EmbeddedAws emulators = EmbeddedAws.start();
        long emulatorsUp = System.nanoTime();
        LocalDeployment stack = null;
        try {
            stack = new LocalDeployment(options, runtime, emulators, true);
            Template transformed = join(template);
            long transformedAt = System.nanoTime();
            stack.deploy(transformed, options.parameters());
            long deployedAt = System.nanoTime();
            try (S3Client operator = s3Client(stack.operatorConnection())) {
                DeployChecks.run(stack.parts, operator);
            }
            runtime.afterDeploy(stack);
            long end = System.nanoTime();
            stack.startup = Duration.ofNanos(end - begin);
            stack.phases = String.format(Locale.ROOT, "emulators %d ms, then the template %d ms more, resources %d ms "
                    + "(of which the functions' inits %d ms), checks %d ms", (emulatorsUp - begin) / 1_000_000,
                    (transformedAt - emulatorsUp) / 1_000_000, (deployedAt - transformedAt) / 1_000_000,
                    stack.lambda.initTime().toMillis(), (end - deployedAt) / 1_000_000);
            return stack;
        } catch (Exception | Error e) {
            if (stack != null) {
                stack.close();
            } else {
                emulators.close();
            }
            throw e;
        }
    }

    private static Template join(CompletableFuture<Template> future) {
        try {
            return future.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
        }
    }

    @SuppressWarnings("unchecked")
    private void deploy(Template template, Map<String, String> parameters) {
        TemplateDeployer deployer = new TemplateDeployer(parts, template, parameters);
        deployer.deploy();
        this.notifier = new S3Notifier(parts.notificationRules, parts.permissions, lambda, parts.adminS3, region, ACCOUNT);
        notifier.eventBridge(event -> events.emit("default", event, parts));
        gateway.objectCreated(notifier);
        Map<String, Object> declared = template.outputs();
        for (Map.Entry<String, Object> output : declared.entrySet()) {
            Map<String, Object> spec = (Map<String, Object>) output.getValue();
            try {
                if (spec.get("Condition") instanceof String condition && !deployer.scope().condition(condition)) {
                    continue;
                }
                parts.output(output.getKey(), deployer.scope().string(spec.get("Value"), "Outputs." + output.getKey()));
            } catch (TemplateException e) {
                // an output over a resource not created here (a recorded-only type without the attribute) is left out
            }
        }
    }

    // ---- the functions' runtime ------------------------------------------------------------------------------------

    /**
     * What Lambda's runtime adds to a function's environment, plus where the stack's APIs are: the gateway, and keys of
     * a session of the function's own role (on AWS the role's keys arrive as AWS_ACCESS_KEY_ID and friends; the
     * functions' clients read LANDING_* because in one JVM the process's variables are everyone's).
     */
    private Map<String, String> runtimeVariables(FunctionSpec function) {
        Map<String, String> variables = new TreeMap<>();
        variables.put("AWS_REGION", region);
        variables.put("AWS_DEFAULT_REGION", region);
        variables.put("AWS_LAMBDA_FUNCTION_NAME", function.name());
        variables.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", Integer.toString(function.memoryMb()));
        variables.put("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST");
        variables.put("AWS_LAMBDA_LOG_GROUP_NAME", function.logGroup());
        variables.put("_HANDLER", function.handler());
        variables.putAll(runtime.variables(function, session(function)));
        return variables;
    }

    /** The function's session of its role: made once, its keys known to the gateway and to S3Proxy's signature check. */
    private StackConnection session(FunctionSpec function) {
        AwsBasicCredentials credentials = sessions.computeIfAbsent(function.name(), name -> {
            IamState.Role role = iam.roleByArn(function.roleArn());
            String key = "ASIA" + HexFormat.of().formatHex(bytes(8)).toUpperCase(Locale.ROOT);
            String secret = HexFormat.of().formatHex(bytes(20));
            gateway.principal(new Principal(key, "arn:aws:sts::" + ACCOUNT + ":assumed-role/" + role.name() + "/" + name, role.name()));
            emulators.addIdentity(key, secret);
            return AwsBasicCredentials.create(key, secret);
        });
        return new StackConnection(Region.of(region), gateway.endpoint(), credentials);
    }

    private byte[] bytes(int n) {
        byte[] bytes = new byte[n];
        random.nextBytes(bytes);
        return bytes;
    }

    /** Lambda sends an asynchronous invocation's failure record to its on-failure queue with the function's role. */
    private void sendFailure(FunctionSpec function, String queueArn, String record) {
        AwsBasicCredentials credentials = sessions.get(function.name());
        try (SqsClient sqs = SqsClient.builder().region(Region.of(region)).endpointOverride(gateway.endpoint())
                .credentialsProvider(StaticCredentialsProvider.create(credentials))
                .httpClientBuilder(UrlConnectionHttpClient.builder()).build()) {
            sqs.sendMessage(r -> r.queueUrl(parts.queueUrl(queueArn)).messageBody(record));
        } catch (RuntimeException e) {
            parts.undeliverable(function.name() + " on-failure record to " + queueArn + ": " + e.getMessage());
        }
    }

    // ---- what users of the stack see -------------------------------------------------------------------------------

    /**
     * An S3 client for the stack: path-style addressing, and whole request bodies rather than aws-chunked ones (over
     * plain HTTP the SDK signs each chunk, which the embedded S3Proxy now and then broke off mid-body).
     */
    public static S3Client s3Client(StackConnection connection) {
        return S3Client.builder().httpClientBuilder(UrlConnectionHttpClient.builder()).region(connection.region())
                .credentialsProvider(StaticCredentialsProvider.create(connection.credentials()))
                .endpointOverride(connection.endpoint()).forcePathStyle(true)
                .serviceConfiguration(S3Configuration.builder().chunkedEncodingEnabled(false).build())
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED).build();
    }

    public URI endpoint() {
        return gateway.endpoint();
    }

    /** The operator's credentials: producers, the on-call command line and the aws CLI sign with these. */
    public AwsBasicCredentials operatorCredentials() {
        return AwsBasicCredentials.create(EmbeddedAws.ACCESS_KEY, EmbeddedAws.SECRET_KEY);
    }

    /**
     * The keys of the session the runtime gives a function ({@code logicalId} of its AWS::Lambda::Function): what its SDK
     * clients sign with, so a test can make the calls the function's role may or may not make.
     */
    public StackConnection functionConnection(String logicalId) {
        return session(lambda.spec(physicalId(logicalId)));
    }

    /**
     * The keys of a session of a role that holds only the stack's managed policy {@code logicalId} (an
     * AWS::IAM::ManagedPolicy the template outputs for people's roles to attach, e.g. the contract administrator's): a
     * test signs with them to act as such a person, the policy and the buckets' policies enforced.
     */
    public StackConnection managedPolicyConnection(String logicalId) {
        String policyArn = physicalId(logicalId);
        AwsBasicCredentials credentials = sessions.computeIfAbsent("policy:" + logicalId, name -> {
            String roleName = parts.stackName + "-" + logicalId + "-Holder";
            String roleArn = "arn:aws:iam::" + ACCOUNT + ":role/" + roleName;
            iam.role(new IamState.Role(roleName, roleArn, Map.of(), Map.of(), List.of(policyArn)));
            String key = "ASIA" + HexFormat.of().formatHex(bytes(8)).toUpperCase(Locale.ROOT);
            String secret = HexFormat.of().formatHex(bytes(20));
            String session = "arn:aws:sts::" + ACCOUNT + ":assumed-role/" + roleName + "/test";
            gateway.principal(new Principal(key, session, roleName));
            emulators.addIdentity(key, secret);
            return AwsBasicCredentials.create(key, secret);
        });
        return new StackConnection(Region.of(region), gateway.endpoint(), credentials);
    }

    /** The operator's connection to the stack: every API at the gateway. */
    public StackConnection operatorConnection() {
        return new StackConnection(Region.of(region), gateway.endpoint(), operatorCredentials());
    }

    public String stackName() {
        return parts.stackName;
    }

    public String stackId() {
        return parts.stackId;
    }

    public String region() {
        return region;
    }

    public String account() {
        return ACCOUNT;
    }

    public DeployedResource resource(String logicalId) {
        return parts.resource(logicalId);
    }

    /** The physical id of a logical one; fails naming it when the stack has no such resource. */
    public String physicalId(String logicalId) {
        return parts.physicalId(logicalId);
    }

    public List<DeployedResource> resources() {
        return parts.resources();
    }

    public Map<String, String> outputs() {
        return parts.outputs();
    }

    public LocalLambda lambda() {
        return lambda;
    }

    /**
     * The table buckets' Iceberg REST endpoint: {@code <endpoint()>/iceberg}, SigV4 signing name s3tables, each table
     * bucket's ARN its warehouse (docs/local.md says how a reader connects).
     */
    public URI icebergEndpoint() {
        return URI.create(gateway.endpoint() + "/iceberg");
    }

    /** The table bucket created for {@code logicalId} (an AWS::S3Tables::TableBucket): its catalog, for tests and the export. */
    public LocalTableBucket tableBucket(String logicalId) {
        LocalTableBucket bucket = tables.byArn(physicalId(logicalId)); // Ref of a table bucket is its ARN
        if (bucket == null) {
            throw new DeployException(logicalId + " is not a table bucket of this stack");
        }
        return bucket;
    }

    /** Every table bucket of the stack. */
    public List<LocalTableBucket> tableBuckets() {
        return tables.all();
    }

    public Duration startupTime() {
        return startup;
    }

    /** Where the start-up time went: the emulators, the template's transform, the resources, the checks. */
    public String startupPhases() {
        return phases;
    }

    /** Fires a schedule now (by its logical id); null, or why Scheduler could not invoke its target. */
    public String fireSchedule(String logicalId) {
        return events.fire(logicalId, parts);
    }

    /** The schedules' logical ids. */
    public List<String> schedules() {
        return new ArrayList<>(events.schedules().keySet());
    }

    /** The logical id of the enabled schedule whose input is {@code input} (null: none). */
    public String scheduleWithInput(String input) {
        return events.schedules().values().stream().filter(s -> s.enabled() && s.input().replace(" ", "").equals(input.replace(" ", "")))
                .map(LocalEvents.Schedule::logicalId).findFirst().orElse(null);
    }

    /** Notifications and events that could not be delivered (no permission), as S3 and EventBridge drop them. */
    public List<String> undeliverable() {
        List<String> all = new ArrayList<>(parts.undeliverable());
        if (notifier != null) {
            all.addAll(notifier.undelivered());
        }
        return all;
    }

    /** One line per resource type: how many, and whether it runs here or is recorded only (the deploy's summary). */
    public List<String> summary() {
        Map<String, int[]> byType = new TreeMap<>();
        for (DeployedResource resource : parts.resources()) {
            int[] counts = byType.computeIfAbsent(resource.type(), t -> new int[2]);
            counts[resource.modelled() ? 0 : 1]++;
        }
        List<String> lines = new ArrayList<>();
        List<String> recorded = new ArrayList<>();
        StringBuilder modelled = new StringBuilder();
        for (Map.Entry<String, int[]> entry : byType.entrySet()) {
            String type = entry.getKey().replace("AWS::", "");
            if (entry.getValue()[0] > 0) {
                modelled.append(modelled.length() == 0 ? "" : ", ").append(entry.getValue()[0]).append(' ').append(type);
            }
            if (entry.getValue()[1] > 0) {
                recorded.add(entry.getValue()[1] + " " + type);
            }
        }
        lines.add("created here: " + modelled);
        if (!recorded.isEmpty()) {
            lines.add("recorded, not run here (AWS only, docs/emulators.md): " + String.join(", ", recorded));
        }
        parts.skipped().forEach((id, why) -> lines.add("not created: " + id + " (" + why + ")"));
        return lines;
    }

    /**
     * Which created objects (bucket/key) S3 announces; the rest are lost events, to practise recovering from one
     * ({@code landing local --watch --no-bucket-events}).
     */
    public void announceOnly(java.util.function.Predicate<String> which) {
        notifier.announce(which);
    }

    /**
     * How S3 would announce an object created at {@code key} in {@code bucket}: the LambdaConfigurations that match it,
     * or, when none does, every configuration the bucket has (to say why nothing was invoked).
     */
    public String notificationsFor(String bucket, String key) {
        List<String> matching = new ArrayList<>();
        List<String> all = new ArrayList<>();
        for (S3NotificationRules.Rule rule : parts.notificationRules.of(bucket)) {
            String text = rule.event() + (rule.prefix() == null ? "" : " prefix " + rule.prefix())
                    + (rule.suffix() == null ? "" : " suffix " + rule.suffix()) + " -> " + rule.function();
            all.add(text);
            if (rule.matches("ObjectCreated:Put", key)) {
                matching.add(text);
            }
        }
        return matching.isEmpty() ? "none of its LambdaConfigurations matches (" + (all.isEmpty() ? "it has none" : String.join("; ", all))
                + ")" : String.join("; ", matching);
    }

    /**
     * Every request the stack refused AccessDenied: when, who, the request and IAM's reason (what CloudTrail records;
     * also in {@code logs/access-denied.log}). A HEAD's 403 carries no message, so this is where an operator reads why.
     */
    public List<String> accessDenied() {
        return List.copyOf(denied);
    }

    /**
     * From now on, every authorization the stack allows a function's role goes to {@code listener}, with the statement
     * that allowed it (a least-privilege test's record of the requests a function's libraries and Lambda's pollers
     * make, which no client of its own records); null stops it. Off by default: it evaluates each request twice.
     */
    public void recordAllowed(java.util.function.Consumer<AllowedRequest> listener) {
        access.recordAllowed(listener);
    }

    /** The identity policies of the role {@code logicalId} as deployed (policy name to document), for a test to read. */
    public Map<String, Map<String, Object>> rolePolicies(String logicalId) {
        return iam.identityPolicies(physicalId(logicalId));
    }

    /** A fault every request to the stack's endpoint passes through first (tests: the lake stops answering). */
    public void injectFaults(AwsGateway.Fault fault) {
        gateway.fault(fault);
    }

    /** Waits until every queued invocation has run. */
    public void awaitIdle(Duration timeout) throws InterruptedException {
        lambda.awaitIdle(timeout);
    }

    @Override
    public void close() {
        // closed also when the run was interrupted (Ctrl-C, a test stopping --watch): the emulators stop cleanly only
        // on a thread that is not, so the flag is set aside while they stop and restored after
        boolean interrupted = Thread.interrupted();
        try {
            lambda.close();
            gateway.close();
            tables.close();
            parts.adminS3.close();
            if (ownsEmulators) {
                emulators.close();
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
