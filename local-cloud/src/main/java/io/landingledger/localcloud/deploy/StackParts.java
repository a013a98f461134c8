package io.landingledger.localcloud.deploy;

import io.landingledger.localcloud.tables.LocalTableBucket;
import io.landingledger.localcloud.tables.TableBucketsEndpoint;

import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * What the deployed stack's parts share, and nothing of its lifecycle: its identity, the services that run its
 * resources (Lambda, IAM, S3 notifications, events), and what the deploy created, skipped or could not deliver. The
 * deployer writes the record; the APIs the gateway answers (CloudFormation, EventBridge), the event sources and the
 * deploy's checks read it. {@link LocalDeployment} starts and stops the stack and is what its users hold.
 */
final class StackParts {
    final String stackName;
    final String stackId;
    final String region;
    final String account;
    final String createdAt = Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
    final LocalLambda lambda;
    final IamState iam;
    final LambdaPermissions permissions = new LambdaPermissions();
    final S3NotificationRules notificationRules = new S3NotificationRules();
    final LocalEvents events = new LocalEvents();
    final StackAccess access;
    final S3Client adminS3;
    final URI motoEndpoint;
    final URI endpoint;
    /** The table buckets' Iceberg REST endpoint, where their catalogs keep their records, and how they reach S3. */
    final TableBucketsEndpoint tables;
    final Path tablesDirectory;
    final LocalTableBucket.Storage tableStorage;
    private final Function<String, StackConnection> functionConnections;
    private final Map<String, DeployedResource> resources = new LinkedHashMap<>();
    private final Map<String, String> skipped = new LinkedHashMap<>();
    private final Map<String, String> queues = new ConcurrentHashMap<>();
    private final Map<String, String> outputs = new LinkedHashMap<>();
    private final List<String> undeliverable = new CopyOnWriteArrayList<>();

    StackParts(String stackName, String stackId, String region, String account, LocalLambda lambda, IamState iam, StackAccess access,
               S3Client adminS3, URI motoEndpoint, URI endpoint, Function<String, StackConnection> functionConnections,
               TableBucketsEndpoint tables, Path tablesDirectory, LocalTableBucket.Storage tableStorage) {
        this.stackName = stackName;
        this.stackId = stackId;
        this.region = region;
        this.account = account;
        this.lambda = lambda;
        this.iam = iam;
        this.access = access;
        this.adminS3 = adminS3;
        this.motoEndpoint = motoEndpoint;
        this.endpoint = endpoint;
        this.functionConnections = functionConnections;
        this.tables = tables;
        this.tablesDirectory = tablesDirectory;
        this.tableStorage = tableStorage;
    }

    // ---- what the deployer records ---------------------------------------------------------------------------------

    void created(DeployedResource resource) {
        resources.put(resource.logicalId(), resource);
    }

    void skipped(String logicalId, String type, String why) {
        skipped.put(logicalId, type + ": " + why);
    }

    void output(String name, String value) {
        outputs.put(name, value);
    }

    void queue(String arn, String url) {
        queues.put(arn, url);
    }

    void undeliverable(String what) {
        undeliverable.add(what);
    }

    // ---- what the parts read ---------------------------------------------------------------------------------------

    String queueUrl(String arn) {
        return queues.get(arn);
    }

    boolean hasQueueArn(String arn) {
        return queues.containsKey(arn);
    }

    boolean hasBucket(String name) {
        return resources.values().stream().anyMatch(r -> r.type().equals("AWS::S3::Bucket") && r.physicalId().equals(name));
    }

    /** The logical id of the function named (by name or ARN, qualified or not). */
    String logicalIdOf(String function) {
        return lambda.spec(function).logicalId();
    }

    /** The keys of the session the runtime gives a function (by the logical id of its AWS::Lambda::Function). */
    StackConnection functionConnection(String logicalId) {
        return functionConnections.apply(logicalId);
    }

    DeployedResource resource(String logicalId) {
        return resources.get(logicalId);
    }

    /** The physical id of a logical one; fails naming it when the stack has no such resource. */
    String physicalId(String logicalId) {
        DeployedResource resource = resources.get(logicalId);
        if (resource == null) {
            throw new DeployException("the deployed stack has no resource " + logicalId);
        }
        return resource.physicalId();
    }

    List<DeployedResource> resources() {
        return new ArrayList<>(resources.values());
    }

    Map<String, String> skipped() {
        return Map.copyOf(skipped);
    }

    Map<String, String> outputs() {
        return Map.copyOf(outputs);
    }

    List<String> undeliverable() {
        return List.copyOf(undeliverable);
    }
}
